package io.ridgeline.serving.efficiency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.IdealPools;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.StepResult;
import org.junit.jupiter.api.Test;

final class EfficiencyTest {
  // the chip at its peak matmul: the ideal-but-one efficiencies below compute at their own fraction
  private static final RooflineModel IDEAL =
      IdealPools.of(Models.byId("llama-3.1-8b"), IdealPools.atPeakMatmul(Chips.byId("h100-sxm")));

  @Test
  void computeAt_smallM_saturates() {
    Efficiency e =
        Efficiency.builder().compute(0.8).memory(1).network(1).gemmHalfTokens(64).build();
    // 0.8 × 64 / (64 + 64) = 0.4 at M = 64; 0.8 × 6400 / 6464 ≈ 0.792 at M = 6400
    assertThat(e.computeAt(64)).isEqualTo(0.4);
    assertThat(e.computeAt(6400)).isCloseTo(0.792, withPercentage(0.1));
  }

  @Test
  void overheads_kernelsOnTheDevice_stepWorkOverlapsIt() {
    Efficiency e =
        Efficiency.builder()
            .compute(1)
            .memory(1)
            .network(1)
            .stepOverhead(Seconds.ofMicros(200))
            .kernelOverhead(Seconds.ofMicros(5))
            .build();
    RooflineModel rm = RooflineModel.builder().from(IDEAL).efficiency(e).build();
    // Llama-3.1-8B at tp 1: 32 layers × 9 kernels + 3 head kernels = 291 kernels; the device's
    // pass gains 291 × 5 µs = 1,455 µs, and the host's 200 µs of step work runs under it
    assertThat(rm.decode(1, 1024).seconds().seconds() - IDEAL.decode(1, 1024).seconds().seconds())
        .isCloseTo(1455e-6, withPercentage(0.01));
    // a host that needs 50 ms per step sets the step's time: the device's pass (about 5 ms of
    // streaming 16 GB at 3.35 TB/s, plus 1,455 µs) waits for it
    RooflineModel slowHost =
        RooflineModel.builder()
            .from(IDEAL)
            .efficiency(Efficiency.builder().from(e).stepOverhead(Seconds.ofMillis(50)).build())
            .build();
    assertThat(slowHost.decode(1, 1024).seconds().seconds()).isEqualTo(0.05);
    assertThat(e.deviceOverheadSeconds(291)).isCloseTo(1455e-6, withPercentage(1e-9));
  }

  @Test
  void smallMPenalty_slowsComputeBoundPrefillNotMemoryBoundDecode() {
    Efficiency e =
        Efficiency.builder().compute(1).memory(1).network(1).gemmHalfTokens(2048).build();
    RooflineModel rm = RooflineModel.builder().from(IDEAL).efficiency(e).build();
    // prefill of 2048 tokens: its GEMMs at 2048 / (2048 + 2048) = 50% → about twice as long (a
    // little more: the LM head multiplies one row per prompt and runs far below 50%)
    assertThat(rm.prefill(1, 2048).seconds().seconds() / IDEAL.prefill(1, 2048).seconds().seconds())
        .isBetween(1.7, 2.05);
    // with a tile-sized half point (64 tokens, the M of a tensor-core tile) a batch-1 decode GEMV
    // still gets 989.4 / 65 ≈ 15 TFLOP/s, above the 3.35 TFLOP/s its 1 FLOP/B × 3.35 TB/s needs:
    // it stays memory-bound and its time does not change
    Efficiency tile =
        Efficiency.builder().compute(1).memory(1).network(1).gemmHalfTokens(64).build();
    RooflineModel tiled = RooflineModel.builder().from(IDEAL).efficiency(tile).build();
    assertThat(tiled.decode(1, 1024).phase(PhaseKind.DECODE_FFN).seconds())
        .isEqualTo(IDEAL.decode(1, 1024).phase(PhaseKind.DECODE_FFN).seconds());
    assertThat(e.isIdeal()).isFalse();
    assertThat(e.toString()).contains("GEMM half at 2048 tokens");
  }

