package io.ridgeline.models;

import static io.ridgeline.models.ModelTesting.builtInConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.Precision;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The config reader on the MoE, MLA, hybrid and nested families: its error messages name the file
 * and the field; its quirks (bare {@code Infinity}, {@code text_config}) parse.
 */
final class ConfigReaderTest {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
  private static final String DEEPSEEK_V3 = "deepseek-ai__DeepSeek-V3.json";
  private static final String NEMOTRON_H = "nvidia__Nemotron-H-56B-Base-8K.json";
  private static final String GPT_OSS = "openai__gpt-oss-120b.json";

  @TempDir Path dir;

  @Test
  void fromConfig_unknownModelType_listsSupportedFamilies() throws IOException {
    Path p = write("mamba.json", "{\"model_type\":\"falcon_mamba\",\"hidden_size\":64}");
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mamba.json")
        .hasMessageContaining("unsupported model_type 'falcon_mamba'")
        .hasMessageContaining("deepseek_v3")
        .hasMessageContaining("gpt_oss")
        .hasMessageContaining("nemotron_h")
        .hasMessageContaining("qwen3_next");
    assertThat(Models.supportedModelTypes())
        .contains(
            "deepseek_v3",
            "deepseek_v32",
            "kimi_k2",
            "gpt_oss",
            "nemotron_h",
            "qwen3_next",
            "gemma3");
  }

  @Test
  void fromConfig_deepseekWithoutKvLoraRank_namesFieldAndFile() throws IOException {
    Path p = edited(DEEPSEEK_V3, "no-kv-lora.json", c -> c.remove("kv_lora_rank"));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no-kv-lora.json")
        .hasMessageContaining("missing required field 'kv_lora_rank'");
  }

  @Test
  void fromConfig_dsaWithoutIndexerHeads_namesField() throws IOException {
    Path p =
        edited(
            DEEPSEEK_V3,
            "half-dsa.json",
            c -> c.put("model_type", "deepseek_v32").put("index_topk", 2048));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .hasMessageContaining("half-dsa.json")
        .hasMessageContaining("missing required field 'index_n_heads'");
  }

  @Test
  void fromConfig_nemotronWithoutPattern_namesFieldAndFile() throws IOException {
    Path p = edited(NEMOTRON_H, "no-pattern.json", c -> c.remove("hybrid_override_pattern"));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no-pattern.json")
        .hasMessageContaining("missing required field 'hybrid_override_pattern'");
  }

  @Test
  void fromConfig_nemotronPatternBadCharacter_namesCharacterAndPosition() throws IOException {
    // the pattern starts "M-M-M-M*": put an X where the first attention layer is (position 7)
    Path p =
        edited(
            NEMOTRON_H,
            "bad-char.json",
            c -> {
              String pattern = c.get("hybrid_override_pattern").asText();
              assertThat(pattern.charAt(7)).isEqualTo('*');
              c.put(
                  "hybrid_override_pattern", pattern.substring(0, 7) + "X" + pattern.substring(8));
            });
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad-char.json")
        .hasMessageContaining("field 'hybrid_override_pattern'")
        .hasMessageContaining("'X' at position 7")
        .hasMessageContaining("M, *, - or E");
  }

