package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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

  @Test
  void largest_withAnyGuess_isTheSearchsAnswer() {
    // threshold t (0: nothing fits) and any guess, near it or not: the same answer as the search
    qt().withFixedSeed(20261202L)
        .withExamples(2000)
        .forAll(integers().between(0, 1 << 20), integers().between(-5, 1 << 21))
        .checkAssert(
            (t, guess) ->
                assertThat(BatchSearch.largest(b -> b <= t, guess))
                    .as("threshold %s, guess %s", t, guess)
                    .isEqualTo(BatchSearch.largest(b -> b <= t)));
  }

  @Test
  void largest_guessWithinOne_testsTwoOrThreeBatches() {
    // 737 fits, 738 does not: a guess of 737 tests 737 and 738; of 738, 738 and 737
    AtomicInteger tests = new AtomicInteger();
    assertThat(BatchSearch.largest(b -> tests.incrementAndGet() > 0 && b <= 737, 737))
        .isEqualTo(737);
    assertThat(tests.get()).isEqualTo(2);
    tests.set(0);
    assertThat(BatchSearch.largest(b -> tests.incrementAndGet() > 0 && b <= 737, 738))
        .isEqualTo(737);
    assertThat(tests.get()).isEqualTo(2);
  }

  @Test
  void maxBatch_guessedStart_equalsThePlainSearch() {
    // RooflineModel.maxBatch starts from a guess (MemoryUse.pressure extrapolated); the answer is
    // the plain search's on dense, MoE and tiered pools at short and long contexts
    int guessedRight = 0;
    for (String chip : List.of("h100-sxm", "gb200", "mi300x", "b200")) {
      for (String model : List.of("llama-3.1-8b", "llama-3.1-70b", "deepseek-v3", "mixtral-8x7b")) {
        for (int tp : new int[] {1, 8}) {
          RooflineModel rm;
          try {
            rm =
                RooflineModel.builder()
                    .model(Models.byId(model))
                    .chip(Chips.byId(chip))
                    .chips(tp)
                    .tensorParallel(tp)
                    .build();
          } catch (IllegalArgumentException invalid) {
            continue;
          }
          for (int context : new int[] {1, 100, 1024, 8192, 100_000}) {
            int plain = BatchSearch.largest(b -> rm.memory(b, context).fits());
            assertThat(rm.largestBatch(context).orElse(0)).as("%s at %s", rm, context).isEqualTo(plain);
            if (plain > 1) {
              guessedRight++;
            }
          }
        }
      }
    }
    assertThat(guessedRight).isGreaterThan(20);
  }
}
