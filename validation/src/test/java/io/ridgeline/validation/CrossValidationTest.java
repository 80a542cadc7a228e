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
  void run_givenTheInSampleFit_sameReportWithoutFittingItAgain() {
    // six static TPOT rows from two sources (the second measured 1.5× slower), 10 evaluations per
    // fit: given Calibration.fitProfile's profile on the same rows, the report's JSON is the one
    // that fits the in-sample fold itself, and the fits are numbered from the held-out folds
    // (3 point-grouped + 2 sources = 5 fits instead of 6)
    List<ValidationCase> cases = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      cases.add(CalibrationTest.synthetic("A" + i, Metric.TPOT_MS, 8 + i, "A"));
      cases.add(CalibrationTest.synthetic("B" + i, Metric.TPOT_MS, 1.5 * (8 + i), "B"));
    }
    List<String> fitting = new ArrayList<>();
    CrossValidation.Report own = CrossValidation.run(cases, 10, fitting::add);
    io.ridgeline.serving.efficiency.EngineProfile pooled =
        Calibration.fitProfile(CrossValidation.predictable(cases), 10);
    List<String> given = new ArrayList<>();
    CrossValidation.Report reused =
        CrossValidation.run(cases, 10, java.util.Optional.of(pooled), given::add);
    assertThat(CrossValidationJson.toJson(reused, "test", 10))
        .isEqualTo(CrossValidationJson.toJson(own, "test", 10));
    assertThat(fitting).contains("fit 1/6: all rows");
    // the held-out fits run side by side: their lines interleave
    assertThat(given)
        .startsWith("in-sample: the given fit on all rows")
        .contains("fit 1/5: without points 1/3", "fit 5/5: without B")
        .noneMatch(line -> line.startsWith("fit 6/"));
  }

  @Test
  void scheme_of_unknownId_listsTheKnownOnes() {
    assertThat(CrossValidation.Scheme.of("leave-one-source-out"))
        .isEqualTo(CrossValidation.Scheme.LEAVE_ONE_SOURCE_OUT);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> CrossValidation.Scheme.of("loso"))
        .hasMessage(
            "unknown cross-validation scheme 'loso'; known: in-sample, point-grouped,"
                + " leave-one-source-out, anchored, anchored-per-deployment");
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

  @Test
  void anchoredPerDeployment_eachDeploymentAnchoredOnItsFirstPoint() {
    List<ValidationCase> cases = CaseFile.shipped();
    CrossValidation.Report r =
        CrossValidation.replay(
            cases,
            CrossValidationJson.folds(
                CrossValidationJson.shipped().orElseThrow(), "crossval.json"));
    List<Prediction> loso = r.predictions().get(CrossValidation.Scheme.LEAVE_ONE_SOURCE_OUT);
    List<Prediction> anchored = r.predictions().get(CrossValidation.Scheme.ANCHORED_PER_DEPLOYMENT);
    java.util.Map<String, java.util.TreeSet<String>> points = new java.util.HashMap<>();
    for (Prediction p : loso) {
      points
          .computeIfAbsent(Anchor.deployment(p.testCase()), k -> new java.util.TreeSet<>())
          .add(p.testCase().pointId());
    }
    // scored: every point of a deployment of two or more points but its first, the anchor
    long expected =
        loso.stream()
            .filter(
                p -> {
                  java.util.TreeSet<String> pts = points.get(Anchor.deployment(p.testCase()));
                  return pts.size() >= 2 && !pts.first().equals(p.testCase().pointId());
                })
            .count();
    assertThat(anchored).hasSize((int) expected).isNotEmpty();
    // worked example, dstack's vLLM 0.7.4.dev on 8 H200 (P088, P090, P091 at 4, 64, 128
    // clients): P088 anchors; its one decode-speed row, TPOT, sets the factor of P090's TPOT:
    // predicted(P090) × measured(P088) / predicted(P088)
    Prediction anchorTpot = find(loso, "P088-tpot");
    Prediction tpot = find(loso, "P090-tpot");
    assertThat(find(anchored, "P090-tpot").predicted())
        .isCloseTo(
            tpot.predicted() * anchorTpot.testCase().measured() / anchorTpot.predicted(),
            org.assertj.core.data.Offset.offset(1e-9 * tpot.predicted()));
    assertThat(anchored.stream().map(p -> p.testCase().pointId())).doesNotContain("P088");
  }

  private static Prediction find(List<Prediction> predictions, String caseId) {
    return predictions.stream()
        .filter(p -> p.testCase().caseId().equals(caseId))
        .findFirst()
        .orElseThrow();
  }
}
