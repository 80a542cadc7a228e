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
  void apply_adjustsTheOtherPointsOnly() {
    // anchor P1 says the model is e^0.2027 too slow: a 20 ms TPOT elsewhere becomes 16.33 ms and a
    // 500 tok/s throughput 612.5 tok/s; P1's own rows are not scored
    List<Prediction> out =
        Anchor.apply(
            "P1",
            List.of(
                predicted("P1", Metric.TPOT_MS, 12, 10),
                predicted("P1", Metric.OUT_TOK_S_PER_CHIP, 800, 1000),
                predicted("P2", Metric.TPOT_MS, 20, 18),
                predicted("P2", Metric.OUT_TOK_S_PER_CHIP, 500, 600)));
    assertThat(out).hasSize(2);
    double f = Math.exp((Math.log(1.2) - Math.log(0.8)) / 2);
    assertThat(out.get(0).predicted()).isCloseTo(20 / f, within(1e-9));
    assertThat(out.get(0).predicted()).isCloseTo(16.33, within(0.01));
    assertThat(out.get(1).predicted()).isCloseTo(500 * f, within(1e-9));
    assertThat(out.get(0).note()).contains("anchored on P1");
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
