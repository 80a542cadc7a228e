package io.ridgeline.core;

/**
 * An amount of arithmetic work in floating-point operations (1 multiply-add = 2 FLOPs).
 *
 * <p>Immutable; holds one finite, non-negative SI value. Non-finite values: every factory rejects
 * NaN and infinities with an {@link IllegalArgumentException}, as it does negatives. {@link
 * #toString()} prints decimal SI under {@code Locale.ROOT} and {@link #parse(String)} reads it
 * back.
 */
public final class Flops extends Quantity implements Comparable<Flops> {
  /** Zero. */
  public static final Flops ZERO = new Flops(0);

  private Flops(double value) {
    super(value, "flops");
  }

  /**
   * Returns the quantity of {@code value} FLOP.
   *
   * @throws IllegalArgumentException if the value is negative, NaN or infinite
   */
  public static Flops of(double value) {
    return new Flops(value);
  }

  /**
   * Parses what {@link #toString()} prints, for example {@code "1.5 TFLOP"}.
   *
   * @throws IllegalArgumentException naming the expected unit when the text does not parse
   */
  public static Flops parse(String text) {
    return new Flops(Quantity.parse(text, "FLOP", true, "flops"));
  }

  /** The value in FLOP. */
  public double flops() {
    return value;
  }

  /** The sum of this and {@code other}. */
  public Flops plus(Flops other) {
    return new Flops(value + other.value);
  }

  /**
   * This times a non-negative finite factor.
   *
   * @throws IllegalArgumentException if the product is negative or not finite
   */
  public Flops times(double factor) {
    return new Flops(value * factor);
  }

  /**
   * This divided by a positive finite divisor.
   *
   * @throws IllegalArgumentException if the divisor is not positive and finite
   */
  public Flops dividedBy(double divisor) {
    com.google.common.base.Preconditions.checkArgument(
        divisor > 0 && Double.isFinite(divisor),
        "divisor must be positive and finite: %s",
        divisor);
    return new Flops(value / divisor);
  }

  /** The larger of this and {@code other}. */
  public Flops max(Flops other) {
    return value >= other.value ? this : other;
  }

  @Override
  public int compareTo(Flops other) {
    return Double.compare(value, other.value);
  }

  @Override
  String unit() {
    return "FLOP";
  }

  /** Returns {@code tera}·1e12 FLOPs. */
  public static Flops ofTera(double tera) {
    return of(tera * 1e12);
  }

  /** Time to do this work at {@code rate}: FLOPs / (FLOP/s) = s. */
  public Seconds at(FlopsPerSecond rate) {
    return Seconds.of(Ratios.divide(value, rate.flopsPerSecond(), "flops per second"));
  }

  /** Arithmetic intensity of this work over {@code moved}: FLOPs / bytes. */
  public FlopsPerByte per(Bytes moved) {
    return FlopsPerByte.of(Ratios.divide(value, moved.bytes(), "bytes moved"));
  }
}
