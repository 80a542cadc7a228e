package io.ridgeline.models;

import static io.ridgeline.models.ModelTesting.builtInConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Architectures no checkpoint can have are refused at read time with one line naming the file, the
 * fields and the rule: head counts that do not divide, dense layers that do not exist. Each case is
 * a catalog config with one field changed.
 */
final class ImpossibleArchitectureTest {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  @TempDir Path dir;

  @Test
  void kvHeads_notDividingHeads_namesFileAndBothFields() throws IOException {
    // Llama-3.1-8B: 32 query heads; 32 / 5 = 6.4 query heads per key/value head
    Path p = edited("meta-llama__Llama-3.1-8B.json", c -> c.put("num_key_value_heads", 5));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            p
                + ": field 'num_attention_heads' (32) must be a multiple of 'num_key_value_heads'"
                + " (5): each key/value head serves a whole group of query heads");
  }

  @Test
  void kvHeads_one_isMultiQueryAttention() throws IOException {
    // 32 / 1 = 32 query heads share one key/value head
    Path p = edited("meta-llama__Llama-3.1-8B.json", c -> c.put("num_key_value_heads", 1));
    Attention a = Models.fromConfig(p).layers().get(0).attention().orElseThrow();
    assertThat(a.kvHeads()).isEqualTo(1);
    assertThat(a.heads()).isEqualTo(32);
  }

  @Test
  void kvHeads_notDividingHeads_inNemotronAttention_isRefused() throws IOException {
    // Nemotron-H-56B: 64 query heads; 64 / 5 = 12.8
    Path p = edited("nvidia__Nemotron-H-56B-Base-8K.json", c -> c.put("num_key_value_heads", 5));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .hasMessage(
            p
                + ": field 'num_attention_heads' (64) must be a multiple of 'num_key_value_heads'"
                + " (5): each key/value head serves a whole group of query heads");
  }

  @Test
  void mambaGroups_notDividingHeads_namesFileAndBothFields() throws IOException {
    // Nemotron-H-56B: 256 Mamba heads; 256 / 7 = 36.6 heads per B/C group
    Path p = edited("nvidia__Nemotron-H-56B-Base-8K.json", c -> c.put("n_groups", 7));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            p
                + ": field 'mamba_num_heads' (256) must be a multiple of 'n_groups' (7): each"
                + " group's B and C serve a whole set of heads");
  }

  @Test
  void deltaNetKeyHeads_notDividingValueHeads_namesFileAndBothFields() throws IOException {
    // Qwen3-Next-80B: 32 value heads; 32 / 12 = 2.67 value heads per key head
    Path p = edited("Qwen__Qwen3-Next-80B-A3B.json", c -> c.put("linear_num_key_heads", 12));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            p
                + ": field 'linear_num_value_heads' (32) must be a multiple of"
                + " 'linear_num_key_heads' (12): each key head serves a whole group of value"
                + " heads");
  }

  @Test
  void mlpOnlyLayers_pastTheLastLayer_isRefusedWithIndexAndRange() throws IOException {
    // Qwen3-30B-A3B has 48 layers, numbered 0 to 47: there is no layer 48
    Path p = edited("Qwen__Qwen3-30B-A3B.json", c -> c.putArray("mlp_only_layers").add(0).add(48));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            p
                + ": field 'mlp_only_layers' has 48 at index 1; layers are numbered 0 to 47"
                + " (num_hidden_layers 48)");
  }

  @Test
  void mlpOnlyLayers_firstAndLast_makesExactlyThoseLayersDense() throws IOException {
    Path p = edited("Qwen__Qwen3-30B-A3B.json", c -> c.putArray("mlp_only_layers").add(0).add(47));
    Model m = Models.fromConfig(p);
    for (int i = 0; i < 48; i++) {
      boolean moe = m.layers().get(i).ffn().orElseThrow().isMoe();
      assertThat(moe).as("layer %d", i).isEqualTo(i != 0 && i != 47);
    }
  }

  @Test
  void linearMixer_headsNotDividedByGroups_isRefusedByTheLibrary() {
    // outside any file: 6 heads over 4 groups is 1.5 heads per group
    assertThatThrownBy(
            () ->
                LinearMixer.builder()
                    .kind(LinearMixer.Kind.MAMBA2)
                    .heads(6)
                    .valueHeadDim(64)
                    .keyHeads(4)
                    .keyHeadDim(128)
                    .convKernel(4)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("linear mixer heads (6) must be a multiple of key heads/groups (4)");
  }

  private Path edited(String builtIn, Consumer<ObjectNode> edit) throws IOException {
    ObjectNode config;
    try {
      config = (ObjectNode) MAPPER.readTree(builtInConfig(builtIn));
    } catch (JsonProcessingException e) {
      throw new AssertionError(builtIn, e);
    }
    edit.accept(config);
    Path p = dir.resolve("config.json");
    Files.writeString(p, MAPPER.writeValueAsString(config));
    return p;
  }
}
