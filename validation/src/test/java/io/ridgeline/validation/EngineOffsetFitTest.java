package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.EngineOffsets;
import io.ridgeline.serving.efficiency.EngineProfile;
import io.ridgeline.serving.efficiency.EngineRelease;
import io.ridgeline.serving.efficiency.Profiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class EngineOffsetFitTest {
  private static final EngineProfile IDEAL =
      new EngineProfile(Profiles.DEFAULT, Efficiency.ideal(), "");

  /** Three TPOT rows of {@code source} (engine trtllm), measured {@code slower} × the ideal. */
  private static List<ValidationCase> rows(String source, double slower) {
    Predictor p = Predictor.of(IDEAL);
    List<ValidationCase> out = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      ValidationCase c = CalibrationTest.synthetic(source + i, Metric.TPOT_MS, 1, source);
      double ideal = ((Prediction) p.predict(c)).predicted();
      out.add(CalibrationTest.synthetic(source + i, Metric.TPOT_MS, slower * ideal, source));
    }
    return out;
  }

  @Test
  void estimate_twoSources_meanOfTheirInterceptsShrunkByOneSource() {
    // source A measures 2× slower than the ideal on its 3 trtllm TPOT rows (weight 1 each): its
    // intercept is Σ ln(1/2) / (3 + λ) = −3 · 0.6931 / 4 = −0.5199; source B measures exactly
    // the ideal: 0. The trtllm offset is (−0.5199 + 0) / (2 sources + K = 1) = −0.1733: the model
    // is e^0.1733 = 1.19× too fast for trtllm
    List<ValidationCase> all = new ArrayList<>(rows("A", 2));
    all.addAll(rows("B", 1));
    EngineOffsets o = EngineOffsetFit.estimate(all, IDEAL);
    assertThat(o.offsets()).hasSize(1);
    EngineOffsets.Offset trtllm = o.offsets().get(0);
    assertThat(trtllm.key()).isEqualTo("trtllm");
    assertThat(trtllm.sources()).containsExactly("A", "B");
    assertThat(trtllm.lnSlowdown()).isCloseTo(-0.1733, within(1e-4));
    assertThat(trtllm.lnSlowdown())
        .isCloseTo(
            -3 * Math.log(2) / (3 + FitObjective.PRIOR_ROWS) / (2 + EngineOffsetFit.PRIOR_SOURCES),
            within(1e-12));
    assertThat(o.forRelease(EngineRelease.of("trtllm", "1.0"))).contains(trtllm);
    assertThat(o.forRelease(EngineRelease.of("vllm"))).isEmpty();
  }

  @Test
  void estimate_oneSource_givesNoOffset() {
    // source A alone is 2× slower: one source cannot tell its engine from its own deployment
    assertThat(EngineOffsetFit.estimate(rows("A", 2), IDEAL).offsets()).isEmpty();
  }

  @Test
  void offsets_seriesOfOneSource_fallsBackToTheFamily() {
    // trtllm has sources A (−0.30) and B (−0.15): offset −0.45 / 3 = −0.15; its 1.x series only A
    Map<EngineOffsetFit.SourceKey, Double> b = new LinkedHashMap<>();
    EngineOffsetFit.Key family = new EngineOffsetFit.Key("trtllm", Optional.empty());
    EngineOffsetFit.Key series = new EngineOffsetFit.Key("trtllm", Optional.of("1"));
    b.put(new EngineOffsetFit.SourceKey("A", family), -0.30);
    b.put(new EngineOffsetFit.SourceKey("B", family), -0.15);
    b.put(new EngineOffsetFit.SourceKey("A", series), -0.30);
    EngineOffsets o = EngineOffsetFit.offsets(b);
    assertThat(o.offsets()).hasSize(1);
    assertThat(o.forRelease(EngineRelease.of("trtllm", "1.1.0rc2")).orElseThrow().lnSlowdown())
        .isCloseTo(-0.15, within(1e-12));
    // with a second 1.x source (B, +0.06) the series wins: (−0.30 + 0.06) / 3 = −0.08
    b.put(new EngineOffsetFit.SourceKey("B", series), 0.06);
    EngineOffsets.Offset one =
        EngineOffsetFit.offsets(b).forRelease(EngineRelease.of("trtllm", "1.1.0rc2")).orElseThrow();
    assertThat(one.key()).isEqualTo("trtllm 1.x");
    assertThat(one.lnSlowdown()).isCloseTo(-0.08, within(1e-12));
  }

  @Test
  void offsets_anySources_shrunkTowardsZeroWithinTheirRange() {
    // o = Σ b / (n + 1) lies between 0 and n/(n + 1) of the sources' extreme intercepts
    qt().forAll(integers().between(1, 8), doubles().between(-2, 2), doubles().between(-2, 2))
        .checkAssert(
            (n, lo, hi) -> {
              Map<EngineOffsetFit.SourceKey, Double> b = new LinkedHashMap<>();
              EngineOffsetFit.Key k = new EngineOffsetFit.Key("vllm", Optional.empty());
              for (int i = 0; i < n; i++) {
                b.put(new EngineOffsetFit.SourceKey("s" + i, k), i % 2 == 0 ? lo : hi);
              }
              EngineOffsets o = EngineOffsetFit.offsets(b);
              if (n < EngineOffsets.MIN_SOURCES) {
                assertThat(o.offsets()).isEmpty();
                return;
              }
              double x = o.offsets().get(0).lnSlowdown();
              double shrink = n / (n + EngineOffsetFit.PRIOR_SOURCES);
              assertThat(x)
                  .isBetween(shrink * Math.min(lo, hi) - 1e-12, shrink * Math.max(lo, hi) + 1e-12);
              assertThat(x).isBetween(Math.min(0, Math.min(lo, hi)), Math.max(0, Math.max(lo, hi)));
            });
  }

  @Test
  void release_ofACase_familyAndVersionUnlessItNamesNoEngine() {
    ValidationCase c = CalibrationTest.synthetic("p", Metric.TPOT_MS, 1, "A");
    assertThat(EngineOffsetFit.release(c)).contains(EngineRelease.of("trtllm"));
    for (String notEngine : EngineOffsetFit.NOT_ENGINES) {
      assertThat(EngineOffsetFit.release(CalibrationTest.copy(c, notEngine, c.measured())))
          .isEmpty();
    }
  }

  @Test
  void leaveOneSourceOut_shippedFolds_noRowGetsAnOffsetItsOwnSourceBacks() {
    List<ValidationCase> cases = CaseFile.shipped();
    CrossValidation.Report replayed =
        CrossValidation.replay(
            cases,
            CrossValidationJson.folds(
                CrossValidationJson.shipped().orElseThrow(), "crossval.json"));
    List<EngineOffsetFit.Scored> scored = EngineOffsetFit.leaveOneSourceOut(cases, replayed);
    // every held-out row is scored once
    assertThat(scored)
        .hasSize(replayed.predictions().get(CrossValidation.Scheme.LEAVE_ONE_SOURCE_OUT).size());
    long applied = scored.stream().filter(s -> s.offset().isPresent()).count();
    assertThat(applied).isPositive();
    for (EngineOffsetFit.Scored s : scored) {
      s.offset()
          .ifPresent(
              o -> {
                assertThat(o.sources()).doesNotContain(s.pooled().testCase().source());
                assertThat(o.sources()).hasSizeGreaterThanOrEqualTo(EngineOffsets.MIN_SOURCES);
                assertThat(o.family()).isEqualTo(s.pooled().testCase().engine());
              });
      if (s.offset().isEmpty()) {
        assertThat(s.adjusted()).isSameAs(s.pooled());
      }
    }
  }
}
