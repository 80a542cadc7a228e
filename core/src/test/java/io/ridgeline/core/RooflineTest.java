package io.ridgeline.core;

import static io.ridgeline.core.CoreFixtures.FFN_ELEMENTS;
import static io.ridgeline.core.CoreFixtures.H100_BF16;
import static io.ridgeline.core.CoreFixtures.H100_FP8;
import static io.ridgeline.core.CoreFixtures.H100_HBM;
import static io.ridgeline.core.CoreFixtures.LINK;
import static io.ridgeline.core.CoreFixtures.LINK_LATENCY;
import static io.ridgeline.core.CoreFixtures.allReduce;
import static io.ridgeline.core.CoreFixtures.assertRelativelyClose;
import static io.ridgeline.core.CoreFixtures.gemm;
import static io.ridgeline.core.CoreFixtures.gemv;
import static io.ridgeline.core.CoreFixtures.h100;
import static io.ridgeline.core.CoreFixtures.h100WithLink;
import static io.ridgeline.core.CoreFixtures.h100WithSram;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Worked roofline examples on the H100-SXM-like target of {@link CoreFixtures}. */
final class RooflineTest {

  // 2·4096·14336 = 117,440,512 FLOPs and bytes
  private static final double GEMV_FLOPS = 2 * FFN_ELEMENTS;
  // 2·8192³ = 1,099,511,627,776 FLOPs; 8192²·2 + 2·8192²·2 = 402,653,184 B
  private static final double GEMM_FLOPS = 2.0 * 8192 * 8192 * 8192;
  private static final double GEMM_BYTES = 402_653_184;

  @Test
  void evaluate_gemv_isMemoryBoundAtBytesOverBandwidth() {
    OperationResult r = Roofline.evaluate(gemv(), h100());
    // memory: 117,440,512 B / 3.35e12 B/s = 35.0569 µs
    // compute: 117,440,512 FLOP / 989.4e12 FLOP/s = 0.118699 µs
    assertThat(r.bound()).isEqualTo(Bound.MEMORY);
    assertThat(r.memorySeconds().seconds()).isEqualTo(GEMV_FLOPS / H100_HBM);
    assertThat(r.computeSeconds().seconds()).isEqualTo(GEMV_FLOPS / H100_BF16);
    assertThat(r.networkSeconds()).isEqualTo(Seconds.ZERO);
    assertThat(r.seconds()).isEqualTo(r.memorySeconds());
    assertThat(r.seconds().seconds()).isCloseTo(35.0569e-6, within(1e-10));
    assertThat(r.intensity()).isEqualTo(FlopsPerByte.of(1));
    assertThat(r.bytesByTier()).containsExactly(Map.entry("hbm", Bytes.of(GEMV_FLOPS)));
  }

  @Test
  void toString_gemvResult_printsTimeBoundAndIntensity() {
    assertThat(Roofline.evaluate(gemv(), h100()))
        .hasToString("ffn_up: 35.0569 µs memory-bound, 1 FLOP/B");
  }

  @Test
  void evaluate_bigGemm_isComputeBoundAtFlopsOverPeak() {
    OperationResult r = Roofline.evaluate(gemm(), h100());
    // intensity 1,099,511,627,776 / 402,653,184 = 2730.67 FLOP/B > ridge 295.34 FLOP/B
    // compute: 1,099,511,627,776 / 989.4e12 = 1.11129 ms; memory: 402,653,184 / 3.35e12 = 120.195
    // µs
    assertThat(r.bound()).isEqualTo(Bound.COMPUTE);
    assertThat(r.seconds().seconds()).isEqualTo(GEMM_FLOPS / H100_BF16);
    assertThat(r.seconds().seconds()).isCloseTo(1.11129e-3, within(1e-8));
    assertThat(r.memorySeconds().seconds()).isEqualTo(GEMM_BYTES / H100_HBM);
    assertThat(r.intensity().flopsPerByte()).isCloseTo(2730.67, within(0.01));
  }

