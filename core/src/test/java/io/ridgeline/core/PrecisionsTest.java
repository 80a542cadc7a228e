package io.ridgeline.core;

import static io.ridgeline.core.Precision.BF16;
import static io.ridgeline.core.Precision.FP16;
import static io.ridgeline.core.Precision.FP32;
import static io.ridgeline.core.Precision.FP4;
import static io.ridgeline.core.Precision.FP8;
import static io.ridgeline.core.Precision.INT4;
import static io.ridgeline.core.Precision.INT8;
import static io.ridgeline.core.Precision.MXFP4;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

final class PrecisionsTest {

  @Test
  void bf16_allFields_areBf16() {
    Precisions p = Precisions.bf16();
    assertThat(p.weights()).isEqualTo(BF16);
    assertThat(p.kvCache()).isEqualTo(BF16);
    assertThat(p.activations()).isEqualTo(BF16);
    assertThat(Precisions.builder().build()).isEqualTo(p);
  }

  @Test
  void matmul_w8a16_runsAtBf16() {
    assertThat(Precisions.of(FP8, BF16, BF16).matmul()).isEqualTo(BF16);
  }

  @Test
  void matmul_w8a8_runsAtFp8() {
    assertThat(Precisions.of(FP8, BF16, FP8).matmul()).isEqualTo(FP8);
  }

  @Test
  void matmul_w4a16_runsAtBf16() {
    assertThat(Precisions.of(INT4, BF16, BF16).matmul()).isEqualTo(BF16);
    assertThat(Precisions.of(FP4, BF16, FP4).matmul()).isEqualTo(FP4);
  }

  @Test
  void matmul_widerActivations_winOverWeights() {
    assertThat(Precisions.of(BF16, BF16, FP32).matmul()).isEqualTo(FP32);
  }

  @Test
  void attention_fp8CacheBf16Activations_runsAtBf16() {
    assertThat(Precisions.of(FP8, FP8, BF16).attention()).isEqualTo(BF16);
  }

  @Test
  void attention_fp8CacheFp8Activations_runsAtFp8() {
    assertThat(Precisions.of(BF16, FP8, FP8).attention()).isEqualTo(FP8);
  }

  @Test
  void attention_ignoresWeights() {
    assertThat(Precisions.of(FP32, FP16, FP8).attention()).isEqualTo(FP16);
  }

  @Test
  void builder_unsetFields_defaultToBf16() {
    Precisions p = Precisions.builder().weights(FP8).build();
    assertThat(p).isEqualTo(Precisions.of(FP8, BF16, BF16));
  }

  @Test
  void toString_weightOnly_saysComputeAndScheme() {
    // explicit activations (Precisions.of): fp8 weights dequantized to bf16 GEMMs
    assertThat(Precisions.of(FP8, BF16, BF16))
        .hasToString("weights fp8, kv bf16, compute bf16 (weight-only fp8)");
    assertThat(Precisions.bf16()).hasToString("weights bf16, kv bf16, compute bf16");
    assertThat(Precisions.of(FP8, BF16, FP8))
        .hasToString("weights fp8, kv bf16, activations fp8, compute fp8");
  }

  // ---- the GEMM rule with GemmInputs.WEIGHT_PRECISION, resolved against a chip ----

  /** H100 SXM dense peaks: bf16 989.4, fp8 1,978.9 TFLOP/s (no FP4 units). */
  private static final ComputeTarget H100 = target("h100", Map.of(BF16, 989.4e12, FP8, 1978.9e12));

  /** A100: bf16 312 TFLOP/s, int8 624 TOPS, no FP8 units. */
  private static final ComputeTarget A100 = target("a100", Map.of(BF16, 312e12, INT8, 624e12));

  /** B200: bf16 2,250, fp8 4,500, fp4 9,000 TFLOP/s. */
  private static final ComputeTarget B200 =
      target("b200", Map.of(BF16, 2250e12, FP8, 4500e12, FP4, 9000e12));

  private static ComputeTarget target(String name, Map<Precision, Double> peaks) {
    ComputeTarget.Builder b =
        ComputeTarget.builder()
            .name(name)
            .putTierBandwidth("hbm", BytesPerSecond.of(3.35e12))
            .mainTier("hbm");
    peaks.forEach((p, f) -> b.putPeak(p, FlopsPerSecond.of(f)));
    return b.build();
  }

  private static Precisions checkpoint(Precision weights) {
    return Precisions.builder().gemmInputs(GemmInputs.WEIGHT_PRECISION).weights(weights).build();
  }

