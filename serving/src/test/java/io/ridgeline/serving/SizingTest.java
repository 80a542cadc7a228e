package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.OperationResult;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.hardware.MemoryKind;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import org.junit.jupiter.api.Test;

final class SizingTest {
  private static final Model LLAMA70 = Models.byId("llama-3.1-70b");
  private static final Chip GROQ = Chips.byId("groq-lpu");
  private static final Chip H100 = Chips.byId("h100-sxm");
  private static final Precisions FP8_WEIGHTS =
      LLAMA70.defaultPrecisions().withAllWeights(Precision.FP8);

  @Test
  void minimumChips_llama31_70bFp8OnGroqLpu_is307() {
    // 70.55e9 params × 1 B = 70.55e9 B (+ 327,680 B of KV for one token)
    // over 230e6 B of SRAM per LPU = 306.8 → 307 chips
    assertThat(LLAMA70.weightBytes(FP8_WEIGHTS).bytes()).isCloseTo(70.55e9, withPercentage(0.01));
    assertThat(GROQ.memory()).hasSize(1);
    assertThat(GROQ.mainMemory().capacity().bytes()).isEqualTo(230e6);
    assertThat(Sizing.minimumChips(LLAMA70, GROQ, FP8_WEIGHTS, 1, 1)).isEqualTo(307);
  }

  @Test
  void minimumChips_llama31_70bBf16OnH100_isTwo() {
    // 141.1e9 B of weights + 2048 × 327,680 B = 0.67e9 B of KV = 141.8e9 B over 80e9 B → 2
    assertThat(Sizing.minimumChips(LLAMA70, H100, LLAMA70.defaultPrecisions(), 1, 2048))
        .isEqualTo(2);
  }

  @Test
  void minimumChips_moreKv_needsMoreChips() {
    // 256 sequences × 8192 tokens × 327,680 B = 687e9 B of KV on top of 141.1e9 B of weights:
    // 828e9 B / 80e9 B = 10.4 → 11
    assertThat(Sizing.minimumChips(LLAMA70, H100, LLAMA70.defaultPrecisions(), 256, 8192))
        .isEqualTo(11);
  }

  @Test
  void minimumChips_nonPositiveBatchOrContext_throws() {
    assertThatThrownBy(() -> Sizing.minimumChips(LLAMA70, H100, FP8_WEIGHTS, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("batch must be positive: 0");
    assertThatThrownBy(() -> Sizing.minimumChips(LLAMA70, H100, FP8_WEIGHTS, 1, -5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("context must be positive: -5");
  }

  @Test
  void fewestChips_llama31_70bFp8OnGroqLpu_pipelineOf308ChipsHoldingWeightsInSram() {
    RooflineModel template =
        RooflineModel.builder().model(LLAMA70).chip(GROQ).precisions(FP8_WEIGHTS).build();
    RooflineModel pool = Sizing.fewestChips(template, 1, 1).orElseThrow();
    // at least the 307-chip bound; 307 is prime, and a layout is tp (a power of two dividing the
    // 64 heads) × pp (at most the 80 layers): 1 × 307 has too many stages, so the least product
    // is 4 × 77 = 308 chips, each with 70.55e9 / 308 = 229.1e6 B of weights ≤ 230e6 B
    assertThat(pool.chips()).isGreaterThanOrEqualTo(307).isEqualTo(308);
    assertThat(pool.tensorParallel()).isEqualTo(4);
    assertThat(pool.pipelineParallel()).isEqualTo(77);
    assertThat(pool.memory(1, 1).fits()).isTrue();
    assertThat(pool.memory(1, 1).weights().bytes()).isCloseTo(229.07e6, withPercentage(0.01));
    // SRAM is the chip's one tier, so every weight byte is read from it
    assertThat(GROQ.mainMemory().kind()).isEqualTo(MemoryKind.SRAM);
    for (OperationResult ffn : pool.decode(1, 1).phase(PhaseKind.DECODE_FFN).operations()) {
      assertThat(ffn.bytesByTier()).containsOnlyKeys(GROQ.mainMemory().name());
    }
  }

  @Test
  void fewestChips_oneStageFewer_doesNotFit() {
    RooflineModel template =
        RooflineModel.builder().model(LLAMA70).chip(GROQ).precisions(FP8_WEIGHTS).build();
    // 4 × 76 = 304 chips: 70.55e9 / 304 = 232.1e6 B > 230e6 B
    RooflineModel fewer =
        RooflineModel.builder()
            .from(template)
            .tensorParallel(4)
            .pipelineParallel(76)
            .chips(304)
            .build();
    assertThat(fewer.memory(1, 1).fits()).isFalse();
  }

  @Test
  void fewestChips_llama31_70bBf16OnH100_isTwoWayTensorParallel() {
    // 141.1e9 / 2 = 70.6e9 B of weights per chip + KV + workspace < 80e9 B; one chip cannot
    RooflineModel pool = Sizing.fewestChips(IdealPools.of(LLAMA70, H100), 1, 2048).orElseThrow();
    assertThat(pool.chips()).isEqualTo(2);
    assertThat(pool.tensorParallel()).isEqualTo(2);
    assertThat(pool.pipelineParallel()).isEqualTo(1);
    assertThat(pool.memory(1, 2048).fits()).isTrue();
  }

  @Test
  void fewestChips_modelFitsOneChip_isOneChip() {
    RooflineModel template = IdealPools.of(Models.byId("llama-3.1-8b"), H100);
    assertThat(Sizing.fewestChips(template, 1, 2048)).contains(template);
  }

  @Test
  void fewestChips_chipWithoutInterconnectTooSmall_isEmpty() {
    // 141.1e9 B on a 24 GB RTX 4090, which has no link to split the model over
    Chip rtx = Chips.byId("rtx-4090");
    assertThat(rtx.scaleUp()).isEmpty();
    assertThat(rtx.scaleOut()).isEmpty();
    assertThat(Sizing.fewestChips(IdealPools.of(LLAMA70, rtx), 1, 1024)).isEmpty();
  }
}
