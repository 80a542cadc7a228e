package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ridgeline.serving.efficiency.ErrorBands;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The asymmetric bands and their realised coverage, computed from held-out predictions. */
final class ErrorBandsOfCrossValidationTest {
  @Test
  void percentile_interpolatesBetweenOrderStatistics() {
    // five values: position 0.2 × 4 = 0.8 between 0 and 10 → 8; 0.8 × 4 = 3.2 → 30 + 0.2 × 10 = 32
    List<Double> v = List.of(40.0, 0.0, 30.0, 10.0, 20.0);
    assertThat(HeldOutBands.percentile(v, 0.2)).isCloseTo(8, within(1e-12));
    assertThat(HeldOutBands.percentile(v, 0.8)).isCloseTo(32, within(1e-12));
    assertThat(HeldOutBands.percentile(List.of(3.0), 0.8)).isEqualTo(3);
  }

  @Test
  void tpotBand_isTheSignedPercentiles_coverageLeavesEachSourceOut() {
    // TPOT rows, measured 10 ms, predicted so that measured / predicted − 1 is, by source:
    //   A: 0.0, 0.1   B: 0.2, 0.3   C: 0.4, 0.5   (predicted = 10 / (1 + e))
    List<Prediction> rows = new ArrayList<>();
    String[] sources = {"A", "A", "B", "B", "C", "C"};
    double[] signed = {0.0, 0.1, 0.2, 0.3, 0.4, 0.5};
    for (int i = 0; i < signed.length; i++) {
      ValidationCase c = CalibrationTest.synthetic("P" + i, Metric.TPOT_MS, 10, sources[i]);
      rows.add(new Prediction(c, 10 / (1 + signed[i]), ""));
    }
    CrossValidation.Report report =
        new CrossValidation.Report(
            List.of(), Map.of(CrossValidation.Scheme.LEAVE_ONE_SOURCE_OUT, rows));
    ErrorBands bands = CrossValidation.errorBands(report, List.of(), "test");
    ErrorBands.Range r = bands.range(ErrorBands.Estimate.TPOT);
    // all six: 0.2 × 5 = 1 → 0.1; 0.8 × 5 = 4 → 0.4
    assertThat(r.low()).isCloseTo(0.1, within(1e-9));
    assertThat(r.high()).isCloseTo(0.4, within(1e-9));
    // coverage: A against B and C's band [0.2 + 0.6 × 0.1, 0.4 + 0.4 × 0.1] = [0.26, 0.44]: none
    // inside; B against A and C [0.06, 0.44]: both; C against A and B [0.06, 0.24]: none → 2 / 6
    assertThat(r.coverage()).isCloseTo(2.0 / 6, within(1e-9));
    // the typical error stays the median APE: |1 / (1 + e) − 1| = 0, 0.091, 0.167, 0.231, 0.286,
    // 0.333 → median (0.167 + 0.231) / 2
    assertThat(bands.typical(ErrorBands.Estimate.TPOT))
        .isCloseTo((1 - 1 / 1.2 + 1 - 1 / 1.3) / 2, within(1e-9));
    // tokens/s per user has no row of its own: the TPOT rows stand in, inverted
    // (measured rate / estimate − 1 = predicted TPOT / measured TPOT − 1 = 1 / (1 + e) − 1)
    ErrorBands.Range perUser = bands.range(ErrorBands.Estimate.TOKENS_PER_SECOND_PER_USER);
    assertThat(perUser.low()).isCloseTo(1 / 1.4 - 1, within(1e-9));
    assertThat(perUser.high()).isCloseTo(1 / 1.1 - 1, within(1e-9));
  }
}
