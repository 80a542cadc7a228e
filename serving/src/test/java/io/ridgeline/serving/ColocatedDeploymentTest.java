package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.DataKind;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The colocated step's prefill share and the served TTFT's parts, as worked examples. */
final class ColocatedDeploymentTest {
  private static final Model LLAMA70 = Models.byId("llama-3.1-70b");
  private static final Model LLAMA8 = Models.byId("llama-3.1-8b");
  private static final Chip H100 = Chips.byId("h100-sxm");
  // the chip at its peak matmul: the ideal-but-one efficiencies below compute at their own fraction
  private static final RooflineModel TP8 = IdealPools.of(LLAMA70, IdealPools.atPeakMatmul(H100), 8);

  /**
   * The former prefill share: every operation at max(compute, memory without weights, network), the
   * network time with its per-hop latency.
   */
  private static double withHopLatency(RooflineModel rm, double prompts, int isl) {
    StepResult full = rm.prefill(prompts, isl, 0, 1);
    double stage = 0;
    for (PhaseResult p : full.phases()) {
      for (OperationResult o : p.operations()) {
        double weights =
            o.operation().bytes(DataKind.WEIGHTS).bytes()
                / Math.max(1e-300, o.operation().memoryBytes().bytes());
        double memory = o.memorySeconds().seconds() * (1 - weights);
        stage +=
            Math.max(o.computeSeconds().seconds(), Math.max(memory, o.networkSeconds().seconds()));
      }
    }
    return full.passes() * (stage + full.p2pSeconds().seconds());
  }

  @Test
  void prefillShare_tp8_paysNoExtraLatencyHops() {
    // Llama-3.1-70B (80 layers, hidden 8192) on 8× H100 at the roofline bound; batch 64, ISL =
    // OSL = 1024: a step prefills 64/1024 of a prompt, 64 tokens. Each of its two all-reduce
    // operations (after attention, after the FFN) covers 80 layers of a tree's 2·⌈log2 8⌉ = 6
    // hops = 480 hops of 1 µs (NVLink) = 480 µs, and a ring's 80 × 64 × 8192 × 2·7/8 × 2 B =
    // 146,800,640 B / 450e9 B/s = 326.22 µs. Before: 2 × (480 + 326.22) µs = 1.612 ms of
    // collectives; after, the bandwidth only: 2 × 326.22 µs = 0.652 ms; the rest (compute of the
    // 64 tokens, activations, KV) is 1.134 ms either way: 2.746 ms → 1.786 ms, 960 hops × 1 µs =
    // 0.960 ms less.
    double before = withHopLatency(TP8, 64 / 1024.0, 1024);
    double after = ColocatedDeployment.prefillWithoutWeights(TP8, 64 / 1024.0, 1024);
    assertThat(before).isCloseTo(2.746e-3, withPercentage(0.1));
    assertThat(after).isCloseTo(1.786e-3, withPercentage(0.1));
    assertThat(before - after).isCloseTo(960 * 1e-6, within(1e-12));
    // a software latency of 10 µs per hop would add 960 × 10 µs = 9.6 ms to the former share and
    // adds nothing now: the prefill tokens ride the decode step's collectives
    RooflineModel slowHops =
        RooflineModel.builder()
            .from(TP8)
            .efficiency(
                Efficiency.builder()
                    .from(Efficiency.ideal())
                    .collectiveLatency(Seconds.ofMicros(10))
                    .build())
            .build();
    assertThat(ColocatedDeployment.prefillWithoutWeights(slowHops, 64 / 1024.0, 1024))
        .isCloseTo(after, within(1e-12));
    assertThat(withHopLatency(slowHops, 64 / 1024.0, 1024) - before)
        .isCloseTo(960 * 10e-6, within(1e-9));
  }

  @Test
  void prefillShare_tp1_unchanged() {
    // one chip has no collectives: the share is the same as before
    RooflineModel one = IdealPools.of(LLAMA8, H100);
    assertThat(ColocatedDeployment.prefillWithoutWeights(one, 64 / 1024.0, 1024))
        .isEqualTo(withHopLatency(one, 64 / 1024.0, 1024));
  }

