package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import org.junit.jupiter.api.Test;

/** The tier rule of {@link MemoryUse}: KV and workspace in the main tier, weights overflow. */
final class MemoryTiersTest {
  private static final Chip GB200 = Chips.byId("gb200");
  private static final Model LLAMA70 = Models.byId("llama-3.1-70b");
  private static final Model LLAMA405 = Models.byId("llama-3.1-405b");

  @Test
  void maxBatch_llama70bOnGb200_isBoundedByHbmNotHbmPlusLpddr() {
    RooflineModel pool = IdealPools.of(LLAMA70, GB200);
    // per sequence at 2048 tokens: KV 327,680 B/token × 2048 = 671,088,640 B, logits
    // 4 B × 128,256 = 513,024 B; prefill chunk min(b × 2048, 8192) = 8192 tokens × 92,160
    // elements × 2 B = 1,509,949,440 B of activations; weights 141,107,412,992 B (bf16)
    // new rule, KV + workspace ≤ 186e9 B of HBM:
    //   671,601,664 b ≤ 184,490,050,560 → b ≤ 274.7 → 274
    // old rule, total ≤ 186e9 + 467.5e9 B:
    //   671,601,664 b ≤ 510,882,637,568 → b ≤ 760.7 → 760
    assertThat(pool.maxBatch(2048)).isEqualTo(274);
    MemoryUse at274 = pool.memory(274, 2048);
    assertThat(at274.fits()).isTrue();
    assertThat(at274.mainTierReserved().bytes()).isCloseTo(185.529e9, withPercentage(0.01));
    MemoryUse at275 = pool.memory(275, 2048);
    assertThat(at275.fits()).isFalse();
    // 275 sequences still fit every tier together: the LPDDR no longer sizes the batch
    assertThat(at275.total().bytes()).isLessThan(at275.capacity().bytes());
    assertThat(at275.pressure()).isGreaterThan(1.0);
    // at 274 the weights take the 471.2 MB of HBM the KV and workspace leave; 140.64 GB offloaded
    assertThat(at274.weightsByTier().get("hbm").bytes()).isCloseTo(0.4712e9, withPercentage(0.1));
    assertThat(at274.weightsByTier().get("lpddr").bytes())
        .isCloseTo(140.636e9, withPercentage(0.01));
  }

  @Test
  void memory_llama405bFp8OnOneGb200_reservesKvInHbmAndOffloadsWeights() {
    RooflineModel pool =
        RooflineModel.builder()
            .model(LLAMA405)
            .chip(GB200)
            .efficiency(Efficiency.ideal())
            .precisions(LLAMA405.defaultPrecisions().withAllWeights(Precision.FP8))
            .build();
    // batch 1 at 1024: KV 516,096 B/token × 1024 = 528,482,304 B; workspace 1024 tokens × 174,080
    // elements × 2 B + 4 B × 128,256 = 357,028,864 B; both in HBM (885,511,168 B). The weights
    // (405.853e9 B) take the other 185.114e9 B of HBM and put 220.739e9 B on LPDDR
    MemoryUse one = pool.memory(1, 1024);
    assertThat(one.fits()).isTrue();
    assertThat(one.mainTier()).isEqualTo("hbm");
    assertThat(one.byTier().get("hbm").bytes()).isCloseTo(186e9, within(1.0));
    assertThat(one.weightsByTier().get("lpddr").bytes())
        .isCloseTo(405.853e9 - 186e9 + 885.511e6, withPercentage(0.01));
    assertThat(one.toString())
        .contains("hbm: KV + workspace 885.511 MB + weights 185.114 GB of 186 GB")
        .contains("lpddr: weights 220.739 GB of 467.5 GB")
        .endsWith("(fits)");
    // at 2048: 1,056,964,608 B KV + 513,024 B logits per sequence, 2,852,126,720 B activations:
    // 1,057,477,632 b ≤ 186e9 - 2,852,126,720 → b ≤ 173.2 → 173 (HBM + LPDDR together would
    // allow (653.5e9 - 405.853e9 - 2.852e9) / 1,057,477,632 → 231)
    assertThat(pool.maxBatch(2048)).isEqualTo(173);
  }

