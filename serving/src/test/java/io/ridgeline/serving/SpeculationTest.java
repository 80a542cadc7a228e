package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.core.PhaseKind;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import java.util.List;
import org.junit.jupiter.api.Test;

final class SpeculationTest {
  private static final long SEED = 20261130L;

  /**
   * Llama-3.1-8B on one H100: batch-1 decode reads 15 GB of weights per step, memory-bound. The
   * copy ships one MTP layer (the catalog's has none), which changes no figure: MTP layers are
   * counted nowhere but in what speculation they allow.
   */
  private static final RooflineModel LLAMA8_H100 =
      IdealPools.of(
          Model.builder().from(Models.byId("llama-3.1-8b")).mtpLayers(1).build(),
          Chips.byId("h100-sxm"));

  @Test
  void deployment_mtpOnModelWithoutMtpLayers_refusedNamingModelAndField() {
    RooflineModel plain = IdealPools.of(Models.byId("llama-3.1-8b"), Chips.byId("h100-sxm"));
    for (Deployment d :
        List.of(
            Deployment.of(Deployment.Strategy.STATIC, plain),
            Deployment.of(Deployment.Strategy.COLOCATED, plain),
            Deployment.disaggregated(plain, plain),
            Deployment.attentionFfn(plain, plain))) {
      assertThatThrownBy(() -> d.withSpeculation(Speculation.mtp(3, 0.8)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "speculation mtp: model llama-3.1-8b has no MTP layers (num_nextn_predict_layers"
                  + " is 0); use a draft model instead");
    }
  }

  @Test
  void deployment_draftWithAnotherVocabulary_refusedNamingBoth() {
    // Qwen3-8B's 151,936-entry vocabulary cannot propose ids for Llama-3.1-8B's 128,256
    Speculation qwenDraft = Speculation.withDraft(Models.byId("qwen3-8b"), 3, 0.8);
    assertThatThrownBy(
            () ->
                Deployment.of(Deployment.Strategy.COLOCATED, LLAMA8_H100)
                    .withSpeculation(qwenDraft))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "speculation draft qwen3-8b: its vocab_size 151936 differs from model"
                + " llama-3.1-8b's 128256; a draft must share the target's tokenizer");
  }

  @Test
  void expectedTokensPerStep_alpha08Gamma3_is2952() {
    // (1 − α^(γ+1)) / (1 − α) = (1 − 0.8⁴) / (1 − 0.8) = (1 − 0.4096) / 0.2 = 0.5904 / 0.2 = 2.952
    assertThat(Speculation.mtp(3, 0.8).expectedTokensPerStep()).isCloseTo(2.952, within(1e-12));
  }

  @Test
  void expectedTokensPerStep_alphaZero_isOneToken() {
    // every draft token rejected: the verify pass still yields the target's own next token
    assertThat(Speculation.mtp(3, 0).expectedTokensPerStep()).isEqualTo(1.0);
    assertThat(Speculation.mtp(7, 0).expectedTokensPerStep()).isEqualTo(1.0);
  }

  @Test
  void expectedTokensPerStep_alphaHalfGammaOne_isOneAndAHalf() {
    // (1 − 0.5²) / 0.5 = 0.75 / 0.5 = 1.5: the verified token plus the draft half the time
    assertThat(Speculation.mtp(1, 0.5).expectedTokensPerStep()).isCloseTo(1.5, within(1e-12));
  }

