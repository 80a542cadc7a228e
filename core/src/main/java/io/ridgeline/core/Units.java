package io.ridgeline.core;

/**
 * Static factories for JShell: {@code import static io.ridgeline.core.Units.*;} then {@code
 * tbps(3.35)}, {@code gb(80)}, {@code tflops(989.4)}, {@code ms(4.5)}.
 */
public final class Units {
  private Units() {}

  /** {@code gigabytes}·1e9 B. */
  public static Bytes gb(double gigabytes) {
    return Bytes.ofGigabytes(gigabytes);
  }

  /** {@code terabytes}·1e12 B/s. */
  public static BytesPerSecond tbps(double terabytesPerSecond) {
    return BytesPerSecond.ofTerabytes(terabytesPerSecond);
  }

  /** {@code gigabytes}·1e9 B/s. */
  public static BytesPerSecond gbps(double gigabytesPerSecond) {
    return BytesPerSecond.ofGigabytes(gigabytesPerSecond);
  }

  /** {@code tera}·1e12 FLOP/s. */
  public static FlopsPerSecond tflops(double teraFlopsPerSecond) {
    return FlopsPerSecond.ofTera(teraFlopsPerSecond);
  }

  /** {@code millis}·1e-3 s. */
  public static Seconds ms(double millis) {
    return Seconds.ofMillis(millis);
  }

  /** {@code micros}·1e-6 s. */
  public static Seconds us(double micros) {
    return Seconds.ofMicros(micros);
  }
}
