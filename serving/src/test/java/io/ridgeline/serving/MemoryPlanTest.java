package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ridgeline.core.TensorClass;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class MemoryPlanTest {
  private static final Model LLAMA70 = Models.byId("llama-3.1-70b");
  private static final RooflineModel TP8 = RooflineModel.of(LLAMA70, Chips.byId("h100-sxm"), 8);

  @Test
  void use_sidesOfAttentionFfnDisaggregation_splitTheWeightsOfTheWhole() {
    MemoryUse all = MemoryPlan.use(TP8, 4, 2048, MemoryPlan.Holding.ALL);
    MemoryUse attention = MemoryPlan.use(TP8, 4, 2048, MemoryPlan.Holding.ATTENTION_SIDE);
    MemoryUse ffn = MemoryPlan.use(TP8, 4, 2048, MemoryPlan.Holding.FFN_SIDE);
    // every weight is on exactly one side
    assertThat(attention.weights().bytes() + ffn.weights().bytes())
        .isCloseTo(all.weights().bytes(), within(1.0));
    // the KV cache lives with attention: 327,680 B/token × 2048 tokens × 4 sequences / 8 chips
    assertThat(attention.kvCache().bytes()).isCloseTo(327_680.0 * 2048 * 4 / 8, within(1e-3));
    assertThat(ffn.kvCache().bytes()).isZero();
    // FFN weights at bf16: 2 B × FFN parameters / 8 chips
    Map<TensorClass, Double> params = LLAMA70.parametersByClass();
    assertThat(ffn.weights().bytes())
        .isCloseTo(2.0 * params.get(TensorClass.DENSE_FFN) / 8, within(1.0));
  }
}
