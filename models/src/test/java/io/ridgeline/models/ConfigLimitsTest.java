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
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Operation;
import io.ridgeline.core.Phase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bounds and checks that keep a config file from exhausting the machine or being silently
 * misread: size limits, unknown layer types, keys a family does not read, JSON limits.
 */
final class ConfigLimitsTest {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
  private static final String LLAMA = "meta-llama__Llama-3.1-8B.json";
  private static final String GPT_OSS = "openai__gpt-oss-120b.json";

  @TempDir Path dir;

  @Test
  void builtInModels_haveNoWarnings() {
    for (Model m : Models.all()) {
      assertThat(m.warnings()).as(m.id()).isEmpty();
    }
  }

  @Test
  void layerCount_aboveLimit_isAnErrorNamingTheField() throws IOException {
    Path p = edited(LLAMA, "deep.json", c -> c.put("num_hidden_layers", 100_000_000));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(p + ": field 'num_hidden_layers' must be at most 4,096: 100000000");
  }

  @Test
  void layerCount_atLimit_buildsOneGroupOfIdenticalLayers() throws IOException {
    Path p = edited(LLAMA, "4096.json", c -> c.put("num_hidden_layers", 4_096));
    Model m = Models.fromConfig(p);
    assertThat(m.layerCount()).isEqualTo(4_096);
    // identical layers are one computation times a count
    assertThat(m.layerGroups()).hasSize(1).containsValue(4_096);
  }

  @Test
  void headDim_aboveLimit_isAnError() throws IOException {
    Path p = edited(LLAMA, "wide.json", c -> c.put("head_dim", 1_000_000));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .hasMessage(p + ": field 'head_dim' must be at most 16,384: 1000000");
  }

  @Test
  void headCountAndHeadDim_atTheirLimits_decodeWithoutOverflow() throws IOException {
    // issue 45 defect 12: each size within its maximum, their sums past an int. 65,536 heads ×
    // 16,384 head dim = 2^30 query and 2^30 output elements per token: 2^31 together, which wrapped
    // to a negative activation size ("bytes must not be negative: -1.40737488355328E14")
    Path p =
        edited(
            LLAMA,
            "heads.json",
            c -> {
              c.put("num_attention_heads", 65_536);
              c.put("num_key_value_heads", 8);
              c.put("head_dim", 16_384);
              c.put("num_hidden_layers", 2);
            });
    Model m = Models.fromConfig(p);
    Phase phase =
        ModelTesting.phase(
            m.decodeStep(1, 64, io.ridgeline.core.Precisions.bf16()), "decode_attention");
    Operation attention = ModelTesting.operation(phase, "attention");
    // activations: batch 1 × 1 query × (2^30 + 2^30) elements × 2 layers × 2 B = 2^33 B
    assertThat(attention.bytes(DataKind.ACTIVATIONS).bytes()).isEqualTo(8_589_934_592.0);
  }

  @Test
  void misspelledLayerType_isAnErrorNamingIndexAndValue() throws IOException {
    Path p =
        edited(
            GPT_OSS,
            "typo.json",
            c -> ((ArrayNode) c.get("layer_types")).set(3, "slidng_attention"));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .hasMessage(
            p
                + ": field 'layer_types' has 'slidng_attention' at index 3; expected"
                + " full_attention or sliding_attention");
  }

  @Test
  void emptyLayerTypes_isAnError() throws IOException {
    Path p = edited(GPT_OSS, "empty.json", c -> c.putArray("layer_types"));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .hasMessage(p + ": field 'layer_types' must list 36 layers, found 0");
  }

  @Test
  void expertKeysOnADenseFamily_giveAWarning() throws IOException {
    Path p = edited(LLAMA, "moe-llama.json", c -> c.put("num_local_experts", 8));
    assertThat(Models.fromConfig(p).warnings())
        .containsExactly(
            p
                + ": key 'num_local_experts' is not read for model_type 'llama' and has no effect"
                + " on the estimate");
  }

  @Test
  void deeplyNestedJson_isMalformed_inTheUsersTerms() throws IOException {
    Path p = dir.resolve("deep-json.json");
    Files.writeString(p, "{\"a\":" + "[".repeat(1_000) + "]".repeat(1_000) + "}");
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(p + ": malformed JSON")
        .hasMessageEndingWith(": nested deeper than 64 levels");
  }

  @Test
  void missingFilePath_saysNoSuchFile() {
    assertThatThrownBy(() -> Models.resolve("nowhere/config.json"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("nowhere/config.json: no such file");
  }

  @Test
  void byteOrderMark_isAccepted() throws IOException {
    Path p = dir.resolve("bom.json");
    Files.writeString(p, "\uFEFF" + builtInConfig(LLAMA));
    assertThat(Models.fromConfig(p).layerCount()).isEqualTo(32);
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
    Path p = dir.resolve(name);
    Files.writeString(p, MAPPER.writeValueAsString(config));
    return p;
  }
}
