package io.ridgeline.serving;

import com.google.errorprone.annotations.CanIgnoreReturnValue;

/**
 * The largest sizes the library accepts where a caller sets them (the command line's options and a
 * sweep grid's keys check the same bounds; docs/errors.md). They are far above any real deployment
 * and keep every product of sizes exact in a {@code long} and every result finite.
 */
public final class Limits {
  /** Chips in a pool or a parallel group: at most 2^16 (65,536). */
  public static final int MAX_CHIPS = 1 << 16;

  /** Requests in a batch (per replica): at most 2^24 (16,777,216). */
  public static final int MAX_BATCH = 1 << 24;

  /** Tokens of a prompt, an output or a context: at most 2^27 (134,217,728). */
  public static final int MAX_TOKENS = 1 << 27;

  private Limits() {}

  /**
   * Checks that {@code value} is in [1, {@code max}]: "WHAT must be positive: V" or "WHAT must be
   * at most MAX: V" otherwise.
   *
   * @throws IllegalArgumentException naming {@code what}, the rule and the value otherwise
   */
  @CanIgnoreReturnValue
  public static int check(String what, long value, int max) {
    if (value < 1) {
      throw new IllegalArgumentException(what + " must be positive: " + value);
    }
    if (value > max) {
      throw new IllegalArgumentException(
          String.format(java.util.Locale.ROOT, "%s must be at most %,d: %d", what, max, value));
    }
    return (int) value;
  }
}
