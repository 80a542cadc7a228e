package io.ridgeline.core;

/**
 * A bandwidth in bytes per second (decimal SI: 1 TB/s = 1e12 B/s).
 *
 * <p>Immutable; holds one finite, non-negative SI value. Non-finite values: every factory rejects
 * NaN and infinities with an {@link IllegalArgumentException}, as it does negatives. {@link
 * #toString()} prints decimal SI under {@code Locale.ROOT} and {@link #parse(String)} reads it
 * back.
 */
public final class BytesPerSecond extends Quantity implements Comparable<BytesPerSecond> {
  /** Zero. */
  public static final BytesPerSecond ZERO = new BytesPerSecond(0);

  private BytesPerSecond(double value) {
    super(value, "bytes per second");
  }

  /**
   * Returns the quantity of {@code value} B/s.
   *
   * @throws IllegalArgumentException if the value is negative, NaN or infinite
   */
  public static BytesPerSecond of(double value) {
    return new BytesPerSecond(value);
  }

  /**
   * Parses what {@link #toString()} prints, for example {@code "3.35 TB/s"}.
   *
   * @throws IllegalArgumentException naming the expected unit when the text does not parse
   */
  public static BytesPerSecond parse(String text) {
    return new BytesPerSecond(Quantity.parse(text, "B/s", true, "bytes per second"));
  }

  /** The value in B/s. */
  public double bytesPerSecond() {
    return value;
  }

  /** The sum of this and {@code other}. */
  public BytesPerSecond plus(BytesPerSecond other) {
    return new BytesPerSecond(value + other.value);
  }

  /**
   * This times a non-negative finite factor.
   *
   * @throws IllegalArgumentException if the product is negative or not finite
   */
  public BytesPerSecond times(double factor) {
    return new BytesPerSecond(value * factor);
  }

  /**
   * This divided by a positive finite divisor.
   *
   * @throws IllegalArgumentException if the divisor is not positive and finite
   */
  public BytesPerSecond dividedBy(double divisor) {
    com.google.common.base.Preconditions.checkArgument(
        divisor > 0 && Double.isFinite(divisor),
        "divisor must be positive and finite: %s",
        divisor);
    return new BytesPerSecond(value / divisor);
  }

  /** The larger of this and {@code other}. */
  public BytesPerSecond max(BytesPerSecond other) {
    return value >= other.value ? this : other;
  }

  @Override
  public int compareTo(BytesPerSecond other) {
    return Double.compare(value, other.value);
  }

  @Override
  String unit() {
    return "B/s";
  }

  /** Returns {@code terabytes}·1e12 B/s (decimal TB/s). */
  public static BytesPerSecond ofTerabytes(double terabytes) {
    return of(terabytes * 1e12);
  }

  /** Returns {@code gigabytes}·1e9 B/s (decimal GB/s). */
  public static BytesPerSecond ofGigabytes(double gigabytes) {
    return of(gigabytes * 1e9);
  }

  /** The value in decimal TB/s. */
  public double terabytes() {
    return value / 1e12;
  }
}
