package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.core.DataKind;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.OperationRole;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.models.Routing;
import org.junit.jupiter.api.Test;

/** The busiest expert-parallel rank's load ({@link ExpertLoad}) and where the step pays it. */
final class ExpertLoadTest {
  @Test
  void expectedMaxStandardNormal_matchesTeichroewsTable() {
    // two: 1 / sqrt(pi) exactly; three: 3 / (2 sqrt(pi)); eight and 32: Teichroew (1956)
    assertThat(ExpertLoad.expectedMaxStandardNormal(1)).isEqualTo(0);
    assertThat(ExpertLoad.expectedMaxStandardNormal(2))
        .isCloseTo(1 / Math.sqrt(Math.PI), within(1e-5));
    assertThat(ExpertLoad.expectedMaxStandardNormal(3))
        .isCloseTo(1.5 / Math.sqrt(Math.PI), within(1e-5));
    assertThat(ExpertLoad.expectedMaxStandardNormal(8)).isCloseTo(1.42360, within(1e-4));
    assertThat(ExpertLoad.expectedMaxStandardNormal(32)).isCloseTo(2.06967, within(1e-4));
  }

  @Test
  void tokenFactor_deepSeekOnEightRanksAt64Tokens_isAbout1point16() {
    // T = 64 tokens, k = 8 of E = 256 experts, R = 8 ranks of 32 experts:
    // mean pairs per rank 64 × 8 / 8 = 64; one token's variance 8 × 1/8 × 7/8 × 248/255 = 0.85098,
    // sigma = sqrt(64 × 0.85098) = 7.380; busiest 64 + 1.4236 × 7.380 = 74.51; 74.51 / 64 = 1.164
    assertThat(ExpertLoad.tokenFactor(64, 8, 256, 8, 0)).isCloseTo(1.1642, within(1e-3));
  }

  @Test
  void expertFactor_deepSeekOnEightRanksAt8Tokens_isAbout1point47() {
    // T = 8: an expert is hit with p = 1 − (1 − 8/256)^8 = 0.2241; a rank's 32 experts: mean
    // 32 × 0.2241 = 7.171, sd sqrt(32 × 0.2241 × 0.7759) = 2.358; busiest 7.171 + 1.4236 × 2.358
    // = 10.53 experts; 10.53 / 7.171 = 1.468
    double distinct = Routing.uniform().expectedDistinctExperts(256, 8, 8);
    assertThat(ExpertLoad.expertFactor(distinct, 256, 8)).isCloseTo(1.468, within(2e-3));
  }

  @Test
  void factors_oneRankOrEveryExpertHit_areOne() {
    assertThat(ExpertLoad.tokenFactor(7, 8, 256, 1, 0)).isEqualTo(1);
    assertThat(ExpertLoad.expertFactor(100, 256, 1)).isEqualTo(1);
    assertThat(ExpertLoad.expertFactor(256, 256, 8)).isEqualTo(1);
    assertThat(ExpertLoad.expertFactor(0, 256, 8)).isEqualTo(1);
  }

  @Test
  void tokenFactor_oneToken_isCappedAtOnePairPerExpertOfARank() {
    // one token, k = 2 of E = 4 on R = 4 ranks of one expert: a rank gets at most 1 pair against
    // a mean of 2 / 4, so the factor is at most 2
    assertThat(ExpertLoad.tokenFactor(1, 2, 4, 4, 0)).isLessThanOrEqualTo(2);
  }

  @Test
  void tokenFactor_redundantExperts_lowerTheImbalance() {
    // one redundant slot per rank of 32 experts: sigma × sqrt(1 − 1 / 64) = 0.99216 of sigma
    double plain = ExpertLoad.tokenFactor(64, 8, 256, 8, 0);
    double eplb = ExpertLoad.tokenFactor(64, 8, 256, 8, 1);
    assertThat(eplb - 1).isCloseTo((plain - 1) * Math.sqrt(1 - 1 / 64.0), within(1e-9));
  }

