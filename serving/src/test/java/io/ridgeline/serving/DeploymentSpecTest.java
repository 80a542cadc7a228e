package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import org.junit.jupiter.api.Test;

/** The one deployment factory: {@link DeploymentSpec#build}, on worked examples. */
class DeploymentSpecTest {
  private static final Model LLAMA8 = Models.byId("llama-3.1-8b");
  private static final Model LLAMA70 = Models.byId("llama-3.1-70b");
  private static final Model DEEPSEEK = Models.byId("deepseek-v3");
  private static final Chip H100 = Chips.byId("h100-sxm");
  private static final Chip H200 = Chips.byId("h200-sxm");
  private static final Chip B200 = Chips.byId("b200");

  private static PoolSpec pool(Model m, Chip c, int count) {
    return PoolSpec.builder().model(m).chip(c).count(count).build();
  }

  @Test
  void build_colocated_onePoolForOneRequestOfIslPlusOsl() {
    Deployment d =
        DeploymentSpec.builder()
            .strategy(Deployment.Strategy.COLOCATED)
            .pool(pool(LLAMA70, H100, 8))
            .build()
            .build(1024, 1024);
    assertThat(d).isInstanceOf(ColocatedDeployment.class);
    assertThat(d)
        .isEqualTo(
            Deployment.of(Deployment.Strategy.COLOCATED, RooflineModel.of(LLAMA70, H100, 8)));
    assertThat(d.pools()).containsOnlyKeys("pool");
  }

  @Test
  void build_pd_prefillPoolDoesNotInheritTheDecodePipelineDepth() {
    // decode: 16 H100s as tp 8 x pp 2; the default prefill pool drops the count, the tp and the
    // depth, and is the fewest H100s that hold a 1024-token prompt at pp 1 (before: pp 2, one
    // stage per chip, however few chips a prompt needs)
    PoolSpec deep =
        PoolSpec.builder().model(LLAMA70).chip(H100).count(16).pipelineParallel(2).build();
    PrefillDecodeDeployment d =
        (PrefillDecodeDeployment)
            DeploymentSpec.builder()
                .strategy(Deployment.Strategy.PD)
                .pool(deep)
                .build()
                .build(1024, 1024);
    assertThat(d.decode().pipelineParallel()).isEqualTo(2);
    assertThat(d.decode().chips()).isEqualTo(16);
    assertThat(d.prefill().pipelineParallel()).isEqualTo(1);
    assertThat(d.prefill())
        .isEqualTo(Sizing.fewestChips(RooflineModel.of(LLAMA70, H100), 1, 1024).orElseThrow());
  }

  @Test
  void build_pd_decodeDoesNotRunPrefillAndPrefillIsSizedToOnePrompt() {
    // decode: 8 H100s at tp 8; prefill: no count, so the fewest H100s that hold a 1024-token prompt
    PrefillDecodeDeployment d =
        (PrefillDecodeDeployment)
            DeploymentSpec.builder()
                .strategy(Deployment.Strategy.PD)
                .pool(pool(LLAMA70, H100, 8))
                .build()
                .build(1024, 1024);
    assertThat(d.decode().chips()).isEqualTo(8);
    assertThat(d.decode().tensorParallel()).isEqualTo(8);
    assertThat(d.decode().runsPrefill()).isFalse();
    RooflineModel fewest =
        Sizing.fewestChips(RooflineModel.of(LLAMA70, H100), 1, 1024).orElseThrow();
    assertThat(d.prefill()).isEqualTo(fewest);
    assertThat(d.prefill().runsPrefill()).isTrue();
    assertThat(d).isEqualTo(Deployment.disaggregated(fewest, RooflineModel.of(LLAMA70, H100, 8)));
    assertThat(d.pools().keySet()).containsExactly("decode", "prefill");
  }

  @Test
  void build_pdWithPrefillSpec_usesItAtIsl() {
    PrefillDecodeDeployment d =
        (PrefillDecodeDeployment)
            DeploymentSpec.builder()
                .strategy(Deployment.Strategy.PD)
                .pool(pool(LLAMA70, H100, 8))
                .prefill(pool(LLAMA70, B200, 2))
                .poolLink(BytesPerSecond.ofGigabytes(50))
                .build()
                .build(8192, 256);
    assertThat(d.prefill()).isEqualTo(RooflineModel.of(LLAMA70, B200, 2));
    assertThat(d.poolLink()).contains(BytesPerSecond.ofGigabytes(50));
  }

