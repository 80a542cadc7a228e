package io.ridgeline.validation;

import io.ridgeline.serving.efficiency.ErrorBands;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One estimate's error band from held-out predictions ({@link CrossValidation#errorBands}): the
 * 20th and 80th percentiles of the signed error measured / estimate − 1, and the band's realised
 * coverage, each source's rows scored against the band of the other sources' rows.
 */
final class HeldOutBands {
  private HeldOutBands() {}

  /** The share of a band's rows it is built to hold: between its 20th and 80th percentiles. */
  static final double BAND_LOW_PERCENTILE = 0.2;

  static final double BAND_HIGH_PERCENTILE = 0.8;

  /**
   * Puts {@code e}'s typical error and band from the rows of {@code metrics} in {@code loso}, or
   * where none, of {@code fallback}, whose signed error is inverted when one is a time and the
   * other a rate (TPOT and tokens/s per user); with no row at all, ±50% with coverage 0.
   */
  static void put(
      List<Prediction> loso,
      ErrorBands.Estimate e,
      Set<Metric> metrics,
      Set<Metric> fallback,
      Map<ErrorBands.Estimate, Double> typical,
      Map<ErrorBands.Estimate, ErrorBands.Range> ranges) {
    List<Prediction> rows =
        loso.stream().filter(p -> metrics.contains(p.testCase().metric())).toList();
    boolean estimateIsTime = metrics.iterator().next().isTime();
    if (rows.isEmpty()) {
      rows = loso.stream().filter(p -> fallback.contains(p.testCase().metric())).toList();
    }
    if (rows.isEmpty()) {
      typical.put(e, 0.5);
      ranges.put(e, new ErrorBands.Range(-0.5, 0.5, 0));
      return;
    }
    typical.put(e, Summary.of(rows).medianApe());
    // measured / estimate − 1 of each row, by source, in the estimate's own terms (a rate row
    // standing in for a time estimate: estimate / measured of the rate is measured / estimate of
    // the time)
    Map<String, List<Double>> bySource = new TreeMap<>();
    for (Prediction p : rows) {
      boolean same = p.testCase().metric().isTime() == estimateIsTime;
      double signed = same ? 1 / p.ratio() - 1 : p.ratio() - 1;
      bySource.computeIfAbsent(p.testCase().source(), k -> new ArrayList<>()).add(signed);
    }
    List<Double> all = new ArrayList<>();
    bySource.values().forEach(all::addAll);
    double low = percentile(all, BAND_LOW_PERCENTILE);
    double high = percentile(all, BAND_HIGH_PERCENTILE);
    // realised coverage: each source's rows against the band of the other sources' rows
    int inside = 0;
    int scored = 0;
    for (Map.Entry<String, List<Double>> s : bySource.entrySet()) {
      List<Double> others = new ArrayList<>();
      bySource.forEach(
          (k, v) -> {
            if (!k.equals(s.getKey())) {
              others.addAll(v);
            }
          });
      if (others.isEmpty()) {
        continue;
      }
      double lo = percentile(others, BAND_LOW_PERCENTILE);
      double hi = percentile(others, BAND_HIGH_PERCENTILE);
      for (double x : s.getValue()) {
        scored++;
        if (x >= lo && x <= hi) {
          inside++;
        }
      }
    }
    ranges.put(e, new ErrorBands.Range(low, high, scored == 0 ? 0 : (double) inside / scored));
  }

  /**
   * The {@code q} quantile of {@code values} (0 ≤ q ≤ 1), linearly interpolated between order
   * statistics (position q × (n − 1)).
   */
  static double percentile(List<Double> values, double q) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    double pos = q * (sorted.size() - 1);
    int i = (int) Math.floor(pos);
    int j = Math.min(i + 1, sorted.size() - 1);
    return sorted.get(i) + (pos - i) * (sorted.get(j) - sorted.get(i));
  }
}
