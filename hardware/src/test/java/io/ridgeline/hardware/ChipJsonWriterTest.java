package io.ridgeline.hardware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ridgeline.core.Precision;
import org.junit.jupiter.api.Test;

final class ChipJsonWriterTest {

  @Test
  void toJson_everyBuiltInChip_readsBackAsTheSameChip() {
    for (Chip c : Chips.builtIn().all()) {
      String json = Chips.toJson(c);
      Chip back = Chips.fromJson(json, "export").get(0);
      // numbers are written to 12 significant digits: the figures agree to 1e-11, and writing the
      // chip read back gives the same text
      assertThat(Chips.toJson(back)).as(c.id()).isEqualTo(json);
      assertThat(back.id()).isEqualTo(c.id());
      assertThat(back.sources()).isEqualTo(c.sources());
      assertThat(back.memory()).hasSameSizeAs(c.memory());
      for (int i = 0; i < c.memory().size(); i++) {
        assertThat(back.memory().get(i).bandwidth().bytesPerSecond())
            .isCloseTo(c.memory().get(i).bandwidth().bytesPerSecond(), within(1e-11 * 1e15));
        assertThat(back.memory().get(i).source()).isEqualTo(c.memory().get(i).source());
      }
      for (Precision p : c.peaks().keySet()) {
        double peak = c.peak(p).orElseThrow().flopsPerSecond();
        assertThat(back.peak(p).orElseThrow().flopsPerSecond())
            .isCloseTo(peak, within(1e-11 * peak));
      }
      assertThat(back.scaleUp().isPresent()).isEqualTo(c.scaleUp().isPresent());
      assertThat(back.pricePerHour()).isEqualTo(c.pricePerHour());
      assertThat(back.narrowMatmulFractions()).isEqualTo(c.narrowMatmulFractions());
    }
  }

  @Test
  void toJson_h100_writesTheFileUnits() {
    String json = Chips.toJson(Chips.H100_SXM);
    // 989.4e12 FLOP/s = 989.4 TFLOP/s; 3.35e12 B/s = 3350 GB/s; 80e9 B = 80 GB
    assertThat(json)
        .startsWith("{\n  \"id\" : \"h100-sxm\",")
        .contains("\"bf16\" : 989.4")
        .contains("\"bandwidth_gbps\" : 3350.0")
        .contains("\"capacity_gb\" : 80.0")
        .endsWith("}\n");
  }
}
