package io.ridgeline.core;

/**
 * Electrical power in watts.
 *
 * <p>Immutable; holds one finite, non-negative SI value. Non-finite values: every factory rejects
 * NaN and infinities with an {@link IllegalArgumentException}, as it does negatives. {@link
 * #toString()} prints decimal SI under {@code Locale.ROOT} and {@link #parse(String)} reads it
 * back.
 */
public final class Watts extends Quantity implements Comparable<Watts> {
  /** Zero. */
  public static final Watts ZERO = new Watts(0);

  private Watts(double value) {
    super(value, "watts");
  }

  /**
   * Returns the quantity of {@code value} W.
   *
   * @throws IllegalArgumentException if the value is negative, NaN or infinite
   */
  public static Watts of(double value) {
    return new Watts(value);
  }

  /**
   * Parses what {@link #toString()} prints, for example {@code "700 W"}.
   *
   * @throws IllegalArgumentException naming the expected unit when the text does not parse
   */
  public static Watts parse(String text) {
    return new Watts(Quantity.parse(text, "W", true, "watts"));
  }

  /** The value in W. */
  public double watts() {
    return value;
  }

  /** The sum of this and {@code other}. */
  public Watts plus(Watts other) {
    return new Watts(value + other.value);
  }

  /**
   * This times a non-negative finite factor.
   *
   * @throws IllegalArgumentException if the product is negative or not finite
   */
  public Watts times(double factor) {
    return new Watts(value * factor);
  }

  /**
   * This divided by a positive finite divisor.
   *
   * @throws IllegalArgumentException if the divisor is not positive and finite
   */
  public Watts dividedBy(double divisor) {
    com.google.common.base.Preconditions.checkArgument(
        divisor > 0 && Double.isFinite(divisor),
        "divisor must be positive and finite: %s",
        divisor);
    return new Watts(value / divisor);
  }

  /** The larger of this and {@code other}. */
  public Watts max(Watts other) {
    return value >= other.value ? this : other;
  }

  @Override
  public int compareTo(Watts other) {
    return Double.compare(value, other.value);
  }

  @Override
  String unit() {
    return "W";
  }

  /** Returns {@code kilowatts}·1e3 W. */
  public static Watts ofKilowatts(double kilowatts) {
    return of(kilowatts * 1e3);
  }
}
