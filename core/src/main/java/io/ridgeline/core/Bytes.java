package io.ridgeline.core;

/**
 * An amount of data in bytes (decimal SI: 1 GB = 1e9 B).
 *
 * <p>Immutable; holds one finite, non-negative SI value. Non-finite values: every factory rejects
 * NaN and infinities with an {@link IllegalArgumentException}, as it does negatives. {@link
 * #toString()} prints decimal SI under {@code Locale.ROOT} and {@link #parse(String)} reads it
 * back.
 */
public final class Bytes extends Quantity implements Comparable<Bytes> {
  /** Zero. */
  public static final Bytes ZERO = new Bytes(0);

  private Bytes(double value) {
    super(value, "bytes");
  }

  /**
   * Returns the quantity of {@code value} B.
   *
   * @throws IllegalArgumentException if the value is negative, NaN or infinite
   */
  public static Bytes of(double value) {
    return new Bytes(value);
  }

  /**
   * Parses what {@link #toString()} prints, for example {@code "80 GB"}.
   *
   * @throws IllegalArgumentException naming the expected unit when the text does not parse
   */
  public static Bytes parse(String text) {
    return new Bytes(Quantity.parse(text, "B", true, "bytes"));
  }

  /** The value in B. */
  public double bytes() {
    return value;
  }

  /** The sum of this and {@code other}. */
  public Bytes plus(Bytes other) {
    return new Bytes(value + other.value);
  }

  /**
   * This times a non-negative finite factor.
   *
   * @throws IllegalArgumentException if the product is negative or not finite
   */
  public Bytes times(double factor) {
    return new Bytes(value * factor);
  }

  /**
   * This divided by a positive finite divisor.
   *
   * @throws IllegalArgumentException if the divisor is not positive and finite
   */
  public Bytes dividedBy(double divisor) {
    com.google.common.base.Preconditions.checkArgument(
        divisor > 0 && Double.isFinite(divisor),
        "divisor must be positive and finite: %s",
        divisor);
    return new Bytes(value / divisor);
  }

  /** The larger of this and {@code other}. */
  public Bytes max(Bytes other) {
    return value >= other.value ? this : other;
  }

  @Override
  public int compareTo(Bytes other) {
    return Double.compare(value, other.value);
  }

  @Override
  String unit() {
    return "B";
  }

  /** Returns {@code gigabytes}·1e9 bytes (decimal GB). */
  public static Bytes ofGigabytes(double gigabytes) {
    return of(gigabytes * 1e9);
  }

  /** Returns {@code megabytes}·1e6 bytes (decimal MB). */
  public static Bytes ofMegabytes(double megabytes) {
    return of(megabytes * 1e6);
  }

  /** Returns {@code gibibytes}·2^30 bytes (binary GiB, only where a source says GiB). */
  public static Bytes ofGibibytes(double gibibytes) {
    return of(gibibytes * 1024.0 * 1024.0 * 1024.0);
  }

  /** The value in decimal gigabytes (1e9 B). */
  public double gigabytes() {
    return value / 1e9;
  }

  /** This minus {@code other}, or zero when {@code other} is larger. */
  public Bytes minusOrZero(Bytes other) {
    return of(Math.max(0, value - other.value));
  }

  /** Time to move these bytes at {@code rate}: B / (B/s) = s. */
  public Seconds at(BytesPerSecond rate) {
    return Seconds.of(Ratios.divide(value, rate.bytesPerSecond(), "bytes per second"));
  }
}