  @Test
  void build_acceptanceOutsideZeroToOne_throwsNamingAcceptance() {
    assertThatThrownBy(() -> Speculation.mtp(3, 1.0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("speculation acceptance (α) must be in [0, 1): 1.0");
    assertThatThrownBy(() -> Speculation.mtp(3, -0.1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("speculation acceptance (α) must be in [0, 1): -0.1");
    assertThatThrownBy(() -> Speculation.mtp(3, Double.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("speculation acceptance (α) must be in [0, 1): NaN");
    assertThatThrownBy(
            () -> Speculation.withDraft(Models.byId("llama-3.1-8b"), 3, Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("speculation acceptance (α)");
  }

  @Test
  void build_zeroLength_throwsNamingLength() {
    assertThatThrownBy(() -> Speculation.mtp(0, 0.8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("speculation length (γ) must be at least 1: 0");
    assertThatThrownBy(() -> Speculation.withDraft(Models.byId("llama-3.1-8b"), -2, 0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("speculation length (γ) must be at least 1: -2");
  }

  @Test
  void toString_underAnyLocale_usesDotDecimals() {
    // the tests run under hi-IN; the summary is formatted under Locale.ROOT
    assertThat(Speculation.mtp(3, 0.8)).hasToString("mtp γ=3 α=0.80 (2.95 tokens/step)");
    assertThat(Speculation.withDraft(Models.byId("llama-3.1-8b"), 4, 0.7).toString())
        .startsWith("llama-3.1-8b γ=4 α=0.70");
  }

  @Test
  void decode_verifyPassOfGammaPlusOneTokens_raisesFfnIntensity() {
    // batch 1: 2 FLOPs per weight read once per token of 2 B → ≈ 1 FLOP/B;
    // γ + 1 = 4 tokens share each weight read → ≈ 4 FLOP/B
    double plain =
        LLAMA8_H100.decode(1, 1024).phase(PhaseKind.DECODE_FFN).intensity().flopsPerByte();
    double verify =
        LLAMA8_H100.decode(1, 1024, 4).phase(PhaseKind.DECODE_FFN).intensity().flopsPerByte();
    assertThat(plain).isCloseTo(1.0, withPercentage(1));
    assertThat(verify).isCloseTo(4.0, withPercentage(1));
    assertThat(verify).isGreaterThan(plain);
  }

  @Test
  void decode_verifyPassMemoryBound_costsAboutOnePlainStep() {
    // the 4 tokens read the same 15 GB of weights: the verify pass is within a few % of a step
    double plain = LLAMA8_H100.decode(1, 1024).seconds().seconds();
    double verify = LLAMA8_H100.decode(1, 1024, 4).seconds().seconds();
    assertThat(verify).isGreaterThanOrEqualTo(plain).isCloseTo(plain, withPercentage(3));
  }

  @Test
  void point_mtpGamma3Alpha08_memoryBoundBatch1_lowersTpot() {
    Deployment plain = Deployment.of(Deployment.Strategy.STATIC, LLAMA8_H100);
    Deployment mtp = plain.withSpeculation(Speculation.mtp(3, 0.8));
    FrontierPoint without = plain.point(1, 1024, 1024);
    FrontierPoint with = mtp.point(1, 1024, 1024);
    // static speculative TPOT is taken at the mean context isl + osl/2 = 1536:
    // (verify of 4 tokens + 3 MTP drafts of one layer + head) / 2.952 tokens per step
    StepResult step = LLAMA8_H100.decode(1, 1536);
    double verify = LLAMA8_H100.decode(1, 1536, 4).seconds().seconds();
    double other = step.phase(PhaseKind.DECODE_OTHER).seconds().seconds();
    double draft = (step.seconds().seconds() - other) / 32 + other;
    double expected = (verify + 3 * draft) / 2.952;
    // ≈ (4.55 ms + 3 × (4.23 / 32 + 0.31) ms) / 2.952 ≈ 1.99 ms against ≈ 4.54 ms without
    assertThat(with.tpot().seconds()).isCloseTo(expected, withPercentage(1e-6));
    assertThat(with.tpot().seconds()).isLessThan(without.tpot().seconds() / 2);
    assertThat(with.tokensPerSecondPerChip()).isGreaterThan(without.tokensPerSecondPerChip());
    assertThat(with.note()).isEqualTo("mtp γ=3 α=0.80 (2.95 tokens/step)");
  }

  @Test
  void point_colocatedMtp_memoryBoundBatch1_lowersTpot() {
    Deployment plain = Deployment.of(Deployment.Strategy.COLOCATED, LLAMA8_H100);
    Deployment mtp = plain.withSpeculation(Speculation.mtp(3, 0.8));
    assertThat(mtp.point(1, 1024, 1024).tpot().seconds())
        .isLessThan(plain.point(1, 1024, 1024).tpot().seconds());
  }

  @Test
  void expectedTokensPerStep_anyAlphaGamma_betweenOneAndGammaPlusOne_risingInAlpha() {
    qt().withFixedSeed(SEED)
        .forAll(integers().between(1, 16), doubles().between(0, 0.999), doubles().between(0, 0.999))
        .checkAssert(
            (gamma, a, b) -> {
              double low = Speculation.mtp(gamma, Math.min(a, b)).expectedTokensPerStep();
              double high = Speculation.mtp(gamma, Math.max(a, b)).expectedTokensPerStep();
              assertThat(low).isBetween(1.0, gamma + 1.0);
              assertThat(high).isBetween(1.0, gamma + 1.0);
              assertThat(high).isGreaterThanOrEqualTo(low - 1e-12);
            });
  }
}