  @Test
  void build_afdWithoutFfnCount_searchesTheRatioFromTheFewestChipsThatHoldTheFfn() {
    // attention on 2 H100s; FFN on B200s, no count: Llama-3.1-70B's FFN weights (3 × 8192 ×
    // 28672 × 80 = 56.4e9 parameters, 112.7 GB in BF16) need 1 B200 (192 GB); the search tries 1,
    // 2, 4 and 8 B200s (up to 4 × 2 attention chips) and keeps the best at the largest batch
    AttentionFfnDeployment d =
        (AttentionFfnDeployment)
            DeploymentSpec.builder()
                .strategy(Deployment.Strategy.AFD)
                .pool(pool(LLAMA70, H100, 2))
                .ffn(PoolSpec.builder().model(LLAMA70).chip(B200).build())
                .afdMicroBatches(3)
                .build()
                .build(1024, 1024);
    assertThat(d.attention())
        .isEqualTo(
            RooflineModel.builder()
                .from(RooflineModel.of(LLAMA70, H100, 2))
                .runsPrefill(false)
                .build());
    assertThat(d.ffn().chip()).isEqualTo(B200);
    assertThat(d.ffn().runsAttention()).isFalse();
    assertThat(d.ffn().chips()).isIn(1, 2, 4, 8);
    assertThat(d.ffn().tensorParallel()).isEqualTo(d.ffn().chips());
    int context = 2048;
    double best = d.point(d.maxBatch(context), 1024, 1024).tokensPerSecondPerChip();
    for (int n : new int[] {1, 2, 4, 8}) {
      AttentionFfnDeployment other =
          AfdRatio.withFfn(
              d,
              RooflineModel.builder()
                  .from(RooflineModel.of(LLAMA70, B200, n))
                  .runsAttention(false)
                  .build());
      assertThat(other.point(other.maxBatch(context), 1024, 1024).tokensPerSecondPerChip())
          .isLessThanOrEqualTo(best);
    }
    assertThat(d.microBatches()).isEqualTo(3);
    assertThat(d.pools().keySet()).containsExactly("attention", "ffn", "prefill");
  }

  @Test
  void build_afdWithoutFfnSpec_ffnPoolFromTheAttentionSpecOnItsChip() {
    AttentionFfnDeployment d =
        (AttentionFfnDeployment)
            DeploymentSpec.builder()
                .strategy(Deployment.Strategy.AFD)
                .pool(pool(LLAMA8, H100, 1))
                .build()
                .build(1024, 1024);
    assertThat(d.ffn().chip()).isEqualTo(d.attention().chip());
    assertThat(d.ffn().precisions()).isEqualTo(d.attention().precisions());
    assertThat(d.prefill()).isPresent();
  }

  @Test
  void build_explicitParallelismEfficiencyAndSpeculation_asValidationNeeds() {
    // a measured system: 16 H200s, tp 8, ep 8, attention-dp 2, a calibrated efficiency, MTP
    Efficiency half = Efficiency.builder().from(Efficiency.ideal()).compute(0.5).build();
    PoolSpec measured =
        PoolSpec.builder()
            .model(DEEPSEEK)
            .chip(H200)
            .count(16)
            .tensorParallel(8)
            .expertParallel(8)
            .attentionDataParallel(2)
            .efficiency(half)
            .build();
    Deployment d =
        DeploymentSpec.builder()
            .strategy(Deployment.Strategy.STATIC)
            .pool(measured)
            .speculation(Speculation.mtp(1, 0.7))
            .price(DollarsPerHour.of(3))
            .build()
            .build(4096, 512);
    RooflineModel rm = d.decodePool();
    assertThat(rm.chips()).isEqualTo(16);
    assertThat(rm.tensorParallel()).isEqualTo(8);
    assertThat(rm.expertParallel()).isEqualTo(8);
    assertThat(rm.attentionDataParallel()).isEqualTo(2);
    assertThat(rm.efficiency()).isEqualTo(half);
    assertThat(d.speculation()).contains(Speculation.mtp(1, 0.7));
    assertThat(d.price()).contains(DollarsPerHour.of(3));
    assertThat(d.toString()).startsWith("static: ").contains(", speculative ");
  }

  @Test
  void build_nonPositiveLengths_throwNamingThem() {
    DeploymentSpec spec =
        DeploymentSpec.builder()
            .strategy(Deployment.Strategy.COLOCATED)
            .pool(pool(LLAMA8, H100, 1))
            .build();
    assertThatThrownBy(() -> spec.build(0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("input tokens (isl) must be positive: 0");
    assertThatThrownBy(() -> spec.build(1, 0))
        .hasMessage("output tokens (osl) must be positive: 0");
  }

  @Test
  void check_zeroAfdMicroBatches_throws() {
    assertThatThrownBy(
            () ->
                DeploymentSpec.builder()
                    .strategy(Deployment.Strategy.AFD)
                    .pool(pool(LLAMA8, H100, 1))
                    .afdMicroBatches(0)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("AFD micro-batches must be at least 1: 0");
  }

  @Test
  void check_zeroPoolLinkEvenForOnePool_throwsNamingLink() {
    assertThatThrownBy(
            () ->
                DeploymentSpec.builder()
                    .strategy(Deployment.Strategy.COLOCATED)
                    .pool(pool(LLAMA8, H100, 1))
                    .poolLink(BytesPerSecond.of(0))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pool link bandwidth must be positive: 0 B/s");
  }

  @Test
  void strategyOf_unknownId_listsEveryStrategyFromValues() {
    assertThat(Deployment.Strategy.ids()).isEqualTo("static, colocated, pd, afd");
    assertThatThrownBy(() -> Deployment.Strategy.of("tp"))
        .hasMessage("unknown strategy 'tp'; known: static, colocated, pd, afd");
  }
}