  @Test
  void evaluate_fp8Gemm_usesFp8Peak() {
    // 1,099,511,627,776 / 1978.9e12 = 0.555618 ms
    OperationResult r = Roofline.evaluate(gemm(Precision.FP8), h100());
    assertThat(r.computeSeconds().seconds()).isEqualTo(GEMM_FLOPS / H100_FP8);
    assertThat(r.seconds().seconds()).isCloseTo(0.555618e-3, within(1e-9));
  }

  @Test
  void evaluate_fp8GemmOnBf16OnlyTarget_runsAtBf16Peak() {
    ComputeTarget a100 =
        ComputeTarget.builder()
            .from(h100())
            .name("bf16-only")
            .peaks(Map.of(Precision.BF16, FlopsPerSecond.ofTera(312)))
            .build();
    // 1,099,511,627,776 / 312e12 = 3.52408 ms
    assertThat(Roofline.evaluate(gemm(Precision.FP8), a100).seconds().seconds())
        .isEqualTo(GEMM_FLOPS / 312e12);
  }

  @Test
  void evaluate_bytesOnTwoTiers_sumsPerTierTimes() {
    Operation op =
        Operation.builder()
            .name("decode_attn_ffn")
            .role(OperationRole.DENSE_FFN)
            .flops(Flops.of(1e9))
            .precision(Precision.BF16)
            .putBytes(DataKind.WEIGHTS, Bytes.ofGigabytes(1))
            .putBytes(DataKind.KV_READ, Bytes.of(3.35e8))
            .build();
    OperationResult r = Roofline.evaluate(op, h100WithSram());
    // weights on sram: 1e9 B / 10e12 B/s = 100 µs; KV on hbm: 3.35e8 / 3.35e12 = 100 µs
    // tiers are read in turn: 100 µs + 100 µs = 200 µs (not max = 100 µs)
    // compute: 1e9 / 989.4e12 = 1.01 µs
    assertThat(r.memorySeconds().seconds()).isCloseTo(200e-6, within(1e-15));
    assertThat(r.seconds()).isEqualTo(r.memorySeconds());
    assertThat(r.bound()).isEqualTo(Bound.MEMORY);
    assertThat(r.bytesByTier())
        .containsOnly(Map.entry("sram", Bytes.ofGigabytes(1)), Map.entry("hbm", Bytes.of(3.35e8)));
  }

  @Test
  void evaluate_twoKindsOnOneTier_addsTheirBytes() {
    // 134,217,728 + 268,435,456 = 402,653,184 B on hbm
    OperationResult r = Roofline.evaluate(gemm(), h100());
    assertThat(r.bytesByTier()).containsExactly(Map.entry("hbm", Bytes.of(GEMM_BYTES)));
  }

  @Test
  void evaluate_allReduceWithLink_isCommunicationBound() {
    OperationResult r = Roofline.evaluate(allReduce(), h100WithLink());
    // network: 14 steps · 1 µs + 28e6 B / 450e9 B/s = 14 µs + 62.2222 µs = 76.2222 µs
    // memory: 32e6 / 3.35e12 = 9.55 µs; compute: 7e6 / 989.4e12 = 7.07 ns
    assertThat(r.bound()).isEqualTo(Bound.COMMUNICATION);
    assertThat(r.networkSeconds().seconds()).isEqualTo(14 * LINK_LATENCY + 28e6 / LINK);
    assertThat(r.seconds().seconds()).isCloseTo(76.2222e-6, within(1e-10));
    assertThat(r.memorySeconds().seconds()).isEqualTo(32e6 / H100_HBM);
  }

