package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

final class AnchorTest {
  private static Prediction predicted(
      String point, Metric metric, double predicted, double measured) {
    ValidationCase c = CalibrationTest.synthetic(point, metric, measured, "source A");
    return new Prediction(c, predicted, "");
  }

  @Test
  void lnSlowdown_timeHighAndRateLow_areTheSameSlowdown() {
    // TPOT 12 ms predicted vs 10 ms: ln 1.2 = 0.1823; throughput 800 vs 1000: −ln 0.8 = 0.2231
    double b =
        Anchor.lnSlowdown(
            List.of(
                predicted("P1", Metric.TPOT_MS, 12, 10),
                predicted("P1", Metric.OUT_TOK_S_PER_CHIP, 800, 1000)));
    assertThat(b).isCloseTo((Math.log(1.2) - Math.log(0.8)) / 2, within(1e-12));
    assertThat(b).isCloseTo(0.2027, within(1e-4));
  }

  @Test
  void apply_adjustsTheOtherPointsOnly_eachByItsQuantitysFactor() {
    // anchor P1: TPOT 12 vs 10 ms (ln 1.2), throughput 800 vs 1000 tok/s (ln 1.25), TTFT 100 vs 160
    // ms (ln 0.625). At P2 a 20 ms TPOT becomes 20 / 1.2 = 16.67 ms, 500 tok/s becomes 625, a 50 ms
    // TTFT 80 ms, and an end-to-end latency of 9 s, a quantity P1 did not measure, is scaled by the
    // mean: 9 × e^−((0.1823 + 0.2231 − 0.4700) / 3) = 9 × e^0.0215 = 9.196 s; P1's own rows are not
    // scored
    List<Prediction> out =
        Anchor.apply(
            "P1",
            List.of(
                predicted("P1", Metric.TPOT_MS, 12, 10),
                predicted("P1", Metric.OUT_TOK_S_PER_CHIP, 800, 1000),
                predicted("P1", Metric.TTFT_MS, 100, 160),
                predicted("P2", Metric.TPOT_MS, 20, 18),
                predicted("P2", Metric.OUT_TOK_S_PER_CHIP, 500, 600),
                predicted("P2", Metric.TTFT_MS, 50, 90),
                predicted("P2", Metric.E2E_S, 9, 10)));
    assertThat(out).hasSize(4);
    assertThat(out.get(0).predicted()).isCloseTo(20 / 1.2, within(1e-9));
    assertThat(out.get(1).predicted()).isCloseTo(625, within(1e-9));
    assertThat(out.get(2).predicted()).isCloseTo(80, within(1e-9));
    double mean = (Math.log(1.2) + Math.log(1.25) + Math.log(0.625)) / 3;
    assertThat(out.get(3).predicted()).isCloseTo(9 * Math.exp(-mean), within(1e-9));
    assertThat(out.get(3).predicted()).isCloseTo(9.196, within(0.001));
    assertThat(out.get(0).note()).contains("anchored on P1");
  }

  @Test
  void factors_eachQuantityFromItsRows_theMeanForAnAbsentOne() {
    // TPOT ln 1.2 and TTFT ln 0.625; no throughput row: throughput gets the mean (ln 0.75) / 2
    var a =
        Anchor.factors(
            List.of(
                predicted("P1", Metric.TPOT_MS, 12, 10),
                predicted("P1", Metric.TTFT_MS, 100, 160)));
    assertThat(a.ttft()).isCloseTo(Math.log(0.625), within(1e-12));
    assertThat(a.decode()).isCloseTo(Math.log(1.2), within(1e-12));
    assertThat(a.throughput()).isCloseTo((Math.log(1.2) + Math.log(0.625)) / 2, within(1e-12));
  }

  @Test
  void firstPoint_needsTwoPoints() {
    assertThat(
            Anchor.firstPoint(
                List.of(
                    CalibrationTest.synthetic("P2", Metric.TPOT_MS, 1, "s"),
                    CalibrationTest.synthetic("P1", Metric.TPOT_MS, 1, "s"))))
        .contains("P1");
    assertThat(Anchor.firstPoint(List.of(CalibrationTest.synthetic("P1", Metric.TPOT_MS, 1, "s"))))
        .isEmpty();
  }
}