  @Test
  void fromConfig_nemotronPatternWrongLength_namesBothLengths() throws IOException {
    Path p =
        edited(
            NEMOTRON_H,
            "short-pattern.json",
            c -> {
              String pattern = c.get("hybrid_override_pattern").asText();
              c.put("hybrid_override_pattern", pattern.substring(0, pattern.length() - 1));
            });
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("short-pattern.json")
        .hasMessageContaining("field 'hybrid_override_pattern'")
        .hasMessageContaining("num_hidden_layers (118)")
        .hasMessageContaining("has 117");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "deepseek-ai__DeepSeek-V3__inference-config_671B.json",
        "deepseek-ai__DeepSeek-V2-Lite__inference-config_16B.json",
        "deepseek-ai__DeepSeek-V3.2-Exp__inference-config_671B_v3.2.json",
      })
  void fromConfig_deepseekNativeModelArgs_rejectedNamingFileAndModelType(String file)
      throws IOException {
    // DeepSeek's reference-inference schema (dim, n_layers, n_heads, …) is not a HuggingFace config
    Path p = write(file, builtInConfig("non-hf-formats/" + file));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(file)
        .hasMessageContaining("model_type")
        .hasMessageContaining("supported: ");
  }

  @Test
  void fromConfig_bareInfinity_parses() throws IOException {
    // Nemotron-H-56B's "time_step_limit": [0.0, Infinity] is not strict JSON
    String text = builtInConfig(NEMOTRON_H);
    assertThat(text).contains("Infinity");
    Model m = Models.fromConfig(write("nemotron.json", text));
    Model builtIn = Models.byId("nemotron-h-56b");
    assertThat(m.layers()).isEqualTo(builtIn.layers());
    assertThat(m.totalParameters()).isEqualTo(builtIn.totalParameters());
  }

  @Test
  void fromConfig_minimalInfinityLimit_parses() throws IOException {
    Path p =
        write(
            "tiny-nemotron.json",
            "{\"model_type\":\"nemotron_h\",\"hidden_size\":64,\"num_hidden_layers\":3,"
                + "\"hybrid_override_pattern\":\"M*-\",\"num_attention_heads\":4,\"num_key_value_heads\":2,"
                + "\"head_dim\":16,\"intermediate_size\":128,\"mamba_num_heads\":4,\"mamba_head_dim\":32,"
                + "\"n_groups\":1,\"ssm_state_size\":16,\"conv_kernel\":4,\"vocab_size\":100,"
                + "\"time_step_limit\": [0.0, Infinity]}");
    Model m = Models.fromConfig(p);
    assertThat(m.layerCount()).isEqualTo(3);
    // state 4 heads × 32 × 16 = 2048 + conv 3 × (128 + 2·16) = 480 → 2528 elements × 2 B
    assertThat(m.boundedCacheBytesPerSequence(Precision.BF16).bytes()).isEqualTo(5056.0);
  }

  @Test
  void fromConfig_textConfigNested_readsInnerFields() throws IOException {
    Path p =
        write(
            "mm.json",
            "{\"model_type\":\"gemma3\",\"architectures\":[\"Gemma3ForConditionalGeneration\"],"
                + "\"text_config\":{\"model_type\":\"gemma3_text\",\"hidden_size\":128,\"num_hidden_layers\":12,"
                + "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":32,"
                + "\"intermediate_size\":256,\"sliding_window\":64},"
                + "\"vision_config\":{\"hidden_size\":1152,\"num_hidden_layers\":27}}");
    Model m = Models.fromConfig(p);
    assertThat(m.modelType()).isEqualTo("gemma3");
    assertThat(m.hiddenSize()).isEqualTo(128);
    assertThat(m.layerCount()).isEqualTo(12);
    // gemma3 class defaults: vocab 262,208, tied embeddings, 1 global layer in 6 (layers 5 and 11)
    assertThat(m.vocabSize()).isEqualTo(262_208);
    assertThat(m.tiedEmbeddings()).isTrue();
    // 2 global layers × 2 × 2 KV heads × 32 × 2 B = 512 B per token
    assertThat(m.kvBytesPerToken(Precision.BF16).bytes()).isEqualTo(512.0);
  }

  @Test
  void fromConfig_textConfigWithoutOuterModelType_usesInnerOne() throws IOException {
    Path p =
        write(
            "inner-type.json",
            "{\"text_config\":{\"model_type\":\"qwen3\",\"hidden_size\":64,\"num_hidden_layers\":2,"
                + "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,"
                + "\"intermediate_size\":128,\"vocab_size\":100}}");
    assertThat(Models.fromConfig(p).modelType()).isEqualTo("qwen3");
  }

  @Test
  void fromConfig_layerTypesWrongLength_namesFieldAndCounts() throws IOException {
    Path p = edited(GPT_OSS, "short-types.json", c -> ((ArrayNode) c.get("layer_types")).remove(0));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("short-types.json")
        .hasMessageContaining("field 'layer_types' must list 36 layers, found 35");
  }

  @Test
  void fromConfig_slidingLayerTypeWithoutWindow_namesField() throws IOException {
    Path p = edited(GPT_OSS, "no-window.json", c -> c.remove("sliding_window"));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .hasMessageContaining("no-window.json")
        .hasMessageContaining(
            "field 'sliding_window' is required when layer_types lists sliding_attention");
  }

  @Test
  void fromConfig_unsupportedQuantMethod_namesMethod() throws IOException {
    Path p =
        edited(
            DEEPSEEK_V3,
            "awq.json",
            c -> ((ObjectNode) c.get("quantization_config")).put("quant_method", "awq"));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .hasMessageContaining("awq.json")
        .hasMessageContaining("field 'quantization_config.quant_method'")
        .hasMessageContaining("'awq'");
  }

  @Test
  void fromConfig_deepseekV2LiteNullQLora_projectsQueryDirectly() {
    // HF writes q_lora_rank: null for V2-Lite
    Attention a = Models.byId("deepseek-v2-lite").layers().get(0).attention().orElseThrow();
    assertThat(a.mla().orElseThrow().qLoraRank()).isZero();
    // q: 2048 × 16 heads × (128 + 64) = 6,291,456; kv_a 2048·576 + 512 = 1,180,160;
    // kv_b 512·16·256 = 2,097,152; o 16·128·2048 = 4,194,304 → 13,763,072
    assertThat(a.parameters(2048)).isEqualTo(13_763_072.0);
  }

  @Test
  void byId_kimiK2_readsAsMlaWithoutMtp() {
    Model m = Models.byId("kimi-k2");
    assertThat(m.modelType()).isEqualTo("kimi_k2");
    assertThat(m.mtpLayers()).isZero();
    assertThat(m.layers().get(0).attention().orElseThrow().mla()).isPresent();
    // first_k_dense_replace 1: layer 0 dense, layers 1-60 MoE with 384 experts
    assertThat(m.layers().get(0).ffn().orElseThrow().isMoe()).isFalse();
    assertThat(m.layers().get(1).ffn().orElseThrow().experts()).isEqualTo(384);
  }

  private Path write(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  /** A built-in config with an edit applied, written to the temp dir. */
  private Path edited(String builtIn, String name, Consumer<ObjectNode> edit) throws IOException {
    ObjectNode config;
    try {
      config = (ObjectNode) MAPPER.readTree(builtInConfig(builtIn));
    } catch (JsonProcessingException e) {
      throw new AssertionError(builtIn, e);
    }
    edit.accept(config);
    return write(name, MAPPER.writeValueAsString(config));
  }
}
