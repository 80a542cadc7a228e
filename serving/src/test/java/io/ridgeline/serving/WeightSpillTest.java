package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link WeightSpill}: {@link MemoryPlan#placed}'s weight placement in primitives. */
final class WeightSpillTest {
  // every built-in chip of several tiers: LPDDR behind HBM (GH200, GB200, GB300), SRAM beside HBM
  // (Gaudi 3), SRAM and DDR (SN40L: three tiers)
  private static final List<String> CHIPS =
      List.of("gh200", "gb200", "gb300", "gaudi3", "sambanova-sn40l");
  private static final List<String> MODELS =
      List.of("llama-3.1-8b", "llama-3.1-70b", "mixtral-8x7b", "deepseek-v3", "llama-3.1-405b");

  @Test
  void place_llama405bFp8OnOneGb200_keepsWhatKvAndWorkspaceLeaveOfHbm() {
    // batch 1 at 1024 (MemoryTiersTest): KV and workspace take 885,511,168 B of the 186e9 B of
    // HBM, so the 405.853e9 B of weights keep 185.114e9 B there and put 220.739e9 B on LPDDR:
    // shares 185.114 / 405.853 = 0.4561 and 220.739 / 405.853 = 0.5439
    Model m = Models.byId("llama-3.1-405b");
    RooflineModel pool =
        RooflineModel.builder()
            .model(m)
            .chip(Chips.byId("gb200"))
            .efficiency(Efficiency.ideal())
            .precisions(m.defaultPrecisions().withAllWeights(Precision.FP8))
            .build();
    WeightSpill spill = WeightSpill.of(pool, 1024);
    int[] slots = new int[spill.tiers()];
    double[] shares = new double[spill.tiers()];
    assertThat(spill.place(1, slots, shares)).isEqualTo(2);
    assertThat(shares[0]).isCloseTo(0.4561, within(1e-4));
    assertThat(shares[1]).isCloseTo(0.5439, within(1e-4));
    assertThat(shares[0] + shares[1]).isCloseTo(1.0, within(1e-15));
    assertThat(sameAsObjectPath(pool, 1, 1024)).isTrue();
  }

  @Test
  void place_llama8bOnGb200_isAllOnTheMainTier() {
    // 16 GB of bf16 weights and a small batch's KV fit the 186 GB of HBM: the base target
    RooflineModel pool = IdealPools.of(Models.byId("llama-3.1-8b"), Chips.byId("gb200"));
    WeightSpill spill = WeightSpill.of(pool, 2048);
    assertThat(spill.place(8, new int[2], new double[2])).isZero();
    assertThat(MemoryPlan.placed(pool, 8, 2048)).isSameAs(pool.baseTarget());
  }

  @Test
  void place_anyBatchAndContext_isTheObjectPathsPlacementToTheBit() {
    // every chip of several tiers, five models, tp 1-8, batches 1-4,096 and contexts 128-131,072:
    // the same tiers and the same shares, bit for bit, as StepTiers of
    // MemoryPlan.placed, and no tiers exactly where placed gives the base target
    List<RooflineModel> pools = new ArrayList<>();
    for (String chip : CHIPS) {
      for (String model : MODELS) {
        for (int tp = 1; tp <= 8; tp *= 2) {
          try {
            pools.add(IdealPools.of(Models.byId(model), Chips.byId(chip), tp));
          } catch (IllegalArgumentException e) {
            // no such layout on this chip (no scale-up link, or tp beyond its domain)
          }
        }
      }
    }
    assertThat(pools).hasSizeGreaterThan(CHIPS.size() * MODELS.size());
    int[] spilled = {0};
    qt().withFixedSeed(20261202L)
        .withExamples(3000)
        .forAll(
            integers().between(0, pools.size() - 1),
            integers().between(1, 4096),
            integers().between(7, 17))
        .checkAssert(
            (system, batch, log2Context) -> {
              RooflineModel pool = pools.get(system);
              if (MemoryPlan.placed(pool, batch, 1 << log2Context) != pool.baseTarget()) {
                spilled[0]++;
              }
              assertThat(sameAsObjectPath(pool, batch, 1 << log2Context))
                  .as("%s, batch %d, context %d", pool, batch, 1 << log2Context)
                  .isTrue();
            });
    // the examples cover spilled weights, not only the base target
    assertThat(spilled[0]).isGreaterThan(300);
  }

  @Test
  void of_oneTierChip_isRefused() {
    RooflineModel pool = IdealPools.of(Models.byId("llama-3.1-8b"), Chips.byId("h100-sxm"));
    assertThatThrownBy(() -> WeightSpill.of(pool, 1024))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("several tiers");
  }

  /** Whether the spill's tiers at (batch, context) are those the object path places. */
  private static boolean sameAsObjectPath(RooflineModel pool, int batch, int context) {
    WeightSpill spill = WeightSpill.of(pool, context);
    ComputeTarget placed = MemoryPlan.placed(pool, batch, context);
    StepTiers view = StepTiers.view(pool.baseTarget(), spill).at(spill, batch);
    if (placed == pool.baseTarget()) {
      return view == null;
    }
    return view != null && view.samePlacement(StepTiers.of(placed));
  }
}
