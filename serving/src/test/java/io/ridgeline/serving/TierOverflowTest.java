package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.core.Bytes;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import org.junit.jupiter.api.Test;

/** Weights no tier has room for count on the slowest tier, never beyond a fast tier's capacity. */
final class TierOverflowTest {
  /**
   * Llama-3.1-70B at bf16 (141 GB of weights) on one Gaudi 3: 128 GB of HBM (3.67 TB/s) and 96 MB
   * of SRAM, the faster tier, last in placement order. The system does not fit; before, the weights
   * that fit nowhere (about 36 GB with the KV and workspace) were put on the SRAM, the last tier,
   * and read at its bandwidth, so a longer context (more KV in HBM, more weights pushed out)
   * decoded faster.
   */
  private static final RooflineModel LLAMA70_GAUDI3 =
      RooflineModel.builder()
          .model(Models.byId("llama-3.1-70b"))
          .chip(Chips.byId("gaudi3"))
          .build();

  @Test
  void weightsByTier_doesNotFit_sramHoldsNoMoreThanItsCapacity() {
    MemoryUse use = LLAMA70_GAUDI3.memory(1, 2048);
    assertThat(use.fits()).isFalse();
    assertThat(use.overflowTier()).isEqualTo("hbm");
    assertThat(use.weightsByTier().getOrDefault("sram", Bytes.ZERO).bytes())
        .isLessThanOrEqualTo(0.096e9);
  }

  @Test
  void decode_doesNotFit_longerContextNeverFaster() {
    double shorter = LLAMA70_GAUDI3.decode(1, 1024).seconds().seconds();
    double longer = LLAMA70_GAUDI3.decode(1, 32768).seconds().seconds();
    assertThat(longer).isGreaterThanOrEqualTo(shorter);
  }
}
