package io.ridgeline.core;

/**
 * A rate of arithmetic in FLOP/s (1 multiply-add = 2 FLOPs; decimal SI: 1 TFLOP/s = 1e12 FLOP/s).
 *
 * <p>Immutable; holds one finite, non-negative SI value. Non-finite values: every factory rejects
 * NaN and infinities with an {@link IllegalArgumentException}, as it does negatives. {@link
 * #toString()} prints decimal SI under {@code Locale.ROOT} and {@link #parse(String)} reads it
 * back.
 */
public final class FlopsPerSecond extends Quantity implements Comparable<FlopsPerSecond> {
  /** Zero. */
  public static final FlopsPerSecond ZERO = new FlopsPerSecond(0);

  private FlopsPerSecond(double value) {
    super(value, "flops per second");
  }

  /**
   * Returns the quantity of {@code value} FLOP/s.
   *
   * @throws IllegalArgumentException if the value is negative, NaN or infinite
   */
  public static FlopsPerSecond of(double value) {
    return new FlopsPerSecond(value);
  }

  /**
   * Parses what {@link #toString()} prints, for example {@code "989.4 TFLOP/s"}.
   *
   * @throws IllegalArgumentException naming the expected unit when the text does not parse
   */
  public static FlopsPerSecond parse(String text) {
    return new FlopsPerSecond(Quantity.parse(text, "FLOP/s", true, "flops per second"));
  }

  /** The value in FLOP/s. */
  public double flopsPerSecond() {
    return value;
  }

  /** The sum of this and {@code other}. */
  public FlopsPerSecond plus(FlopsPerSecond other) {
    return new FlopsPerSecond(value + other.value);
  }

  /**
   * This times a non-negative finite factor.
   *
   * @throws IllegalArgumentException if the product is negative or not finite
   */
  public FlopsPerSecond times(double factor) {
    return new FlopsPerSecond(value * factor);
  }

  /**
   * This divided by a positive finite divisor.
   *
   * @throws IllegalArgumentException if the divisor is not positive and finite
   */
  public FlopsPerSecond dividedBy(double divisor) {
    com.google.common.base.Preconditions.checkArgument(
        divisor > 0 && Double.isFinite(divisor),
        "divisor must be positive and finite: %s",
        divisor);
    return new FlopsPerSecond(value / divisor);
  }

  /** The larger of this and {@code other}. */
  public FlopsPerSecond max(FlopsPerSecond other) {
    return value >= other.value ? this : other;
  }

  @Override
  public int compareTo(FlopsPerSecond other) {
    return Double.compare(value, other.value);
  }

  @Override
  String unit() {
    return "FLOP/s";
  }

  /** Returns {@code tera}·1e12 FLOP/s, the unit of datasheets (dense TFLOP/s). */
  public static FlopsPerSecond ofTera(double tera) {
    return of(tera * 1e12);
  }

  /** The value in TFLOP/s. */
  public double tera() {
    return value / 1e12;
  }

  /**
   * The ridge point of this peak against {@code bandwidth}: (FLOP/s) / (B/s) = FLOP/B, the
   * intensity above which work is compute-bound.
   */
  public FlopsPerByte per(BytesPerSecond bandwidth) {
    return FlopsPerByte.of(Ratios.divide(value, bandwidth.bytesPerSecond(), "bandwidth"));
  }
}
