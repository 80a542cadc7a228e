package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

final class CrossValidationTest {
  @Test
  void heldOutGroups_pointFoldsPartitionThePointsThenOneGroupPerSource() {
    List<ValidationCase> rows = CrossValidation.predictable(CaseFile.shipped());
    List<List<ValidationCase>> groups = CrossValidation.heldOutGroups(rows);
    Set<String> sources = rows.stream().map(ValidationCase::source).collect(Collectors.toSet());
    assertThat(groups).hasSize(CrossValidation.POINT_FOLDS + sources.size());
    // every row is in exactly one point fold, and a point's metrics stay together
    List<ValidationCase> inFolds = new ArrayList<>();
    Set<String> seenPoints = new HashSet<>();
    for (int k = 0; k < CrossValidation.POINT_FOLDS; k++) {
      Set<String> points =
          groups.get(k).stream().map(ValidationCase::pointId).collect(Collectors.toSet());
      for (String point : points) {
        assertThat(seenPoints.add(point)).as(point).isTrue();
      }
      inFolds.addAll(groups.get(k));
    }
    assertThat(inFolds).containsExactlyInAnyOrderElementsOf(rows);
    // each source group holds that source's rows only
    for (List<ValidationCase> g : groups.subList(CrossValidation.POINT_FOLDS, groups.size())) {
      assertThat(g.stream().map(ValidationCase::source).distinct()).hasSize(1);
    }
  }

  @Test
  void scheme_of_unknownId_listsTheKnownOnes() {
    assertThat(CrossValidation.Scheme.of("leave-one-source-out"))
        .isEqualTo(CrossValidation.Scheme.LEAVE_ONE_SOURCE_OUT);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> CrossValidation.Scheme.of("loso"))
        .hasMessage(
            "unknown cross-validation scheme 'loso'; known: in-sample, point-grouped,"
                + " leave-one-source-out, anchored");
  }

  @Test
  void replay_pointGroupedFold_predictsEachPointWithItsSourcesIntercept() {
    // a point-grouped fold whose fit gave source A an intercept of ln 2 (the model 2× too slow
    // there) and never saw source B: A's TPOT is predicted at half the profile's, B's unchanged
    io.ridgeline.serving.efficiency.EngineProfile ideal =
        new io.ridgeline.serving.efficiency.EngineProfile(
            io.ridgeline.serving.efficiency.Profiles.DEFAULT,
            io.ridgeline.serving.efficiency.Efficiency.ideal(),
            "");
    ValidationCase a = CalibrationTest.synthetic("A1", Metric.TPOT_MS, 10, "A");
    ValidationCase b = CalibrationTest.synthetic("B1", Metric.TPOT_MS, 10, "B");
    double plain = ((Prediction) Predictor.of(ideal).predict(a)).predicted();
    CrossValidation.Fold fold =
        new CrossValidation.Fold(
            CrossValidation.Scheme.POINT_GROUPED,
            "points 1/3",
            List.of(a.caseId(), b.caseId()),
            java.util.Optional.empty(),
            ideal,
            java.util.Map.of("A", Math.log(2)));
    List<Prediction> out =
        CrossValidation.replay(List.of(a, b), List.of(fold))
            .predictions()
            .get(CrossValidation.Scheme.POINT_GROUPED);
    assertThat(out.get(0).predicted())
        .isCloseTo(plain / 2, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(out.get(0).note()).contains("its source's fitted intercept");
    assertThat(out.get(1).predicted()).isEqualTo(plain);
    // the intercepts survive the JSON form of a report
    String json =
        CrossValidationJson.toJson(
            CrossValidation.replay(List.of(a, b), List.of(fold)), "test", 10);
    assertThat(CrossValidationJson.folds(json, "test").get(0).intercepts())
        .containsEntry("A", Math.log(2));
  }
}
