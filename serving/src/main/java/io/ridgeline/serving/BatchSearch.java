package io.ridgeline.serving;

import java.util.function.IntPredicate;

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
}
