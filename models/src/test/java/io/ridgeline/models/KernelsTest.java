package io.ridgeline.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class KernelsTest {
  @Test
  void llama31_8b_kernelsPerForward_tp1AndTp8() {
    Model m = Models.byId("llama-3.1-8b");
    // a layer: input norm, QKV GEMM, RoPE, attention, O GEMM, residual+norm, gate-up GEMM,
    // activation, down GEMM = 2 norms + 4 + 3 = 9; head: embedding, final norm, LM head = 3
    // tp 1: 32 × 9 + 3 = 291
    assertThat(Kernels.forward(m, 1, 1, 1).total()).isEqualTo(291);
    // tp 8: + 2 all-reduces per layer (after attention and after the FFN), + 1 logits gather:
    // 32 × 11 + 4 = 356
    assertThat(Kernels.forward(m, 8, 8, 1).total()).isEqualTo(356);
    assertThat(Kernels.layer(m.layers().get(0), 1, 1, 1).total())
        .isEqualTo(Kernels.REFERENCE_LAYER);
  }

  @Test
  void deepSeekV3_kernelsPerForward_tp1AndTp8() {
    Model m = Models.byId("deepseek-v3");
    // MLA with a q LoRA path: q down, q norm, q up, kv down, kv norm, RoPE, k absorb, attention,
    // v absorb, O = 10. Dense layer: 2 norms + 10 + 3 = 15. MoE layer: 2 norms + 10 + MoE 7
    // (router, top-k, permute, grouped gate-up, activation, grouped down, combine) + shared
    // expert 3 = 22. tp 1: 3 × 15 + 58 × 22 + 3 = 45 + 1276 + 3 = 1324
    assertThat(Kernels.forward(m, 1, 1, 1).total()).isEqualTo(1324);
    // tp 8 (ep 1): + 2 all-reduces per layer + 1 logits gather: 3 × 17 + 58 × 24 + 4 = 1447
    assertThat(Kernels.forward(m, 8, 8, 1).total()).isEqualTo(1447);
    // ep 8: the MoE's all-reduce becomes a dispatch + combine pair: 1447 + 58 = 1505
    assertThat(Kernels.forward(m, 8, 8, 8).total()).isEqualTo(1505);
    // per decode step, a DeepSeek-V3 layer launches 22/9 ≈ 2.4× the kernels of a Llama layer
    assertThat(Kernels.layer(m.layers().get(60), 1, 1, 1)).isEqualTo(new Kernels.Count(12, 10));
  }

  @Test
  void everyBuiltInModel_countsAtLeastThreeKernelsPerLayer() {
    for (Model m : Models.all()) {
      int k = Kernels.forward(m, 1, 1, 1).total();
      assertThat(k).as(m.id()).isGreaterThanOrEqualTo(3 * m.layerCount() + Kernels.HEAD);
    }
  }

  @Test
  void rejectsNonPositiveDegrees() {
    Model m = Models.byId("llama-3.1-8b");
    assertThatThrownBy(() -> Kernels.forward(m, 0, 1, 1))
        .hasMessageContaining("tensor parallel degree must be positive: 0");
  }
}
