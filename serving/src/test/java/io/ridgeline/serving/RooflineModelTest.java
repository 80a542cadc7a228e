package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.Bound;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import org.junit.jupiter.api.Test;

final class RooflineModelTest {
  private static final RooflineModel LLAMA8_H100 =
      IdealPools.of(Models.byId("llama-3.1-8b"), Chips.byId("h100-sxm"));

  @Test
  void decode_llama31_8b_batch1_isWeightBandwidthBound() {
    // (15.0e9 B of weights, all but the embedding table, + 0.134e9 B of KV at 1024 tokens)
    // / 3.35e12 B/s = 4.52 ms; activations and the embedding row add well under 1%
    StepResult step = LLAMA8_H100.decode(1, 1024);
    assertThat(step.seconds().seconds()).isCloseTo(4.52e-3, withPercentage(1));
    assertThat(step.phase(PhaseKind.DECODE_FFN).bound()).isEqualTo(Bound.MEMORY);
    assertThat(step.phases())
        .extracting(p -> p.kind())
        .doesNotContain(PhaseKind.DECODE_COMMUNICATION);
  }

  @Test
  void decode_llama31_8b_ffnIntensityRisesWithBatch_attentionStaysNearFour() {
    assertThat(LLAMA8_H100.decode(1, 1024).phase(PhaseKind.DECODE_FFN).intensity().flopsPerByte())
        .isCloseTo(1.0, withPercentage(2));
    // 64 tokens share each weight read: ≈ 64 FLOP/B less activation traffic
    assertThat(LLAMA8_H100.decode(64, 1024).phase(PhaseKind.DECODE_FFN).intensity().flopsPerByte())
        .isBetween(60.0, 64.0);
    assertThat(
            LLAMA8_H100
                .decode(64, 1024)
                .phase(PhaseKind.DECODE_ATTENTION)
                .intensity()
                .flopsPerByte())
        .isCloseTo(4.0, withPercentage(3));
  }

  @Test
  void prefill_longPrompt_isComputeBound() {
    // 8 × 2048 tokens through 7.5e9 weight params: 2 FLOPs per weight per token ≈ 2.5e14 FLOPs
    // against 15 GB of weights: intensity ≈ 16,000 FLOP/B ≫ ridge 295 → compute-bound
    StepResult prefill = LLAMA8_H100.prefill(8, 2048);
    assertThat(prefill.phase(PhaseKind.PREFILL).bound()).isEqualTo(Bound.COMPUTE);
    assertThat(prefill.phase(PhaseKind.PREFILL).intensity().flopsPerByte()).isGreaterThan(295);
  }

  @Test
  void tensorParallel_addsAllReducesOverNvlink() {
    RooflineModel rm = IdealPools.of(Models.byId("llama-3.1-70b"), Chips.byId("h100-sxm"), 8);
    StepResult step = rm.decode(1, 1024);
    // 2 all-reduces × 80 layers = 160 (after attention over tp, after the FFN over the stage);
    // each 2·⌈log2 8⌉ = 6 hops → 960 hops of the link latency
    assertThat(
            step.phase(PhaseKind.DECODE_COMMUNICATION).operations().stream()
                .mapToInt(o -> o.operation().networkSteps())
                .sum())
        .isEqualTo(960);
    // per chip: 141.1e9 B / 8 = 17.6e9 B of weights / 3.35e12 B/s ≈ 5.3 ms of weight reads
    assertThat(
            step.phase(PhaseKind.DECODE_FFN).seconds().seconds()
                + step.phase(PhaseKind.DECODE_PROJECTION).seconds().seconds())
        .isCloseTo(5.1e-3, withPercentage(5));
    assertThat(rm.memory(1, 2048).weights().bytes()).isCloseTo(141.1e9 / 8, withPercentage(0.1));
  }

  @Test
  void memory_llama31_70b_doesNotFitOneH100_fitsEight() {
    // 70.55e9 params × 2 B = 141.1 GB > 80 GB
    RooflineModel one = IdealPools.of(Models.byId("llama-3.1-70b"), Chips.byId("h100-sxm"));
    assertThat(one.memory(1, 1024).fits()).isFalse();
    assertThat(one.fits(1024)).isFalse();
    assertThat(one.largestBatch(1024)).isEmpty();
    RooflineModel eight = IdealPools.of(Models.byId("llama-3.1-70b"), Chips.byId("h100-sxm"), 8);
    int max = eight.maxBatch(2048);
    assertThat(max).isPositive();
    assertThat(eight.memory(max, 2048).fits()).isTrue();
    assertThat(eight.memory(max + 1, 2048).fits()).isFalse();
  }

  @Test
  void fp8Weights_halveWeightBytes() {
    RooflineModel fp8 =
        RooflineModel.builder()
            .from(LLAMA8_H100)
            .precisions(Precisions.of(Precision.FP8, Precision.FP8, Precision.BF16))
            .build();
    assertThat(fp8.memory(1, 1024).weights().bytes())
        .isCloseTo(LLAMA8_H100.memory(1, 1024).weights().bytes() / 2, withPercentage(0.01));
  }

  @Test
  void efficiency_halfBandwidth_doublesMemoryBoundTime() {
    RooflineModel half =
        RooflineModel.builder().from(LLAMA8_H100).efficiency(Efficiency.of(1, 0.5, 1)).build();
    assertThat(half.decode(1, 1024).seconds().seconds())
        .isCloseTo(2 * LLAMA8_H100.decode(1, 1024).seconds().seconds(), withPercentage(0.5));
  }

  @Test
  void build_badParallelism_throwsNamingRule() {
    assertThatThrownBy(
            () ->
                RooflineModel.builder()
                    .model(Models.byId("llama-3.1-8b"))
                    .chip(Chips.byId("h100-sxm"))
                    .chips(6)
                    .tensorParallel(4)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("chip count (6) must be a multiple of tp × dp × pp = 4 × 1 × 1");
    assertThatThrownBy(() -> IdealPools.of(Models.byId("llama-3.1-8b"), Chips.byId("h100-sxm"), 3))
        .hasMessageContaining("tensor parallel degree (3) must divide the 32 attention heads");
    assertThatThrownBy(() -> LLAMA8_H100.decode(0, 10))
        .hasMessageContaining("batch must be positive: 0");
    assertThatThrownBy(() -> Efficiency.of(1.5, 1, 1))
        .hasMessageContaining("compute efficiency must be in (0, 1]: 1.5");
  }
}