  @Test
  void evaluate_networkOpWithoutLink_throwsNamingOpAndTarget() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Roofline.evaluate(allReduce(), h100()));
    assertThat(e).hasMessageContaining("all_reduce").hasMessageContaining("h100-like");
  }

  @Test
  void evaluate_networkStepsOnlyWithoutLink_throws() {
    Operation barrier =
        Operation.builder()
            .name("barrier")
            .role(OperationRole.TP_ALL_REDUCE)
            .flops(Flops.ZERO)
            .precision(Precision.BF16)
            .networkSteps(3)
            .build();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Roofline.evaluate(barrier, h100()));
    assertThat(e).hasMessageContaining("barrier");
    // with the link: 3 steps · 1 µs = 3 µs
    assertThat(Roofline.evaluate(barrier, h100WithLink()).seconds().seconds())
        .isCloseTo(3e-6, within(1e-18));
  }

  @Test
  void evaluate_localOpOnTargetWithLink_hasNoNetworkTime() {
    assertThat(Roofline.evaluate(gemv(), h100WithLink()).networkSeconds()).isEqualTo(Seconds.ZERO);
  }

  @Test
  void evaluate_memoryEfficiency_dividesMemoryTime() {
    OperationResult ideal = Roofline.evaluate(gemv(), h100());
    OperationResult real = Roofline.evaluate(gemv(), h100().withEfficiency(1, 0.8, 1));
    // 117,440,512 / (3.35e12 · 0.8) = 35.0569 µs / 0.8 = 43.8211 µs
    assertRelativelyClose(
        real.memorySeconds().seconds(), ideal.memorySeconds().seconds() / 0.8, 1e-15);
    assertThat(real.seconds().seconds()).isCloseTo(43.8211e-6, within(1e-10));
    assertThat(real.computeSeconds()).isEqualTo(ideal.computeSeconds());
  }

  @Test
  void evaluate_computeEfficiency_dividesComputeTime() {
    // 1.11129 ms / 0.5 = 2.22258 ms
    OperationResult r = Roofline.evaluate(gemm(), h100().withEfficiency(0.5, 1, 1));
    assertThat(r.computeSeconds().seconds()).isEqualTo(GEMM_FLOPS / (H100_BF16 * 0.5));
    assertThat(r.seconds().seconds()).isCloseTo(2.22258e-3, within(1e-8));
  }

  @Test
  void evaluate_networkEfficiency_dividesBandwidthTermOnly() {
    ComputeTarget t = h100WithLink().withEfficiency(1, 1, 0.5);
    // 14 · 1 µs + 28e6 / (450e9 · 0.5) = 14 µs + 124.444 µs = 138.444 µs: latency is not scaled
    assertThat(Roofline.evaluate(allReduce(), t).networkSeconds().seconds())
        .isCloseTo(138.444e-6, within(1e-9));
  }

  @Test
  void evaluate_zeroFlopsInUnsupportedPrecision_takesNoComputeTime() {
    Operation copy =
        Operation.builder()
            .name("copy")
            .role(OperationRole.EMBEDDING)
            .flops(Flops.ZERO)
            .precision(Precision.FP32)
            .putBytes(DataKind.ACTIVATIONS, Bytes.of(3.35e6))
            .build();
    // 3.35e6 B / 3.35e12 B/s = 1 µs; no FP32 peak is needed for zero FLOPs
    OperationResult r = Roofline.evaluate(copy, h100());
    assertThat(r.computeSeconds()).isEqualTo(Seconds.ZERO);
    assertThat(r.seconds().seconds()).isCloseTo(1e-6, within(1e-18));
  }

  @Test
  void evaluate_flopsInUnsupportedPrecision_throws() {
    Operation op = gemm(Precision.FP32);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Roofline.evaluate(op, h100()));
    assertThat(e)
        .hasMessageContaining("fp32")
        .hasMessageContaining("bf16")
        .hasMessageContaining("fp8");
  }

  @Test
  void bound_tieBetweenComputeAndMemory_isCompute() {
    // at the ridge point: 1 s of compute (989.4e12 FLOPs) and 1 s of memory (3.35e12 B)
    Operation atRidge =
        Operation.builder()
            .name("ridge")
            .role(OperationRole.DENSE_FFN)
            .flops(Flops.of(H100_BF16))
            .precision(Precision.BF16)
            .putBytes(DataKind.WEIGHTS, Bytes.of(H100_HBM))
            .build();
    OperationResult r = Roofline.evaluate(atRidge, h100());
    assertThat(r.computeSeconds()).isEqualTo(r.memorySeconds());
    assertThat(r.bound()).isEqualTo(Bound.COMPUTE);
  }

  // ---- phases ----------------------------------------------------------------------------------

  @Test
  void phase_gemvThenGemm_sumsTimesAndPoolsIntensity() {
    PhaseResult p = Roofline.phase(PhaseKind.DECODE_FFN, List.of(gemv(), gemm()), h100());
    // 35.0569 µs + 1111.29 µs = 1146.35 µs
    assertThat(p.seconds().seconds())
        .isEqualTo(GEMV_FLOPS / H100_HBM + GEMM_FLOPS / H100_BF16)
        .isCloseTo(1.14635e-3, within(1e-8));
    // FLOPs: 117,440,512 + 1,099,511,627,776 = 1,099,629,068,288
    assertThat(p.flops()).isEqualTo(Flops.of(1_099_629_068_288.0));
    // bytes: 117,440,512 + 402,653,184 = 520,093,696
    assertThat(p.bytes()).isEqualTo(Bytes.of(520_093_696));
    // intensity: 1,099,629,068,288 / 520,093,696 = 2114.29 FLOP/B (not the mean of 1 and 2730.67)
    assertThat(p.intensity().flopsPerByte()).isCloseTo(2114.29, within(0.01));
    assertThat(p.networkBytes()).isEqualTo(Bytes.ZERO);
    assertThat(p.operations())
        .extracting(r -> r.operation().name())
        .containsExactly("ffn_up", "gemm_8192");
  }

  @Test
  void phase_secondsByBound_groupsTimesAndPicksDominantBound() {
    PhaseResult p = Roofline.phase(PhaseKind.DECODE_FFN, List.of(gemv(), gemm(), gemv()), h100());
    // memory: 2 · 35.0569 µs = 70.1138 µs; compute: 1111.29 µs -> compute-bound
    assertThat(p.secondsByBound()).containsOnlyKeys(Bound.MEMORY, Bound.COMPUTE);
    assertThat(p.secondsByBound().get(Bound.MEMORY).seconds())
        .isEqualTo(GEMV_FLOPS / H100_HBM + GEMV_FLOPS / H100_HBM);
    assertThat(p.bound()).isEqualTo(Bound.COMPUTE);
    assertThat(Roofline.phase(PhaseKind.DECODE_FFN, List.of(gemv(), gemv()), h100()).bound())
        .isEqualTo(Bound.MEMORY);
  }

  @Test
  void phase_withAllReduce_countsNetworkBytes() {
    PhaseResult p =
        Roofline.phase(
            PhaseKind.DECODE_COMMUNICATION, List.of(gemv(), allReduce()), h100WithLink());
    assertThat(p.networkBytes()).isEqualTo(Bytes.of(28e6));
    // 35.0569 µs + 76.2222 µs = 111.279 µs
    assertThat(p.seconds().seconds()).isCloseTo(111.279e-6, within(1e-9));
  }

  @Test
  void phase_empty_isZeroTimeComputeBound() {
    PhaseResult p = Roofline.phase(PhaseKind.DECODE_OTHER, List.of(), h100());
    assertThat(p.seconds()).isEqualTo(Seconds.ZERO);
    assertThat(p.intensity()).isEqualTo(FlopsPerByte.ZERO);
    assertThat(p.bound()).isEqualTo(Bound.COMPUTE);
    assertThat(PhaseResult.empty(PhaseKind.DECODE_OTHER)).isEqualTo(p);
  }

  @Test
  void phaseOn_target_equalsRooflinePhase() {
    Phase phase = Phase.of(PhaseKind.DECODE_FFN, List.of(gemv(), gemm()));
    assertThat(phase.on(h100()))
        .isEqualTo(Roofline.phase(PhaseKind.DECODE_FFN, List.of(gemv(), gemm()), h100()));
  }

  @Test
  void toString_phaseResult_printsTotalsUnderRootLocale() {
    PhaseResult p = Roofline.phase(PhaseKind.DECODE_FFN, List.of(gemv()), h100());
    assertThat(p)
        .hasToString("decode_ffn: 117.441 MFLOP, 117.441 MB, 1 FLOP/B, memory-bound, 35.0569 µs");
  }
}