  @Test
  void ttft_colocated_isAdmissionPlusHalfAStepPlusChunkSteps() {
    // Llama-3.1-70B on 8× H100, ideal but for 20 ms of admission; batch 64, ISL = OSL = 1024.
    // Decode step at context 1024 + 512 ≈ 8.074 ms (weights ≈ 139 GB / 8 / 3.35e12 B/s ≈ 5.19
    // ms, KV 327,680 B × 64 × 1536 / 8 / 3.35e12 ≈ 1.20 ms, all-reduces 2 × (480 + 326.22) µs
    // ≈ 1.61 ms). The server's prefill share, 64 / 1024 prompts = 64 tokens, joins the decode
    // kernels: its GEMM compute (2 × 69.5e9 × 64 / 8 / 989.4e12 ≈ 1.12 ms) hides under the decode
    // GEMMs' weight streaming, leaving its all-reduce bandwidth (10.44 ms × 64 / 1024 ≈ 0.65 ms)
    // and its own activations and KV: 0.732 ms; the server's step = 8.074 + 0.732 = 8.806 ms. A
    // request's own steps carry the other 63 slots' prompts, 63 tokens ≈ 0.720 ms: TPOT 8.794 ms.
    // TTFT = admission 20 ms
    //      + wait for the running step, 8.806 / 2 = 4.403 ms
    //      + one chunk of 1024 tokens: a step of the other 63 sequences' decode, 8.044 ms (their KV
    //        1.20 × 63 / 64 ≈ 1.18 ms), + the chunk's 24.509 ms: its GEMMs join the decode GEMMs,
    //        max(1.10 + 18.0, 5.19) − 5.19 ≈ 13.9 ms (compute ≈ 2 × 69.5e9 × 1024 / 8 / 989.4e12 ≈
    //        18.0 ms), its all-reduces' bandwidth 2 × 80 × 1024 × 8192 × 1.75 × 2 B / 450e9 ≈ 10.44
    //        ms, attention and the rest ≈ 0.16 ms; = 32.553 ms
    //      = 56.956 ms (riding the weight reads alone, the chunk took 28.580 ms: 61.584 ms)
    RooflineModel pool = idealWithAdmission(20);
    ColocatedDeployment d = new ColocatedDeployment(pool);
    FrontierPoint p = d.point(64, 1024, 1024);
    TtftParts parts = d.ttftParts(64, 1024, 1024);
    assertThat(p.tpot().seconds()).isCloseTo(8.794e-3, withPercentage(0.1));
    assertThat(parts.admission().seconds()).isCloseTo(0.020, within(1e-15));
    assertThat(parts.stepWait().seconds()).isCloseTo(8.806e-3 / 2, withPercentage(0.1));
    assertThat(parts.prefill().seconds()).isCloseTo(32.553e-3, withPercentage(0.1));
    assertThat(parts.transfer().seconds()).isZero();
    assertThat(p.ttft().seconds()).isCloseTo(parts.total().seconds(), within(1e-15));
    assertThat(p.ttft().seconds()).isCloseTo(56.956e-3, withPercentage(0.1));
  }

  @Test
  void ttft_colocated_batchOne_isAdmissionPlusThePromptsOwnPrefill() {
    // batch 1: no other sequence runs, so the request waits for no step and its chunk is a prefill
    // pass of its own (weights, all-reduces and fixed costs included), not a ride on a decode step:
    // Llama-3.1-70B on 8× H100, ideal but for 20 ms of admission, 1024 tokens: 20 + 29.619 ms
    RooflineModel pool = idealWithAdmission(20);
    ColocatedDeployment d = new ColocatedDeployment(pool);
    TtftParts parts = d.ttftParts(1, 1024, 1024);
    assertThat(parts.stepWait().seconds()).isZero();
    assertThat(parts.prefill().seconds()).isEqualTo(pool.prefill(1, 1024).seconds().seconds());
    assertThat(parts.prefill().seconds()).isCloseTo(29.619e-3, withPercentage(0.1));
    assertThat(d.point(1, 1024, 1024).ttft().seconds()).isCloseTo(49.619e-3, withPercentage(0.1));
  }

