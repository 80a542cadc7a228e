package io.ridgeline.validation;

/** What became of one case: a {@link Prediction} or a {@link Skip} with its reason. */
public sealed interface Outcome permits Prediction, Skip {
  /** The case. */
  ValidationCase testCase();
}
