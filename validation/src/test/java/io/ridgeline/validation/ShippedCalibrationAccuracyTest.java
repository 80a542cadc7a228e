package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.serving.efficiency.Profiles;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pins the accuracy of the built-in profiles on the shipped cases: every predicted row counts (no
 * row is skipped to pass), and each metric's median APE may grow by at most 2 percentage points.
 */
final class ShippedCalibrationAccuracyTest {
  /**
   * Median APE measured with the built-in profiles on 2026-12-04 (validate), in-sample: the pooled
   * profile refitted after the base-model fixes of the accuracy issue, with the network fraction
   * held at its sourced 0.8, the InferenceX rows' median TTFTs, a chunk's prefill joining the
   * decode step's kernels, eager prefill launches overlapping the device and the intercepts' prior
   * at the measured variance ratio (1 row, FitObjective), GEMMs at a share of each chip's
   * achievable matmul rate, decode attention at its own bandwidth fraction, the step's host work
   * overlapping the device's decode pass, decode launched eagerly where a row's notes say so
   * (Efficiency#eagerDecode), a prior of two logit units on each parameter (Calibration) and FP8
   * GEMMs at the chip's FP8 share of their own peak (Chip#matmulFraction(Precision)); then, without
   * a refit, FP4 GEMMs on the B200 die at their own measured share (0.767 of the FP8 one); then,
   * refitted with the search's adaptive coefficients, each weight GEMM's per-tile fixed cost over
   * its reduction depth K per chip (Efficiency#gemmHalfDepth, held at 360 BF16 elements); then,
   * refitted, the overlap scheduler's lag (a request arriving during a step joins the step after
   * next; rows whose scheduler column says synchronous run without it and pay the step's host work
   * between passes, Efficiency#overlapScheduler). The held-out figures are pinned by {@link
   * ShippedCrossValidationTest}.
   */
  private static final Map<Metric, Double> MEASURED =
      Map.of(
          Metric.E2E_S, 0.6220,
          Metric.INPUT_TOK_S_PER_CHIP, 0.1195,
          Metric.MEDIAN_TTFT_MS, 0.2302,
          Metric.OUT_TOK_S_PER_CHIP, 0.1689,
          Metric.OUT_TOK_S_PER_USER, 0.1237,
          Metric.TOTAL_TOK_S_PER_CHIP, 0.1491,
          Metric.TPOT_MS, 0.3064,
          Metric.TTFT_MS, 0.5065);

  private static final double OVERALL = 0.1989;

  private static final double SLACK = 0.02;

  @Test
  void builtInProfiles_shippedCases_medianApeDoesNotGrow() {
    Validation ideal = Validation.run(CaseFile.shipped(), Predictor.ideal());
    Validation v = Validation.run(CaseFile.shipped(), Predictor.byProfiles(Profiles.builtIn()));
    // the same rows are predicted as with the ideal roofline: calibration skips nothing
    assertThat(v.predictions()).hasSameSizeAs(ideal.predictions());
    assertThat(v.byMetric().keySet()).isEqualTo(MEASURED.keySet());
    v.byMetric()
        .forEach(
            (metric, s) ->
                assertThat(s.medianApe())
                    .as(metric.id())
                    .isLessThanOrEqualTo(MEASURED.get(metric) + SLACK));
    assertThat(v.overall().medianApe()).isLessThanOrEqualTo(OVERALL + SLACK);
  }
}
