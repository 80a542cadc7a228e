package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.Bound;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.GemmInputs;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.TensorClass;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import org.junit.jupiter.api.Test;

/**
 * The GEMM precision a pool computes at, resolved against its chip: FP8 checkpoints run W8A8 where
 * the chip has FP8 units, MXFP4 experts W4A4 where it has FP4 units, weight-only BF16 elsewhere.
 */
final class ComputePrecisionTest {
  private static final Model LLAMA70 = Models.byId("llama-3.1-70b");

  private static RooflineModel llama70Fp8(String chip, Precisions p) {
    return RooflineModel.builder()
        .model(LLAMA70)
        .chip(Chips.byId(chip))
        .chips(8)
        .tensorParallel(8)
        .precisions(p)
        .efficiency(Efficiency.ideal())
        .build();
  }

  /** The checkpoint's precisions with every weight in FP8 (as {@code --weights fp8}). */
  private static Precisions fp8Checkpoint() {
    return LLAMA70.defaultPrecisions().withAllWeights(Precision.FP8);
  }

  private static OperationResult prefillOp(RooflineModel rm, OperationRole role) {
    return rm.prefill(1, 8192).phase(PhaseKind.PREFILL).operations().stream()
        .filter(o -> o.operation().role() == role)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void prefill_llama70bFp8On8H100_ffnRunsAtTheFp8Peak() {
    RooflineModel w8a8 = llama70Fp8("h100-sxm", fp8Checkpoint());
    // FFN per layer 3 × 8192 × 28672 = 704,643,072 weights, × 80 layers = 56,371,445,760;
    // FLOPs 2 × 8192 tokens × 56,371,445,760 + 5 × 8192 × 28672 × 80 (SwiGLU) = 9.23675e14,
    // / 8 chips = 1.154594e14 per chip; at 1,978.9 TFLOP/s = 58.35 ms (at 989.4: 116.70 ms).
    // Bytes per chip: 7.05 GB of FP8 weights + activations, ≈ 2.3 ms at 3.35 TB/s: compute-bound
    OperationResult ffn = prefillOp(w8a8, OperationRole.DENSE_FFN);
    assertThat(ffn.operation().precision()).isEqualTo(Precision.FP8);
    assertThat(ffn.operation().flops().flops()).isCloseTo(1.154594e14, withPercentage(0.01));
    assertThat(ffn.bound()).isEqualTo(Bound.COMPUTE);
    assertThat(ffn.seconds().seconds()).isCloseTo(1.154594e14 / 1978.9e12, withPercentage(0.01));
    assertThat(w8a8.toString()).contains("weights fp8, kv bf16, compute fp8 (W8A8)");
  }

  @Test
  void prefill_llama70bFp8On8H100_explicitBf16Activations_keepWeightOnlyRate() {
    Precisions weightOnly =
        Precisions.builder()
            .from(fp8Checkpoint())
            .gemmInputs(GemmInputs.ACTIVATION_PRECISION)
            .build();
    RooflineModel w8a16 = llama70Fp8("h100-sxm", weightOnly);
    OperationResult ffn = prefillOp(w8a16, OperationRole.DENSE_FFN);
    assertThat(ffn.operation().precision()).isEqualTo(Precision.BF16);
    // 1.154594e14 FLOPs / 989.4e12 = 116.70 ms: twice the W8A8 time
    assertThat(ffn.seconds().seconds()).isCloseTo(1.154594e14 / 989.4e12, withPercentage(0.01));
    double w8a8 =
        prefillOp(llama70Fp8("h100-sxm", fp8Checkpoint()), OperationRole.DENSE_FFN)
            .seconds()
            .seconds();
    assertThat(ffn.seconds().seconds() / w8a8).isCloseTo(2.0, withPercentage(0.01));
    assertThat(w8a16.toString()).contains("compute bf16 (weight-only fp8)");
  }

  @Test
  void prefill_llama70bFp8On8A100_computesAtBf16() {
    RooflineModel a100 = llama70Fp8("a100-sxm-80gb", fp8Checkpoint());
    OperationResult ffn = prefillOp(a100, OperationRole.DENSE_FFN);
    assertThat(ffn.operation().precision()).isEqualTo(Precision.BF16);
    // 1.154594e14 FLOPs / 312e12 = 370.06 ms
    assertThat(ffn.seconds().seconds()).isCloseTo(1.154594e14 / 312e12, withPercentage(0.01));
    assertThat(a100.toString()).contains("compute bf16 (weight-only fp8)");
  }

  @Test
  void activations_intoAnFp8Gemm_moveOneBytePerElement() {
    // decode of 1 sequence: FFN activations per layer 2·8192 + 3·28672 = 102,400 elements,
    // × 80 layers = 8,192,000, / 8 chips = 1,024,000 per chip: 1.024 MB at 1 B (2.048 MB at 2 B)
    double w8a8 =
        llama70Fp8("h100-sxm", fp8Checkpoint())
            .decode(1, 1024)
            .phase(PhaseKind.DECODE_FFN)
            .operations()
            .get(0)
            .operation()
            .bytes(DataKind.ACTIVATIONS)
            .bytes();
    assertThat(w8a8).isCloseTo(1.024e6, withPercentage(0.01));
  }

  @Test
  void gptOss120b_expertsOnB200_runAtTheFp4Peak_onH100_atBf16() {
    Model gptOss = Models.byId("gpt-oss-120b");
    Chip b200 = Chips.byId("b200");
    RooflineModel onB200 = IdealPools.of(gptOss, b200);
    assertThat(onB200.computePrecisions().matmul(TensorClass.EXPERTS)).isEqualTo(Precision.MXFP4);
    assertThat(onB200.computePrecisions().matmul(TensorClass.ATTENTION)).isEqualTo(Precision.BF16);
    OperationResult experts = prefillOp(onB200, OperationRole.ROUTED_EXPERTS);
    assertThat(experts.operation().precision()).isEqualTo(Precision.MXFP4);
    // MXFP4 math runs at the FP4 peak: 9,000 TFLOP/s dense on B200
    assertThat(onB200.target().peak(experts.operation().precision()).flopsPerSecond())
        .isEqualTo(9000e12);
    assertThat(onB200.toString()).contains("mxfp4 (W4A4) for experts");

    RooflineModel onH100 = IdealPools.of(gptOss, Chips.byId("h100-sxm"));
    // no FP4 units on Hopper: weight-only, MXFP4 dequantized to BF16 (W4A16)
    assertThat(onH100.computePrecisions().matmul(TensorClass.EXPERTS)).isEqualTo(Precision.BF16);
    assertThat(onH100.toString())
        .contains("compute bf16, bf16 (weight-only mxfp4) for experts; ideal");
  }
}
