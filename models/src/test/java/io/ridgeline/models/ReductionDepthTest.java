package io.ridgeline.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.Phase;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The reduction depths the models give their weight GEMMs ({@link Operation#inverseDepth}, {@link
 * Operation#inverseSplitDepth}): worked examples from the architectures' shapes.
 */
final class ReductionDepthTest {
  private static Map<String, Operation> prefillOps(String model) {
    Model m = Models.byId(model);
    Phase p = m.prefill(1, 1024, m.defaultPrecisions());
    Map<String, Operation> out = new HashMap<>();
    for (Operation o : p.operations()) {
      out.putIfAbsent(o.name(), o);
    }
    return out;
  }

  @Test
  void llama70b_projectionsAndFfn_reduceOverTheirInputWidths() {
    Map<String, Operation> ops = prefillOps("llama-3.1-70b");
    // QKV reduces over the hidden size 8,192 (column-parallel): 1/8,192; O over the 64 heads × 128
    // = 8,192 outputs, split by tp (row-parallel)
    assertThat(ops.get("qkv_proj").inverseDepth()).isEqualTo(1.0 / 8192);
    assertThat(ops.get("qkv_proj").inverseSplitDepth()).isZero();
    assertThat(ops.get("o_proj").inverseDepth()).isZero();
    assertThat(ops.get("o_proj").inverseSplitDepth()).isEqualTo(1.0 / 8192);
    // gated FFN, inner 28,672: gate and up (2/3 of the FLOPs) over 8,192, down (1/3) over 28,672
    assertThat(ops.get("ffn").inverseDepth()).isCloseTo(2.0 / 3 / 8192, offset(1e-15));
    assertThat(ops.get("ffn").inverseSplitDepth()).isCloseTo(1.0 / 3 / 28672, offset(1e-15));
    // the LM head reduces over the hidden size; norms and attention have no weight GEMM depth
    assertThat(ops.get("lm_head").inverseDepth()).isEqualTo(1.0 / 8192);
    assertThat(ops.get("norms").inverseDepth()).isZero();
    assertThat(ops.get("attention").inverseSplitDepth()).isZero();
  }

  @Test
  void deepseekV3_mlaAndExperts_lowRankUpProjectionsAndNarrowExpertsAreShallow() {
    Map<String, Operation> ops = prefillOps("deepseek-v3");
    // MLA, h 7,168, 128 heads, q LoRA 1,536, KV LoRA 512, nope 128, rope 64, v 128 (weights):
    //   q_a 7,168 × 1,536 = 11.01M (K = h); q_b 1,536 × 128 × 192 = 37.75M (K = 1,536)
    //   kv_a 7,168 × 576 = 4.129M (K = h); kv_b 512 × 128 × 256 = 16.78M (K = 512)
    //   o 128 × 128 × 7,168 = 117.4M (K = 16,384, row-parallel); sum 187.1M
    // column: (11.01M + 4.129M) / 7,168 + 37.75M / 1,536 + 16.78M / 512 = 59.40k → / 187.1M
    // split: 117.4M / 16,384 = 7,168 → / 187.1M
    double qa = 7168.0 * 1536;
    double qb = 1536.0 * 128 * 192;
    double kva = 7168.0 * 576;
    double kvb = 512.0 * 128 * 256;
    double o = 128.0 * 128 * 7168;
    double sum = qa + qb + kva + kvb + o;
    Operation mla = ops.get("mla_proj");
    assertThat(mla.role()).isEqualTo(OperationRole.ATTENTION_PROJECTION);
    assertThat(mla.inverseDepth())
        .isCloseTo(((qa + kva) / 7168 + qb / 1536 + kvb / 512) / sum, offset(1e-15));
    assertThat(mla.inverseDepth()).isCloseTo(3.175e-4, offset(1e-6));
    assertThat(mla.inverseSplitDepth()).isCloseTo(7168 / sum, offset(1e-15));
    // routed experts, moe_intermediate_size 2,048: gate and up over 7,168, down over 2,048
    Operation experts = ops.get("experts");
    assertThat(experts.inverseDepth()).isCloseTo(2.0 / 3 / 7168, offset(1e-15));
    assertThat(experts.inverseSplitDepth()).isCloseTo(1.0 / 3 / 2048, offset(1e-15));
  }

  @Test
  void everyCatalogModel_weightGemmsHaveADepthAndTheRestNone() {
    for (String id : Models.ids()) {
      Model m = Models.byId(id);
      List<Operation> ops = m.prefill(1, 256, m.defaultPrecisions()).operations();
      for (Operation op : ops) {
        double depth = op.inverseDepth() + op.inverseSplitDepth();
        boolean gemm =
            switch (op.role()) {
              case ATTENTION_PROJECTION,
                  LINEAR_PROJECTION,
                  DENSE_FFN,
                  ROUTER,
                  ROUTED_EXPERTS,
                  SHARED_EXPERTS,
                  LM_HEAD -> true;
              default -> false;
            };
        // a depth is 1/K for some K between 16 and 100k elements
        if (gemm) {
          assertThat(depth).as(id + " " + op.name()).isBetween(1e-5, 1.0 / 16);
        } else {
          assertThat(depth).as(id + " " + op.name()).isZero();
        }
      }
    }
  }
}
