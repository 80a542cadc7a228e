package io.ridgeline.serving.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.ColocatedDeployment;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.DeploymentSpec;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.PoolSpec;
import io.ridgeline.serving.PrefillDecodeDeployment;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Speculation;
import io.ridgeline.serving.queueing.PoissonQueue;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** The planner's levers beyond tp and batch, and its queueing model. */
final class PlannerLeversTest {
  private static final Model LLAMA_70B = Models.byId("llama-3.1-70b");
  private static final Model DEEPSEEK = Models.byId("deepseek-v3");

  @Test
  void plan_deepSeekWithP99Slos_findsExpertAndAttentionDataParallelLayoutsAndSpeculation() {
    // DeepSeek-V3 on B200 at 20 requests/s, p50 and p99 TPOT ≤ 30 ms, TTFT p99 ≤ 3 s, MTP with
    // one draft token accepted 80% of the time (1.8 tokens per verify pass)
    PlanResult r =
        Planner.plan(
            PlanRequest.builder()
                .model(DEEPSEEK)
                .addChips(Chips.B200)
                .inputTokens(1024)
                .outputTokens(256)
                .requestsPerSecond(20)
                .ttftSlo(Seconds.of(1))
                .tpotSlo(Seconds.ofMillis(30))
                .ttftP99Slo(Seconds.of(3))
                .tpotP99Slo(Seconds.ofMillis(30))
                .speculation(Speculation.mtp(1, 0.8))
                .strategies(EnumSet.of(Deployment.Strategy.COLOCATED, Deployment.Strategy.PD))
                .top(1000)
                .build());
    assertThat(r.found()).isTrue();
    assertThat(r.configurations()).anyMatch(c -> c.expertParallel() > 1);
    assertThat(r.configurations())
        .anyMatch(c -> c.attentionDataParallel() > 1 && c.expertParallel() > 1);
    // speculation helps here: the best configuration uses it
    assertThat(r.configurations().get(0).speculation()).isPresent();
    for (PlanConfiguration c : r.configurations()) {
      assertThat(c.ttftP99().seconds()).isLessThanOrEqualTo(3.0);
      assertThat(c.tpot().seconds()).isLessThanOrEqualTo(0.030);
    }
  }

  @Test
  void plan_llama70bOnH100_findsConfigurationsIncludingAfd() {
    PlanResult r =
        Planner.plan(
            PlanRequest.builder()
                .model(LLAMA_70B)
                .addChips(Chips.H100_SXM)
                .inputTokens(1024)
                .outputTokens(256)
                .requestsPerSecond(1)
                .ttftSlo(Seconds.ofMillis(500))
                .tpotSlo(Seconds.ofMillis(30))
                .top(100)
                .build());
    assertThat(r.found()).isTrue();
    assertThat(r.configurations()).anyMatch(c -> c.strategy() == Deployment.Strategy.AFD);
  }

  @Test
  void fleet_colocated_ttftAddsTheMd1WaitOfItsReplicas() {
    // Llama-3.1-70B on 8 H100s, colocated, batch 16 at 1 request/s: one replica serves it and is
    // its own prefill server; a prompt of 1024 tokens takes τ = a pass of 8 prompts / 8, so
    // ρ = 1 × τ and TTFT p50 = TTFT + ρτ / (2(1 − ρ)), p99 = TTFT + τ ln(100ρ) / (1 − ρ)
    PlanRequest q =
        PlanRequest.builder()
            .model(LLAMA_70B)
            .addChips(Chips.H100_SXM)
            .inputTokens(1024)
            .outputTokens(256)
            .requestsPerSecond(1)
            .ttftSlo(Seconds.of(10))
            .tpotSlo(Seconds.of(1))
            .build();
    RooflineModel pool =
        PoolSpec.builder().model(LLAMA_70B).chip(Chips.H100_SXM).count(8).build().build(1, 1280);
    Deployment d = new ColocatedDeployment(pool);
    FrontierPoint p = d.point(16, 1024, 256);
    PlanFleet.Sized f = PlanFleet.size(d, p, q.workload(), q);
    double tau = pool.prefill(8, 1024).seconds().seconds() / 8;
    assertThat(f.replicas()).isEqualTo(1);
    assertThat(f.prefillReplicas()).isZero();
    assertThat(f.chips()).isEqualTo(8);
    assertThat(f.ttftP50())
        .isCloseTo(p.ttft().seconds() + PoissonQueue.meanWait(1, tau), within(1e-12));
    assertThat(f.ttftP99())
        .isCloseTo(p.ttft().seconds() + PoissonQueue.p99Wait(1, tau), within(1e-12));
  }

  @Test
  void fleet_pd_countsWholePrefillReplicasAndGrowsThemForTheP99() {
    // pd at 20 requests/s: each prefill replica of 8 H100s takes τ per prompt; the fleet takes
    // the fewest whole replicas with ρ < 1 whose p99 TTFT meets 0.8 s, and counts all their chips
    PlanRequest q =
        PlanRequest.builder()
            .model(LLAMA_70B)
            .addChips(Chips.H100_SXM)
            .inputTokens(1024)
            .outputTokens(256)
            .requestsPerSecond(20)
            .ttftSlo(Seconds.of(10))
            .ttftP99Slo(Seconds.ofMillis(800))
            .tpotSlo(Seconds.of(1))
            .build();
    PoolSpec spec = PoolSpec.builder().model(LLAMA_70B).chip(Chips.H100_SXM).count(8).build();
    Deployment d =
        DeploymentSpec.builder()
            .strategy(Deployment.Strategy.PD)
            .pool(spec)
            .prefill(spec)
            .build()
            .build(1024, 256);
    FrontierPoint p = d.point(64, 1024, 256);
    PlanFleet.Sized f = PlanFleet.size(d, p, q.workload(), q);
    RooflineModel prefill = ((PrefillDecodeDeployment) d).prefill();
    double tau = prefill.prefill(8, 1024).seconds().seconds() / 8;
    long s = f.prefillReplicas();
    assertThat(20 * tau / s).isLessThan(1);
    assertThat(f.ttftP99()).isLessThanOrEqualTo(0.8);
    if (s > Math.floor(20 * tau) + 1) {
      // one replica fewer would miss the p99
      assertThat(p.ttft().seconds() + PoissonQueue.p99Wait(20.0 / (s - 1), tau)).isGreaterThan(0.8);
    }
    long decode = (long) Math.ceil(20 * p.tpot().seconds() * 256 / 64 - 1e-9);
    assertThat(f.replicas()).isEqualTo(Math.max(1, decode));
    assertThat(f.chips()).isEqualTo(f.replicas() * 8 + s * 8);
  }
}
