package io.ridgeline.serving;

import java.util.function.IntPredicate;
import java.util.function.IntToDoubleFunction;

/** The largest batch a monotone memory test accepts: doubling, then bisection. */
final class BatchSearch {
  /** The largest batch searched: {@link Limits#MAX_BATCH} (2^24), itself included. */
  static final int LIMIT = Limits.MAX_BATCH;

  private BatchSearch() {}

  /**
   * The largest n in [0, 2^24] with {@code fits(n)}, assuming fits is true up to some n and false
   * beyond; 0 when {@code fits(1)} is false, and 2^24 ({@link Limits#MAX_BATCH}, the largest batch
   * anything accepts) when {@code fits(2^24)} is true.
   */
  static int largest(IntPredicate fits) {
    int lo = 0;
    int hi = 1;
    while (fits.test(hi)) {
      lo = hi;
      if (hi == LIMIT) {
        return LIMIT;
      }
      hi *= 2;
    }
    // fits(lo) (or lo = 0) and not fits(hi)
    while (hi - lo > 1) {
      int mid = (lo + hi) >>> 1;
      if (fits.test(mid)) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * {@link #largest(IntPredicate)}, trying {@code guess} first: when {@code fits(guess)} and not
   * {@code fits(guess + 1)} the answer is {@code guess}, when not {@code fits(guess)} but {@code
   * fits(guess − 1)} it is {@code guess − 1} (fits being monotone); otherwise the search. The same
   * answer for any guess, in two or three tests when the guess is within one of it.
   */
  static int largest(IntPredicate fits, int guess) {
    if (guess >= 1 && guess < LIMIT) {
      boolean at = fits.test(guess);
      if (at && !fits.test(guess + 1)) {
        return guess;
      }
      if (!at && guess > 1 && fits.test(guess - 1)) {
        return guess - 1;
      }
    }
    return largest(fits);
  }

  /**
   * A guess for {@link #largest(IntPredicate, int)} where the test is {@code pressure(n) ≤ 1} for a
   * pressure that grows by about the same step per batch from {@code first} on (memory once a
   * prefill chunk's workspace is full): {@code first} plus {@code (1 − pressure(first))} over the
   * step from {@code first} to {@code first + 1}; 0 (no guess) when it does not grow there or the
   * guess is outside [1, {@link #LIMIT}).
   */
  static int guess(IntToDoubleFunction pressure, int first) {
    if (first < 1 || first >= LIMIT) {
      return 0;
    }
    double p0 = pressure.applyAsDouble(first);
    double step = pressure.applyAsDouble(first + 1) - p0;
    if (!(step > 0)) {
      return 0;
    }
    double g = first + Math.floor((1 - p0) / step);
    return g >= 1 && g < LIMIT ? (int) g : 0;
  }
}
