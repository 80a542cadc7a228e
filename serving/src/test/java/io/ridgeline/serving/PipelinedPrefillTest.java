package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import org.junit.jupiter.api.Test;

/**
 * One prompt's prefill on a pipeline deeper than its prompts pipelines token chunks across the
 * stages ({@link PoolOperations#pipelined}) instead of visiting the stages one after another.
 */
final class PipelinedPrefillTest {
  private static final Model LLAMA70 = Models.byId("llama-3.1-70b");

  /** Llama-3.1-70B at FP8 on Groq LPUs, laid out by the policy: 316 chips, tp 4 × pp 79. */
  private static RooflineModel groq() {
    return PoolSpec.builder()
        .model(LLAMA70)
        .chip(Chips.byId("groq-lpu"))
        .precisions(LLAMA70.defaultPrecisions().withAllWeights(Precision.FP8))
        .build()
        .build(1, 2048);
  }

  @Test
  void prefill_groq70bOnePrompt_pipelinesTokenChunksAcrossTheStages() {
    RooflineModel pool = groq();
    assertThat(pool.pipelineParallel()).isEqualTo(79);
    // stage by stage: 79 passes of one stage's whole-prompt time (its 1,024 tokens' GEMMs on 4
    // chips, compute-bound), 79 × 2.63 ms = 208 ms
    StepResult sequential = pool.prefill(1.0, 1024, 0, 1);
    double stage = sequential.seconds().seconds() / 79;
    assertThat(sequential.passes()).isEqualTo(79);
    assertThat(sequential.seconds().seconds()).isCloseTo(0.208, withPercentage(1));
    // in k chunks: k + 78 passes of a chunk's stage; the stage's GEMMs stay compute-bound down to
    // small chunks (SRAM at 80 TB/s), so the pass is about 2.63 ms / k plus its fixed costs, and
    // the best power of two leaves the prefill within a few stage-times of one stage's whole-prompt
    // time instead of 79 of them: 8.56 ms, 3.25 stage-times (each pass also pays its kernels'
    // 900 ns launches)
    StepResult pipelined = pool.prefill(1, 1024, 0);
    assertThat(pipelined.microBatches()).isGreaterThan(1);
    assertThat(pipelined.passes()).isEqualTo(pipelined.microBatches() + 78);
    assertThat(pipelined.seconds().seconds()).isLessThan(4 * stage);
    assertThat(pipelined.seconds().seconds()).isCloseTo(8.555e-3, withPercentage(1));
    // the number of chunks is the best power of two: half and twice as many are not faster
    int k = pipelined.microBatches();
    for (int other : new int[] {k / 2, 2 * k}) {
      if (other >= 1 && other <= PoolOperations.MAX_TOKEN_CHUNKS) {
        assertThat(pool.prefill(1.0, 1024, 0, other).seconds().seconds())
            .isGreaterThanOrEqualTo(pipelined.seconds().seconds());
      }
    }
  }

  @Test
  void prefill_asManyPromptsAsStages_keepsWholePromptMicroBatches() {
    // 4 prompts on a 4-stage pipeline: each stage has a whole prompt to work on, no chunking
    RooflineModel pool =
        PoolSpec.builder()
            .model(LLAMA70)
            .chip(Chips.byId("h100-sxm"))
            .count(8)
            .tensorParallel(2)
            .pipelineParallel(4)
            .build()
            .build(1, 2048);
    StepResult p = pool.prefill(4, 1024, 0);
    assertThat(p.microBatches()).isEqualTo(4);
    assertThat(p.passes()).isEqualTo(7);
    assertThat(p.seconds()).isEqualTo(pool.prefill(4.0, 1024, 0, 4).seconds());
  }

  @Test
  void prefill_onePromptOnOneStage_isUnchanged() {
    RooflineModel pool = RooflineModel.of(LLAMA70, Chips.byId("h100-sxm"), 8);
    assertThat(pool.prefill(1, 1024, 0).seconds())
        .isEqualTo(pool.prefill(1.0, 1024, 0, 1).seconds());
  }
}
