package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

final class ParetoFrontierTest {
  private static FrontierPoint point(int batch, double user, double chip, boolean fits) {
    return FrontierPoint.builder()
        .batch(batch)
        .ttft(Seconds.ofMillis(10))
        .tpot(Seconds.of(1 / user))
        .tokensPerSecondPerUser(user)
        .tokensPerSecondPerChip(chip)
        .chipsTotal(1)
        .fits(fits)
        .build();
  }

  private static Gen<List<FrontierPoint>> pointLists() {
    Gen<FrontierPoint> one =
        integers()
            .between(1, 1024)
            .zip(
                doubles().between(1, 1000),
                doubles().between(1, 10_000),
                integers().between(0, 9),
                (b, u, c, f) -> point(b, u, c, f > 0));
    return lists().of(one).ofSizeBetween(1, 40);
  }

  @Test
  void of_neverMarksADominatedPoint_andMarksEveryUndominatedFittingPoint() {
    qt().forAll(pointLists())
        .checkAssert(
            pts -> {
              List<FrontierPoint> marked = ParetoFrontier.of(pts).points();
              for (FrontierPoint p : marked) {
                boolean dominated = marked.stream().anyMatch(q -> q.fits() && q.dominates(p));
                assertThat(p.pareto()).isEqualTo(p.fits() && !dominated);
              }
            });
  }

  @Test
  void of_withTiedThroughputAndInteractivity_marksExactlyTheUndominatedFittingPoints() {
    // values from a small set so that equal throughput or interactivity is common: the sorted
    // O(n log n) marking must agree with the pairwise definition on ties
    Gen<FrontierPoint> tied =
        integers()
            .between(1, 4)
            .zip(
                integers().between(1, 4),
                integers().between(0, 5),
                (u, c, f) -> point(1, u * 10.0, c * 100.0, f > 0));
    qt().forAll(lists().of(tied).ofSizeBetween(1, 30))
        .checkAssert(
            pts -> {
              List<FrontierPoint> marked = ParetoFrontier.of(pts).points();
              for (FrontierPoint p : marked) {
                boolean dominated = marked.stream().anyMatch(q -> q.fits() && q.dominates(p));
                assertThat(p.pareto()).isEqualTo(p.fits() && !dominated);
              }
            });
  }

  @Test
  void of_isIndependentOfOrder_andIdempotent() {
    qt().forAll(pointLists(), integers().all())
        .checkAssert(
            (pts, seed) -> {
              List<FrontierPoint> shuffled = new ArrayList<>(pts);
              Collections.shuffle(shuffled, new Random(seed));
              ParetoFrontier a = ParetoFrontier.of(pts);
              assertThat(ParetoFrontier.of(shuffled).frontier()).isEqualTo(a.frontier());
              assertThat(ParetoFrontier.of(a.points()).points()).isEqualTo(a.points());
            });
  }

  @Test
  void build_llama31_70b_on8H100_sweepsPowersOfTwoAndLargest() {
    RooflineModel rm = IdealPools.of(Models.byId("llama-3.1-70b"), Chips.byId("h100-sxm"), 8);
    ParetoFrontier f = ParetoFrontier.builder(rm).inputTokens(1024).outputTokens(1024).build();
    int largest = rm.maxBatch(2048);
    assertThat(f.points().get(0).batch()).isEqualTo(1);
    assertThat(f.points().get(f.points().size() - 1).batch()).isEqualTo(largest);
    assertThat(f.points()).allMatch(FrontierPoint::fits);
    assertThat(f.frontier()).isNotEmpty();
    // interactivity falls and throughput rises along the frontier
    List<FrontierPoint> front = f.frontier();
    for (int i = 1; i < front.size(); i++) {
      assertThat(front.get(i).tokensPerSecondPerChip())
          .isGreaterThan(front.get(i - 1).tokensPerSecondPerChip());
      assertThat(front.get(i).tokensPerSecondPerUser())
          .isLessThanOrEqualTo(front.get(i - 1).tokensPerSecondPerUser());
    }
  }

  @Test
  void point_batch1_throughputCountsPrefillTime() {
    RooflineModel rm = IdealPools.of(Models.byId("llama-3.1-8b"), Chips.byId("h100-sxm"));
    FrontierPoint p = ParetoFrontier.point(rm, 1, 1024, 128);
    // one request: 128 tokens over TTFT + 127 × TPOT, on one chip
    double expected = 128 / (p.ttft().seconds() + 127 * p.tpot().seconds());
    assertThat(p.tokensPerSecondPerChip())
        .isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(p.tokensPerSecondPerUser())
        .isCloseTo(1 / p.tpot().seconds(), org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void build_modelThatDoesNotFit_explains() {
    RooflineModel rm = IdealPools.of(Models.byId("llama-3.1-405b"), Chips.byId("h100-sxm"));
    assertThatThrownBy(() -> ParetoFrontier.builder(rm).inputTokens(128).outputTokens(128).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not fit on 1× h100-sxm");
    assertThatThrownBy(() -> ParetoFrontier.builder(rm).outputTokens(128).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("input tokens (isl) must be set");
  }
}