  @Test
  void badValues_named() {
    assertThatThrownBy(
            () -> Efficiency.builder().compute(1).memory(1).network(1).gemmHalfTokens(-1).build())
        .hasMessageContaining("gemm half tokens must be finite and >= 0: -1.0");
    assertThatThrownBy(
            () -> Efficiency.builder().compute(1).memory(1).network(1).gemmHalfDepth(-1).build())
        .hasMessageContaining("gemm half depth must be finite and >= 0: -1.0");
    assertThatThrownBy(() -> Efficiency.of(0, 1, 1))
        .hasMessageContaining("compute efficiency must be in (0, 1]: 0.0");
    assertThatThrownBy(
            () -> Efficiency.builder().compute(1).memory(1).network(1).moeOverlap(1).build())
        .hasMessageContaining(
            "moe overlap (share of the all-to-all hidden under compute) must be in [0, 1): 1.0");
  }

  @Test
  void attention_slowsOnlyTheKvReadingKernels() {
    Efficiency e = Efficiency.builder().compute(1).memory(1).network(1).attention(0.5).build();
    RooflineModel rm = RooflineModel.builder().from(IDEAL).efficiency(e).build();
    // decode attention reads the KV cache at half the bandwidth: twice as long; the FFN is
    // unchanged
    assertThat(rm.decode(8, 8192).phase(PhaseKind.DECODE_ATTENTION).seconds().seconds())
        .isCloseTo(
            2 * IDEAL.decode(8, 8192).phase(PhaseKind.DECODE_ATTENTION).seconds().seconds(),
            withPercentage(1e-6));
    assertThat(rm.decode(8, 8192).phase(PhaseKind.DECODE_FFN).seconds())
        .isEqualTo(IDEAL.decode(8, 8192).phase(PhaseKind.DECODE_FFN).seconds());
    assertThat(e.toString()).contains("attention 50%");
    assertThatThrownBy(
            () -> Efficiency.builder().compute(1).memory(1).network(1).attention(1.5).build())
        .hasMessageContaining("attention efficiency must be in (0, 1]: 1.5");
  }

  @Test
  void collectiveLatency_addsPerHop_onlyWhenChipsTalk() {
    Efficiency e =
        Efficiency.builder()
            .compute(1)
            .memory(1)
            .network(1)
            .collectiveLatency(Seconds.ofMicros(10))
            .build();
    // one chip: no collectives, no change
    RooflineModel one = RooflineModel.builder().from(IDEAL).efficiency(e).build();
    assertThat(one.decode(1, 1024).seconds()).isEqualTo(IDEAL.decode(1, 1024).seconds());
    // tp 8: 32 all-reduces after attention + 32 after the FFN per step, each 2·⌈log2 8⌉ = 6 hops:
    // 64 × 6 × 10 µs = 3.84 ms more per decode step
    RooflineModel ideal8 = RooflineModel.builder().from(IDEAL).chips(8).tensorParallel(8).build();
    RooflineModel tp8 = RooflineModel.builder().from(ideal8).efficiency(e).build();
    assertThat(tp8.decode(1, 1024).seconds().seconds() - ideal8.decode(1, 1024).seconds().seconds())
        .isCloseTo(3.84e-3, withPercentage(0.01));
    assertThatThrownBy(
            () ->
                Efficiency.builder()
                    .compute(1)
                    .memory(1)
                    .network(1)
                    .collectiveLatency(Seconds.ofMicros(-1))
                    .build())
        .hasMessageContaining("must not be negative");
  }

  @Test
  void promptsPerPrefillPass_isChunkOverPromptPerAttentionGroup() {
    // 8,192 / 1,024 = 8 prompts per group; 4 attention groups → 32
    RooflineModel dp4 =
        RooflineModel.builder()
            .model(Models.byId("deepseek-v3"))
            .chip(Chips.byId("h200-sxm"))
            .chips(4)
            .tensorParallel(1)
            .attentionDataParallel(4)
            .expertParallel(4)
            .build();
    assertThat(dp4.promptsPerPrefillPass(1024)).isEqualTo(32);
    // a prompt longer than the chunk still makes one per group
    assertThat(dp4.promptsPerPrefillPass(10_000)).isEqualTo(4);
    assertThat(IDEAL.promptsPerPrefillPass(1024)).isEqualTo(8);
  }

