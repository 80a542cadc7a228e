package io.ridgeline.cli;

import io.ridgeline.validation.CrossValidation;
import io.ridgeline.validation.Metric;
import io.ridgeline.validation.Summary;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The held-out errors of a cross-validation as a table: median absolute percentage error per metric
 * (rows) and scheme (columns: in-sample, point-grouped, leave-one-source-out, anchored).
 */
final class CrossValidationTable {
  private CrossValidationTable() {}

  /** Prints {@code report}'s table. */
  static void print(PrintWriter w, CrossValidation.Report report) {
    header(w);
    line(w, "overall", s -> report.summary(s));
    for (Metric m : Metric.values()) {
      line(w, m.id(), s -> report.by(s, c -> c.metric().id()).get(m.id()));
    }
  }

  private static void header(PrintWriter w) {
    w.println("median absolute percentage error of held-out predictions (n = rows scored):");
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-22s", "metric"));
    for (CrossValidation.Scheme s : CrossValidation.Scheme.values()) {
      b.append(String.format(Locale.ROOT, " %24s", s.id()));
    }
    w.println(b);
  }

  private static void line(
      PrintWriter w, String label, java.util.function.Function<CrossValidation.Scheme, Summary> f) {
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-22s", label));
    boolean any = false;
    for (CrossValidation.Scheme s : CrossValidation.Scheme.values()) {
      Summary x = f.apply(s);
      if (x == null || x.count() == 0) {
        b.append(String.format(Locale.ROOT, " %24s", "-"));
      } else {
        any = true;
        b.append(
            String.format(
                Locale.ROOT,
                " %24s",
                String.format(Locale.ROOT, "%.1f%% (n %d)", 100 * x.medianApe(), x.count())));
      }
    }
    if (any) {
      w.println(b);
    }
  }
}
