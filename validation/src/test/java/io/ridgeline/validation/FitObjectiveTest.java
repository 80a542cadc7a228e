package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ridgeline.serving.efficiency.EngineProfile;
import io.ridgeline.serving.efficiency.Profiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class FitObjectiveTest {
  @Test
  void interceptsBySource_absorbAUniformlySlowerSourceShrunkByThePrior() {
    // source A measured exactly at the ideal prediction; source B's deployment is 2× slower on its
    // 3 TPOT rows: its intercept is Σ ln 2 / (3 + λ) = 3 · 0.6931 / 4 = 0.5199 with λ = 1
    EngineProfile ideal =
        new EngineProfile(Profiles.DEFAULT, io.ridgeline.serving.efficiency.Efficiency.ideal(), "");
    Predictor p = Predictor.of(ideal);
    List<ValidationCase> rows = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      ValidationCase a = CalibrationTest.synthetic("A" + i, Metric.TPOT_MS, 1, "A");
      double truth = ((Prediction) p.predict(a)).predicted();
      rows.add(CalibrationTest.synthetic("A" + i, Metric.TPOT_MS, truth, "A"));
      rows.add(CalibrationTest.synthetic("B" + i, Metric.TPOT_MS, 2 * truth, "B"));
    }
    Map<String, Double> b = new FitObjective(rows).interceptsBySource(ideal);
    assertThat(b.get("A")).isCloseTo(0, within(1e-12));
    // predicted / measured = 1/2 on a time: ln slowdown −ln 2 (the model is too fast)
    assertThat(b.get("B"))
        .isCloseTo(-3 * Math.log(2) / (3 + FitObjective.PRIOR_ROWS), within(1e-12));
    // the loss: source B's rows after the intercept, Huber of (−0.6931 + 0.5199) = −0.1733 within
    // δ = 0.3: 0.1733² / 2 = 0.01502 each, plus the prior 1 · 0.5199² / 2 = 0.1351: 0.1802
    double bs = 3 * Math.log(2) / (3 + FitObjective.PRIOR_ROWS);
    double r = -Math.log(2) + bs;
    double expected = 3 * Calibration.huber(r) + FitObjective.PRIOR_ROWS * bs * bs / 2;
    assertThat(expected).isCloseTo(3 * 0.1733 * 0.1733 / 2 + 0.5199 * 0.5199 / 2, within(1e-3));
    assertThat(new FitObjective(rows).loss(ideal)).isCloseTo(expected, within(1e-9));
  }

  @Test
  void slowdowns_sharedComputations_equalEachRowPredictedAlone() {
    // every predictable shipped row under three profiles (the start, and two points of the search
    // space ±0.7 and ∓1.3 logit units from it, alternating by coordinate): the fit's shared
    // computations give each row the ln slowdown of its own prediction
    List<ValidationCase> rows = CrossValidation.predictable(CaseFile.shipped());
    FitObjective objective = new FitObjective(rows);
    assertThat(FitObjective.computations(rows).length).isLessThan(rows.size());
    double[] start = FitCoordinates.toCoordinates(Calibration.startProfile());
    for (double step : new double[] {0, 0.7, -1.3}) {
      double[] x = start.clone();
      for (int k = 0; k < x.length; k++) {
        x[k] += k % 2 == 0 ? step : -step;
      }
      EngineProfile profile = FitCoordinates.fromCoordinates(x);
      Predictor alone = Predictor.of(profile);
      double[] shared = objective.slowdowns(profile);
      for (int i = 0; i < rows.size(); i++) {
        ValidationCase c = rows.get(i);
        Outcome o = alone.predict(c);
        if (o instanceof Prediction p) {
          double expected = c.metric().lnSlowdown(p.ratio());
          assertThat(shared[i]).as(c.caseId()).isCloseTo(expected, within(1e-9));
        } else {
          assertThat(shared[i]).as(c.caseId()).isNaN();
        }
      }
    }
  }

  @Test
  void withoutNotes_everyShippedRow_sameValueAndNoNote() {
    // the fit's predictor builds no notes: each row's value (or skip reason) is the noting
    // predictor's, and the note is empty where the noting one's is not
    Predictor noted = Predictor.of(Calibration.startProfile());
    Predictor quiet = noted.withoutNotes();
    int noting = 0;
    for (ValidationCase c : CaseFile.shipped()) {
      Outcome a = noted.predict(c);
      Outcome b = quiet.predict(c);
      if (a instanceof Prediction p) {
        assertThat(b).as(c.caseId()).isInstanceOf(Prediction.class);
        Prediction q = (Prediction) b;
        assertThat(q.predicted()).as(c.caseId()).isEqualTo(p.predicted());
        assertThat(q.note()).as(c.caseId()).isEmpty();
        noting += p.note().isEmpty() ? 0 : 1;
      } else {
        assertThat(b).as(c.caseId()).isEqualTo(a);
      }
    }
    assertThat(noting).isPositive();
  }

  @Test
  void weights_eachQuantityOfAPointCountsOnce_scaledToMeanOne() {
    // point P reports six metrics of three quantities (three throughputs, TPOT and tok/s per user,
    // TTFT); point Q one TPOT. Raw weights 1/3 ×3, 1/2 ×2, 1, and 1: they sum to 4 over 7 rows, so
    // each is scaled by 7/4: throughput 7/12, decode speed 7/8, TTFT and Q's TPOT 7/4
    List<ValidationCase> rows =
        List.of(
            CalibrationTest.synthetic("P", Metric.OUT_TOK_S_PER_CHIP, 1, "S"),
            CalibrationTest.synthetic("P", Metric.TOTAL_TOK_S_PER_CHIP, 1, "S"),
            CalibrationTest.synthetic("P", Metric.INPUT_TOK_S_PER_CHIP, 1, "S"),
            CalibrationTest.synthetic("P", Metric.TPOT_MS, 1, "S"),
            CalibrationTest.synthetic("P", Metric.OUT_TOK_S_PER_USER, 1, "S"),
            CalibrationTest.synthetic("P", Metric.TTFT_MS, 1, "S"),
            CalibrationTest.synthetic("Q", Metric.TPOT_MS, 1, "S"));
    double[] w = FitObjective.weights(rows);
    assertThat(w[0]).isCloseTo(7.0 / 12, within(1e-12));
    assertThat(w[2]).isCloseTo(7.0 / 12, within(1e-12));
    assertThat(w[3]).isCloseTo(7.0 / 8, within(1e-12));
    assertThat(w[4]).isCloseTo(7.0 / 8, within(1e-12));
    assertThat(w[5]).isCloseTo(7.0 / 4, within(1e-12));
    assertThat(w[6]).isCloseTo(7.0 / 4, within(1e-12));
    assertThat(java.util.Arrays.stream(w).sum()).isCloseTo(7, within(1e-12));
  }
}