  @Test
  void forChip_sramOnlyChipsGetTheLatencyFloor() {
    Efficiency e = Efficiency.of(0.6, 0.8, 0.7);
    // Groq's LPU holds everything in on-chip SRAM: no GPU-fitted profile applies; the roofline
    // with the SRAM tier's latency (900 ns, an estimate in the chip file) per dependent operation
    Efficiency groq = e.forChip(Chips.byId("groq-lpu"));
    assertThat(groq.compute()).isEqualTo(1);
    assertThat(groq.memory()).isEqualTo(1);
    assertThat(groq.stepOverhead()).isEqualTo(Seconds.ZERO);
    assertThat(groq.kernelOverhead().seconds()).isCloseTo(900e-9, within(1e-15));
    // Cerebras: 1.27 µs, WaferLLM's Llama-3-8B decode on a WSE-2 (370.4 µs per token) over its
    // 291 dependent operations
    assertThat(e.forChip(Chips.byId("cerebras-wse3")).kernelOverhead().seconds())
        .isCloseTo(1.27e-6, within(1e-15));
    // the ideal efficiency stays the roofline bound on every chip
    assertThat(Efficiency.ideal().forChip(Chips.byId("groq-lpu")).isIdeal()).isTrue();
    // an HBM GPU keeps the profile
    assertThat(e.forChip(Chips.byId("h100-sxm"))).isSameAs(e);
    assertThat(Efficiency.sramOnly(Chips.byId("h100-sxm"))).isFalse();
  }

  @Test
  void admission_addsToServedTtftOnly() {
    Efficiency e =
        Efficiency.builder()
            .compute(1)
            .memory(1)
            .network(1)
            .admission(Seconds.ofMillis(200))
            .build();
    RooflineModel rm = RooflineModel.builder().from(IDEAL).efficiency(e).build();
    Deployment served = Deployment.of(Deployment.Strategy.COLOCATED, rm);
    Deployment ideal = Deployment.of(Deployment.Strategy.COLOCATED, IDEAL);
    // colocated: 200 ms more to the first token, the same steps and throughput
    FrontierPoint p = served.point(8, 1024, 256);
    FrontierPoint q = ideal.point(8, 1024, 256);
    assertThat(p.ttft().seconds() - q.ttft().seconds()).isCloseTo(0.2, withPercentage(1e-6));
    assertThat(p.tpot()).isEqualTo(q.tpot());
    assertThat(p.tokensPerSecondPerChip()).isEqualTo(q.tokensPerSecondPerChip());
    // a static batch has no request path
    Deployment batch = Deployment.of(Deployment.Strategy.STATIC, rm);
    Deployment idealBatch = Deployment.of(Deployment.Strategy.STATIC, IDEAL);
    assertThat(batch.point(8, 1024, 256).ttft()).isEqualTo(idealBatch.point(8, 1024, 256).ttft());
    assertThat(e.toString()).contains("admission 200");
  }

