package io.ridgeline.core;

/**
 * A price rate in US dollars per hour (for example a chip rented by the hour).
 *
 * <p>Immutable; holds one finite, non-negative SI value. Non-finite values: every factory rejects
 * NaN and infinities with an {@link IllegalArgumentException}, as it does negatives. {@link
 * #toString()} prints decimal SI under {@code Locale.ROOT} and {@link #parse(String)} reads it
 * back.
 */
public final class DollarsPerHour extends Quantity implements Comparable<DollarsPerHour> {
  /** Zero. */
  public static final DollarsPerHour ZERO = new DollarsPerHour(0);

  private DollarsPerHour(double value) {
    super(value, "dollars per hour");
  }

  /**
   * Returns the quantity of {@code value} $/h.
   *
   * @throws IllegalArgumentException if the value is negative, NaN or infinite
   */
  public static DollarsPerHour of(double value) {
    return new DollarsPerHour(value);
  }

  /**
   * Parses what {@link #toString()} prints, for example {@code "4.916 $/h"}.
   *
   * @throws IllegalArgumentException naming the expected unit when the text does not parse
   */
  public static DollarsPerHour parse(String text) {
    return new DollarsPerHour(Quantity.parse(text, "$/h", false, "dollars per hour"));
  }

  /** The value in $/h. */
  public double dollarsPerHour() {
    return value;
  }

  /** The sum of this and {@code other}. */
  public DollarsPerHour plus(DollarsPerHour other) {
    return new DollarsPerHour(value + other.value);
  }

  /**
   * This times a non-negative finite factor.
   *
   * @throws IllegalArgumentException if the product is negative or not finite
   */
  public DollarsPerHour times(double factor) {
    return new DollarsPerHour(value * factor);
  }

  /**
   * This divided by a positive finite divisor.
   *
   * @throws IllegalArgumentException if the divisor is not positive and finite
   */
  public DollarsPerHour dividedBy(double divisor) {
    com.google.common.base.Preconditions.checkArgument(
        divisor > 0 && Double.isFinite(divisor),
        "divisor must be positive and finite: %s",
        divisor);
    return new DollarsPerHour(value / divisor);
  }

  /** The larger of this and {@code other}. */
  public DollarsPerHour max(DollarsPerHour other) {
    return value >= other.value ? this : other;
  }

  @Override
  public int compareTo(DollarsPerHour other) {
    return Double.compare(value, other.value);
  }

  @Override
  String unit() {
    return "$/h";
  }

  @Override
  boolean prefixed() {
    return false;
  }
}
