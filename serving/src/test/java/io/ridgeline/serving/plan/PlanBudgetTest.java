package io.ridgeline.serving.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.DeploymentSpec;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.PoolSpec;
import io.ridgeline.serving.RooflineModel;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** The chip-budget mode of the planner: the best configurations on at most N chips. */
final class PlanBudgetTest {
  private static final Model LLAMA_8B = Models.byId("llama-3.1-8b");
  private static final Model LLAMA_70B = Models.byId("llama-3.1-70b");

  /** ISL 1024, OSL 256 on at most {@code chips} chips; TTFT 1 s, TPOT 50 ms. */
  private static PlanRequest.Builder budget(Model model, int chips, Chip... types) {
    return PlanRequest.builder()
        .model(model)
        .addChips(types)
        .inputTokens(1024)
        .outputTokens(256)
        .totalChips(chips)
        .ttftSlo(Seconds.of(1))
        .tpotSlo(Seconds.ofMillis(50))
        .top(100);
  }

  @Test
  void request_rateAndBudget_exactlyOneRequired() {
    PlanRequest.Builder both = budget(LLAMA_8B, 8, Chips.H100_SXM).requestsPerSecond(10);
    assertThatThrownBy(both::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exactly one of a request rate and a chip budget");
    PlanRequest.Builder neither =
        PlanRequest.builder()
            .model(LLAMA_8B)
            .addChips(Chips.H100_SXM)
            .inputTokens(1024)
            .outputTokens(256)
            .ttftSlo(Seconds.of(1))
            .tpotSlo(Seconds.ofMillis(50));
    assertThatThrownBy(neither::build).hasMessageContaining("exactly one");
    assertThatThrownBy(() -> budget(LLAMA_8B, 0, Chips.H100_SXM).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("total chips must be positive: 0");
  }

  @Test
  void request_budget_defaultsToThroughputObjective() {
    PlanRequest q = budget(LLAMA_8B, 8, Chips.H100_SXM).build();
    assertThat(q.objective()).isEqualTo(PlanRequest.Objective.THROUGHPUT);
    assertThat(q.outputTokensPerSecond()).isEmpty();
    assertThat(q.toString()).contains("OSL 256, 8 chips;");
    // the default follows the mode; builder().from(q) would carry q's objective over
    PlanRequest rate =
        PlanRequest.builder()
            .model(LLAMA_8B)
            .addChips(Chips.H100_SXM)
            .inputTokens(1024)
            .outputTokens(256)
            .requestsPerSecond(10)
            .ttftSlo(Seconds.of(1))
            .tpotSlo(Seconds.ofMillis(50))
            .build();
    assertThat(rate.objective()).isEqualTo(PlanRequest.Objective.CHIPS);
  }

  @Test
  void plan_budget_everyFleetFitsAndIsRankedByThroughputPerChip() {
    PlanResult r = Planner.plan(budget(LLAMA_70B, 16, Chips.H100_SXM, Chips.B200).build());
    assertThat(r.found()).isTrue();
    assertThat(r.configurations())
        .isSortedAccordingTo(Planner.order(PlanRequest.Objective.THROUGHPUT));
    for (PlanConfiguration c : r.configurations()) {
      assertThat(c.totalChips()).as("%s", c).isLessThanOrEqualTo(16);
      // tokens/s of the fleet = its rate × OSL, and per chip over the fleet's chips
      assertThat(c.outputTokensPerSecond()).isCloseTo(c.requestsPerSecond() * 256, within(1e-6));
      assertThat(c.fleetTokensPerSecondPerChip())
          .isCloseTo(c.outputTokensPerSecond() / c.totalChips(), within(1e-9));
      // the decode replicas finish at most replicas × B / (TPOT × OSL) requests per second
      double decodeRate = c.replicas() * c.batch() / (c.tpot().seconds() * 256);
      assertThat(c.requestsPerSecond()).as("%s", c).isLessThanOrEqualTo(decodeRate * (1 + 1e-9));
      assertThat(c.ttftP50()).isLessThanOrEqualTo(Seconds.of(1));
    }
    assertThat(r.summary()).contains("at most 16 chips").contains("chips: ");
  }

  @Test
  void onChips_llama8bOnEightH100s_servesTheHighestRateThatFits() {
    // one H100 replica of Llama-3.1-8B at batch 64: it finishes 64 / (TPOT × 256) requests per
    // second; eight replicas (8 chips) serve eight times that unless the prefill queue's TTFT binds
    // first. The rate found is the largest feasible one: 0.1% more needs a ninth chip or misses
    // the TTFT objective.
    PlanRequest q = budget(LLAMA_8B, 8, Chips.H100_SXM).build();
    Deployment d = colocated(LLAMA_8B, Chips.H100_SXM, 1);
    FrontierPoint p = d.point(64, q.workload());
    PlanFleet.Sized s = PlanFleet.onChips(d, p, q.workload(), q, 8);
    double perReplica = 64 / (p.tpot().seconds() * 256);
    assertThat(s.chips()).isLessThanOrEqualTo(8);
    assertThat(s.meetsTtft(q)).isTrue();
    assertThat(s.requestsPerSecond()).isLessThanOrEqualTo(8 * perReplica * (1 + 1e-9));
    PlanRequest more =
        PlanRequest.builder()
            .from(q)
            .totalChips(java.util.OptionalInt.empty())
            .requestsPerSecond(s.requestsPerSecond() * 1.001)
            .build();
    PlanFleet.Sized above = PlanFleet.size(d, p, more.workload(), more);
    assertThat(above.chips() > 8 || !above.meetsTtft(q)).isTrue();
  }

  @Test
  void onChips_pd_splitsTheBudgetBetweenPrefillAndDecodeReplicas() {
    PlanResult r =
        Planner.plan(
            budget(LLAMA_70B, 16, Chips.H100_SXM)
                .strategies(EnumSet.of(Deployment.Strategy.PD))
                .build());
    assertThat(r.found()).isTrue();
    for (PlanConfiguration c : r.configurations()) {
      // both pools have the replica's layout: (decode + prefill replicas) × tp chips ≤ 16
      assertThat(c.prefillReplicas()).isPositive();
      assertThat((c.replicas() + c.prefillReplicas()) * c.tensorParallel())
          .as("%s", c)
          .isLessThanOrEqualTo(16);
    }
  }

  @Test
  void plan_budgetTooSmall_failsOnChipsAndSaysSo() {
    // Llama-3.1-70B in BF16 (141 GB of weights) fits no single 80 GB H100; every layout of 2 or
    // more chips needs more than the budget of 1
    PlanResult r = Planner.plan(budget(LLAMA_70B, 1, Chips.H100_SXM).build());
    assertThat(r.found()).isFalse();
    assertThat(r.failures().get(PlanFailure.CHIPS)).isPositive();
    assertThat(r.summary()).contains("need more than 1 chips");
  }

  @Test
  void miss_twoChipTypes_namesBoth() {
    PlanMiss m =
        PlanMiss.builder()
            .chip(Chips.H100_SXM)
            .chipIds("h100-sxm + b200")
            .strategy(Deployment.Strategy.PD)
            .tensorParallel(1)
            .pipelineParallel(1)
            .reasons(EnumSet.of(PlanFailure.TPOT))
            .ratio(1.5)
            .detail("TPOT 75 ms > 50 ms")
            .build();
    assertThat(m.toString()).startsWith("h100-sxm + b200 pd tp 1 pp 1");
    PlanMiss one = PlanMiss.builder().from(m).chipIds(Chips.B200.id()).build();
    assertThat(one.toString()).startsWith("b200 pd");
  }

  private static Deployment colocated(Model m, Chip chip, int tp) {
    RooflineModel layout =
        RooflineModel.builder().model(m).chip(chip).tensorParallel(tp).chips(tp).build();
    return DeploymentSpec.builder()
        .strategy(Deployment.Strategy.COLOCATED)
        .pool(PoolSpec.of(layout))
        .build()
        .build(1024, 256);
  }
}
