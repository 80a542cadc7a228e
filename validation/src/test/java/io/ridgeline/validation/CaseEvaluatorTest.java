package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.serving.efficiency.EngineProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

final class CaseEvaluatorTest {
  /**
   * The start profile and four profiles drawn uniformly in the search's coordinates over ±4 logit
   * units (every parameter from 1.8% to 98.2% of its plausible range, the cap from about 9 to 3,700
   * running requests), seeded.
   */
  private static List<EngineProfile> profiles() {
    double[] start = FitCoordinates.toCoordinates(Calibration.startProfile());
    Random random = new Random(42);
    List<EngineProfile> out = new ArrayList<>(List.of(Calibration.startProfile()));
    for (int n = 0; n < 4; n++) {
      double[] x = new double[start.length];
      for (int k = 0; k < x.length; k++) {
        x[k] = -4 + 8 * random.nextDouble();
      }
      out.add(FitCoordinates.fromCoordinates(x));
    }
    return out;
  }

  @Test
  void lnSlowdowns_everyShippedComputationUnderFiveProfiles_equalTheUncompiledPredictionExactly() {
    // each computation of the predictable shipped rows is compiled once and evaluated under the
    // five profiles in turn (its structure counted on the first): every row's ln slowdown is the
    // one Predictor.predict gives it with no cache, note-taking on, to the bit (NaN where it skips)
    List<ValidationCase> rows = CrossValidation.predictable(CaseFile.shipped());
    int[][] computations = FitObjective.computations(rows);
    List<CaseEvaluator> evaluators = new ArrayList<>();
    for (int[] g : computations) {
      List<ValidationCase> mine = new ArrayList<>();
      for (int i : g) {
        mine.add(rows.get(i));
      }
      evaluators.add(new CaseEvaluator(mine));
    }
    int compared = 0;
    for (EngineProfile profile : profiles()) {
      Predictor compiled = Predictor.of(profile).withoutNotes();
      Predictor uncompiled = Predictor.of(profile);
      for (CaseEvaluator e : evaluators) {
        double[] r = e.lnSlowdowns(compiled);
        for (int k = 0; k < r.length; k++) {
          ValidationCase c = e.rows().get(k);
          Outcome o = uncompiled.predict(c);
          double expected =
              o instanceof Prediction p ? c.metric().lnSlowdown(p.ratio()) : Double.NaN;
          assertThat(r[k]).as("%s under %s", c.caseId(), profile).isEqualTo(expected);
          compared += Double.isNaN(expected) ? 0 : 1;
        }
      }
    }
    assertThat(compared).isGreaterThan(4 * rows.size());
  }

  @Test
  void lnSlowdowns_sameProfileTwice_countsNoStepAgain() {
    // the structure is counted on the first evaluation: a second one under the same profile finds
    // every step's operations in the evaluator's cache, for every shipped computation
    List<ValidationCase> rows = CrossValidation.predictable(CaseFile.shipped());
    Predictor p = Predictor.of(Calibration.startProfile()).withoutNotes();
    int withSteps = 0;
    for (int[] g : FitObjective.computations(rows)) {
      List<ValidationCase> mine = new ArrayList<>();
      for (int i : g) {
        mine.add(rows.get(i));
      }
      CaseEvaluator e = new CaseEvaluator(mine);
      double[] first = e.lnSlowdowns(p);
      int counted = e.counted();
      assertThat(e.lnSlowdowns(p)).as(mine.get(0).caseId()).containsExactly(first);
      assertThat(e.counted()).as(mine.get(0).caseId()).isEqualTo(counted);
      withSteps += counted > 0 ? 1 : 0;
    }
    assertThat(withSteps).isEqualTo(FitObjective.computations(rows).length);
  }
}
