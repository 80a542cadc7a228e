package io.ridgeline.models;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.core.GemmInputs;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.TensorClass;
import org.junit.jupiter.api.Test;

/**
 * Checkpoint weight precisions from {@code quantization_config}, and the weight bytes they give.
 */
final class PrecisionDefaultsTest {

  @Test
  void defaultPrecisions_deepseekV3Fp8_everyLinearFp8EmbeddingsBf16() {
    Precisions p = Models.byId("deepseek-v3").defaultPrecisions();
    assertThat(p.weights(TensorClass.EXPERTS)).isEqualTo(Precision.FP8);
    assertThat(p.weights(TensorClass.ATTENTION)).isEqualTo(Precision.FP8);
    assertThat(p.weights(TensorClass.DENSE_FFN)).isEqualTo(Precision.FP8);
    // torch_dtype bfloat16 still applies to what the quantization leaves out
    assertThat(p.weights(TensorClass.EMBEDDINGS)).isEqualTo(Precision.BF16);
    assertThat(p.kvCache()).isEqualTo(Precision.BF16);
    assertThat(p.activations()).isEqualTo(Precision.BF16);
  }

  @Test
  void weightBytes_deepseekV3Defaults_fp8BodyBf16Embeddings() {
    Model m = Models.byId("deepseek-v3");
    // embeddings + head 2·129280·7168 = 1,853,358,080 params at 2 B; the other
    // 671,026,419,200 − 1,853,358,080 = 669,173,061,120 at 1 B
    //   → 669,173,061,120 + 3,706,716,160 = 672,879,777,280 B
    assertThat(m.weightBytes(m.defaultPrecisions()).bytes()).isEqualTo(672_879_777_280.0);
  }

  @Test
  void defaultPrecisions_gptOss120bMxfp4_expertsOnly() {
    Precisions p = Models.byId("gpt-oss-120b").defaultPrecisions();
    assertThat(p.weights(TensorClass.EXPERTS)).isEqualTo(Precision.MXFP4);
    // modules_to_not_convert: self_attn, router, embed_tokens, lm_head
    assertThat(p.weights(TensorClass.ATTENTION)).isEqualTo(Precision.BF16);
    assertThat(p.weights(TensorClass.EMBEDDINGS)).isEqualTo(Precision.BF16);
    assertThat(p.weights(TensorClass.DENSE_FFN)).isEqualTo(Precision.BF16);
    // engines quantize GEMM inputs to the weights' precision where the chip has the units; before
    // a chip resolves the units, MXFP4 experts multiply at BF16 activations' width (weight-only)
    assertThat(p.gemmInputs()).isEqualTo(GemmInputs.WEIGHT_PRECISION);
    assertThat(p.matmul(TensorClass.EXPERTS)).isEqualTo(Precision.BF16);
  }

  @Test
  void weightBytes_gptOss120bDefaults_matchHandArithmetic() {
    Model m = Models.byId("gpt-oss-120b");
    // experts 114,701,598,720 params × 0.53125 B (17 B per 32 elements) = 60,935,224,320 B
    // rest 116,829,156,672 − 114,701,598,720 = 2,127,557,952 params × 2 B = 4,255,115,904 B
    // → 65,190,340,224 B ≈ 65.2 GB (the hub checkpoint is about 65 GB)
    assertThat(m.weightBytes(m.defaultPrecisions()).bytes()).isEqualTo(65_190_340_224.0);
    assertThat(m.weightBytes(m.defaultPrecisions()).bytes() / 1e9).isBetween(60.0, 66.0);
  }

  @Test
  void defaultPrecisions_llama_noOverrides() {
    Model m = Models.byId("llama-3.1-70b");
    assertThat(m.quantizedWeights()).isEmpty();
    assertThat(m.defaultPrecisions().weightOverrides()).isEmpty();
    // all BF16, GEMM inputs following the weights (engines' default for quantized checkpoints)
    assertThat(m.defaultPrecisions())
        .isEqualTo(Precisions.builder().gemmInputs(GemmInputs.WEIGHT_PRECISION).build());
    assertThat(m.defaultPrecisions().matmul()).isEqualTo(Precision.BF16);
    assertThat(m.weightBytes(m.defaultPrecisions())).isEqualTo(m.weightBytes(Precision.BF16));
  }

  @Test
  void withAllWeights_bf16_clearsQuantizedOverrides() {
    Model m = Models.byId("deepseek-v3");
    Precisions p = m.defaultPrecisions().withAllWeights(Precision.BF16);
    assertThat(p.weightOverrides()).isEmpty();
    for (TensorClass c : TensorClass.values()) {
      assertThat(p.weights(c)).as(c.id()).isEqualTo(Precision.BF16);
    }
    // 671,026,419,200 × 2 B = 1,342,052,838,400
    assertThat(m.weightBytes(p).bytes()).isEqualTo(1_342_052_838_400.0);
  }

  @Test
  void defaultPrecisions_fp16Checkpoint_keepsFp16ForKvAndActivations() {
    // Llama-2-7b ships torch_dtype float16
    Precisions p = Models.byId("llama-2-7b").defaultPrecisions();
    assertThat(p.weights()).isEqualTo(Precision.FP16);
    assertThat(p.kvCache()).isEqualTo(Precision.FP16);
    assertThat(p.activations()).isEqualTo(Precision.FP16);
  }
}
