package io.ridgeline.core;

/**
 * Arithmetic intensity (FLOPs per byte moved), or a chip's ridge point (peak FLOP/s over
 * bandwidth).
 *
 * <p>Immutable; holds one finite, non-negative SI value. Non-finite values: every factory rejects
 * NaN and infinities with an {@link IllegalArgumentException}, as it does negatives. {@link
 * #toString()} prints decimal SI under {@code Locale.ROOT} and {@link #parse(String)} reads it
 * back.
 */
public final class FlopsPerByte extends Quantity implements Comparable<FlopsPerByte> {
  /** Zero. */
  public static final FlopsPerByte ZERO = new FlopsPerByte(0);

  private FlopsPerByte(double value) {
    super(value, "flops per byte");
  }

  /**
   * Returns the quantity of {@code value} FLOP/B.
   *
   * @throws IllegalArgumentException if the value is negative, NaN or infinite
   */
  public static FlopsPerByte of(double value) {
    return new FlopsPerByte(value);
  }

  /**
   * Parses what {@link #toString()} prints, for example {@code "295.343 FLOP/B"}.
   *
   * @throws IllegalArgumentException naming the expected unit when the text does not parse
   */
  public static FlopsPerByte parse(String text) {
    return new FlopsPerByte(Quantity.parse(text, "FLOP/B", false, "flops per byte"));
  }

  /** The value in FLOP/B. */
  public double flopsPerByte() {
    return value;
  }

  /** The sum of this and {@code other}. */
  public FlopsPerByte plus(FlopsPerByte other) {
    return new FlopsPerByte(value + other.value);
  }

  /**
   * This times a non-negative finite factor.
   *
   * @throws IllegalArgumentException if the product is negative or not finite
   */
  public FlopsPerByte times(double factor) {
    return new FlopsPerByte(value * factor);
  }

  /**
   * This divided by a positive finite divisor.
   *
   * @throws IllegalArgumentException if the divisor is not positive and finite
   */
  public FlopsPerByte dividedBy(double divisor) {
    com.google.common.base.Preconditions.checkArgument(
        divisor > 0 && Double.isFinite(divisor),
        "divisor must be positive and finite: %s",
        divisor);
    return new FlopsPerByte(value / divisor);
  }

  /** The larger of this and {@code other}. */
  public FlopsPerByte max(FlopsPerByte other) {
    return value >= other.value ? this : other;
  }

  @Override
  public int compareTo(FlopsPerByte other) {
    return Double.compare(value, other.value);
  }

  @Override
  String unit() {
    return "FLOP/B";
  }

  @Override
  boolean prefixed() {
    return false;
  }
}
