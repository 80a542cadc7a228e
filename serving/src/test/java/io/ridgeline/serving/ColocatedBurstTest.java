package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.queueing.Burst;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ColocatedDeployment#burst}: a burst simulated with the deployment's own step times. */
final class ColocatedBurstTest {
  private static List<Burst.Request> same(int n, int isl, int osl) {
    return Collections.nCopies(n, new Burst.Request(isl, osl));
  }

  @Test
  void burst_oneRequest_isThePointAtBatch1() {
    // one request alone: its prompt's own prefill pass (TTFT, with the admission latency) and
    // then decode steps of one sequence (TPOT), as the frontier's point at batch 1
    ColocatedDeployment d =
        new ColocatedDeployment(RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.H100_SXM));
    Burst b = d.burst(same(1, 1024, 128), 64);
    FrontierPoint p = d.point(1, 1024, 128);
    assertThat(b.medianTtftSeconds()).isCloseTo(p.ttft().seconds(), withPercentage(1e-9));
    assertThat(b.medianTpotSeconds()).isCloseTo(p.tpot().seconds(), withPercentage(1e-9));
    assertThat(b.makespanSeconds())
        .isCloseTo(
            p.ttft().seconds()
                - d.pool().efficiency().admission().seconds()
                + 127 * p.tpot().seconds(),
            withPercentage(1e-9));
  }

  @Test
  void burst_500PromptsOnDeepSeek8xH200_medianTtftInSeconds() {
    // 500 prompts of 2,000 tokens at once: the engine admits what its KV cache and running limit
    // allow and prefills 4 prompts per 8,192-token step; the rest wait for slots to free, so the
    // median prompt waits seconds (unqueued, one prompt's prefill is tens of milliseconds)
    RooflineModel pool = RooflineModel.of(Models.byId("deepseek-v3"), Chips.byId("h200-sxm"), 8);
    ColocatedDeployment d = new ColocatedDeployment(pool);
    int limit = Math.min(256, pool.maxBatch(3000));
    Burst b = d.burst(same(500, 2000, 1000), limit);
    assertThat(d.point(1, 2000, 1000).ttft().seconds()).isLessThan(0.5);
    assertThat(b.medianTtftSeconds()).isGreaterThan(1.0);
    assertThat(b.p99TtftSeconds()).isGreaterThan(b.medianTtftSeconds());
    // never faster than the steady state of the running limit
    FrontierPoint steady = d.point(b.peakRunning(), 2000, 1000);
    assertThat(b.outputTokensPerSecond() / pool.replicaChips())
        .isLessThanOrEqualTo(steady.tokensPerSecondPerChip());
  }

  @Test
  void closedLoop_oneClient_eachRequestAlone_clientsBeyondTheSlotsWait() {
    // one client: each request runs alone, as at batch 1
    ColocatedDeployment d =
        new ColocatedDeployment(RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.H100_SXM));
    Burst one = d.closedLoop(1, 3, 0, same(1, 1024, 128), 64);
    FrontierPoint p = d.point(1, 1024, 128);
    assertThat(one.requests()).isEqualTo(3);
    assertThat(one.medianTtftSeconds()).isCloseTo(p.ttft().seconds(), withPercentage(1e-9));
    // 64 clients on 16 slots: the 48 beyond them wait for a slot in every round, 16 on 16 do not
    Burst crowded = d.closedLoop(64, 5, 1, same(1, 1024, 128), 16);
    Burst fitting = d.closedLoop(16, 5, 1, same(1, 1024, 128), 16);
    assertThat(crowded.medianTtftSeconds()).isGreaterThan(3 * fitting.medianTtftSeconds());
    assertThat(crowded.requests()).isEqualTo(64 * 5);
  }

  @Test
  void burst_speculation_refused() {
    ColocatedDeployment d =
        new ColocatedDeployment(RooflineModel.of(Models.byId("deepseek-v3"), Chips.B200, 8))
            .withSpeculation(Speculation.mtp(3, 0.8));
    assertThatThrownBy(() -> d.burst(same(2, 100, 10), 8))
        .hasMessage("a burst is not modelled with speculative decoding");
  }
}
