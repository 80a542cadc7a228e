package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class DeploymentTest {
  private static final Model LLAMA8 = Models.byId("llama-3.1-8b");
  private static final Model LLAMA70 = Models.byId("llama-3.1-70b");
  private static final Chip H100 = Chips.byId("h100-sxm");
  private static final Chip B200 = Chips.byId("b200");
  private static final RooflineModel LLAMA8_H100 = IdealPools.of(LLAMA8, H100);

  // ---- strategy ids ----

  @Test
  void toString_eachStrategy_namesStrategyAndPoolsInOrder() {
    RooflineModel prefill = IdealPools.of(LLAMA8, B200);
    assertThat(Deployment.of(Deployment.Strategy.STATIC, LLAMA8_H100))
        .hasToString("static: " + LLAMA8_H100);
    assertThat(
            Deployment.of(Deployment.Strategy.COLOCATED, LLAMA8_H100)
                .withSpeculation(Speculation.withDraft(LLAMA8, 3, 0.8)))
        .hasToString(
            "colocated: " + LLAMA8_H100 + ", speculative " + Speculation.withDraft(LLAMA8, 3, 0.8));
    PrefillDecodeDeployment pd =
        (PrefillDecodeDeployment) Deployment.disaggregated(prefill, LLAMA8_H100);
    assertThat(pd).hasToString("pd: " + pd.decode() + " + " + prefill);
    assertThat(Deployment.attentionFfn(LLAMA8_H100, prefill))
        .hasToString("afd: " + LLAMA8_H100 + " + " + prefill);
  }

  @Test
  void pools_eachStrategy_namedByRole() {
    RooflineModel other = IdealPools.of(LLAMA8, B200);
    assertThat(Deployment.of(Deployment.Strategy.STATIC, LLAMA8_H100).pools())
        .containsExactly(entry("pool", LLAMA8_H100));
    Deployment pd = Deployment.disaggregated(other, LLAMA8_H100);
    assertThat(pd.pools())
        .containsExactly(entry("decode", pd.decodePool()), entry("prefill", other));
    assertThat(Deployment.attentionFfn(LLAMA8_H100, other).pools())
        .containsExactly(entry("attention", LLAMA8_H100), entry("ffn", other));
  }

  @Test
  void constructor_pd_takesTheDecodePoolAsGiven() {
    // the record's constructor (validation's predictor) does not mark the decode pool; the factory
    // does
    Deployment d = new PrefillDecodeDeployment(IdealPools.of(LLAMA8, B200), LLAMA8_H100);
    assertThat(d).isInstanceOf(PrefillDecodeDeployment.class);
    assertThat(d.decodePool()).isEqualTo(LLAMA8_H100);
    assertThat(Deployment.disaggregated(LLAMA8_H100, LLAMA8_H100).decodePool().runsPrefill())
        .isFalse();
  }

  @Test
  void strategyOf_knownIdsAnyCase_roundTrip() {
    for (Deployment.Strategy s : Deployment.Strategy.values()) {
      assertThat(Deployment.Strategy.of(s.id())).isEqualTo(s);
    }
    assertThat(Deployment.Strategy.of("PD")).isEqualTo(Deployment.Strategy.PD);
    assertThat(Deployment.Strategy.COLOCATED.id()).isEqualTo("colocated");
  }

  @Test
  void disaggregated_eachStrategy_pdAndAfdServeFromTwoPools() {
    assertThat(Deployment.Strategy.STATIC.disaggregated()).isFalse();
    assertThat(Deployment.Strategy.COLOCATED.disaggregated()).isFalse();
    assertThat(Deployment.Strategy.PD.disaggregated()).isTrue();
    assertThat(Deployment.Strategy.AFD.disaggregated()).isTrue();
  }

  @Test
  void strategyOf_unknownId_throwsListingIds() {
    assertThatThrownBy(() -> Deployment.Strategy.of("speculative"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown strategy 'speculative'; known: static, colocated, pd, afd");
  }

  // ---- bad input ----

  @Test
  void build_pdOrAfdWithoutSecondPool_throws() {
    assertThatThrownBy(() -> Deployment.of(Deployment.Strategy.PD, LLAMA8_H100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pd needs a second pool");
    assertThatThrownBy(() -> Deployment.of(Deployment.Strategy.AFD, LLAMA8_H100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("afd needs a second pool");
  }

  @Test
  void build_zeroPoolLink_throwsNamingLink() {
    assertThatThrownBy(
            () ->
                ((PrefillDecodeDeployment) Deployment.disaggregated(LLAMA8_H100, LLAMA8_H100))
                    .withPoolLink(BytesPerSecond.of(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pool link bandwidth must be positive: 0 B/s");
  }

  @Test
  void build_poolsOfDifferentModels_throws() {
    RooflineModel llama3 = IdealPools.of(Models.byId("llama-3-8b"), H100);
    assertThatThrownBy(() -> Deployment.disaggregated(llama3, LLAMA8_H100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("both pools must serve the same model: llama-3.1-8b vs llama-3-8b");
  }

  @Test
  void build_zeroAfdMicroBatches_throws() {
    assertThatThrownBy(
            () ->
                new AttentionFfnDeployment(
                    LLAMA8_H100,
                    LLAMA8_H100,
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("AFD micro-batches must be at least 1: 0");
  }

  @Test
  void point_nonPositiveArguments_throwNamingThem() {
    Deployment d = Deployment.of(Deployment.Strategy.COLOCATED, LLAMA8_H100);
    assertThatThrownBy(() -> d.point(0, 1024, 1024)).hasMessage("batch must be positive: 0");
    assertThatThrownBy(() -> d.point(1, 0, 1024))
        .hasMessage("input tokens (isl) must be positive: 0");
    assertThatThrownBy(() -> d.point(1, 1024, -1))
        .hasMessage("output tokens (osl) must be positive: -1");
  }

  @Test
  void frontierBuild_poolTooSmallForModel_throwsDoesNotFit() {
    // 141.1e9 B of bf16 weights on one 80e9 B H100
    RooflineModel one = IdealPools.of(LLAMA70, H100);
    for (Deployment.Strategy s :
        new Deployment.Strategy[] {Deployment.Strategy.STATIC, Deployment.Strategy.COLOCATED}) {
      assertThatThrownBy(
              () ->
                  ParetoFrontier.builder(Deployment.of(s, one))
                      .inputTokens(1024)
                      .outputTokens(1024)
                      .build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("llama-3.1-70b does not fit on 1× h100-sxm")
          .hasMessageContaining("142.157 GB per chip, capacity 80 GB");
    }
    // the decode pool of PD, too
    RooflineModel eight = IdealPools.of(LLAMA70, H100, 8);
    assertThatThrownBy(
            () ->
                ParetoFrontier.builder(Deployment.disaggregated(eight, one))
                    .inputTokens(1024)
                    .outputTokens(1024)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not fit");
  }

  @Test
  void frontierBuild_afdFfnPoolTooSmall_throwsDoesNotFit() {
    // the FFN pool of one H100 cannot hold Llama-3.1-70B's FFN weights:
    // 80 layers × 3 × 8192 × 28,672 × 2 B = 112.7e9 B > 80e9 B
    RooflineModel eight = IdealPools.of(LLAMA70, H100, 8);
    RooflineModel one = IdealPools.of(LLAMA70, H100);
    assertThatThrownBy(
            () ->
                ParetoFrontier.builder(Deployment.attentionFfn(eight, one))
                    .inputTokens(1024)
                    .outputTokens(1024)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not fit");
  }

  // ---- KV transfer ----

  @Test
  void kvTransferSeconds_llama31_70b8192TokensOver50GBps_is53_7ms() {
    // 80 layers × 2 (K, V) × 8 KV heads × 128 × 2 B = 327,680 B per token;
    // 8192 × 327,680 B = 2.684e9 B / 50e9 B/s = 53.69 ms
    Bytes kv = LLAMA70.cacheBytesPerSequence(8192, Precision.BF16, 1);
    assertThat(kv.bytes()).isEqualTo(8192 * 327_680.0);
    assertThat(Deployment.kvTransferSeconds(kv, BytesPerSecond.ofGigabytes(50)))
        .isCloseTo(0.0536870912, within(1e-12));
  }

  @Test
  void kvTransferSeconds_pdWithPoolLink50GBpsAndOneChipPrefill_is53_7ms() {
    // one B200 (180 GB) holds the 141.1e9 B of weights for prefill; eight H100s decode
    RooflineModel prefill = IdealPools.of(LLAMA70, B200);
    RooflineModel decode = IdealPools.of(LLAMA70, H100, 8);
    Deployment pd =
        ((PrefillDecodeDeployment) Deployment.disaggregated(prefill, decode))
            .withPoolLink(BytesPerSecond.ofGigabytes(50));
    // a set pool link adds no hop latency: 2.684e9 B / (50e9 B/s × 1 prefill chip)
    assertThat(pd.kvTransferSeconds(8192, prefill, decode)).isCloseTo(0.0536870912, within(1e-12));
    // TTFT = prefill of one 8192-token prompt + the transfer + half the running decode step (at
    // batch 2; at batch 1 the decode pool is idle and there is no step to wait for)
    FrontierPoint p = pd.point(2, 8192, 256);
    assertThat(
            p.ttft().seconds()
                - prefill.prefill(1, 8192).seconds().seconds()
                - p.tpot().seconds() / 2)
        .isCloseTo(0.0536870912, within(1e-9));
    FrontierPoint idle = pd.point(1, 8192, 256);
    assertThat(idle.ttft().seconds() - prefill.prefill(1, 8192).seconds().seconds())
        .isCloseTo(0.0536870912, within(1e-9));
    assertThat(p.note()).contains("KV transfer 53.6871 ms");
  }

  @Test
  void kvTransferSeconds_noPoolLink_usesPrefillChipsNetworkPlusOneHop() {
    // H100's ConnectX-7: 50e9 B/s per direction, 5 µs per hop; 8 prefill chips send in parallel:
    // 2.684e9 B / (8 × 50e9 B/s) + 5 µs = 6.711 ms + 0.005 ms
    RooflineModel prefill = IdealPools.of(LLAMA70, H100, 8);
    Deployment pd = Deployment.disaggregated(prefill, prefill);
    assertThat(pd.kvTransferSeconds(8192, prefill, prefill))
        .isCloseTo(0.0536870912 / 8 + 5e-6, within(1e-12));
  }

  // ---- strategies against each other ----

  @Test
  void point_batch1_colocatedTpotEqualsPdDecodeTpot() {
    // same decode pool and mean context isl + osl/2: at batch 1 no other request's prompt joins a
    // colocated request's steps, so its TPOT is the decode step alone, as pd's
    Deployment colocated = Deployment.of(Deployment.Strategy.COLOCATED, LLAMA8_H100);
    Deployment pd = Deployment.disaggregated(LLAMA8_H100, LLAMA8_H100);
    FrontierPoint c = colocated.point(1, 1024, 1024);
    FrontierPoint d = pd.point(1, 1024, 1024);
    assertThat(d.tpot().seconds())
        .isCloseTo(LLAMA8_H100.decode(1, 1024 + 512).seconds().seconds(), withPercentage(1e-9));
    assertThat(c.tpot().seconds()).isEqualTo(d.tpot().seconds());
    assertThat(c.strategy()).isEqualTo("colocated");
    assertThat(d.strategy()).isEqualTo("pd");
  }

  @Test
  void point_pd_countsPrefillChipsOnTopOfDecodePool() {
    RooflineModel decode = IdealPools.of(LLAMA70, H100, 8);
    RooflineModel prefill = IdealPools.of(LLAMA70, H100, 4);
    FrontierPoint p = Deployment.disaggregated(prefill, decode).point(32, 2048, 512);
    assertThat(p.chipsTotal()).isGreaterThan(decode.replicaChips());
    // throughput per chip is the decode replica's tokens over all chips of both pools
    assertThat(p.tokensPerSecondPerChip() * p.chipsTotal())
        .isCloseTo(32 / p.tpot().seconds(), withPercentage(1e-9));
  }

  @Test
  void point_afd_countsChipsOfBothPools() {
    // attention on 1 H100, FFN on 2 (tp 2): 3 chips per replica
    Deployment afd = Deployment.attentionFfn(LLAMA8_H100, IdealPools.of(LLAMA8, H100, 2));
    FrontierPoint p = afd.point(8, 1024, 1024);
    assertThat(p.strategy()).isEqualTo("afd");
    assertThat(p.chipsTotal()).isEqualTo(3.0);
    assertThat(p.tokensPerSecondPerChip())
        .isCloseTo(8 / p.tpot().seconds() / 3, withPercentage(1e-9));
  }

  @Test
  void point_afdEvenBatches_stepIsPingPongOfTwoMicroBatches() {
    Deployment afd = Deployment.attentionFfn(LLAMA8_H100, IdealPools.of(LLAMA8, H100, 2));
    // batch 1: one micro-batch, nothing to overlap: attention + transfer + FFN;
    // batch 2: two micro-batches of 1 alternate: 2 × the slower side, the 1.75 ms FFN
    FrontierPoint one = afd.point(1, 1024, 1024);
    FrontierPoint two = afd.point(2, 1024, 1024);
    assertThat(two.tpot().seconds()).isGreaterThanOrEqualTo(one.tpot().seconds());
    assertThat(two.tokensPerSecondPerChip()).isGreaterThan(one.tokensPerSecondPerChip());
    // batch 4 and 8 run micro-batches of 2 and 4: steps no shorter than at batch 2
    assertThat(afd.point(4, 1024, 1024).tpot().seconds())
        .isGreaterThanOrEqualTo(two.tpot().seconds());
    assertThat(afd.point(8, 1024, 1024).tpot().seconds())
        .isGreaterThanOrEqualTo(afd.point(4, 1024, 1024).tpot().seconds());
  }

  @Test
  void point_static_matchesParetoFrontierPoint() {
    Deployment st = Deployment.of(Deployment.Strategy.STATIC, LLAMA8_H100);
    FrontierPoint a = st.point(4, 1024, 256);
    FrontierPoint b = ParetoFrontier.point(LLAMA8_H100, 4, 1024, 256);
    assertThat(a.tpot()).isEqualTo(b.tpot());
    assertThat(a.ttft()).isEqualTo(b.ttft());
    assertThat(a.tokensPerSecondPerChip()).isEqualTo(b.tokensPerSecondPerChip());
    assertThat(a.strategy()).isEqualTo("static");
  }

  // ---- cost and energy ----

  @Test
  void point_oneH100_dollarsPerMillionTokensFromCatalogPrice() {
    // 4.916 $/h / 3600 s/h / (tokens/s) × 1e6 for one chip
    assertThat(H100.pricePerHour()).contains(DollarsPerHour.of(4.916));
    FrontierPoint p = Deployment.of(Deployment.Strategy.STATIC, LLAMA8_H100).point(8, 1024, 1024);
    double tokensPerSecond = p.tokensPerSecondPerChip() * 1;
    assertThat(p.dollarsPerMillionTokens()).contains(4.916 / 3600 / tokensPerSecond * 1e6);
  }

  @Test
  void point_oneH100_tokensPerJouleAt700W() {
    // tokens/s over the 700 W TDP
    FrontierPoint p = Deployment.of(Deployment.Strategy.STATIC, LLAMA8_H100).point(8, 1024, 1024);
    assertThat(p.tokensPerJoule()).contains(p.tokensPerSecondPerChip() / 700);
  }

  @Test
  void point_priceOverride_replacesCatalogPrice() {
    Deployment d =
        Deployment.of(Deployment.Strategy.COLOCATED, LLAMA8_H100).withPrice(DollarsPerHour.of(2));
    FrontierPoint p = d.point(16, 1024, 1024);
    assertThat(p.dollarsPerMillionTokens().orElseThrow())
        .isCloseTo(2.0 / 3600 / p.tokensPerSecondPerChip() * 1e6, withPercentage(1e-9));
  }

  @Test
  void point_chipWithoutPrice_hasNoCost() {
    // the catalog gives MI355X a TDP (1,400 W) but no price per hour
    Chip mi355x = Chips.byId("mi355x");
    assertThat(mi355x.pricePerHour()).isEmpty();
    FrontierPoint p =
        Deployment.of(Deployment.Strategy.STATIC, IdealPools.of(LLAMA8, mi355x)).point(1, 128, 128);
    assertThat(p.dollarsPerMillionTokens()).isEmpty();
    assertThat(p.tokensPerJoule()).contains(p.tokensPerSecondPerChip() / 1400);
  }

  @Test
  void point_afd_costCountsBothPools() {
    // 3 chips × 4.916 $/h for batch / step tokens per second
    Deployment afd = Deployment.attentionFfn(LLAMA8_H100, IdealPools.of(LLAMA8, H100, 2));
    FrontierPoint p = afd.point(8, 1024, 1024);
    double tokensPerSecond = 8 / p.tpot().seconds();
    assertThat(p.dollarsPerMillionTokens().orElseThrow())
        .isCloseTo(3 * 4.916 / 3600 / tokensPerSecond * 1e6, withPercentage(1e-9));
    assertThat(p.tokensPerJoule().orElseThrow())
        .isCloseTo(tokensPerSecond / (3 * 700.0), withPercentage(1e-9));
  }
}
