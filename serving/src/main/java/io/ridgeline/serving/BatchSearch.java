package io.ridgeline.serving;

import java.util.function.IntPredicate;

/** The largest batch a monotone memory test accepts: doubling, then bisection. */
final class BatchSearch {
  /** Batches are searched below this bound (2^24). */
  static final int LIMIT = 1 << 24;

  private BatchSearch() {}

  /**
   * The largest n in [0, 2^24) with {@code fits(n)}, assuming fits is true up to some n and false
   * beyond; 0 when {@code fits(1)} is false.
   */
  static int largest(IntPredicate fits) {
    int lo = 0;
    int hi = 1;
    while (hi < LIMIT && fits.test(hi)) {
      lo = hi;
      hi *= 2;
    }
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
}
