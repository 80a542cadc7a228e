package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import org.junit.jupiter.api.Test;

/** The one layout policy: {@link PoolSpec#build}, on worked examples. */
class PoolSpecTest {
  private static final Model LLAMA8 = Models.byId("llama-3.1-8b");
  private static final Model LLAMA70 = Models.byId("llama-3.1-70b");
  private static final Model DEEPSEEK = Models.byId("deepseek-v3");
  private static final Chip H100 = Chips.byId("h100-sxm");
  private static final Chip H200 = Chips.byId("h200-sxm");

  private static PoolSpec.Builder llama70OnH100() {
    return PoolSpec.builder().model(LLAMA70).chip(H100);
  }

  @Test
  void build_explicitTpAndPp_usesThemAsGiven() {
    RooflineModel rm =
        llama70OnH100().count(8).tensorParallel(4).pipelineParallel(2).build().build(1, 2048);
    assertThat(rm.tensorParallel()).isEqualTo(4);
    assertThat(rm.pipelineParallel()).isEqualTo(2);
    assertThat(rm.chips()).isEqualTo(8);
  }

  @Test
  void build_countWithoutTp_tpIsCountOverPpTimesAttentionDp() {
    // 16 chips, attention-dp 2: tp = 16 / (1 × 2) = 8
    RooflineModel rm =
        PoolSpec.builder()
            .model(DEEPSEEK)
            .chip(H200)
            .count(16)
            .expertParallel(8)
            .attentionDataParallel(2)
            .build()
            .build(1, 4096);
    assertThat(rm.tensorParallel()).isEqualTo(8);
    assertThat(rm.attentionDataParallel()).isEqualTo(2);
    assertThat(rm.expertParallel()).isEqualTo(8);
    assertThat(rm.chips()).isEqualTo(16);
  }

  @Test
  void build_countTheHeadsDoNotDivide_laysItOutAsTensorTimesPipeline() {
    // 64 query heads, 8 KV heads: tp 6 does not divide them
    assertThat(LLAMA70.tensorParallelProblem(6)).isPresent();
    RooflineModel rm = llama70OnH100().count(6).build().build(1, 2048);
    RooflineModel expected =
        Sizing.layoutFor(RooflineModel.of(LLAMA70, H100), 6, 2048).orElseThrow();
    assertThat(rm).isEqualTo(expected);
    assertThat(rm.tensorParallel() * rm.pipelineParallel()).isEqualTo(6);
    assertThat(LLAMA70.tensorParallelProblem(rm.tensorParallel())).isEmpty();
  }

  @Test
  void build_nothingGivenOneChipTooSmall_fewestChipsThatHoldTheBatch() {
    // 70B parameters in bf16 are 141 GB: one 80 GB H100 cannot hold them
    RooflineModel one = RooflineModel.of(LLAMA70, H100);
    assertThat(one.memory(1, 2048).fits()).isFalse();
    RooflineModel rm = llama70OnH100().build().build(1, 2048);
    assertThat(rm).isEqualTo(Sizing.fewestChips(one, 1, 2048).orElseThrow());
    assertThat(rm.chips()).isGreaterThan(1);
    assertThat(rm.memory(1, 2048).fits()).isTrue();
  }

  @Test
  void build_nothingGivenOneChipHoldsIt_oneChip() {
    RooflineModel rm = PoolSpec.builder().model(LLAMA8).chip(H100).build().build(1, 2048);
    assertThat(rm).isEqualTo(RooflineModel.of(LLAMA8, H100));
  }

  @Test
  void build_doesNotRunPrefill_sizedFirstThenMarked() {
    RooflineModel sized = llama70OnH100().build().build(1, 2048);
    RooflineModel decode = llama70OnH100().runsPrefill(false).build().build(1, 2048);
    assertThat(decode.runsPrefill()).isFalse();
    assertThat(decode.chips()).isEqualTo(sized.chips());
    assertThat(decode).isEqualTo(RooflineModel.builder().from(sized).runsPrefill(false).build());
  }

  @Test
  void of_existingPool_buildsItBack() {
    RooflineModel rm =
        RooflineModel.builder()
            .model(DEEPSEEK)
            .chip(H200)
            .tensorParallel(8)
            .expertParallel(8)
            .attentionDataParallel(2)
            .chips(16)
            .runsPrefill(false)
            .efficiency(Efficiency.builder().from(Efficiency.ideal()).compute(0.5).build())
            .build();
    assertThat(PoolSpec.of(rm).build(1, 4096)).isEqualTo(rm);
  }

  @Test
  void check_nonPositiveDegrees_throwNamingOption() {
    assertThatThrownBy(() -> llama70OnH100().pipelineParallel(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--pp must be positive: 0");
    assertThatThrownBy(() -> llama70OnH100().count(0).build())
        .hasMessage("--count must be positive: 0");
    assertThatThrownBy(() -> llama70OnH100().tensorParallel(-2).build())
        .hasMessage("--tp must be positive: -2");
    assertThatThrownBy(() -> llama70OnH100().attentionDataParallel(0).build())
        .hasMessage("--attention-dp must be positive: 0");
  }
}
