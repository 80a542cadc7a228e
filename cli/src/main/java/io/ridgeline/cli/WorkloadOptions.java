package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.serving.Workload;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * A request's history, shared by {@code roofline}, {@code frontier}, {@code plan} and {@code
 * sweep}: {@code --cached} tokens already in its KV cache and the {@code --prefix-hit} fraction of
 * its prompt served from a prefix cache ({@link Workload}). The defaults (0, 0) are {@link
 * Workload#of}'s.
 */
final class WorkloadOptions {
  @Option(
      names = "--cached",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Tokens already in each request's KV cache when its prompt arrives (a conversation's or"
              + " an agent's earlier turns); prefill attends over them (default: ${DEFAULT-VALUE}).")
  int cached;

  @Option(
      names = "--prefix-hit",
      paramLabel = "R",
      defaultValue = "0",
      description =
          "Fraction of each prompt's tokens served from a prefix cache, 0 to below 1: prefill"
              + " computes only the rest, attending over the hits (default: ${DEFAULT-VALUE}).")
  double prefixHit;

  /**
   * {@code w} with these options' history and prefix hits.
   *
   * @throws IllegalArgumentException naming the option and the value when one is out of range
   */
  Workload apply(Workload w) {
    if (cached < 0) {
      throw new IllegalArgumentException("--cached must be non-negative: " + cached);
    }
    if (!(prefixHit >= 0 && prefixHit < 1)) {
      throw new IllegalArgumentException(
          "--prefix-hit must be at least 0 and below 1: " + prefixHit);
    }
    if ((long) cached + w.inputTokens() + w.outputTokens() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("--cached is too large: " + cached);
    }
    return w.withCachedTokens(cached).withPrefixHitRate(prefixHit);
  }

  /** Whether either option moves the workload off a plain isl/osl request. */
  boolean used() {
    return cached != 0 || prefixHit != 0;
  }

  /** The workload's history fields in a JSON report. */
  static void put(ObjectNode o, Workload w) {
    o.put("cached_tokens", w.cachedTokens());
    o.put("prefix_hit_rate", w.prefixHitRate());
    o.put("prefix_hit_tokens", w.prefixHitTokens());
    o.put("new_prompt_tokens", w.newTokens());
  }

  /** One line for a text report. */
  static String line(Workload w) {
    return String.format(
        Locale.ROOT,
        "prefill: %d new prompt tokens per sequence after %d cached (%d history + %d prefix-cache"
            + " hits, rate %.3g)",
        w.newTokens(),
        w.cachedAtPrefill(),
        w.cachedTokens(),
        w.prefixHitTokens(),
        w.prefixHitRate());
  }
}
