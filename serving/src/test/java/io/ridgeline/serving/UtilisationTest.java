package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import org.junit.jupiter.api.Test;

final class UtilisationTest {
  private static final Model LLAMA8 = Models.byId("llama-3.1-8b");
  private static final Chip H100 = Chips.byId("h100-sxm");

  @Test
  void of_memoryBoundDecodeFfnAtTheBound_fullBandwidthAndIntensityOverRidge() {
    // Llama-3.1-8B BF16 at batch 1 on one H100, ideal: decode_ffn does 2 FLOPs per 2-byte weight,
    // 1 FLOP/B; memory-bound, it takes bytes / 3.35 TB/s, so bandwidth utilisation is 100% and MFU
    // is 1 FLOP/B × 3.35e12 B/s / 989.4e12 FLOP/s = 0.3386%
    RooflineModel rm = IdealPools.of(LLAMA8, H100);
    PhaseResult ffn = rm.decode(1, 1024).phase(PhaseKind.DECODE_FFN);
    Utilisation u = Utilisation.of(ffn, rm);
    assertThat(u.bandwidth()).isCloseTo(1.0, within(1e-3));
    assertThat(u.mfu()).isCloseTo(3.35e12 / 989.4e12, withPercentage(0.5));
  }

  @Test
  void of_computeBoundPrefillAtTheBound_mfuNearOne() {
    // an 8,192-token prefill at the bound is compute-bound in its GEMMs: MFU close to 1 (the
    // memory-bound norms and the FP32 parts keep it just below)
    RooflineModel rm = IdealPools.of(LLAMA8, H100);
    Utilisation u = Utilisation.of(rm.prefill(1, 8192).phase(PhaseKind.PREFILL), rm);
    assertThat(u.mfu()).isBetween(0.9, 1.0 + 1e-9);
    assertThat(u.bandwidth()).isLessThan(0.5);
  }

  @Test
  void of_step_countsFixedCostsAsIdleTime() {
    // the calibrated step adds a per-step and per-kernel overhead: its utilisation is the phases'
    // work over the longer step, so below the sum of phase times' utilisation
    RooflineModel rm = RooflineModel.of(LLAMA8, H100);
    StepResult step = rm.decode(1, 1024);
    Utilisation u = Utilisation.of(step, rm);
    double busy = step.stageSeconds().seconds() / step.seconds().seconds();
    assertThat(busy).isLessThan(1);
    double bytes = 0;
    for (PhaseResult p : step.phases()) {
      bytes += p.bytes().bytes();
    }
    assertThat(u.bandwidth())
        .isCloseTo(bytes / step.seconds().seconds() / 3.35e12, withPercentage(1e-9));
  }

  @Test
  void decodeUtilisation_frontierPointsCarryIt() {
    Deployment d = new ColocatedDeployment(IdealPools.of(LLAMA8, H100));
    FrontierPoint p =
        ParetoFrontier.builder(d).inputTokens(1024).outputTokens(1024).build().points().get(0);
    Utilisation u = d.decodeUtilisation(p.batch(), 1024, 1024);
    assertThat(p.mfu()).contains(u.mfu());
    assertThat(p.bandwidthUtilisation()).contains(u.bandwidth());
    assertThat(u.bandwidth()).isGreaterThan(0.9); // batch 1 at the bound: memory-bound
  }

  @Test
  void new_negativeOrNonFinite_throwsNamingTheField() {
    assertThatThrownBy(() -> new Utilisation(-0.1, 0))
        .hasMessage("MFU must be finite and >= 0: -0.1");
    assertThatThrownBy(() -> new Utilisation(0, Double.NaN))
        .hasMessage("bandwidth utilisation must be finite and >= 0: NaN");
  }

  @Test
  void toString_percentages() {
    assertThat(new Utilisation(0.123, 0.81)).hasToString("MFU 12.3%, memory bandwidth 81.0%");
  }
}
