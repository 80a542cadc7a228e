package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.List;
import org.junit.jupiter.api.Test;

final class KvOffloadTest {
  private static final Model LLAMA_8B = Models.byId("llama-3.1-8b");

  private static RooflineModel pool(Model m, Chip chip, KvOffload offload, Efficiency e) {
    return RooflineModel.builder().model(m).chip(chip).efficiency(e).kvOffload(offload).build();
  }

  private static double fetchSeconds(StepResult prefill) {
    double s = 0;
    for (PhaseResult p : prefill.phases()) {
      for (OperationResult o : p.operations()) {
        if (o.operation().role() == OperationRole.KV_FETCH) {
          s += o.seconds().seconds();
        }
      }
    }
    return s;
  }

  @Test
  void history_gh200Llama8b_32kCached_addsTheFetchFromLpddrToPrefill() {
    // Llama-3.1-8B, bf16 KV: 32 layers × 8 KV heads × 128 dims × 2 (K, V) × 2 B = 131,072 B per
    // token; 32,768 cached tokens = 4,294,967,296 B; GH200's LPDDR5X tier reads 450e9 B/s:
    // 4.295e9 / 450e9 = 9.544 ms at the roofline bound, added to the prompt's prefill
    Workload w = Workload.of(256, 1).withCachedTokens(32_768);
    StepResult kept = pool(LLAMA_8B, Chips.GH200, KvOffload.NONE, Efficiency.ideal()).prefill(1, w);
    StepResult fetched =
        pool(LLAMA_8B, Chips.GH200, KvOffload.HISTORY, Efficiency.ideal()).prefill(1, w);
    double expected = 32_768.0 * 131_072 / 450e9;
    assertThat(fetchSeconds(fetched)).isCloseTo(expected, within(1e-9));
    assertThat(fetched.seconds().seconds() - kept.seconds().seconds())
        .isCloseTo(expected, within(1e-9));
    assertThat(fetchSeconds(kept)).isZero();
  }

  @Test
  void history_decodeAndMemory_areAsWithoutOffload() {
    // the fetched KV stays in HBM while the request runs: same step, same memory, same batch
    RooflineModel none = pool(LLAMA_8B, Chips.GH200, KvOffload.NONE, Efficiency.standard());
    RooflineModel history = pool(LLAMA_8B, Chips.GH200, KvOffload.HISTORY, Efficiency.standard());
    assertThat(history.decode(8, 33_024).seconds()).isEqualTo(none.decode(8, 33_024).seconds());
    assertThat(history.maxBatch(33_024)).isEqualTo(none.maxBatch(33_024));
    // no history: nothing to fetch
    assertThat(history.prefill(1, 1024).seconds()).isEqualTo(none.prefill(1, 1024).seconds());
  }

  @Test
  void spill_gh200Llama8b_40SequencesOf32k_readTheKvHbmCannotHoldFromLpddr() {
    // 40 sequences × 32,768 tokens × 131,072 B = 171.8 GB of KV against 96 GB of HBM: the HBM holds
    // the workspace and 96e9 − workspace of KV, the LPDDR5X the rest of the KV and, HBM being full,
    // all 16.06 GB of weights. A decode step reads every byte once: the LPDDR5X bytes at 450e9
    // B/s, so the step takes at least (KV in LPDDR5X + weights) / 450e9
    RooflineModel spill = pool(LLAMA_8B, Chips.GH200, KvOffload.SPILL, Efficiency.ideal());
    int batch = 40;
    int context = 32_768;
    MemoryUse m = spill.memory(batch, context);
    double kv = 40.0 * 32_768 * 131_072;
    assertThat(m.kvCache().bytes()).isCloseTo(kv, within(1.0));
    assertThat(m.kvCacheInMainTier().bytes()).isCloseTo(96e9 - m.workspace().bytes(), within(1.0));
    assertThat(m.kvCacheOffloaded().bytes())
        .isCloseTo(kv - (96e9 - m.workspace().bytes()), within(1.0));
    assertThat(m.weightsByTier()).containsOnlyKeys("lpddr");
    assertThat(m.fits()).isTrue();
    // without the policy the same batch does not fit: KV + workspace exceed the 96 GB of HBM
    assertThat(
            pool(LLAMA_8B, Chips.GH200, KvOffload.NONE, Efficiency.ideal())
                .memory(batch, context)
                .fits())
        .isFalse();
    StepResult step = spill.decode(batch, context);
    double lpddrBytes = 0;
    for (PhaseResult p : step.phases()) {
      for (OperationResult o : p.operations()) {
        lpddrBytes += o.bytesByTier().getOrDefault("lpddr", Bytes.ZERO).bytes();
      }
    }
    // the KV read in the step is the cache (plus the new token's write, a 1/32,768 share); the
    // weights read are all but the embedding table, whose 40 rows are gathered rather than the
    // 128,256 × 4,096 × 2 B = 1.05 GB streamed
    double embedding = 128_256.0 * 4096 * 2;
    double expectedLpddr = m.kvCacheOffloaded().bytes() + m.weights().bytes() - embedding;
    assertThat(lpddrBytes).isCloseTo(expectedLpddr, within(expectedLpddr * 1e-3));
    assertThat(step.seconds().seconds()).isGreaterThanOrEqualTo(expectedLpddr / 450e9 * 0.999);
  }

