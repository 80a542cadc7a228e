package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.core.Bound;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.TensorClass;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.Profiles;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class KernelClassTest {
  /** The values of the built-in default profile when this was written (it is refitted). */
  private static final Efficiency DEFAULT_LIKE =
      Efficiency.builder().compute(0.95).memory(0.6655).network(0.2).gemmHalfTokens(128).build();

  @Test
  void of_everyRole_isItsKernelClass() {
    Map<OperationRole, KernelClass> expected = new EnumMap<>(OperationRole.class);
    for (OperationRole r : OperationRole.values()) {
      expected.put(r, KernelClass.ELEMENTWISE);
    }
    expected.put(OperationRole.ATTENTION, KernelClass.ATTENTION);
    expected.put(OperationRole.INDEXER, KernelClass.ATTENTION);
    for (OperationRole r :
        new OperationRole[] {
          OperationRole.ATTENTION_PROJECTION,
          OperationRole.LINEAR_PROJECTION,
          OperationRole.DENSE_FFN,
          OperationRole.ROUTER,
          OperationRole.ROUTED_EXPERTS,
          OperationRole.SHARED_EXPERTS,
          OperationRole.LM_HEAD
        }) {
      expected.put(r, KernelClass.GEMM);
    }
    for (OperationRole r : OperationRole.values()) {
      assertThat(KernelClass.of(r)).as(r.id()).isEqualTo(expected.get(r));
    }
  }

  @Test
  void weightClass_everyRole_isTheTensorClassItsGemmReads() {
    Map<OperationRole, TensorClass> expected = new EnumMap<>(OperationRole.class);
    expected.put(OperationRole.ATTENTION_PROJECTION, TensorClass.ATTENTION);
    expected.put(OperationRole.LINEAR_PROJECTION, TensorClass.ATTENTION);
    expected.put(OperationRole.DENSE_FFN, TensorClass.DENSE_FFN);
    expected.put(OperationRole.ROUTER, TensorClass.DENSE_FFN);
    expected.put(OperationRole.SHARED_EXPERTS, TensorClass.DENSE_FFN);
    expected.put(OperationRole.ROUTED_EXPERTS, TensorClass.EXPERTS);
    expected.put(OperationRole.LM_HEAD, TensorClass.EMBEDDINGS);
    for (OperationRole r : OperationRole.values()) {
      assertThat(KernelClass.weightClass(r))
          .as(r.id())
          .isEqualTo(Optional.ofNullable(expected.get(r)));
      // a role has a weight class exactly when it is a GEMM, and is the attention class exactly
      // when it reads the KV cache
      assertThat(KernelClass.of(r) == KernelClass.GEMM)
          .as(r.id())
          .isEqualTo(expected.containsKey(r));
      assertThat(KernelClass.of(r) == KernelClass.ATTENTION).as(r.id()).isEqualTo(r.readsKvCache());
    }
  }

  @Test
  void fractions_perClass_followTheirFormulas() {
    Efficiency e =
        Efficiency.builder()
            .compute(0.8)
            .memory(0.7)
            .network(1)
            .gemmHalfTokens(64)
            .attention(0.5)
            .build();
    // GEMM: the small-M curve at 64 tokens (0.8 × 64 / (64 + 64) = 0.4 at M = 64); attention and
    // element-wise: no curve; memory: attention its own 0.5 (not the others' 0.7)
    assertThat(KernelClass.GEMM.halfTokens(e)).isEqualTo(64);
    assertThat(KernelClass.GEMM.memoryFraction(e, 0.7)).isEqualTo(0.7);
    assertThat(KernelClass.ATTENTION.halfTokens(e)).isZero();
    assertThat(KernelClass.ATTENTION.memoryFraction(e, 0.7)).isEqualTo(0.5);
    assertThat(KernelClass.ELEMENTWISE.halfTokens(e)).isZero();
    assertThat(KernelClass.ELEMENTWISE.memoryFraction(e, 0.7)).isEqualTo(0.7);
    // ideal: no curve and every class at 100% of bandwidth, so the roofline bound is unchanged
    for (KernelClass k : KernelClass.values()) {
      assertThat(k.halfTokens(Efficiency.ideal())).isZero();
      assertThat(k.memoryFraction(Efficiency.ideal(), 1)).isEqualTo(1);
    }
  }

  @Test
  void decode_deepseekV3Batch8OnH200_mlaAttentionIsMemoryBoundAtItsKvReads() {
    RooflineModel rm =
        RooflineModel.builder()
            .model(Models.byId("deepseek-v3"))
            .chip(Chips.byId("h200-sxm"))
            .efficiency(DEFAULT_LIKE)
            .build();
    PhaseResult attention = rm.decode(8, 4096).phase(PhaseKind.DECODE_ATTENTION);
    double flops = 0;
    double kv = 0;
    for (OperationResult o : attention.operations()) {
      assertThat(o.bound()).isEqualTo(Bound.MEMORY);
      flops += o.operation().flops().flops();
      kv += o.operation().bytes(DataKind.KV_READ).bytes();
    }
    // KV reads: 61 layers × 8 sequences × 4096 tokens × (512 + 64) × 2 B = 2,302,672,896 B
    assertThat(kv).isCloseTo(2_302_672_896.0, withPercentage(1e-6));
    // absorbed MLA: ≈ (2·576 + 2·512) FLOPs × 128 heads × 4096 × 8 × 61 = 557e9 (558.0e9 counted);
    // compute at 0.95 of 989.4 TFLOP/s: 558.0e9 / 939.9e12 = 593.7 µs. Before (the small-M curve
    // at M = 8 tokens: 0.95 × 8 / 136 = 5.6% of peak) it took 10.1 ms and was compute-bound.
    assertThat(flops).isCloseTo(558.0e9, withPercentage(0.1));
    // KV read time: 2.3027e9 B / (4.8 TB/s × 0.6655) = 720.9 µs; with the latent writes and the
    // activations (queries and outputs of 128 heads: 136 MB) 2.4392e9 B / 3.1944e12 = 763.6 µs,
    // 5.9% above the KV reads alone
    double kvSeconds = 2_302_672_896.0 / (4.8e12 * 0.6655);
    assertThat(kvSeconds).isCloseTo(720.9e-6, withPercentage(0.05));
    assertThat(attention.seconds().seconds()).isCloseTo(763.6e-6, withPercentage(0.1));
    assertThat(attention.seconds().seconds() / kvSeconds).isBetween(1.0, 1.07);
  }

  @Test
  void prefill_attentionAtTheLargeGemmComputeOfTheChipsMatmul_noSmallMCurve() {
    Efficiency e =
        Efficiency.builder()
            .compute(0.8)
            .memory(1)
            .network(1)
            .gemmHalfTokens(64)
            .attention(0.5)
            .build();
    RooflineModel rm =
        RooflineModel.builder()
            .model(Models.byId("llama-3.1-8b"))
            .chip(Chips.byId("h100-sxm"))
            .efficiency(e)
            .build();
    OperationResult a =
        rm.prefill(1, 2048).phase(PhaseKind.PREFILL).operations().stream()
            .filter(o -> o.operation().role() == OperationRole.ATTENTION)
            .findFirst()
            .orElseThrow();
    // compute seconds = FLOPs / (989.4 TFLOP/s × 0.803 (the H100's achievable matmul) × 0.8),
    // whatever the step's tokens: 0.6424 of the peak
    assertThat(a.computeSeconds().seconds())
        .isCloseTo(a.operation().flops().flops() / (989.4e12 * 0.803 * 0.8), withPercentage(1e-6));
  }

  @Test
  void gemmDepthFactor_llama70bOutputProjectionAtTp8_isOnePlusDepthOverItsK() {
    Efficiency e = Efficiency.builder().from(Efficiency.ideal()).gemmHalfDepth(360).build();
    // o_proj reduces over 8,192 outputs split by tp 8 (K = 1,024 per chip), in BF16 (scale 1):
    // 1 + 360 × 8 / 8,192 = 1.3515625; in FP8 on an H100 a K step runs 2× faster: 1 + 720 / 1,024
    assertThat(e.gemmDepthFactor(0, 1.0 / 8192, 8, 1)).isEqualTo(1.3515625);
    assertThat(e.gemmDepthFactor(0, 1.0 / 8192, 8, 2)).isEqualTo(1.703125);
    // the ideal efficiency has no depth cost
    assertThat(Efficiency.ideal().gemmDepthFactor(1.0 / 16, 1.0 / 16, 8, 2)).isEqualTo(1);
  }

  @Test
  void depthScale_isTheFormatsPeakOverBf16() {
    var h100 = RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.byId("h100-sxm")).baseTarget();
    // 1,978.9 / 989.4 TFLOP/s for FP8, 1 for BF16
    assertThat(KernelClass.depthScale(h100, io.ridgeline.core.Precision.FP8))
        .isCloseTo(2.0, withPercentage(0.01));
    assertThat(KernelClass.depthScale(h100, io.ridgeline.core.Precision.BF16)).isEqualTo(1);
  }

  @Test
  void prefill_llama70bTp8_outputProjectionPaysItsReductionDepth() {
    Efficiency base =
        Efficiency.builder().compute(0.5).memory(0.7).network(1).gemmHalfTokens(32).build();
    Efficiency deep = Efficiency.builder().from(base).gemmHalfDepth(360).build();
    double[] seconds = new double[2];
    int i = 0;
    for (Efficiency e : new Efficiency[] {base, deep}) {
      RooflineModel rm =
          RooflineModel.builder()
              .from(RooflineModel.of(Models.byId("llama-3.1-70b"), Chips.byId("h100-sxm"), 8))
              .efficiency(e)
              .build();
      seconds[i++] =
          rm.prefill(1, 1024).phase(PhaseKind.PREFILL).operations().stream()
              .filter(o -> o.operation().name().equals("o_proj"))
              .findFirst()
              .orElseThrow()
              .computeSeconds()
              .seconds();
    }
    // compute time ∝ 1 + half / M + depth / K: M = 1,024 tokens, K = 8,192 / 8 = 1,024 per chip:
    // (1 + 32/1,024 + 360/1,024) / (1 + 32/1,024) = 1.3828125 / 1.03125 = 1.3409
    assertThat(seconds[1] / seconds[0]).isCloseTo(1.3828125 / 1.03125, withPercentage(1e-6));
  }

  @Test
  void reductionSplit_perRoleAndLayout() {
    // tp 4, attention dp 2, ep 8 on 8 chips: the attention side and (dp > 1) the dense-FFN class
    // split K over tp; routed experts over tp · dp / ep = 1 (whole experts); the rest over tp · dp
    ParallelLayout l = new ParallelLayout(8, 4, 1, 8, 2);
    assertThat(l.reductionSplit(OperationRole.ATTENTION_PROJECTION)).isEqualTo(4);
    assertThat(l.reductionSplit(OperationRole.DENSE_FFN)).isEqualTo(4);
    assertThat(l.reductionSplit(OperationRole.ROUTED_EXPERTS)).isEqualTo(1);
    assertThat(l.reductionSplit(OperationRole.LM_HEAD)).isEqualTo(8);
    // tp 8 alone: everything over 8, experts too (tensor-parallel experts)
    ParallelLayout tp8 = new ParallelLayout(8, 8, 1, 1, 1);
    assertThat(tp8.reductionSplit(OperationRole.ROUTED_EXPERTS)).isEqualTo(8);
    assertThat(tp8.reductionSplit(OperationRole.DENSE_FFN)).isEqualTo(8);
  }

  @Test
  void deeperTileCost_neverFaster_prefillOrDecode() {
    List<String> models =
        List.of(
            "llama-3.1-8b", "llama-3.1-70b", "deepseek-v2-lite", "qwen3-30b-a3b", "gpt-oss-20b");
    List<String> chips = List.of("h100-sxm", "b200", "mi300x");
    Efficiency base = Profiles.builtIn().forEngine("default").efficiency();
    qt().withFixedSeed(20261203L)
        .withExamples(60)
        .forAll(
            integers().between(0, models.size() - 1),
            integers().between(0, chips.size() - 1),
            integers().between(0, 3),
            integers().between(1, 256))
        .checkAssert(
            (m, c, tpLog, batch) -> {
              int tp = 1 << tpLog;
              double[] prefill = new double[3];
              double[] decode = new double[3];
              double[] prefillDevice = new double[3];
              double[] depths = {0, 256, 640};
              for (int i = 0; i < 3; i++) {
                Efficiency e = Efficiency.builder().from(base).gemmHalfDepth(depths[i]).build();
                RooflineModel rm =
                    RooflineModel.builder()
                        .from(
                            RooflineModel.of(
                                Models.byId(models.get(m)), Chips.byId(chips.get(c)), tp))
                        .efficiency(e)
                        .build();
                prefill[i] = rm.prefill(1, 512).seconds().seconds();
                prefillDevice[i] = rm.prefill(1, 512).stageSeconds().seconds();
                decode[i] = rm.decode(batch, 1024).seconds().seconds();
              }
              // a larger per-tile cost adds compute time to every weight GEMM and removes none
              String what = models.get(m) + " on " + tp + "x " + chips.get(c) + " batch " + batch;
              assertThat(prefill[1]).as(what).isGreaterThanOrEqualTo(prefill[0]);
              assertThat(prefill[2]).as(what).isGreaterThanOrEqualTo(prefill[1]);
              // a 512-token prefill's GEMMs are compute-bound: the cost shows in the device's
              // phases
              // (the pass itself may wait on the host's eager launches instead)
              assertThat(prefillDevice[2]).as(what).isGreaterThan(prefillDevice[0]);
              assertThat(decode[1]).as(what).isGreaterThanOrEqualTo(decode[0]);
              assertThat(decode[2]).as(what).isGreaterThanOrEqualTo(decode[1]);
            });
  }
}