  @Test
  void ridingSeconds_joinsTheRunningKernel() {
    // a decode GEMM streaming its weights in 10 µs with 1 µs of compute, joined by a chunk's 30 µs
    // of compute and 4 µs of memory of which half is the (shared) weights: max(1 + 30, 10 + 2) −
    // max(1, 10) = 21 µs; riding the weights alone (no running kernel) it adds max(30, 2) = 30 µs;
    // a small share (3 µs of compute) hides under the streaming and adds its 2 µs of activations
    assertThat(RidingPrefill.ridingSeconds(30e-6, 4e-6, 50, 100, 0, 0, 1e-6, 10e-6))
        .isCloseTo(21e-6, within(1e-18));
    assertThat(RidingPrefill.ridingSeconds(30e-6, 4e-6, 50, 100, 0, 0, 0, 0))
        .isCloseTo(30e-6, within(1e-18));
    assertThat(RidingPrefill.ridingSeconds(3e-6, 4e-6, 50, 100, 0, 0, 1e-6, 10e-6))
        .isCloseTo(2e-6, within(1e-18));
    // a collective adds its bandwidth time beyond its per-hop latency: 25 − 5 = 20 µs
    assertThat(RidingPrefill.ridingSeconds(0, 0, 0, 0, 25e-6, 5e-6, 0, 0))
        .isCloseTo(20e-6, within(1e-18));
  }