  @Test
  void spill_raisesTheLargestBatchToWhatHbmAndLpddrHoldTogether() {
    // GH200: 96 GB HBM + 480 GB LPDDR5X; at 32,768 tokens a sequence is 4.295 GB of KV. Without
    // offload the KV and the 0.77 GB workspace must fit in HBM (the weights then spill to LPDDR5X):
    // (96 − 0.77) / 4.295 = 22.2 → 22 sequences; with spill everything must fit in both tiers:
    // (576 − 16.06 weights − 0.77) / 4.295 = 130.2 → 130
    RooflineModel none = pool(LLAMA_8B, Chips.GH200, KvOffload.NONE, Efficiency.ideal());
    RooflineModel spill = pool(LLAMA_8B, Chips.GH200, KvOffload.SPILL, Efficiency.ideal());
    int kept = none.maxBatch(32_768);
    int spilled = spill.maxBatch(32_768);
    assertThat(kept).isEqualTo(22);
    assertThat(spilled).isBetween(129, 130);
    MemoryUse m = spill.memory(spilled, 32_768);
    assertThat(m.total().bytes()).isLessThanOrEqualTo(576e9);
    assertThat(spill.memory(spilled + 1, 32_768).fits()).isFalse();
  }

  @Test
  void offload_onAChipWithoutASlowerTier_isOneLineNamingTheOption() {
    for (KvOffload k : List.of(KvOffload.HISTORY, KvOffload.SPILL, KvOffload.ALL)) {
      assertThatThrownBy(() -> pool(LLAMA_8B, Chips.H100_SXM, k, Efficiency.ideal()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("--kv-offload " + k.id())
          .hasMessageContaining("h100-sxm")
          .hasMessageContaining("gh200")
          .hasMessageNotContaining("\n");
    }
    // Gaudi 3's second tier is a faster SRAM: no offload tier
    assertThat(KvOffload.tier(Chips.GAUDI3)).isEmpty();
    // SambaNova SN40L: DDR (100 GB/s), not its SRAM
    assertThat(KvOffload.tier(Chips.SAMBANOVA_SN40L).get().name()).isEqualTo("ddr");
    assertThat(KvOffload.tier(Chips.GB200).get().name()).isEqualTo("lpddr");
  }

  @Test
  void of_unknownPolicy_namesTheOptionAndTheKnownOnes() {
    assertThat(KvOffload.of("SPILL")).isEqualTo(KvOffload.SPILL);
    assertThatThrownBy(() -> KvOffload.of("host"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--kv-offload must be one of none, history, spill, all: 'host'");
  }

  @Test
  void offload_neverMakesAStepFaster_andChangesNothingWhenTheKvFitsInHbm() {
    List<Model> models =
        List.of(LLAMA_8B, Models.byId("qwen3-30b-a3b"), Models.byId("gpt-oss-20b"));
    List<Chip> chips = List.of(Chips.GH200, Chips.GB200, Chips.GB300);
    qt().withExamples(40)
        .forAll(
            integers().between(0, models.size() * chips.size() - 1),
            integers().between(1, 256),
            integers().between(1, 200_000),
            integers().between(1, KvOffload.values().length - 1))
        .checkAssert(
            (sys, batch, context, k) -> {
              Model m = models.get(sys % models.size());
              Chip c = chips.get(sys / models.size());
              KvOffload policy = KvOffload.values()[k];
              RooflineModel kept = pool(m, c, KvOffload.NONE, Efficiency.standard());
              RooflineModel off = pool(m, c, policy, Efficiency.standard());
              MemoryUse inHbm = kept.memory(batch, context);
              double keptStep = kept.decode(batch, context).seconds().seconds();
              double offStep = off.decode(batch, context).seconds().seconds();
              if (inHbm.fits()) {
                // the KV fits in HBM: offloading changes neither the step nor the placement
                assertThat(offStep).isEqualTo(keptStep);
                assertThat(off.memory(batch, context).byTier()).isEqualTo(inHbm.byTier());
              } else {
                // it does not: a spilled step reads some bytes at the slower tier's bandwidth
                assertThat(offStep).isGreaterThanOrEqualTo(keptStep * (1 - 1e-12));
              }
              Workload w = Workload.of(Math.max(1, context / 8), 1).withCachedTokens(context);
              assertThat(off.prefill(1, w).seconds().seconds())
                  .isGreaterThanOrEqualTo(kept.prefill(1, w).seconds().seconds());
              assertThat(off.maxBatch(context)).isGreaterThanOrEqualTo(kept.maxBatch(context));
            });
  }
}
