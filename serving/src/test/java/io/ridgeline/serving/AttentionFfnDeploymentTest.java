package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class AttentionFfnDeploymentTest {
  private static final Model LLAMA8 = Models.byId("llama-3.1-8b");
  private static final Model LLAMA70 = Models.byId("llama-3.1-70b");
  private static final Chip H100 = Chips.byId("h100-sxm");

  private static PoolSpec eight(Model m) {
    return PoolSpec.builder().model(m).chip(H100).count(8).build();
  }

  private static Deployment built(Deployment.Strategy s, int isl, int osl) {
    return DeploymentSpec.builder().strategy(s).pool(eight(LLAMA70)).build().build(isl, osl);
  }

  @Test
  void point_withPrefillPool_countsThePrefillChipsAsPd() {
    // attention 8 H100s, FFN as searched, prefill sized to the demand: at batch 64, ISL 8192,
    // OSL 256 the decode side finishes 64 / (TPOT × 256) requests/s; one prefill replica (2 H100s
    // at tp 2) runs 1 prompt of 8192 tokens per pass; prefill chips = demand / (1 / pass) × 2
    AttentionFfnDeployment d = (AttentionFfnDeployment) built(Deployment.Strategy.AFD, 8192, 256);
    RooflineModel prefill = d.prefill().orElseThrow();
    FrontierPoint p = d.point(64, 8192, 256);
    double tpot = p.tpot().seconds();
    double pass = prefill.prefill(1, 8192).seconds().seconds();
    double prefillChips = 64 / (tpot * 256) / (1 / pass) * prefill.replicaChips();
    assertThat(prefill.promptsPerPrefillPass(8192)).isEqualTo(1);
    // about 9 H100s with the built-in profile: far from negligible beside the 8 attention chips
    assertThat(prefillChips).isGreaterThan(5);
    double chips = d.attention().replicaChips() + d.ffn().replicaChips() + prefillChips;
    assertThat(p.chipsTotal()).isCloseTo(chips, withPercentage(1e-9));
    assertThat(p.tokensPerSecondPerChip()).isCloseTo(64 / tpot / chips, withPercentage(1e-9));
    // with a prefill pool the TPOT is the AFD step alone
    assertThat(tpot).isEqualTo(d.step(64, 8192, 256).seconds());
  }

  @Test
  void frontier_longPrompts_afdBeatsPdByNoMoreThanItsFfnPoolingGain() {
    // ISL 8192 / OSL 256, Llama-3.1-70B on 8 H100s (calibrated): both pay the same prefill chips
    // per
    // output token/s, so AFD's best tok/s/chip over pd's best is at most the FFN-pooling gain its
    // own breakdown shows at its best point (and at most 1 when that gain is below 1)
    AttentionFfnDeployment afd = (AttentionFfnDeployment) built(Deployment.Strategy.AFD, 8192, 256);
    Deployment pd = built(Deployment.Strategy.PD, 8192, 256);
    FrontierPoint bestAfd = best(afd);
    FrontierPoint bestPd = best(pd);
    double gain = afd.ffnPoolingGain(bestAfd.batch(), 8192, 256);
    assertThat(bestAfd.note()).contains(String.format(java.util.Locale.ROOT, "gain %.2f×", gain));
    assertThat(bestAfd.tokensPerSecondPerChip() / bestPd.tokensPerSecondPerChip())
        .isLessThanOrEqualTo(Math.max(1, gain) * (1 + 1e-9));
  }

  private static FrontierPoint best(Deployment d) {
    return ParetoFrontier.builder(d).inputTokens(8192).outputTokens(256).build().points().stream()
        .filter(FrontierPoint::fits)
        .max(java.util.Comparator.comparingDouble(FrontierPoint::tokensPerSecondPerChip))
        .orElseThrow();
  }

  @Test
  void step_oddBatch_splitsExactlyNotAsTheNextEven() {
    // batch 3 in 2 micro-batches: one of 2 and one of 1, so the step is
    // max(a(2) + a(1), f(2) + f(1), x(2) + x(1), the longer chain), below batch 4's 2 × max(…)
    RooflineModel attention = IdealPools.of(LLAMA8, H100);
    RooflineModel ffn = IdealPools.of(LLAMA8, H100, 2);
    AttentionFfnDeployment d = new AttentionFfnDeployment(attention, ffn);
    AfdPools p = new AfdPools(attention, ffn, Optional.empty());
    int context = 1024 + 512;
    double a1 = AfdPools.side(attention.decode(1, context), false);
    double a2 = AfdPools.side(attention.decode(2, context), false);
    double f1 = AfdPools.side(ffn.decode(1, context), true);
    double f2 = AfdPools.side(ffn.decode(2, context), true);
    double x1 = p.transferSeconds(1);
    double x2 = p.transferSeconds(2);
    double expected = Math.max(Math.max(a1 + a2, f1 + f2), Math.max(x1 + x2, a2 + f2 + x2));
    assertThat(d.step(3, 1024, 1024).seconds()).isCloseTo(expected, within(1e-15));
    assertThat(d.step(3, 1024, 1024).seconds()).isLessThan(d.step(4, 1024, 1024).seconds());
    assertThat(d.point(3, 1024, 1024).tokensPerSecondPerChip())
        .isGreaterThan(d.point(2, 1024, 1024).tokensPerSecondPerChip());
  }

  @Test
  void build_ffnPoolTensorParallelNotDividingHeads_isLaidOut() {
    // Llama-3.1-70B has 64 heads; an FFN pool of 3 chips at tp 3 holds only FFN weights
    AttentionFfnDeployment d =
        (AttentionFfnDeployment)
            DeploymentSpec.builder()
                .strategy(Deployment.Strategy.AFD)
                .pool(eight(LLAMA70))
                .ffn(PoolSpec.builder().model(LLAMA70).chip(H100).count(3).build())
                .build()
                .build(1024, 1024);
    assertThat(d.ffn().tensorParallel()).isEqualTo(3);
    assertThat(d.ffn().runsAttention()).isFalse();
    assertThat(d.point(64, 1024, 1024).chipsTotal()).isGreaterThan(11);
  }

  @Test
  void build_ffnPoolOnSramChips_sizedToHoldTheFfnWeights() {
    // Llama-3.1-70B FFN weights at FP8: 56.4e9 parameters × 1 B = 56.4 GB over Groq LPUs of 230 MB
    // SRAM each: at least 56.4e9 / 230e6 ≈ 246 chips
    Chip groq = Chips.byId("groq-lpu");
    PoolSpec attention =
        PoolSpec.builder()
            .from(eight(LLAMA70))
            .precisions(LLAMA70.defaultPrecisions().withAllWeights(io.ridgeline.core.Precision.FP8))
            .build();
    AttentionFfnDeployment d =
        (AttentionFfnDeployment)
            DeploymentSpec.builder()
                .strategy(Deployment.Strategy.AFD)
                .pool(attention)
                .ffn(PoolSpec.builder().from(attention).count(Optional.empty()).chip(groq).build())
                .build()
                .build(1024, 256);
    int n = d.ffn().chips();
    assertThat(n).isGreaterThanOrEqualTo(246);
    assertThat(MemoryPlan.use(d.ffn(), 1, 1, MemoryPlan.Holding.FFN_SIDE).fits()).isTrue();
    RooflineModel fewer =
        RooflineModel.builder().from(d.ffn()).chips(n - 1).tensorParallel(n - 1).build();
    assertThat(MemoryPlan.use(fewer, 1, 1, MemoryPlan.Holding.FFN_SIDE).fits()).isFalse();
    assertThat(d.point(64, 1024, 256).fits()).isTrue();
  }

  @Test
  void point_cachedHistory_chargesItsPrefillInThePrefillPool() {
    // 256 new tokens after 32,768 cached: the prefill pool computes the new tokens' attention over
    // the history and sends the whole context's KV, so TTFT and the prefill pool's chips grow; the
    // decode pools run at contexts from 33,024 tokens on (here the FFN pool sets the step, so the
    // TPOT does not move)
    AttentionFfnDeployment d = (AttentionFfnDeployment) built(Deployment.Strategy.AFD, 256, 256);
    Workload fresh = Workload.of(256, 256);
    Workload history = fresh.withCachedTokens(32_768);
    FrontierPoint a = d.point(8, fresh);
    FrontierPoint b = d.point(8, history);
    assertThat(b.ttft().seconds()).isGreaterThan(a.ttft().seconds());
    RooflineModel pre = d.prefill().orElseThrow();
    double prefillChips = DisaggregatedPrefill.chips(pre, history, 8, b.tpot().seconds());
    double chips = d.attention().replicaChips() + d.ffn().replicaChips() + prefillChips;
    assertThat(b.chipsTotal()).isCloseTo(chips, withPercentage(1e-9));
    assertThat(prefillChips)
        .isGreaterThan(DisaggregatedPrefill.chips(pre, fresh, 8, a.tpot().seconds()));
    // the decode pools hold the whole conversation: at most as many sequences fit
    assertThat(d.maxBatch(history.finalContext())).isLessThan(d.maxBatch(fresh.finalContext()));
  }
}