  @Test
  void prefillHostSeconds_launchesOverlapTheDevice() {
    // 300 kernels, 1 ms step: the device's fixed cost at 3 µs per graphed kernel is 0.9 ms; the
    // host's eager pass at 20 µs per launch is 1 + 300 × 0.02 = 7 ms
    Efficiency e =
        Efficiency.builder()
            .from(Efficiency.ideal())
            .stepOverhead(Seconds.ofMicros(1000))
            .kernelOverhead(Seconds.ofMicros(3))
            .prefillKernelOverhead(Seconds.ofMicros(20))
            .build();
    assertThat(e.deviceOverheadSeconds(300)).isCloseTo(0.9e-3, within(1e-12));
    assertThat(e.prefillHostSeconds(300)).isCloseTo(7e-3, within(1e-12));
    assertThat(Efficiency.ideal().prefillHostSeconds(300)).isZero();
    // a pass takes the longer of device and host: Llama-3.1-8B on one H100 launches 291 kernels,
    // 291 × 40 µs = 11.64 ms; a 16-token prompt's pass (its weights streamed in ~4.8 ms) waits on
    // the host, a 4,096-token prompt's (2 × 8.03e9 × 4096 / 989.4e12 ≈ 66 ms of GEMMs) hides it
    Efficiency eager =
        Efficiency.builder()
            .from(Efficiency.ideal())
            .prefillKernelOverhead(Seconds.ofMicros(40))
            .build();
    RooflineModel rm =
        RooflineModel.builder()
            .model(io.ridgeline.models.Models.byId("llama-3.1-8b"))
            .chip(io.ridgeline.hardware.Chips.byId("h100-sxm"))
            .efficiency(eager)
            .build();
    StepResult shortPass = rm.prefill(1, 16);
    assertThat(shortPass.hostSeconds().seconds()).isCloseTo(291 * 40e-6, within(1e-12));
    assertThat(shortPass.stageSeconds().seconds()).isLessThan(5e-3);
    assertThat(shortPass.seconds().seconds()).isCloseTo(11.64e-3, within(1e-12));
    StepResult longPass = rm.prefill(1, 4096);
    assertThat(longPass.stageSeconds().seconds()).isGreaterThan(60e-3);
    assertThat(longPass.seconds()).isEqualTo(longPass.stageSeconds());
  }

  @Test
  void eagerDecode_hostLaunchesEveryKernel_whateverTheTensorParallelDegree() {
    // Llama-2-70B at tp 4 and tp 8: 80 layers of 7 attention-side and 4 FFN-side kernels (each
    // side's all-reduce included) and 4 for the embedding and head, 884 kernels either way; eager
    // at 34 µs per launch and a 1 ms step: 1 + 884 × 0.034 = 31.056 ms
    // per decode pass, longer than the device's batch-1 pass (weights 138 GB over 4 or 8 chips at
    // 60% of 3.35 TB/s: 17.8 ms, 9.5 ms), so the step waits on the host; replayed from a graph
    // the same pass takes the device's time
    Efficiency graphed =
        Efficiency.builder()
            .from(Efficiency.of(0.5, 0.6, 0.8))
            .stepOverhead(Seconds.ofMicros(1000))
            .prefillKernelOverhead(Seconds.ofMicros(34))
            .build();
    Efficiency eager = Efficiency.builder().from(graphed).eagerDecode(true).build();
    assertThat(graphed.decodeHostSeconds(884)).isEqualTo(1e-3);
    assertThat(eager.decodeHostSeconds(884)).isCloseTo(31.056e-3, within(1e-12));
    assertThat(eager.toString()).endsWith(", eager decode");
    for (int tp : new int[] {4, 8}) {
      RooflineModel g =
          RooflineModel.builder()
              .model(io.ridgeline.models.Models.byId("llama-2-70b"))
              .chip(io.ridgeline.hardware.Chips.byId("h100-sxm"))
              .chips(tp)
              .tensorParallel(tp)
              .efficiency(graphed)
              .build();
      RooflineModel x = RooflineModel.builder().from(g).efficiency(eager).build();
      assertThat(g.kernels().total()).isEqualTo(884);
      StepResult graphStep = g.decode(1, 1024);
      StepResult eagerStep = x.decode(1, 1024);
      assertThat(graphStep.seconds().seconds()).isLessThan(20e-3);
      assertThat(eagerStep.hostSeconds().seconds()).isCloseTo(31.056e-3, within(1e-12));
      assertThat(eagerStep.seconds().seconds()).isCloseTo(31.056e-3, within(1e-12));
      // the device's own work is the same: only the host's launches differ
      assertThat(eagerStep.stageSeconds()).isEqualTo(graphStep.stageSeconds());
    }
    // the roofline bound launches nothing
    Efficiency idealEager = Efficiency.builder().from(Efficiency.ideal()).eagerDecode(true).build();
    assertThat(idealEager.decodeHostSeconds(884)).isZero();
  }
}
