package io.ridgeline.models;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.core.Precision;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Cache sizes: the growing cache per token (full-attention K/V, MLA latent, DSA indexer key), the
 * bounded per-sequence cache (full sliding windows, recurrent and convolution states) and the
 * sliding-window layouts that decide which layers are which.
 */
final class CacheBytesTest {

  @ParameterizedTest(name = "{0}: {1} B per token at bf16")
  @CsvSource({
    // MLA: (kv_lora_rank 512 + qk_rope_head_dim 64) × 61 layers × 2 B = 70,272
    "deepseek-v3, 70272",
    // MLA + DSA indexer key: (512 + 64 + index_head_dim 128) × 61 × 2 B = 85,888
    "deepseek-v3.2, 85888",
    // MLA with 64 heads: the latent does not depend on heads: (512 + 64) × 61 × 2 B = 70,272
    "kimi-k2, 70272",
    // GQA: 2 (K,V) × 80 layers × 8 KV heads × 128 × 2 B = 327,680
    "llama-3.1-70b, 327680",
    // only the 18 full layers grow: 18 × 2 × 8 × 64 × 2 B = 36,864
    "gpt-oss-120b, 36864",
    // 12 full of 24: 12 × 2 × 8 × 64 × 2 B = 24,576
    "gpt-oss-20b, 24576",
    // 6 attention layers: 6 × 2 × 2 KV heads × 128 × 2 B = 6,144
    "nemotron-3-nano-30b-a3b, 6144",
    // only the 12 full-attention layers: 12 × 2 × 2 KV heads × 256 × 2 B = 24,576
    "qwen3-next-80b-a3b, 24576",
    // 10 attention layers ('*'): 10 × 2 × 8 × 128 × 2 B = 40,960
    "nemotron-h-56b, 40960",
    // 21 global layers: 21 × 2 × 8 × 256 × 2 B = 172,032
    "gemma-2-9b, 172032",
    // 10 global layers of 62: 10 × 2 × 16 × 128 × 2 B = 81,920
    "gemma-3-27b, 81920",
  })
  void kvBytesPerToken_bf16_matchesHandArithmetic(String id, long bytes) {
    assertThat(Models.byId(id).kvBytesPerToken(Precision.BF16).bytes()).isEqualTo((double) bytes);
  }

  @ParameterizedTest(name = "{0}: {1} B bounded cache per sequence at bf16")
  @CsvSource({
    // 18 sliding layers × 128 tokens × 2 × 8 × 64 × 2 B = 18 × 128 × 2048 = 4,718,592
    "gpt-oss-120b, 4718592",
    // 21 sliding layers × 4096 × 2 × 8 × 256 × 2 B = 21 × 4096 × 8192 = 704,643,072
    "gemma-2-9b, 704643072",
    // 52 sliding layers × 1024 × 2 × 16 × 128 × 2 B = 52 × 1024 × 8192 = 436,207,616
    "gemma-3-27b, 436207616",
    // Mamba2: 54 layers × (256 heads × 64 × 256 state + 3 conv columns × (16384 + 2·8·256))
    //   = 54 × (4,194,304 + 3 × 20,480) = 54 × 4,255,744 = 229,810,176 elements × 2 B
    "nemotron-h-56b, 459620352",
    // Gated DeltaNet: 36 layers × (32 heads × 128 × 128 + 3 × (32·128 + 2·16·128))
    //   = 36 × (524,288 + 3 × 8192) = 36 × 548,864 = 19,759,104 elements × 2 B
    "qwen3-next-80b-a3b, 39518208",
    // Mamba2 with mamba_ssm_cache_dtype float32: 23 layers × (64 heads × 64 × 128 state × 4 B
    //   + 3 conv columns × (4096 + 2·8·128) × 2 B) = 23 × (2,097,152 + 36,864) = 49,082,368 B
    "nemotron-3-nano-30b-a3b, 49082368",
    // full attention only: nothing is bounded
    "llama-3.1-70b, 0",
    "deepseek-v3, 0",
  })
  void boundedCacheBytesPerSequence_bf16_matchesHandArithmetic(String id, long bytes) {
    assertThat(Models.byId(id).boundedCacheBytesPerSequence(Precision.BF16).bytes())
        .isEqualTo((double) bytes);
  }

  @Test
  void cacheBytesPerSequence_gptOss120b_slidingPartStopsGrowingAtWindow() {
    Model m = Models.byId("gpt-oss-120b");
    // below the window every layer holds every token: 36 layers × 2 × 8 × 64 × 2 B = 73,728 B/token
    assertThat(m.cacheBytesPerSequence(100, Precision.BF16, 1).bytes()).isEqualTo(100 * 73_728.0);
    assertThat(m.cacheBytesPerSequence(128, Precision.BF16, 1).bytes()).isEqualTo(128 * 73_728.0);
    // past it the 18 sliding layers hold 128 tokens (4,718,592 B) and the 18 full layers grow at
    // 36,864 B/token: 200,000 × 36,864 + 4,718,592 = 7,377,518,592
    assertThat(m.cacheBytesPerSequence(200_000, Precision.BF16, 1).bytes())
        .isEqualTo(7_377_518_592.0);
    // 100k → 200k adds only the full layers: 100,000 × 36,864 = 3,686,400,000
    assertThat(
            m.cacheBytesPerSequence(200_000, Precision.BF16, 1).bytes()
                - m.cacheBytesPerSequence(100_000, Precision.BF16, 1).bytes())
        .isEqualTo(3_686_400_000.0);
  }

