package io.ridgeline.core;

import java.util.Collection;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Optional;

/** Helpers for catalog ids: closest-match suggestions for unknown ids. */
public final class Names {
  private Names() {}

  /** The known id closest to {@code wanted} by edit distance (case-insensitive), if any. */
  public static Optional<String> closest(String wanted, Collection<String> known) {
    String w = wanted == null ? "" : wanted.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String k : known) {
      int d = distance(w, k.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    return Optional.ofNullable(best);
  }

  /** An exception for an unknown {@code what} id that lists the known ids and the closest match. */
  public static NoSuchElementException unknown(
      String what, String wanted, Collection<String> known) {
    String hint = closest(wanted, known).map(c -> "; did you mean '" + c + "'?").orElse(";");
    String list = known.isEmpty() ? "none" : String.join(", ", known);
    return new NoSuchElementException(
        "unknown " + what + " '" + wanted + "'" + hint + " known: " + list);
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
