package io.ridgeline.serving.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.PhaseKind;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.IdealPools;
import io.ridgeline.serving.RooflineModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class CrossoverTest {
  private static RooflineModel onH100(String model) {
    return IdealPools.of(Models.byId(model), Chips.byId("h100-sxm"));
  }

  @Test
  void phaseSets_kinds_areTheDecodeAttentionAndFfnPhases() {
    assertThat(Crossover.ATTENTION_PHASES)
        .extracting(PhaseKind::id)
        .containsExactlyInAnyOrder(
            "decode_attention", "decode_attention_sliding", "decode_linear_attention");
    assertThat(Crossover.FFN_PHASES)
        .extracting(PhaseKind::id)
        .containsExactlyInAnyOrder("decode_ffn", "decode_moe");
  }

  @Test
  void find_llama31_8b_batch1_nearFfnBytesOverKvBytesPerToken() {
    // FFN: 3 × 4096 × 14336 × 32 layers × 2 B = 11.27e9 B read per step (+ activations)
    // attention: 131,072 KV B/token per sequence (+ ~1% activations and softmax-free reads)
    // crossover ≈ 11.27e9 / 131,072 ≈ 86,000 tokens at batch 1
    Crossover c = Crossover.find(onH100("llama-3.1-8b"), 1);
    assertThat(c.context()).isPresent();
    assertThat(c.context().get()).isCloseTo(86_000, withPercentage(2));
    assertThat(c.attentionSeconds().seconds()).isGreaterThanOrEqualTo(c.ffnSeconds().seconds());
  }

  @Test
  void find_largerBatch_pullsCrossoverIn() {
    // the FFN's weights are shared by the batch, the caches are not: ≈ 86,000 / 64 ≈ 1,344
    int b1 = Crossover.find(onH100("llama-3.1-8b"), 1).context().orElseThrow();
    int b64 = Crossover.find(onH100("llama-3.1-8b"), 64).context().orElseThrow();
    assertThat(b64).isLessThan(b1 / 32);
  }

  @Test
  void find_mhaCrossesEarlierThanGqa() {
    // Llama-2-7B (MHA, 32 KV heads: 524,288 B/token) vs Llama-3-8B (GQA, 8: 131,072 B/token)
    int mha = Crossover.find(onH100("llama-2-7b"), 1).context().orElseThrow();
    int gqa = Crossover.find(onH100("llama-3-8b"), 1).context().orElseThrow();
    assertThat(mha).isLessThan(gqa / 3);
  }

  @Test
  void find_dsaPushesCrossoverBeyondMla() {
    // same weights; DSA attends to 2,048 tokens and only its indexer scans the whole cache
    int mla = Crossover.find(onH100("deepseek-v3"), 1).context().orElseThrow();
    int dsa = Crossover.find(onH100("deepseek-v3.2"), 1).context().orElseThrow();
    assertThat(dsa).isGreaterThan(2 * mla);
  }

  @Test
  void find_onlySlidingAndLinearLayers_neverCrosses(@TempDir Path dir) throws IOException {
    Path cfg = dir.resolve("hybrid.json");
    // Mamba2 and MLP sub-layers only (no '*' attention): bounded state, bounded work
    Files.writeString(
        cfg,
        "{\"model_type\":\"nemotron_h\",\"hidden_size\":1024,\"num_hidden_layers\":4,"
            + "\"hybrid_override_pattern\":\"M-M-\",\"num_attention_heads\":8,\"intermediate_size\":4096,"
            + "\"mlp_hidden_act\":\"relu2\",\"mamba_num_heads\":32,\"mamba_head_dim\":64,\"n_groups\":4,"
            + "\"ssm_state_size\":128,\"conv_kernel\":4,\"vocab_size\":32000}");
    Crossover c = Crossover.find(IdealPools.of(Models.fromConfig(cfg), Chips.byId("h100-sxm")), 1);
    assertThat(c.context()).isEmpty();
    assertThat(c.reason().orElseThrow()).contains("bounded");
    Path sliding = dir.resolve("sliding.json");
    Files.writeString(
        sliding,
        "{\"model_type\":\"mistral\",\"hidden_size\":1024,\"num_hidden_layers\":4,\"num_attention_heads\":8,"
            + "\"num_key_value_heads\":8,\"intermediate_size\":4096,\"vocab_size\":32000,\"sliding_window\":4096}");
    Crossover s =
        Crossover.find(IdealPools.of(Models.fromConfig(sliding), Chips.byId("h100-sxm")), 1);
    // 4096-token windows of 2·8·128·2 B per layer cost far less than the 4·3·1024·4096·2 B of FFN
    assertThat(s.context()).isEmpty();
  }

  @Test
  void intensitySweep_ffnRisesWithBatch_attentionFlat() {
    IntensitySweep s = IntensitySweep.of(onH100("llama-3.1-8b"), 4096, List.of(1, 64));
    double ffn1 =
        s.rows().get(0).phases().stream()
            .filter(p -> p.kind() == PhaseKind.DECODE_FFN)
            .findFirst()
            .orElseThrow()
            .intensity()
            .flopsPerByte();
    double ffn64 =
        s.rows().get(1).phases().stream()
            .filter(p -> p.kind() == PhaseKind.DECODE_FFN)
            .findFirst()
            .orElseThrow()
            .intensity()
            .flopsPerByte();
    assertThat(ffn64 / ffn1).isGreaterThan(60);
    assertThat(s.ridgePoint().flopsPerByte()).isCloseTo(295.3, withPercentage(0.1));
  }
}