  @Test
  void placed_llama405bFp8OnOneGb200_readsOnlyOverflowingWeightsFromLpddr() {
    RooflineModel pool =
        RooflineModel.builder()
            .model(LLAMA405)
            .chip(GB200)
            .efficiency(Efficiency.ideal())
            .precisions(LLAMA405.defaultPrecisions().withAllWeights(Precision.FP8))
            .build();
    var target = MemoryPlan.placed(pool, 1, 1024);
    // weights: 185.114e9 / 405.853e9 = 45.61 % from HBM, 54.39 % from LPDDR; KV and activations
    // from HBM, the main tier
    assertThat(target.tierShares(DataKind.WEIGHTS).get("lpddr")).isCloseTo(0.5439, within(1e-4));
    assertThat(target.tierFor(DataKind.KV_READ)).isEqualTo("hbm");
    assertThat(target.tierFor(DataKind.KV_WRITE)).isEqualTo("hbm");
    assertThat(target.tierFor(DataKind.ACTIVATIONS)).isEqualTo("hbm");
  }

  @Test
  void placed_modelWithinHbm_readsEverythingFromHbm() {
    // 141.1e9 B of bf16 Llama-3.1-70B + 1.05e9 B KV and workspace < 186e9 B: nothing on LPDDR
    var target = MemoryPlan.placed(IdealPools.of(LLAMA70, GB200), 1, 2048);
    assertThat(target.tierShares(DataKind.WEIGHTS)).containsOnlyKeys("hbm");
  }

  @Test
  void tiers_mainFirstThenOthersFastestFirst() {
    // SN40L: hbm is its main tier; sram (62.5 TB/s) before ddr (100 GB/s) for offloaded weights
    assertThat(MemoryPlan.tiers(Chips.byId("sambanova-sn40l").memory()).keySet())
        .containsExactly("hbm", "sram", "ddr");
  }

  @Test
  void fits_sramOnlyChip_isKvWorkspaceAndWeightsWithinItsOneTier() {
    MemoryUse use =
        ImmutableMemoryUse.builder()
            .weights(Bytes.of(200e6))
            .kvCache(Bytes.of(20e6))
            .workspace(Bytes.of(5e6))
            .putTier("sram", Bytes.of(230e6))
            .build();
    // 200 + 20 + 5 = 225 MB ≤ 230 MB of SRAM; 10 MB more of weights does not fit
    assertThat(use.fits()).isTrue();
    assertThat(use.byTier()).containsOnlyKeys("sram");
    assertThat(use.toString())
        .isEqualTo("per chip: weights 200 MB + KV 20 MB + workspace 5 MB = 225 MB of 230 MB (fits)");
    assertThat(ImmutableMemoryUse.builder().from(use).weights(Bytes.of(210e6)).build().fits())
        .isFalse();
  }

  @Test
  void fits_kvOverMainTier_doesNotFitThoughAllTiersTogetherWould() {
    MemoryUse use =
        ImmutableMemoryUse.builder()
            .weights(Bytes.of(10e9))
            .kvCache(Bytes.of(180e9))
            .workspace(Bytes.of(10e9))
            .putTier("hbm", Bytes.of(186e9))
            .putTier("lpddr", Bytes.of(467.5e9))
            .build();
    // KV + workspace 190 GB > 186 GB of HBM; total 200 GB < 653.5 GB: does not fit
    assertThat(use.fits()).isFalse();
    assertThat(use.pressure()).isCloseTo(190.0 / 186, within(1e-12));
    assertThat(use.needs())
        .isEqualTo("200 GB per chip (KV + workspace 190 GB in hbm of 186 GB), capacity 653.5 GB");
  }
}
