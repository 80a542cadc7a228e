package io.ridgeline.core;

/**
 * A duration in seconds.
 *
 * <p>Immutable; holds one finite, non-negative SI value. Non-finite values: every factory rejects
 * NaN and infinities with an {@link IllegalArgumentException}, as it does negatives. {@link
 * #toString()} prints decimal SI under {@code Locale.ROOT} and {@link #parse(String)} reads it
 * back.
 */
public final class Seconds extends Quantity implements Comparable<Seconds> {
  /** Zero. */
  public static final Seconds ZERO = new Seconds(0);

  private Seconds(double value) {
    super(value, "seconds");
  }

  /**
   * Returns the quantity of {@code value} seconds.
   *
   * @throws IllegalArgumentException if the value is negative, NaN or infinite
   */
  public static Seconds of(double value) {
    return new Seconds(value);
  }

  /**
   * Parses what {@link #toString()} prints, for example {@code "4.52 ms"}.
   *
   * @throws IllegalArgumentException naming the expected unit when the text does not parse
   */
  public static Seconds parse(String text) {
    return new Seconds(Quantity.parseSeconds(text));
  }

  /** The value in seconds. */
  public double seconds() {
    return value;
  }

  /** The sum of this and {@code other}. */
  public Seconds plus(Seconds other) {
    return new Seconds(value + other.value);
  }

  /**
   * This times a non-negative finite factor.
   *
   * @throws IllegalArgumentException if the product is negative or not finite
   */
  public Seconds times(double factor) {
    return new Seconds(value * factor);
  }

  /**
   * This divided by a positive finite divisor.
   *
   * @throws IllegalArgumentException if the divisor is not positive and finite
   */
  public Seconds dividedBy(double divisor) {
    com.google.common.base.Preconditions.checkArgument(
        divisor > 0 && Double.isFinite(divisor),
        "divisor must be positive and finite: %s",
        divisor);
    return new Seconds(value / divisor);
  }

  /** The larger of this and {@code other}. */
  public Seconds max(Seconds other) {
    return value >= other.value ? this : other;
  }

  @Override
  public int compareTo(Seconds other) {
    return Double.compare(value, other.value);
  }

  @Override
  String unit() {
    return "s";
  }

  /** Prints ns, µs, ms or s with six significant digits under {@code Locale.ROOT}. */
  @Override
  public String toString() {
    return Quantity.formatSeconds(value);
  }

  /** Returns {@code millis}·1e-3 s. */
  public static Seconds ofMillis(double millis) {
    return of(millis * 1e-3);
  }

  /** Returns {@code micros}·1e-6 s. */
  public static Seconds ofMicros(double micros) {
    return of(micros * 1e-6);
  }

  /** The value in milliseconds. */
  public double millis() {
    return value * 1e3;
  }
}
