package io.ridgeline.validation;

/** A reason not to predict a case: {@link Predictor#predict} turns it into a {@link Skip}. */
final class Unpredictable extends RuntimeException {
  private static final long serialVersionUID = 1L;

  Unpredictable(String reason) {
    super(reason);
  }
}
