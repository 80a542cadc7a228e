package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class BatchSearchTest {
  @Test
  void largest_boundedTest_findsTheLastFittingBatch() {
    assertThat(BatchSearch.largest(b -> b <= 737)).isEqualTo(737);
    assertThat(BatchSearch.largest(b -> b <= 1)).isEqualTo(1);
    assertThat(BatchSearch.largest(b -> false)).isZero();
  }

  @Test
  void largest_atAndBeyondTheLimit_isTheLimitItself_notOneBelow() {
    // before: the doubling stopped below 2^24 and the bisection answered 2^24 − 1
    assertThat(BatchSearch.largest(b -> true)).isEqualTo(Limits.MAX_BATCH);
    assertThat(BatchSearch.largest(b -> b <= Limits.MAX_BATCH)).isEqualTo(Limits.MAX_BATCH);
    assertThat(BatchSearch.largest(b -> b < Limits.MAX_BATCH)).isEqualTo(Limits.MAX_BATCH - 1);
  }
}
