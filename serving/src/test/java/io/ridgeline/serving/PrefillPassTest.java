package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import org.junit.jupiter.api.Test;

/** A prefill pool runs the prompts that fit it per pass, never a pass it cannot hold. */
final class PrefillPassTest {
  /**
   * Llama-2-7B on one TPU v5e (16 GB): the default prefill pool, sized for one prompt of 1,024
   * tokens, is one chip; 13.5 GB of bf16 weights leave room for the KV of 3 prompts of 1,024 tokens
   * (0.5 MB per token: 0.54 GB each) and their activations, not the 8,192 / 1,024 = 8 a chunk
   * holds.
   */
  private static final DeploymentSpec PD_V5E =
      DeploymentSpec.builder()
          .strategy(Deployment.Strategy.PD)
          .pool(
              PoolSpec.builder()
                  .model(Models.byId("llama-2-7b"))
                  .chip(Chips.byId("tpu-v5e"))
                  .count(1)
                  .build())
          .build();

  @Test
  void prefillPassPrompts_chunkDoesNotFit_runsTheLargestCountThatFits() {
    Deployment d = PD_V5E.build(1024, 128);
    RooflineModel prefill = d.pools().get("prefill");
    assertThat(prefill.replicaChips()).isEqualTo(1);
    assertThat(prefill.promptsPerPrefillPass(1024)).isEqualTo(8);
    int pass = prefill.prefillPassPrompts(1024, 1024);
    assertThat(pass).isEqualTo(3);
    assertThat(prefill.memory(pass, 1024).fits()).isTrue();
    assertThat(prefill.memory(pass + 1, 1024).fits()).isFalse();
  }

  @Test
  void pdFrontier_prefillPoolHoldsOnePromptNotEight_pointsFit() {
    // before: each point required a pass of 8 prompts to fit the one-chip prefill pool, so every
    // point of the frontier was out of memory while the command exited 0
    ParetoFrontier f =
        ParetoFrontier.builder(PD_V5E.build(1024, 128)).inputTokens(1024).outputTokens(128).build();
    assertThat(f.points()).isNotEmpty().allMatch(FrontierPoint::fits);
  }

  @Test
  void prefillPassPrompts_chunkFits_isPromptsPerPrefillPass() {
    RooflineModel h100 =
        PoolSpec.builder()
            .model(Models.byId("llama-3.1-8b"))
            .chip(Chips.byId("h100-sxm"))
            .build()
            .build(1, 1024);
    assertThat(h100.prefillPassPrompts(1024, 1024)).isEqualTo(h100.promptsPerPrefillPass(1024));
  }
}