  @Test
  void ttft_atBatchOne_waitsForNoRunningStep() {
    // A request of a batch of one finds the server idle: no step is running, so its prompt starts
    // at once. Colocated, pd and afd alike: wait 0 at batch 1, half a step at batch 2, and the
    // batch-1 TTFT is admission + prefill (+ transfer) alone. TtftParts.stepWait: 16.8 ms steps
    // give 8.4 ms at batch 2 and 0 at batch 1 with a synchronous scheduler; under an overlap
    // scheduler (one step of lag) 16.8 × 1.5 = 25.2 ms at batch 2 and still 0 at batch 1.
    assertThat(TtftParts.stepWait(2, 16.8e-3, 0)).isCloseTo(8.4e-3, within(1e-15));
    assertThat(TtftParts.stepWait(1, 16.8e-3, 0)).isZero();
    assertThat(TtftParts.stepWait(2, 16.8e-3, 1)).isCloseTo(25.2e-3, within(1e-15));
    assertThat(TtftParts.stepWait(1, 16.8e-3, 1)).isZero();
    ColocatedDeployment colocated = new ColocatedDeployment(TP8);
    PrefillDecodeDeployment pd = (PrefillDecodeDeployment) Deployment.disaggregated(TP8, TP8);
    AttentionFfnDeployment afd = new AttentionFfnDeployment(TP8, TP8);
    List<Deployment> ds = List.of(colocated, pd, afd);
    List<TtftParts> ones =
        List.of(
            colocated.ttftParts(1, 1024, 1024),
            pd.ttftParts(1, 1024, 1024),
            afd.ttftParts(1, 1024, 1024));
    List<TtftParts> twos =
        List.of(
            colocated.ttftParts(2, 1024, 1024),
            pd.ttftParts(2, 1024, 1024),
            afd.ttftParts(2, 1024, 1024));
    for (int i = 0; i < ds.size(); i++) {
      TtftParts one = ones.get(i);
      String name = ds.get(i).toString();
      assertThat(one.stepWait().seconds()).as(name).isZero();
      assertThat(twos.get(i).stepWait().seconds()).as(name).isPositive();
      assertThat(ds.get(i).point(1, 1024, 1024).ttft().seconds())
          .as(name)
          .isCloseTo(
              one.admission().seconds() + one.prefill().seconds() + one.transfer().seconds(),
              within(1e-15));
    }
    assertThatThrownBy(() -> TtftParts.stepWait(0, 1e-3, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("batch must be positive: 0");
    assertThatThrownBy(() -> TtftParts.stepWait(2, 1e-3, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("scheduling lag steps must be >= 0: -1");
  }

  @Test
  void ttft_pd_addsHalfADecodeStepAndTheKvTransferWithItsSetUp() {
    // Same pools, pd: the decode pool's step at batch 64, context 1536 is 8.074 ms (no prefill
    // share). TTFT = admission 0 + the prompt's prefill 29.62 ms (compute ≈ 18.0 ms + all-reduces'
    // bandwidth ≈ 10.44 ms + the rest, with their 960 hops of 1 µs)
    //      + KV 327,680 B × 1024 = 335.5 MB over 8 ConnectX-7 links of 50 GB/s = 0.8389 ms
    //        + the transfer's set-up, one hop of 5 µs = 0.8439 ms
    //      + wait to join the running decode batch, 8.074 / 2 = 4.037 ms
    //      = 34.50 ms
    PrefillDecodeDeployment d = (PrefillDecodeDeployment) Deployment.disaggregated(TP8, TP8);
    TtftParts parts = d.ttftParts(64, 1024, 1024);
    FrontierPoint p = d.point(64, 1024, 1024);
    assertThat(p.tpot().seconds()).isCloseTo(8.074e-3, withPercentage(0.1));
    assertThat(parts.stepWait().seconds()).isCloseTo(p.tpot().seconds() / 2, within(1e-15));
    assertThat(parts.prefill().seconds()).isCloseTo(29.62e-3, withPercentage(0.1));
    assertThat(parts.transfer().seconds())
        .isCloseTo(327_680.0 * 1024 / (8 * 50e9) + 5e-6, withPercentage(1e-9));
    assertThat(p.ttft().seconds()).isCloseTo(parts.total().seconds(), within(1e-15));
    assertThat(p.ttft().seconds()).isCloseTo(34.50e-3, withPercentage(0.1));
  }

  @Test
  void ttft_pd_transferIncludesTheDecodePoolsHandover() {
    // The same pd at batch 64, its decode pool with a 120 ms hand-over (pd_handover_ms): the TTFT's
    // transfer is the KV's 0.8389 ms + the 5 µs set-up + 120 ms = 120.84 ms; prefill, wait and
    // TPOT do not change (a latency, not accelerator time).
    RooflineModel slow =
        RooflineModel.builder()
            .from(TP8)
            .efficiency(
                Efficiency.builder()
                    .from(Efficiency.ideal())
                    .pdHandover(Seconds.ofMillis(120))
                    .build())
            .build();
    PrefillDecodeDeployment base = (PrefillDecodeDeployment) Deployment.disaggregated(TP8, TP8);
    PrefillDecodeDeployment d = (PrefillDecodeDeployment) Deployment.disaggregated(TP8, slow);
    TtftParts before = base.ttftParts(64, 1024, 1024);
    TtftParts after = d.ttftParts(64, 1024, 1024);
    assertThat(after.transfer().seconds() - before.transfer().seconds())
        .isCloseTo(0.120, within(1e-12));
    assertThat(after.transfer().seconds()).isCloseTo(120.84e-3, withPercentage(0.01));
    assertThat(after.prefill()).isEqualTo(before.prefill());
    assertThat(after.stepWait()).isEqualTo(before.stepWait());
    assertThat(d.point(64, 1024, 1024).tpot()).isEqualTo(base.point(64, 1024, 1024).tpot());
  }

  @Test
  void ttft_afd_addsHalfAnAfdStep() {
    // Same pools as attention and FFN, no prefill pool: the AFD step at batch 64 is 9.739 ms, so
    // the wait is 4.870 ms; the prompt's prefill through both pools is 37.13 ms; no KV transfer.
    // The TPOT adds the prefill the pools do per step: 64 / 1024 prompts of a pass's share each.
    AttentionFfnDeployment d = new AttentionFfnDeployment(TP8, TP8);
    FrontierPoint p = d.point(64, 1024, 1024);
    TtftParts parts = d.ttftParts(64, 1024, 1024);
    double step = d.step(64, 1024, 1024).seconds();
    assertThat(parts.stepWait().seconds()).isCloseTo(step / 2, within(1e-15));
    double perPrompt = new AfdPools(TP8, TP8, Optional.empty()).prefillSecondsPerPrompt(1024);
    assertThat(p.tpot().seconds()).isCloseTo(step + 64 * perPrompt / 1024, within(1e-15));
    assertThat(parts.stepWait().seconds()).isCloseTo(4.870e-3, withPercentage(0.1));
    assertThat(parts.prefill().seconds()).isCloseTo(37.13e-3, withPercentage(0.1));
    assertThat(parts.transfer().seconds()).isZero();
    assertThat(p.ttft().seconds()).isCloseTo(parts.total().seconds(), within(1e-15));
  }

  @Test
  void ttftParts_sumAndValidation() {
    TtftParts parts = TtftParts.of(0.020, 0.005, 0.030, 0.001);
    assertThat(parts.total().seconds()).isCloseTo(0.056, within(1e-15));
    assertThat(TtftParts.prefillOnly(0.03).total().seconds()).isEqualTo(0.03);
  }

  /** {@link #TP8} at the ideal efficiency but for {@code ms} milliseconds of admission. */
  @Test
  void ttft_overlapScheduler_waitsAStepMore_synchronousSchedulerPaysItsStepWork() {
    // The worked example's pools (70B on 8× H100, batch 64, 1024/1024) with 1 ms of host work per
    // step and no other cost. Under the overlap scheduler (the default) the host's 1 ms hides
    // under the device's 8.07 ms decode pass, and a request arriving during a step is taken in
    // when the next step is already scheduled: wait = residual + one step = 1.5 × the server's
    // step (its decode with all 64 / 1024 prompts' prefill riding it, 64 / tok/s of the replica).
    // A synchronous scheduler does the 1 ms between passes (decode step 8.07 + 1 = 9.07 ms) and
    // the request joins the next step: wait = 0.5 × step. At batch 1 neither waits.
    Efficiency overlap =
        Efficiency.builder().from(Efficiency.ideal()).stepOverhead(Seconds.ofMillis(1)).build();
    Efficiency sync = Efficiency.builder().from(overlap).overlapScheduler(false).build();
    assertThat(overlap.schedulingLagSteps()).isEqualTo(1);
    assertThat(sync.schedulingLagSteps()).isZero();
    assertThat(Efficiency.ideal().schedulingLagSteps()).isZero(); // no host loop: no lag
    assertThat(sync.toString()).endsWith(", synchronous scheduler");
    RooflineModel withOverlap = RooflineModel.builder().from(TP8).efficiency(overlap).build();
    RooflineModel withSync = RooflineModel.builder().from(TP8).efficiency(sync).build();
    double decodeOverlap = withOverlap.decode(64, 1536).seconds().seconds();
    double decodeSync = withSync.decode(64, 1536).seconds().seconds();
    assertThat(decodeOverlap).isEqualTo(TP8.decode(64, 1536).seconds().seconds());
    assertThat(decodeSync - decodeOverlap).isCloseTo(1e-3, within(1e-12));
    ColocatedDeployment o = new ColocatedDeployment(withOverlap);
    ColocatedDeployment y = new ColocatedDeployment(withSync);
    assertThat(o.ttftParts(64, 1024, 1024).stepWait().seconds())
        .isCloseTo(1.5 * step(o.point(64, 1024, 1024)), withPercentage(1e-9));
    assertThat(y.ttftParts(64, 1024, 1024).stepWait().seconds())
        .isCloseTo(0.5 * step(y.point(64, 1024, 1024)), withPercentage(1e-9));
    assertThat(o.ttftParts(1, 1024, 1024).stepWait().seconds()).isZero();
    assertThat(y.ttftParts(1, 1024, 1024).stepWait().seconds()).isZero();
  }

  /** The server's mean step of point {@code p}: batch / (tok/s/chip × chips). */
  private static double step(FrontierPoint p) {
    return p.batch() / (p.tokensPerSecondPerChip() * p.chipsTotal());
  }

  private static RooflineModel idealWithAdmission(double ms) {
    return RooflineModel.builder()
        .from(TP8)
        .efficiency(
            Efficiency.builder().from(Efficiency.ideal()).admission(Seconds.ofMillis(ms)).build())
        .build();
  }
}
