package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A colocated request's TPOT carries the prefills of the other requests that join while it decodes
 * ({@link ColocatedDeployment#othersPrompts}), the server's mean step (throughput, the step a new
 * request waits on) all of them: worked examples at batch 1, 2 and 64.
 */
final class SteadyStateInterferenceTest {
  // Llama-3.1-70B on 8× H100 at the roofline bound, ISL = OSL = 1024 (decode context 1536)
  private static final RooflineModel TP8 =
      IdealPools.of(
          Models.byId("llama-3.1-70b"), IdealPools.atPeakMatmul(Chips.byId("h100-sxm")), 8);
  private static final Workload W = Workload.of(1024, 1024);

  private static double decode(RooflineModel pool, int batch, Workload w) {
    return pool.decode(batch, ColocatedDeployment.decodeContext(w)).seconds().seconds();
  }

  private static double share(ColocatedDeployment d, double prompts, int batch, Workload w) {
    return ColocatedDeployment.prefillWithoutWeights(d.pool(), prompts, w, d.running(batch, w));
  }

  @Test
  void othersPrompts_batch1_2_64_areTheOtherSlotsTurnoverPerStep() {
    // each of the batch's slots turns over once per 1024 decode steps; while one request decodes,
    // the other batch − 1 slots each admit one request: (batch − 1) / 1024 prompts per step
    assertThat(ColocatedDeployment.othersPrompts(1, 1024)).isZero();
    assertThat(ColocatedDeployment.othersPrompts(2, 1024)).isEqualTo(1 / 1024.0);
    assertThat(ColocatedDeployment.othersPrompts(64, 1024)).isEqualTo(63 / 1024.0);
  }

  @Test
  void tpot_batch1_isTheDecodeStepAlone_throughputPaysTheNextPrompt() {
    // batch 1: nobody else's prompt joins the request's steps: TPOT = the decode step of one
    // sequence at context 1536, ≈ 6.20 ms (weights 139 GB / 8 / 3.35e12 B/s ≈ 5.19 ms, two
    // all-reduces' 960 hops of 1 µs ≈ 0.96 ms, KV and the rest). The server still prefills one
    // 1024-token prompt per 1024 steps, 1/1024 prompts per step riding the decode: tok/s/chip =
    // 1 / (decode + that share) / 8.
    ColocatedDeployment d = new ColocatedDeployment(TP8);
    FrontierPoint p = d.point(1, W);
    double decode = decode(TP8, 1, W);
    assertThat(p.tpot().seconds()).isEqualTo(decode);
    assertThat(decode).isCloseTo(6.20e-3, withPercentage(1));
    double step = decode + share(d, 1 / 1024.0, 1, W);
    assertThat(p.tokensPerSecondPerChip()).isCloseTo(1 / step / 8, withPercentage(1e-9));
    assertThat(d.ttftParts(1, W).stepWait().seconds()).isZero();
  }

  @Test
  void tpot_batch2_carriesTheOtherSlotsPrompt_stepCarriesBoth() {
    // batch 2: one other request joins per 1024 steps, 1/1024 of a prompt = 1 token per step. Its
    // GEMM compute hides under the decode step's weight streaming; what it adds is its all-reduce
    // bandwidth, 2 × 80 layers × 1 token × 8192 × 2·7/8 × 2 B / 450e9 B/s ≈ 10.19 µs, plus its
    // activations and KV reads (≈ 1.2 µs): ≈ 11.43 µs. TPOT ≈ 6.207 + 0.011 = 6.218 ms. The
    // server's mean step carries both slots' turnover, 2/1024 prompts ≈ 22.86 µs: 6.230 ms, which
    // sets tok/s/chip = 2 / 6.230 ms / 8 ≈ 40.13 and the wait of a new request, half a step.
    ColocatedDeployment d = new ColocatedDeployment(TP8);
    FrontierPoint p = d.point(2, W);
    double decode = decode(TP8, 2, W);
    double others = share(d, 1 / 1024.0, 2, W);
    double all = share(d, 2 / 1024.0, 2, W);
    assertThat(others).isCloseTo(11.43e-6, withPercentage(0.5));
    assertThat(all).isCloseTo(22.86e-6, withPercentage(0.5));
    assertThat(p.tpot().seconds()).isCloseTo(decode + others, within(1e-15));
    assertThat(p.tpot().seconds()).isCloseTo(6.2185e-3, withPercentage(0.01));
    assertThat(p.tokensPerSecondPerChip()).isCloseTo(2 / (decode + all) / 8, withPercentage(1e-9));
    assertThat(d.ttftParts(2, W).stepWait().seconds()).isCloseTo((decode + all) / 2, within(1e-15));
  }

  @Test
  void tpot_batch64_carriesSixtyThreeOfSixtyFourTurnovers() {
    // batch 64: 63/1024 prompts (63 tokens) per step join a request's decode, ≈ 0.720 ms (the
    // all-reduce bandwidth 63 × 10.19 µs ≈ 0.642 ms, the rest activations and KV): TPOT ≈ 8.074 +
    // 0.720 = 8.794 ms; the server's step carries 64 tokens, ≈ 0.732 ms: 8.806 ms, which sets
    // tok/s/chip = 64 / 8.806 ms / 8 ≈ 908.5
    ColocatedDeployment d = new ColocatedDeployment(TP8);
    FrontierPoint p = d.point(64, W);
    double decode = decode(TP8, 64, W);
    assertThat(decode).isCloseTo(8.074e-3, withPercentage(0.1));
    assertThat(p.tpot().seconds()).isCloseTo(8.794e-3, withPercentage(0.1));
    assertThat(p.tpot().seconds()).isCloseTo(decode + share(d, 63 / 1024.0, 64, W), within(1e-15));
    assertThat(p.tokensPerSecondPerChip()).isCloseTo(908.5, withPercentage(0.1));
  }

  @Test
  void tpot_405bOnMi300xAt32kPrompt_batch1_isTheDecodeStep() {
    // Llama-3.1-405B on 8× MI300X at the calibrated default, ISL 32,000, OSL 92: at batch 1 the
    // request shares its steps with nobody's prefill, so its TPOT is the decode step at context
    // 32,000 + 46, ≈ 37.5 ms (engines measure 51-70 ms); charging it the next request's
    // 32,000-token prefill over its 92 steps gave 86 ms (131.8 ms before the calibration moved)
    Chip mi300x = Chips.byId("mi300x");
    RooflineModel pool =
        RooflineModel.builder()
            .model(Models.byId("llama-3.1-405b"))
            .chip(mi300x)
            .chips(8)
            .tensorParallel(8)
            .efficiency(Efficiency.standard(mi300x))
            .build();
    Workload w = Workload.of(32_000, 92);
    FrontierPoint p = new ColocatedDeployment(pool).point(1, w);
    assertThat(p.tpot().seconds()).isEqualTo(decode(pool, 1, w));
    assertThat(p.tpot().seconds()).isCloseTo(37.5e-3, withPercentage(1));
    // the compiled path gives the same point
    Optional<PointsAt> compiled = CompiledColocated.of(new ColocatedDeployment(pool), w);
    assertThat(compiled).isPresent();
    assertThat(compiled.get().point(1).tpot().seconds())
        .isCloseTo(p.tpot().seconds(), withPercentage(1e-7));
  }
}
