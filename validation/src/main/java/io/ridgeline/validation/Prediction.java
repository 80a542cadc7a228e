package io.ridgeline.validation;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Locale;

/**
 * A predicted value for one case, in the unit of the case's metric, with a note on how it was
 * obtained (system layout, batch, assumptions).
 *
 * @param testCase the case
 * @param predicted the predicted value, positive and finite
 * @param note how the value was obtained
 */
public record Prediction(ValidationCase testCase, double predicted, String note)
    implements Outcome {
  /**
   * @throws IllegalArgumentException when {@code predicted} is not positive and finite
   */
  public Prediction {
    checkArgument(
        Double.isFinite(predicted) && predicted > 0,
        "predicted value must be positive and finite: %s",
        predicted);
  }

  /** Predicted over measured; above 1 the model overestimates the metric. */
  public double ratio() {
    return predicted / testCase.measured();
  }

  /** Absolute percentage error as a fraction: |ratio − 1|. */
  public double absolutePercentageError() {
    return Math.abs(ratio() - 1);
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%s %s: predicted %.4g, measured %.4g, ratio %.3f",
        testCase.caseId(),
        testCase.metric(),
        predicted,
        testCase.measured(),
        ratio());
  }
}