  @Test
  void matmul_fp8CheckpointOnH100_runsW8a8AtTheFp8Peak() {
    Precisions p = checkpoint(FP8).resolvedFor(H100);
    assertThat(p.matmul()).isEqualTo(FP8);
    assertThat(p.matmul(TensorClass.DENSE_FFN)).isEqualTo(FP8);
    // 1,978.9 TFLOP/s instead of the 989.4 of weight-only: twice the GEMM rate
    assertThat(H100.peak(p.matmul()).flopsPerSecond()).isEqualTo(1978.9e12);
    // GEMM inputs quantized per token: 1 B/element of activation traffic instead of 2
    assertThat(p.gemmActivations(TensorClass.DENSE_FFN)).isEqualTo(FP8);
    // attention math and the cache keep their precisions
    assertThat(p.attention()).isEqualTo(BF16);
    assertThat(p).hasToString("weights fp8, kv bf16, compute fp8 (W8A8)");
  }

  @Test
  void matmul_fp8CheckpointOnA100_fallsBackToWeightOnlyBf16() {
    Precisions p = checkpoint(FP8).resolvedFor(A100);
    assertThat(p.matmul()).isEqualTo(BF16);
    assertThat(p.gemmActivations(TensorClass.DENSE_FFN)).isEqualTo(BF16);
    assertThat(p).hasToString("weights fp8, kv bf16, compute bf16 (weight-only fp8)");
  }

  @Test
  void matmul_mxfp4ExpertsOnB200_runW4a4AtTheFp4Peak_restBf16() {
    Precisions p =
        Precisions.builder()
            .gemmInputs(GemmInputs.WEIGHT_PRECISION)
            .putWeightOverride(TensorClass.EXPERTS, MXFP4)
            .build()
            .resolvedFor(B200);
    assertThat(p.matmul(TensorClass.EXPERTS)).isEqualTo(MXFP4);
    assertThat(B200.peak(p.matmul(TensorClass.EXPERTS)).flopsPerSecond()).isEqualTo(9000e12);
    assertThat(p.matmul(TensorClass.ATTENTION)).isEqualTo(BF16);
    // MXFP4 activations: 17 B per 32 elements
    assertThat(p.gemmActivations(TensorClass.EXPERTS).bytesPerElement()).isEqualTo(0.53125);
    assertThat(p)
        .hasToString(
            "weights bf16 (experts mxfp4), kv bf16, compute bf16, mxfp4 (W4A4) for experts");
  }

  @Test
  void matmul_mxfp4ExpertsOnH100_withoutFp4Units_areWeightOnlyBf16() {
    Precisions p =
        Precisions.builder()
            .gemmInputs(GemmInputs.WEIGHT_PRECISION)
            .putWeightOverride(TensorClass.EXPERTS, MXFP4)
            .build()
            .resolvedFor(H100);
    assertThat(p.matmul(TensorClass.EXPERTS)).isEqualTo(BF16);
    assertThat(p.gemmActivations(TensorClass.EXPERTS)).isEqualTo(BF16);
  }

  @Test
  void matmul_nvfp4CheckpointOnB200_runsW4a4() {
    Precisions p = checkpoint(FP4).resolvedFor(B200);
    assertThat(p.matmul()).isEqualTo(FP4);
    assertThat(p).hasToString("weights fp4, kv bf16, compute fp4 (W4A4)");
  }

  @Test
  void matmul_intWeights_stayWeightOnlyEvenWithIntUnits() {
    // AWQ/GPTQ INT4 and INT8 checkpoints are weight-only (W4A16, W8A16)
    assertThat(checkpoint(INT4).resolvedFor(A100).matmul()).isEqualTo(BF16);
    assertThat(checkpoint(INT8).resolvedFor(A100).matmul()).isEqualTo(BF16);
  }

  @Test
  void matmul_unresolved_isWeightOnly_andSaysSo() {
    Precisions p = checkpoint(FP8);
    assertThat(p.matmul()).isEqualTo(BF16);
    assertThat(p)
        .hasToString("weights fp8, kv bf16, compute bf16 (weight-only fp8, chip not resolved)");
  }

  @Test
  void matmul_explicitActivations_keepWeightOnlyOnH100() {
    // GemmInputs.ACTIVATION_PRECISION (the builder's default): W8A16 even where FP8 units exist
    assertThat(Precisions.of(FP8, BF16, BF16).resolvedFor(H100).matmul()).isEqualTo(BF16);
  }

  @Test
  void tensorUnits_mxfp4_isRejected() {
    assertThatThrownBy(() -> Precisions.builder().addTensorUnits(MXFP4).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tensorUnits")
        .hasMessageContaining("mxfp4");
  }
}
