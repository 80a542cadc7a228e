package io.ridgeline.serving.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.DeploymentSpec;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.KvOffload;
import io.ridgeline.serving.PoolSpec;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Workload;
import io.ridgeline.serving.efficiency.Anchoring;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class PlannerTest {
  private static final Model LLAMA_8B = Models.byId("llama-3.1-8b");
  private static final Model LLAMA_70B = Models.byId("llama-3.1-70b");

  /** ISL 1024, OSL 256, 10 requests/s: 2,560 output tokens/s to serve. */
  private static PlanRequest.Builder request(Model model, Chip... chips) {
    return PlanRequest.builder()
        .model(model)
        .addChips(chips)
        .inputTokens(1024)
        .outputTokens(256)
        .requestsPerSecond(10);
  }

  /** Generous objectives for Llama-3.1-8B on H100: 1 s TTFT, 50 ms TPOT. */
  private static PlanResult generous8b() {
    return Planner.plan(generous8bRequest());
  }

  private static PlanRequest generous8bRequest() {
    return request(LLAMA_8B, Chips.H100_SXM)
        .ttftSlo(Seconds.of(1))
        .tpotSlo(Seconds.ofMillis(50))
        .top(100)
        .build();
  }

  @Test
  void plan_efficiency_standardByDefault_appliedToEveryPool() {
    PlanRequest standard =
        request(LLAMA_8B, Chips.H100_SXM)
            .ttftSlo(Seconds.of(1))
            .tpotSlo(Seconds.ofMillis(100))
            .top(100)
            .build();
    // the default is the calibrated default profile, as the command line's
    assertThat(standard.efficiency()).isEqualTo(Efficiency.standard());
    assertThat(standard.toString()).doesNotContain("efficiency");
    Efficiency half = Efficiency.of(0.5, 0.5, 0.5);
    PlanResult r = Planner.plan(PlanRequest.builder().from(standard).efficiency(half).build());
    assertThat(r.request().toString()).endsWith(", efficiency " + half);
    assertThat(r.configurations()).isNotEmpty();
    for (PlanConfiguration c : r.configurations()) {
      FrontierPoint atHalf = point(c, half);
      assertThat(c.point()).as(c.toString()).isEqualTo(atHalf);
      assertThat(atHalf.tpot().seconds())
          .as(c.toString())
          .isGreaterThan(point(c, Efficiency.ideal()).tpot().seconds());
    }
  }

  /** The point of {@code c}'s layout, strategy and batch with every pool at {@code e}. */
  private static FrontierPoint point(PlanConfiguration c, Efficiency e) {
    RooflineModel layout =
        RooflineModel.builder()
            .model(LLAMA_8B)
            .chip(c.chip())
            .tensorParallel(c.tensorParallel())
            .chips(c.tensorParallel())
            .efficiency(e)
            .build();
    PoolSpec spec = PoolSpec.of(layout);
    return DeploymentSpec.builder()
        .strategy(c.strategy())
        .pool(spec)
        .prefill(spec)
        .build()
        .build(1024, 256)
        .point(c.batch(), 1024, 256);
  }

  @Test
  void plan_anchorTwiceAsSlow_doublesEveryCandidatesTimesAndNeedsMoreChips() {
    // an anchor of ln slowdown −ln 2 says the deployment runs at half the model's speed: every
    // candidate's TPOT and unqueued TTFT double before the objectives are checked, and each replica
    // serves half the tokens, so the same rate needs at least as many chips
    PlanRequest plain = generous8bRequest();
    PlanRequest slow =
        PlanRequest.builder().from(plain).anchor(Anchoring.uniform(-Math.log(2))).build();
    PlanResult before = Planner.plan(plain);
    PlanResult after = Planner.plan(slow);
    assertThat(after.found()).isTrue();
    PlanConfiguration a =
        after.configurations().stream()
            .filter(c -> c.strategy() == Deployment.Strategy.COLOCATED)
            .findFirst()
            .orElseThrow();
    FrontierPoint unanchored = point(a, Efficiency.standard());
    assertThat(a.tpot().seconds()).isCloseTo(2 * unanchored.tpot().seconds(), within(1e-12));
    assertThat(a.ttft().seconds()).isCloseTo(2 * unanchored.ttft().seconds(), within(1e-12));
    assertThat(a.totalChips()).isGreaterThanOrEqualTo(before.configurations().get(0).totalChips());
  }

  @Test
  void plan_kvOffloadHistory_chargesTheFetchOnlyOnChipsWithASlowerTier() {
    // 256 new tokens after 32,768 cached on Llama-3.1-8B: with the history in GH200's LPDDR5X every
    // candidate's TTFT carries its fetch (4.295 GB at 450 GB/s ≈ 9.5 ms on one chip), so the best
    // configuration's unqueued TTFT is at least the one without offload; H100 has no slower tier
    PlanRequest plain =
        PlanRequest.builder()
            .model(LLAMA_8B)
            .addChips(Chips.byId("gh200"))
            .inputTokens(256)
            .outputTokens(128)
            .cachedTokens(32_768)
            .requestsPerSecond(1)
            .ttftSlo(Seconds.of(2))
            .tpotSlo(Seconds.ofMillis(100))
            .strategies(EnumSet.of(Deployment.Strategy.COLOCATED))
            .top(1)
            .build();
    PlanRequest offloaded = PlanRequest.builder().from(plain).kvOffload(KvOffload.HISTORY).build();
    PlanConfiguration a = Planner.plan(plain).configurations().get(0);
    PlanConfiguration b = Planner.plan(offloaded).configurations().get(0);
    assertThat(b.ttft().seconds()).isGreaterThan(a.ttft().seconds());
    assertThat(offloaded.toString()).contains("kv offload history");
    assertThatThrownBy(
            () ->
                PlanRequest.builder()
                    .from(plain)
                    .chips(List.of(Chips.H100_SXM))
                    .kvOffload(KvOffload.SPILL)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--kv-offload spill")
        .hasMessageContaining("h100-sxm");
  }

  @Test
  void plan_cachedHistory_queueServiceTimeIsThePrefillAfterTheHistory() {
    // colocated 8B on H100 with 256 new tokens after 32,768 cached: each server is an M/D/1 queue
    // whose service time τ is a pass of the new tokens attending the history over its prompts, so
    // TTFT p50 − unloaded TTFT = meanWait(rate / servers, τ), servers = the replicas
    PlanRequest q =
        PlanRequest.builder()
            .model(LLAMA_8B)
            .addChips(Chips.H100_SXM)
            .inputTokens(256)
            .outputTokens(128)
            .cachedTokens(32_768)
            .requestsPerSecond(20)
            .ttftSlo(Seconds.of(2))
            .tpotSlo(Seconds.ofMillis(100))
            .strategies(EnumSet.of(Deployment.Strategy.COLOCATED))
            .top(1)
            .build();
    PlanConfiguration c = Planner.plan(q).configurations().get(0);
    RooflineModel server = c.deployment().decodePool();
    Workload w = q.workload();
    int n = server.promptsPerPrefillPass(w.newTokens());
    double tau = server.prefill(n, w).seconds().seconds() / n;
    double withoutHistory = server.prefill(n, 256).seconds().seconds() / n;
    // the history's attention lengthens the pass (by how much depends on the profile's fixed
    // costs per pass)
    assertThat(tau).isGreaterThan(withoutHistory);
    assertThat(c.ttftP50().seconds() - c.ttft().seconds())
        .isCloseTo(
            io.ridgeline.serving.queueing.PoissonQueue.meanWait(20.0 / c.replicas(), tau),
            within(1e-12));
  }

  @Test
  void plan_anchorBeyondAHundredfold_isRejectedNamingIt() {
    assertThatThrownBy(
            () ->
                PlanRequest.builder()
                    .from(generous8bRequest())
                    .anchor(new Anchoring(5, 0, 0))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("anchor ln slowdown of ttft")
        .hasMessageContaining("5");
  }

  @Test
  void plan_generousSlo_returnsConfigurationsSortedByTotalChipsEachMeetingBothSlos() {
    PlanResult r = generous8b();
    assertThat(r.found()).isTrue();
    assertThat(r.configurations()).isNotEmpty();
    assertThat(r.configurations()).isSortedAccordingTo(Planner.order(PlanRequest.Objective.CHIPS));
    for (int i = 1; i < r.configurations().size(); i++) {
      assertThat(r.configurations().get(i).totalChips())
          .isGreaterThanOrEqualTo(r.configurations().get(i - 1).totalChips());
    }
    for (PlanConfiguration c : r.configurations()) {
      assertThat(c.point().fits()).isTrue();
      assertThat(c.ttftP50().seconds()).isLessThanOrEqualTo(1.0);
      assertThat(c.ttftP50()).isGreaterThanOrEqualTo(c.ttft());
      assertThat(c.tpot().seconds()).isLessThanOrEqualTo(0.050);
      assertThat(c.chip().id()).isEqualTo("h100-sxm");
      assertThat(c.strategy())
          .isIn(Deployment.Strategy.COLOCATED, Deployment.Strategy.PD, Deployment.Strategy.AFD);
    }
  }

  @Test
  void plan_generousSlo_replicasAreTheFewestThatServeTheRate() {
    for (PlanConfiguration c : generous8b().configurations()) {
      double perReplica = c.tokensPerSecondPerChip() * c.chipsPerReplica();
      // rate × OSL = 10 × 256 = 2,560 output tokens/s
      assertThat(c.replicas() * perReplica).isGreaterThanOrEqualTo(2560.0);
      assertThat(c.capacityTokensPerSecond()).isGreaterThanOrEqualTo(2560.0);
      if (c.replicas() > 1 && c.prefillReplicas() > 0) {
        // with a prefill pool the decode replicas are the fewest that serve the rate (colocated
        // replicas are also prefill servers and may grow to keep the prefill queue short)
        assertThat((c.replicas() - 1) * perReplica).isLessThan(2560.0);
      }
      // total chips: replicas × decode chips + prefill replicas × prefill chips, rounded up
      double prefillChips =
          PlanFleet.prefillPool(c.deployment()).map(RooflineModel::replicaChips).orElse(0);
      assertThat(c.totalChips())
          .isEqualTo(
              (long)
                  Math.ceil(
                      c.replicas() * PlanFleet.decodeChips(c.deployment())
                          + c.prefillReplicas() * prefillChips
                          - 1e-9));
    }
  }

  @Test
  void plan_generousSlo_llama8bFitsOneH100_bestUsesFewChips() {
    PlanResult r = generous8b();
    PlanConfiguration best = r.configurations().get(0);
    // one H100 decodes Llama-3.1-8B at batch 1 in ≈ 4.5 ms (15 GB / 3.35 TB/s): a single chip at a
    // batch of a few dozen clears 2,560 tok/s within 50 ms per token, so the best plan is small
    assertThat(best.totalChips()).isBetween(1L, 2L);
    // H100 SXM at 4.916 $/h: dollars per hour = total chips × 4.916
    assertThat(best.dollarsPerHour()).isPresent();
    assertThat(best.dollarsPerHour().get().dollarsPerHour())
        .isCloseTo(best.totalChips() * 4.916, within(1e-9));
    // $/Mtok at the requested rate = $/h / 3600 s/h / 2,560 tok/s × 1e6
    assertThat(best.dollarsPerMillionTokens().get())
        .isCloseTo(best.totalChips() * 4.916 / 3600 / 2560 * 1e6, within(1e-9));
  }

  @Test
  void plan_generousSlo_keepsOneBatchPerChipStrategyAndLayout() {
    Set<String> keys = new HashSet<>();
    for (PlanConfiguration c : generous8b().configurations()) {
      String key =
          c.chip().id()
              + "/"
              + c.strategy()
              + "/"
              + c.tensorParallel()
              + "/"
              + c.pipelineParallel();
      assertThat(keys.add(key)).as(key).isTrue();
    }
  }

  @Test
  void plan_top_limitsTheReportedConfigurations() {
    PlanResult r =
        Planner.plan(
            request(LLAMA_8B, Chips.H100_SXM)
                .ttftSlo(Seconds.of(1))
                .tpotSlo(Seconds.ofMillis(50))
                .top(2)
                .build());
    assertThat(r.configurations()).hasSize(2);
    assertThat(r.meeting()).isGreaterThan(2);
  }

  @Test
  void plan_impossibleTpot_returnsNoConfigurationWithFailureCounts() {
    PlanResult r =
        Planner.plan(
            request(LLAMA_8B, Chips.H100_SXM)
                .ttftSlo(Seconds.ofMillis(200))
                .tpotSlo(Seconds.of(1e-6))
                .build());
    assertThat(r.found()).isFalse();
    assertThat(r.configurations()).isEmpty();
    assertThat(r.meeting()).isZero();
    assertThat(r.candidates()).isPositive();
    // a decode step reads at least the weights: 16 GB / 3.35 TB/s / 8 chips ≈ 0.6 ms ≫ 1 µs, so
    // every
    // fitting candidate misses TPOT
    assertThat(r.failures().get(PlanFailure.TPOT)).isPositive();
    assertThat(r.failures().get(PlanFailure.TPOT) + r.failures().get(PlanFailure.MEMORY))
        .isEqualTo(r.candidates());
    assertThat(r.closest()).hasSize(1);
    PlanMiss m = r.closest().get(0);
    assertThat(m.reasons()).contains(PlanFailure.TPOT);
    assertThat(m.ratio()).isGreaterThan(100);
    assertThat(r.summary())
        .startsWith("no configuration meets TTFT ≤ 200 ms and TPOT ≤ 1 µs for llama-3.1-8b")
        .contains("tpot: " + r.failures().get(PlanFailure.TPOT) + " of " + r.candidates())
        .contains("closest: h100-sxm");
  }

  @Test
  void plan_failureCounts_eachLatencyReasonCountedWithinTheCandidates() {
    // 1 µs TTFT and TPOT: every fitting candidate misses both, and counts under each
    PlanResult r =
        Planner.plan(
            request(LLAMA_8B, Chips.H100_SXM)
                .ttftSlo(Seconds.of(1e-6))
                .tpotSlo(Seconds.of(1e-6))
                .build());
    int memory = r.failures().get(PlanFailure.MEMORY);
    assertThat(r.failures().get(PlanFailure.TTFT)).isEqualTo(r.candidates() - memory);
    assertThat(r.failures().get(PlanFailure.TPOT)).isEqualTo(r.candidates() - memory);
    assertThat(r.closest().get(0).reasons())
        .containsExactlyInAnyOrder(PlanFailure.TTFT, PlanFailure.TPOT);
  }

  @Test
  void plan_modelLargerThanOneChip_isPlannedOnSeveral() {
    // Llama-3.1-70B: 70.55e9 parameters × 2 B (bf16) = 141.1 GB of weights > 80 GB of one H100
    PlanResult r =
        Planner.plan(
            request(LLAMA_70B, Chips.H100_SXM)
                .ttftSlo(Seconds.of(1))
                .tpotSlo(Seconds.ofMillis(100))
                .build());
    assertThat(r.found()).isTrue();
    for (PlanConfiguration c : r.configurations()) {
      assertThat(c.tensorParallel() * c.pipelineParallel()).isGreaterThanOrEqualTo(2);
      assertThat(c.totalChips()).isGreaterThanOrEqualTo(2);
    }
    // tp 1 holds no request under colocated and pd: two memory failures at least
    assertThat(r.failures().get(PlanFailure.MEMORY)).isGreaterThanOrEqualTo(2);
  }

  @Test
  void plan_sramChip_usesTheFewestChipsPipeline() {
    // Llama-3.1-8B: 8.03e9 × 2 B = 16.1 GB over 230 MB of SRAM per Groq LPU ≥ 70 chips; tensor
    // parallelism stops at 32 heads, so only a pipeline holds it
    PlanResult r =
        Planner.plan(
            request(LLAMA_8B, Chips.byId("groq-lpu"))
                .ttftSlo(Seconds.of(10))
                .tpotSlo(Seconds.of(1))
                .strategies(EnumSet.of(Deployment.Strategy.COLOCATED))
                .build());
    assertThat(r.found()).isTrue();
    PlanConfiguration c = r.configurations().get(0);
    assertThat(c.pipelineParallel()).isGreaterThan(1);
    assertThat(c.chipsPerReplica()).isGreaterThanOrEqualTo(70);
  }

  @Test
  void plan_costObjective_ordersByDollarsPerHourWithUnknownPricesLast() {
    // H100 SXM 4.916 $/h, A100 SXM 1.844 $/h, MI355X no catalog price
    PlanResult r =
        Planner.plan(
            request(LLAMA_8B, Chips.H100_SXM, Chips.byId("mi355x"), Chips.A100_SXM_80GB)
                .ttftSlo(Seconds.of(1))
                .tpotSlo(Seconds.ofMillis(50))
                .objective(PlanRequest.Objective.COST)
                .top(1000)
                .build());
    List<PlanConfiguration> cs = r.configurations();
    assertThat(cs).isSortedAccordingTo(Planner.order(PlanRequest.Objective.COST));
    boolean unknownSeen = false;
    double last = 0;
    for (PlanConfiguration c : cs) {
      if (c.dollarsPerHour().isEmpty()) {
        unknownSeen = true;
        assertThat(c.chipIds()).contains("mi355x");
      } else {
        assertThat(unknownSeen).as("a known price after an unknown one").isFalse();
        assertThat(c.dollarsPerHour().get().dollarsPerHour()).isGreaterThanOrEqualTo(last);
        last = c.dollarsPerHour().get().dollarsPerHour();
      }
    }
    assertThat(unknownSeen).isTrue();
    assertThat(cs.get(0).dollarsPerHour()).isPresent();
    assertThat(r.toString()).contains("best " + cs.size() + " by lowest cost:");
  }

  @Test
  void description_eachObjective_saysWhatRanksFirst() {
    assertThat(PlanRequest.Objective.CHIPS.description()).isEqualTo("fewest chips");
    assertThat(PlanRequest.Objective.COST.description()).isEqualTo("lowest cost");
  }

  @Test
  void plan_priceOverride_pricesEveryChip() {
    PlanResult r =
        Planner.plan(
            request(LLAMA_8B, Chips.B200)
                .ttftSlo(Seconds.of(1))
                .tpotSlo(Seconds.ofMillis(50))
                .price(DollarsPerHour.of(2))
                .build());
    for (PlanConfiguration c : r.configurations()) {
      // 2 $/h per chip × total chips
      assertThat(c.dollarsPerHour().get().dollarsPerHour())
          .isCloseTo(2.0 * c.totalChips(), within(1e-9));
    }
  }

  @Test
  void plan_staticOnlyWhenAsked_searchesOnlyStatic() {
    PlanResult r =
        Planner.plan(
            request(LLAMA_8B, Chips.H100_SXM)
                .ttftSlo(Seconds.of(5))
                .tpotSlo(Seconds.ofMillis(50))
                .strategies(EnumSet.of(Deployment.Strategy.STATIC))
                .build());
    assertThat(r.configurations())
        .isNotEmpty()
        .allMatch(c -> c.strategy() == Deployment.Strategy.STATIC);
  }

  @Test
  void plan_duplicateChips_searchedOnce() {
    PlanResult once =
        Planner.plan(
            request(LLAMA_8B, Chips.H100_SXM)
                .ttftSlo(Seconds.of(1))
                .tpotSlo(Seconds.ofMillis(50))
                .build());
    PlanResult twice =
        Planner.plan(
            request(LLAMA_8B, Chips.H100_SXM, Chips.H100_SXM)
                .ttftSlo(Seconds.of(1))
                .tpotSlo(Seconds.ofMillis(50))
                .build());
    assertThat(twice.candidates()).isEqualTo(once.candidates());
    assertThat(twice.meeting()).isEqualTo(once.meeting());
  }

  @Test
  void toString_resultAndConfiguration_printUnits() {
    PlanResult r = generous8b();
    assertThat(r.toString())
        .contains("configurations meet TTFT ≤ 1 s and TPOT ≤ 50 ms")
        .contains("best ");
    assertThat(r.configurations().get(0).toString())
        .contains("h100-sxm")
        .contains(" ms")
        .contains("tok/s/chip")
        .contains("$/h");
    assertThat(r.request().toString())
        .contains("ISL 1024, OSL 256, 10 requests/s (2560 output tok/s)");
  }

  @Test
  void builder_badInputs_throwWithTheOffendingValue() {
    assertThatThrownBy(
            () ->
                request(LLAMA_8B, Chips.H100_SXM)
                    .requestsPerSecond(0)
                    .ttftSlo(Seconds.of(1))
                    .tpotSlo(Seconds.of(1))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("request rate must be positive and finite: 0.0 requests/s");
    assertThatThrownBy(
            () ->
                request(LLAMA_8B, Chips.H100_SXM)
                    .ttftSlo(Seconds.ZERO)
                    .tpotSlo(Seconds.of(1))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("TTFT objective must be positive: 0 s");
    assertThatThrownBy(
            () ->
                request(LLAMA_8B, Chips.H100_SXM)
                    .ttftSlo(Seconds.of(1))
                    .tpotSlo(Seconds.ZERO)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("TPOT objective must be positive: 0 s");
    assertThatThrownBy(
            () -> request(LLAMA_8B).ttftSlo(Seconds.of(1)).tpotSlo(Seconds.of(1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("chips must not be empty");
    assertThatThrownBy(
            () ->
                request(LLAMA_8B, Chips.H100_SXM)
                    .ttftSlo(Seconds.of(1))
                    .tpotSlo(Seconds.of(1))
                    .ttftP99Slo(Seconds.ZERO)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("TTFT p99 objective must be positive: 0 s");
    assertThatThrownBy(
            () ->
                request(LLAMA_8B, Chips.H100_SXM)
                    .ttftSlo(Seconds.of(1))
                    .tpotSlo(Seconds.of(1))
                    .tpotP99Slo(Seconds.ZERO)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("TPOT p99 objective must be positive: 0 s");
    assertThatThrownBy(
            () ->
                request(LLAMA_8B, Chips.H100_SXM)
                    .ttftSlo(Seconds.of(1))
                    .tpotSlo(Seconds.of(1))
                    .top(0)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("top must be positive: 0");
    assertThatThrownBy(() -> PlanRequest.Objective.of("money"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown objective 'money'; known: chips, cost, throughput");
  }

  @Test
  void builder_missingObjective_isAMisusedBuilder() {
    assertThatThrownBy(() -> request(LLAMA_8B, Chips.H100_SXM).ttftSlo(Seconds.of(1)).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("tpotSlo");
  }
}