  @Test
  void factors_anyLoad_areAtLeastOneAndNonIncreasingInTokens() {
    qt().withFixedSeed(20261206L)
        .withExamples(500)
        .forAll(
            doubles().between(0, 100_000),
            integers().between(1, 16),
            integers().between(0, 6),
            integers().between(1, 9))
        .checkAssert(
            (tokens, k, expertsLog, ranksLog) -> {
              int experts = Math.max(k, 16 << expertsLog);
              int ranks = 1 << (ranksLog - 1);
              double t = ExpertLoad.tokenFactor(tokens, k, experts, ranks, 0);
              double more = ExpertLoad.tokenFactor(tokens * 2 + 1, k, experts, ranks, 0);
              assertThat(t).as("token factor at %s tokens", tokens).isGreaterThanOrEqualTo(1);
              assertThat(more).isLessThanOrEqualTo(t + 1e-12);
              Routing uniform = Routing.uniform();
              double e =
                  ExpertLoad.expertFactor(
                      uniform.expectedDistinctExperts(experts, k, Math.max(1, tokens)),
                      experts,
                      ranks);
              double eMore =
                  ExpertLoad.expertFactor(
                      uniform.expectedDistinctExperts(experts, k, tokens * 2 + 1), experts, ranks);
              assertThat(e).as("expert factor at %s tokens", tokens).isGreaterThanOrEqualTo(1);
              assertThat(eMore).isLessThanOrEqualTo(e + 1e-9);
            });
  }

  @Test
  void tokenFactor_badInput_namesTheField() {
    assertThatThrownBy(() -> ExpertLoad.tokenFactor(-1, 8, 256, 8, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tokens");
    assertThatThrownBy(() -> ExpertLoad.tokenFactor(1, 8, 256, 8, Double.NaN))
        .hasMessageContaining("redundant experts per rank");
    assertThatThrownBy(() -> ExpertLoad.expertFactor(300, 256, 8))
        .hasMessageContaining("distinct experts");
  }

  @Test
  void decode_expertParallel_readsTheBusiestRanksExperts() {
    // DeepSeek-V3 on 8 B200 at the roofline bound, batch 8: with ep 8 and the busiest rank's load
    // each chip's routed-expert weights are ep 1's (every chip a slice of every hit expert) times
    // the expert factor
    RooflineModel tp =
        RooflineModel.builder()
            .from(IdealPools.of(Models.byId("deepseek-v3"), Chips.B200, 8))
            .build();
    RooflineModel mean = RooflineModel.builder().from(tp).expertParallel(8).build();
    RooflineModel ep = RooflineModel.builder().from(mean).expertImbalance(true).build();
    double distinct = Routing.uniform().expectedDistinctExperts(256, 8, 8);
    assertThat(routedWeights(ep.decode(8, 1024)) / routedWeights(tp.decode(8, 1024)))
        .isCloseTo(ExpertLoad.expertFactor(distinct, 256, 8), within(1e-9));
    // off (the default), each chip reads the mean rank's share, as at ep 1
    assertThat(routedWeights(mean.decode(8, 1024)) / routedWeights(tp.decode(8, 1024)))
        .isCloseTo(1, within(1e-12));
    assertThat(ep.toString()).contains("busiest expert rank");
  }

  @Test
  void redundantExperts_lowerThePrefillsBusiestRankAndAreBounded() {
    // a 4,096-token prompt on 8 ranks: its routed experts compute-bound, the busiest rank's pairs
    // times 1 + 1.4236 × sigma / mu, which one slot per rank lowers by sqrt(1 − 1/64)
    RooflineModel ep =
        RooflineModel.builder()
            .from(IdealPools.of(Models.byId("deepseek-v3"), Chips.B200, 8))
            .expertParallel(8)
            .expertImbalance(true)
            .build();
    RooflineModel eplb = RooflineModel.builder().from(ep).redundantExpertsPerRank(1).build();
    assertThat(routedFlops(eplb.prefill(1, 4096)) / routedFlops(ep.prefill(1, 4096)))
        .isCloseTo(
            ExpertLoad.tokenFactor(4096, 8, 256, 8, 1) / ExpertLoad.tokenFactor(4096, 8, 256, 8, 0),
            within(1e-12))
        .isLessThan(1);
    assertThatThrownBy(() -> RooflineModel.builder().from(ep).redundantExpertsPerRank(33).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("redundant experts per rank (33) must not exceed the 32");
  }

  private static double routedFlops(StepResult step) {
    return step.phases().stream()
        .flatMap(p -> p.operations().stream())
        .map(OperationResult::operation)
        .filter(o -> o.role() == OperationRole.ROUTED_EXPERTS)
        .mapToDouble(o -> o.flops().flops())
        .sum();
  }

  private static double routedWeights(StepResult step) {
    return step.phases().stream()
        .flatMap(p -> p.operations().stream())
        .map(OperationResult::operation)
        .filter(o -> o.role() == OperationRole.ROUTED_EXPERTS)
        .mapToDouble(o -> o.bytes(DataKind.WEIGHTS).bytes())
        .sum();
  }
}
