package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.List;
import org.junit.jupiter.api.Test;

final class OperationCacheTest {
  private static final Chip H100 = Chips.byId("h100-sxm");

  private static RooflineModel pool(Model model, int tp, Efficiency e) {
    return RooflineModel.builder()
        .model(model)
        .chip(H100)
        .chips(tp)
        .tensorParallel(tp)
        .efficiency(e)
        .build();
  }

  private static List<Efficiency> efficiencies() {
    Efficiency standard = Efficiency.standard(H100);
    return List.of(
        standard,
        Efficiency.builder().from(standard).compute(0.5).memory(0.6).build(),
        Efficiency.ideal());
  }

  @Test
  void run_stepsUnderSeveralEfficiencies_sameTimesAsUncachedAndCountedOnce() {
    // Llama-3.1-8B (dense) and Qwen3-30B-A3B (MoE) at tp 1 and 2 on H100, each step timed under
    // three efficiencies inside one cache: every time is the uncached one to the bit, and the
    // operations are counted for the first efficiency only (the cache does not grow after it)
    OperationCache cache = OperationCache.create();
    int counted = -1;
    for (Efficiency e : efficiencies()) {
      for (Model m : List.of(Models.byId("llama-3.1-8b"), Models.byId("qwen3-30b-a3b"))) {
        for (int tp : new int[] {1, 2}) {
          RooflineModel p = pool(m, tp, e);
          for (int batch : new int[] {1, 7, 64}) {
            double decode = p.decode(batch, 1536).seconds().seconds();
            double prefill = p.prefill(batch, 1024, 512).seconds().seconds();
            double[] cached =
                cache.run(
                    () ->
                        new double[] {
                          p.decode(batch, 1536).seconds().seconds(),
                          p.prefill(batch, 1024, 512).seconds().seconds()
                        });
            assertThat(cached[0])
                .as("%s tp %s batch %s decode", m.id(), tp, batch)
                .isEqualTo(decode);
            assertThat(cached[1])
                .as("%s tp %s batch %s prefill", m.id(), tp, batch)
                .isEqualTo(prefill);
          }
        }
      }
      if (counted < 0) {
        counted = cache.size();
        // 2 models × 2 layouts × 3 batches: a decode and a prefill each
        assertThat(counted).isEqualTo(24);
      }
      assertThat(cache.size()).isEqualTo(counted);
    }
  }

  @Test
  void run_layoutsOfOneModel_eachCountedApart() {
    // tp 1 and tp 2 of one model in one cache: the per-chip operations differ (tp 2 halves each
    // GEMM's FLOPs per chip), so tp 2's decode is not tp 1's, as outside the cache
    OperationCache cache = OperationCache.create();
    Model m = Models.byId("llama-3.1-8b");
    Efficiency e = Efficiency.standard(H100);
    double one = cache.run(() -> pool(m, 1, e).decode(8, 2048).seconds().seconds());
    double two = cache.run(() -> pool(m, 2, e).decode(8, 2048).seconds().seconds());
    assertThat(two).isEqualTo(pool(m, 2, e).decode(8, 2048).seconds().seconds());
    assertThat(two).isLessThan(one);
    assertThat(cache.size()).isEqualTo(2);
  }

  @Test
  void run_moreStepsThanTheBound_keepsTheFirstAndTimesTheRestAlike() {
    // MAX_STEPS + 100 decode steps of distinct batches in one cache: it keeps MAX_STEPS of them,
    // and every step, kept or not, is timed as outside the cache
    OperationCache cache = OperationCache.create();
    RooflineModel p = pool(Models.byId("llama-3.1-8b"), 1, Efficiency.standard(H100));
    for (int batch = 1; batch <= OperationCache.MAX_STEPS + 100; batch++) {
      int b = batch;
      double cached = cache.run(() -> p.decode(b, 256).seconds().seconds());
      assertThat(cached).as("batch %s", b).isEqualTo(p.decode(b, 256).seconds().seconds());
    }
    assertThat(cache.size()).isEqualTo(OperationCache.MAX_STEPS);
  }

  @Test
  void run_nested_restoresTheOuterCache() {
    // a cache run inside another's counts into the inner one, and the outer is in effect again
    // after it
    OperationCache outer = OperationCache.create();
    OperationCache inner = OperationCache.create();
    RooflineModel p = pool(Models.byId("llama-3.1-8b"), 1, Efficiency.standard(H100));
    StepResult two =
        outer.run(
            () -> {
              StepResult four = inner.run(() -> p.decode(4, 1024));
              assertThat(four.seconds().seconds()).isPositive();
              return p.decode(2, 1024);
            });
    assertThat(two.seconds().seconds()).isPositive();
    assertThat(inner.size()).isEqualTo(1);
    assertThat(outer.size()).isEqualTo(1);
    StepResult three = p.decode(3, 1024); // outside any cache: nothing counted
    assertThat(three.seconds().seconds()).isPositive();
    assertThat(outer.size() + inner.size()).isEqualTo(2);
  }
}
