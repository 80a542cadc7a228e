package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.hardware.MemoryTier;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.Profiles;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A prefill riding a host-bound decode step fills the device's idle time first ({@link
 * StepResult#ridingExtraSeconds}), so a faster device is never slower.
 */
final class HostBoundRidingTest {
  private static final Efficiency EAGER =
      Efficiency.builder()
          .from(Profiles.builtIn().forEngine("default").efficiency())
          .eagerDecode(true)
          .build();

  private static Chip bandwidthTimes(Chip chip, double f) {
    return Chip.builder()
        .from(chip)
        .memory(
            chip.memory().stream()
                .map(
                    t ->
                        MemoryTier.builder()
                            .from(t)
                            .bandwidth(BytesPerSecond.of(t.bandwidth().bytesPerSecond() * f))
                            .build())
                .toList())
        .build();
  }

  private static Deployment colocated(Chip chip) {
    return new ColocatedDeployment(
        RooflineModel.builder()
            .model(Models.byId("qwen1.5-moe-a2.7b"))
            .chip(chip)
            .efficiency(EAGER)
            .build());
  }

  @Test
  void point_eagerDecodeTwiceTheBandwidth_neverSlower() {
    // Qwen1.5-MoE on one MI300X, eager decode, 1024/1024: the decode step's host (291 launches
    // and the step's work, 5.92 ms) exceeds its device pass (1.36 ms stage + 1.60 ms overhead at
    // batch 1), so the prefill share (1/1024 prompt) fills the idle device and TPOT is the host's
    // 5.92 ms. Before, the share was added on top of the host: at 2× bandwidth the decode kernels
    // that hid the prefill's compute shrank, the share grew, and TPOT rose 5.921 -> 5.958 ms
    Chip mi300x = Chips.byId("mi300x");
    Deployment base = colocated(mi300x);
    Deployment fast = colocated(bandwidthTimes(mi300x, 2));
    for (int batch : List.of(1, 2, 4, 8, 16, 32)) {
      assertThat(fast.point(batch, 1024, 1024).tpot().seconds())
          .as("batch %s", batch)
          .isLessThanOrEqualTo(base.point(batch, 1024, 1024).tpot().seconds());
    }
    StepResult step = base.decodePool().decode(1, 1024 + 512);
    assertThat(step.hostSeconds().seconds()).isGreaterThan(step.deviceSeconds());
    assertThat(base.point(1, 1024, 1024).tpot().seconds()).isEqualTo(step.seconds().seconds());
  }

  @Test
  void ridingExtraSeconds_fillsTheIdleDeviceFirst() {
    // step 5 ms, device 3 ms: 2 ms idle; 1.5 ms of riding work adds nothing, 2.5 ms adds 0.5 ms
    assertThat(StepResult.ridingExtraSeconds(5e-3, 3e-3, 1.5e-3)).isZero();
    assertThat(StepResult.ridingExtraSeconds(5e-3, 3e-3, 2.5e-3)).isEqualTo(0.5e-3, offset());
    // a device-bound step (step = device) takes all of it
    assertThat(StepResult.ridingExtraSeconds(5e-3, 5e-3, 1.5e-3)).isEqualTo(1.5e-3);
  }

  private static org.assertj.core.data.Offset<Double> offset() {
    return org.assertj.core.data.Offset.offset(1e-15);
  }

  @Test
  void frontier_eagerDecode_compiledPointsEqualTheObjectPath() {
    Deployment d = colocated(Chips.byId("mi300x"));
    ParetoFrontier f = ParetoFrontier.builder(d).inputTokens(1024).outputTokens(1024).build();
    assertThat(f.slowPath()).isEmpty();
    assertThat(f.points()).hasSizeGreaterThan(3);
    for (FrontierPoint p : f.points()) {
      FrontierPoint object = d.point(p.batch(), 1024, 1024);
      SamePoints.close("batch " + p.batch() + " TPOT", p.tpot().seconds(), object.tpot().seconds());
      SamePoints.close("batch " + p.batch() + " TTFT", p.ttft().seconds(), object.ttft().seconds());
    }
  }
}
