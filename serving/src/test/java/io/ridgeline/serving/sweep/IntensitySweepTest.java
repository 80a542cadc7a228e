package io.ridgeline.serving.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.RooflineModel;
import java.util.List;
import org.junit.jupiter.api.Test;

final class IntensitySweepTest {

  @Test
  void rows_batchesPastMemory_areMarkedNotFitting() {
    // Llama-3.1-8B in BF16 on one H100 (80 GB): about 16 GB of weights; a sequence of 8,192 tokens
    // holds 32 layers x 8 KV heads x 128 x 2 (K and V) x 2 B = 131,072 B per token, 1.07 GB: a
    // batch of 32 (34 GB) fits beside the weights, a batch of 128 (137 GB) does not
    RooflineModel rm = RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.byId("h100-sxm"), 1);
    IntensitySweep sweep = IntensitySweep.of(rm, 8192, List.of(1, 32, 128));
    assertThat(sweep.rows())
        .extracting(IntensitySweep.Row::fits)
        .containsExactly(true, true, false);
    // the same rule as the system's memory plan, at its largest fitting batch and one past it
    int max = rm.maxBatch(8192);
    IntensitySweep edge = IntensitySweep.of(rm, 8192, List.of(max, max + 1));
    assertThat(edge.rows()).extracting(IntensitySweep.Row::fits).containsExactly(true, false);
    assertThat(edge.rows().get(1).toString()).startsWith("batch " + (max + 1) + " (does not fit):");
  }
}
