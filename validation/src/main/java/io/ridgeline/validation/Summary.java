package io.ridgeline.validation;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Error statistics of a set of predictions.
 *
 * <p>Worked example: ratios 0.5, 1.0, 2.0 give absolute percentage errors 0.5, 0, 1 (median 0.5),
 * geometric-mean ratio (0.5·1·2)^(1/3) = 1, within ±25% 1/3, within ±50% 2/3.
 *
 * @param count predictions summarised
 * @param medianApe median of |ratio − 1|, a fraction (0.25 = 25%); NaN when count is 0
 * @param geoMeanRatio exp(mean ln ratio); above 1 the model overestimates on balance; NaN when
 *     count is 0
 * @param within25 share of predictions with |ratio − 1| ≤ 0.25, in [0, 1]; NaN when count is 0
 * @param within50 share with |ratio − 1| ≤ 0.5; NaN when count is 0
 */
public record Summary(
    int count, double medianApe, double geoMeanRatio, double within25, double within50) {
  /** A summary of {@code predictions}. */
  public static Summary of(List<Prediction> predictions) {
    return ofRatios(predictions.stream().mapToDouble(Prediction::ratio).toArray());
  }

  /**
   * A summary of predicted-over-measured {@code ratios}.
   *
   * @throws IllegalArgumentException when a ratio is not positive and finite
   */
  public static Summary ofRatios(double... ratios) {
    int n = ratios.length;
    if (n == 0) {
      return new Summary(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
    double[] ape = new double[n];
    double logs = 0;
    int w25 = 0;
    int w50 = 0;
    for (int i = 0; i < n; i++) {
      double r = ratios[i];
      checkArgument(Double.isFinite(r) && r > 0, "ratio must be positive and finite: %s", r);
      ape[i] = Math.abs(r - 1);
      logs += Math.log(r);
      // a small tolerance so that ratios such as 1.25 written in decimal count as within 25%
      w25 += ape[i] <= 0.25 + 1e-12 ? 1 : 0;
      w50 += ape[i] <= 0.5 + 1e-12 ? 1 : 0;
    }
    Arrays.sort(ape);
    double median = n % 2 == 1 ? ape[n / 2] : (ape[n / 2 - 1] + ape[n / 2]) / 2;
    return new Summary(n, median, Math.exp(logs / n), (double) w25 / n, (double) w50 / n);
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%d predictions: median APE %.1f%%, geo-mean ratio %.3f, within ±25%% %.0f%%, within ±50%%"
            + " %.0f%%",
        count,
        100 * medianApe,
        geoMeanRatio,
        100 * within25,
        100 * within50);
  }
}
