package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import org.junit.jupiter.api.Test;

/**
 * What a chip count means: the builder, the factory and the command line's {@code --count} (through
 * {@link PoolSpec}) all read {@code N} chips as one pool of N chips, with the one default degree of
 * {@link ParallelLayout#defaultTensorParallel}; and {@code maxBatch} of a pool that holds nothing
 * is an error naming it.
 */
final class PoolCountTest {
  private static final Model DEEPSEEK_V3 = Models.byId("deepseek-v3");
  private static final Chip H200 = Chips.byId("h200-sxm");

  @Test
  void builder_chipsAlone_isOnePoolOfAllChips_deepSeekV3FitsOnEightH200() {
    // DeepSeek-V3 at its FP8 checkpoint: about 671e9 params × 1 B ≈ 690 GB with the BF16 parts,
    // over 8 chips ≈ 86 GB per chip of an H200's 141 GB; as eight one-chip replicas it did not fit
    RooflineModel pool = RooflineModel.builder().model(DEEPSEEK_V3).chip(H200).chips(8).build();
    assertThat(pool.tensorParallel()).isEqualTo(8);
    assertThat(pool.replicas()).isEqualTo(1);
    assertThat(pool.fits(4096)).isTrue();
    int max = pool.maxBatch(4096);
    assertThat(max).isPositive();
    assertThat(pool.largestBatch(4096)).hasValue(max);
    assertThat(pool.memory(1, 4096).weights().bytes()).isBetween(80e9, 90e9);
  }

  @Test
  void builder_and_factory_giveTheSamePool() {
    RooflineModel built = RooflineModel.builder().model(DEEPSEEK_V3).chip(H200).chips(8).build();
    RooflineModel made = RooflineModel.of(DEEPSEEK_V3, H200, 8);
    assertThat(built).isEqualTo(made);
    assertThat(built.decode(64, 4096).seconds()).isEqualTo(made.decode(64, 4096).seconds());
    assertThat(built.maxBatch(4096)).isEqualTo(made.maxBatch(4096));
    assertThat(built.toString()).isEqualTo(made.toString());
  }

  @Test
  void builder_and_commandLineCount_giveTheSameLayout() {
    // --count 8 --pp 2: tp = 8 / (2 × 1) = 4 in both
    RooflineModel built =
        RooflineModel.builder()
            .model(Models.byId("llama-3.1-70b"))
            .chip(Chips.H100_SXM)
            .chips(8)
            .pipelineParallel(2)
            .build();
    RooflineModel specified =
        PoolSpec.builder()
            .model(Models.byId("llama-3.1-70b"))
            .chip(Chips.H100_SXM)
            .count(8)
            .pipelineParallel(2)
            .build()
            .build(1, 2048);
    assertThat(built.layout()).isEqualTo(specified.layout());
    assertThat(built.layout()).isEqualTo(new ParallelLayout(8, 4, 2, 1, 1));
  }

  @Test
  void defaultTensorParallel_workedExamples() {
    // 8 chips: tp 8; with pp 2: 8 / 2 = 4; with pp 2 and attention dp 2: 8 / 4 = 2;
    // fewer chips than pp × dp: at least 1
    assertThat(ParallelLayout.defaultTensorParallel(8, 1, 1)).isEqualTo(8);
    assertThat(ParallelLayout.defaultTensorParallel(8, 2, 1)).isEqualTo(4);
    assertThat(ParallelLayout.defaultTensorParallel(8, 2, 2)).isEqualTo(2);
    assertThat(ParallelLayout.defaultTensorParallel(1, 2, 1)).isEqualTo(1);
    assertThatThrownBy(() -> ParallelLayout.defaultTensorParallel(0, 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("chip count must be positive: 0");
  }

  @Test
  void builder_degreesGiven_keepTheirMeaning() {
    Model m = Models.byId("llama-3.1-8b");
    // tp alone: one replica of tp chips; both: chips / tp replicas; neither: one chip
    assertThat(RooflineModel.builder().model(m).chip(Chips.H100_SXM).tensorParallel(4).build())
        .extracting(RooflineModel::chips, RooflineModel::replicas)
        .containsExactly(4, 1);
    assertThat(
            RooflineModel.builder()
                .model(m)
                .chip(Chips.H100_SXM)
                .chips(8)
                .tensorParallel(2)
                .build())
        .extracting(RooflineModel::chips, RooflineModel::replicas)
        .containsExactly(8, 4);
    assertThat(RooflineModel.builder().model(m).chip(Chips.H100_SXM).build())
        .extracting(RooflineModel::chips, RooflineModel::tensorParallel)
        .containsExactly(1, 1);
  }

  @Test
  void builder_reused_followsTheLastCount() {
    RooflineModel.Builder b = RooflineModel.builder().model(DEEPSEEK_V3).chip(H200).chips(8);
    assertThat(b.build().tensorParallel()).isEqualTo(8);
    assertThat(b.chips(16).build().tensorParallel()).isEqualTo(16);
  }

  @Test
  void builder_from_copiesTheDegree() {
    // a copy with another count keeps the copied tp: 16 chips of tp 8 are two replicas
    RooflineModel eight = RooflineModel.of(DEEPSEEK_V3, H200, 8);
    RooflineModel copy = RooflineModel.builder().from(eight).chips(16).build();
    assertThat(copy.tensorParallel()).isEqualTo(8);
    assertThat(copy.replicas()).isEqualTo(2);
  }

  @Test
  void maxBatch_poolThatHoldsNothing_throwsNamingPoolAndNeed() {
    // Llama-3.1-70B in BF16: 70.55e9 × 2 B = 141.1 GB > 80 GB of one H100
    RooflineModel one = RooflineModel.of(Models.byId("llama-3.1-70b"), Chips.H100_SXM);
    assertThat(one.fits(2048)).isFalse();
    assertThat(one.largestBatch(2048)).isEmpty();
    assertThatThrownBy(() -> one.maxBatch(2048))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("llama-3.1-70b on 1× h100-sxm (tp 1")
        .hasMessageContaining("does not hold one sequence of 2048 tokens")
        .hasMessageContaining("per chip, capacity 80 GB");
    assertThatThrownBy(() -> one.largestBatch(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("context must be positive: 0");
  }

  @Test
  void toString_saysPerChip() {
    RooflineModel pool = RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.H100_SXM);
    assertThat(pool.memory(1, 1024).toString()).startsWith("per chip: weights ");
    assertThat(pool.decode(1, 1024).toString()).contains("; per chip:\n  ");
  }

  @Test
  void deploymentMaxBatch_nothingFits_throwsNamingTheDeployment_largestBatchIsEmpty() {
    // Llama-3.1-405B in BF16 (~810 GB of weights) on one 80 GB H100: not one sequence fits
    Deployment d =
        Deployment.of(
            Deployment.Strategy.COLOCATED,
            RooflineModel.of(Models.byId("llama-3.1-405b"), Chips.byId("h100-sxm"), 1));
    assertThat(d.largestBatch(2048)).isEmpty();
    assertThatThrownBy(() -> d.maxBatch(2048))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not even one sequence of 2048 tokens fits in memory");
  }
}
