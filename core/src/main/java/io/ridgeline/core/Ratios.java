package io.ridgeline.core;

import static com.google.common.base.Preconditions.checkArgument;

/** Division that refuses to produce NaN or infinity. */
final class Ratios {
  private Ratios() {}

  /**
   * {@code numerator / denominator}.
   *
   * @throws IllegalArgumentException naming {@code what} when the denominator is not positive
   */
  static double divide(double numerator, double denominator, String what) {
    checkArgument(denominator > 0, "%s must be positive to divide by: %s", what, denominator);
    return numerator / denominator;
  }
}