  @Test
  void cacheBytesPerSequence_linearLayers_independentOfContext() {
    Model m = Models.byId("nemotron-h-56b");
    // attention 40,960 B/token grows; the Mamba2 state (459,620,352 B) does not:
    // 1000 × 40,960 + 459,620,352 = 500,580,352
    assertThat(m.cacheBytesPerSequence(1000, Precision.BF16, 1).bytes()).isEqualTo(500_580_352.0);
    // at tp 8 both split 8 ways (8 KV heads, 256 Mamba heads): 500,580,352 / 8 = 62,572,544
    assertThat(m.cacheBytesPerSequence(1000, Precision.BF16, 8).bytes()).isEqualTo(62_572_544.0);
  }

  @Test
  void cacheBytesPerSequence_mla_notSplitByTensorParallelism() {
    Model m = Models.byId("deepseek-v3");
    // the latent is shared by all heads: every chip holds all of it. 4096 × 70,272 = 287,834,112
    assertThat(m.cacheBytesPerSequence(4096, Precision.BF16, 8).bytes()).isEqualTo(287_834_112.0);
    assertThat(m.cacheBytesPerSequence(4096, Precision.BF16, 1).bytes()).isEqualTo(287_834_112.0);
  }

  @Test
  void layers_gemma2_evenLayersSlideOver4096() {
    // transformers Gemma2: sliding_window if not layer_idx % 2 → layers 0, 2, 4, … are local
    Model m = Models.byId("gemma-2-9b");
    assertThat(m.layerCount()).isEqualTo(42);
    assertThat(slidingLayers(m)).hasSize(21).allMatch(i -> i % 2 == 0);
    assertThat(windows(m)).containsOnly(4096);
  }

  @Test
  void layers_gemma3_fiveOfEverySixSlideOver1024() {
    // transformers Gemma3: is_sliding = (layer_idx + 1) % 6 → layers 5, 11, …, 59 are global
    Model m = Models.byId("gemma-3-27b");
    assertThat(m.layerCount()).isEqualTo(62);
    List<Integer> global = new ArrayList<>();
    for (int i = 0; i < m.layerCount(); i++) {
      if (m.layers().get(i).attention().orElseThrow().slidingWindow().isEmpty()) {
        global.add(i);
      }
    }
    assertThat(global).containsExactly(5, 11, 17, 23, 29, 35, 41, 47, 53, 59);
    assertThat(slidingLayers(m)).hasSize(52);
    assertThat(windows(m)).containsOnly(1024);
  }

  @Test
  void layers_gptOss_layerTypesAlternateFromSliding() {
    Model m = Models.byId("gpt-oss-120b");
    assertThat(slidingLayers(m)).hasSize(18).allMatch(i -> i % 2 == 0);
    assertThat(windows(m)).containsOnly(128);
  }

  @Test
  void layers_qwen3Next_everyFourthLayerIsFullAttention() {
    // full_attention_interval 4: layers 3, 7, …, 47 attend; the other 36 are Gated DeltaNet
    Model m = Models.byId("qwen3-next-80b-a3b");
    for (int i = 0; i < 48; i++) {
      Layer l = m.layers().get(i);
      assertThat(l.attention().isPresent()).as("layer %s", i).isEqualTo(i % 4 == 3);
      assertThat(l.linear().map(LinearMixer::kind))
          .as("layer %s", i)
          .isEqualTo(i % 4 == 3 ? Optional.empty() : Optional.of(LinearMixer.Kind.GATED_DELTANET));
    }
  }

  @Test
  void layers_nemotronH56b_patternCountsSubLayers() {
    // hybrid_override_pattern: 54 'M' (Mamba2), 54 '-' (MLP), 10 '*' (attention) = 118 layers
    Model m = Models.byId("nemotron-h-56b");
    assertThat(m.layerCount()).isEqualTo(118);
    assertThat(m.layers().stream().filter(l -> l.linear().isPresent())).hasSize(54);
    assertThat(m.layers().stream().filter(l -> l.ffn().isPresent())).hasSize(54);
    assertThat(m.layers().stream().filter(l -> l.attention().isPresent())).hasSize(10);
  }

  private static List<Integer> slidingLayers(Model m) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < m.layerCount(); i++) {
      if (m.layers().get(i).attention().orElseThrow().slidingWindow().isPresent()) {
        out.add(i);
      }
    }
    return out;
  }

  private static List<Integer> windows(Model m) {
    List<Integer> out = new ArrayList<>();
    for (Layer l : m.layers()) {
      l.attention().flatMap(Attention::slidingWindow).ifPresent(out::add);
    }
    return out;
  }
}
