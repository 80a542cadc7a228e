package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** Bad input of {@link DecodeTimes#byBatch}; its values are {@code CompiledColocatedTest}'s. */
final class DecodeTimesTest {
  private static final RooflineModel POOL =
      RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.H100_SXM);

  @Test
  void byBatch_contextNotPositive_namesIt() {
    assertThatThrownBy(() -> DecodeTimes.byBatch(POOL, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("context must be positive: 0");
  }

  @Test
  void byBatch_batchNotPositive_namesIt() {
    IntToDoubleFunction seconds = DecodeTimes.byBatch(POOL, 1024);
    assertThatThrownBy(() -> seconds.applyAsDouble(-3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("batch must be positive: -3");
  }
}
