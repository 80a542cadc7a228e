package io.ridgeline.models;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.common.collect.ImmutableSortedSet;
import io.ridgeline.core.Precision;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a HuggingFace {@code config.json} into a {@link Model}.
 *
 * <p>Handles the field-name variants of the supported families: {@code num_hidden_layers} / {@code
 * n_layer} / {@code num_layers}; {@code num_attention_heads} / {@code n_head}; {@code head_dim} /
 * {@code attention_head_dim} / hidden ÷ heads; missing {@code num_key_value_heads} (= heads);
 * {@code hidden_size} / {@code n_embed}; LLM fields nested under {@code text_config}; bare {@code
 * Infinity}/{@code NaN} tokens. Keys a model type's class fills by default ({@code
 * tie_word_embeddings}, biases, FFN width of BLOOM) come from a per-type defaults table.
 */
final class ConfigReader {
  /** The {@code model_type} values this reader understands. */
  static final Set<String> SUPPORTED =
      ImmutableSortedSet.of("bloom", "llama", "mistral", "qwen2", "qwen3");

  private static final ObjectMapper MAPPER =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  private ConfigReader() {}

  /** Parses JSON text; {@code origin} names the file in messages. */
  static Model parse(String json, String id, String origin, String source) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          origin
              + ": malformed JSON at line "
              + e.getLocation().getLineNr()
              + ", column "
              + e.getLocation().getColumnNr()
              + ": "
              + e.getOriginalMessage(),
          e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(origin + ": expected a JSON object with a model_type");
    }
    JsonNode cfg = root;
    if (!root.has("hidden_size") && root.path("text_config").isObject()) {
      cfg = root.get("text_config");
    }
    Fields f = new Fields(cfg, origin);
    String type = f.text("model_type").orElseGet(() -> root.path("model_type").asText(""));
    if (type.isEmpty()) {
      throw new IllegalArgumentException(
          origin
              + ": missing required field 'model_type'; supported: "
              + String.join(", ", SUPPORTED));
    }
    if (!SUPPORTED.contains(type)) {
      throw new IllegalArgumentException(
          origin
              + ": unsupported model_type '"
              + type
              + "'; supported: "
              + String.join(", ", SUPPORTED));
    }
    boolean bloom = type.equals("bloom");
    int hidden = f.positiveInt("hidden_size", "n_embed");
    int layers = f.positiveInt("num_hidden_layers", "n_layer", "num_layers");
    int heads = f.positiveInt("num_attention_heads", "n_head");
    int kvHeads = f.optionalPositiveInt("num_key_value_heads").orElse(heads);
    int headDim =
        f.optionalPositiveInt("head_dim", "attention_head_dim")
            .orElseGet(() -> f.divide(hidden, heads, "hidden_size", "num_attention_heads"));
    int inner =
        bloom
            ? f.optionalPositiveInt("n_inner", "intermediate_size").orElse(4 * hidden)
            : f.positiveInt("intermediate_size");
    return Model.builder()
        .id(id)
        .modelType(type)
        .source(source)
        .hiddenSize(hidden)
        .layers(layers)
        .attentionHeads(heads)
        .kvHeads(kvHeads)
        .headDim(headDim)
        .intermediateSize(inner)
        .vocabSize(f.positiveInt("vocab_size"))
        .ffnKind(bloom ? Model.FfnKind.PLAIN : Model.FfnKind.GATED)
        .normKind(bloom ? Model.NormKind.LAYER : Model.NormKind.RMS)
        .tiedEmbeddings(f.bool("tie_word_embeddings").orElse(bloom))
        .qkvBias(f.bool("attention_bias").orElse(bloom || type.equals("qwen2")))
        .denseBias(bloom)
        .embeddingNorm(bloom)
        .qkNorm(type.equals("qwen3"))
        .maxContext(f.optionalPositiveInt("max_position_embeddings"))
        .nativePrecision(
            f.text("torch_dtype")
                .or(() -> f.text("dtype"))
                .map(d -> dtype(d, origin))
                .orElse(Precision.BF16))
        .build();
  }

  private static Precision dtype(String dtype, String origin) {
    switch (dtype.toLowerCase(Locale.ROOT)) {
      case "bfloat16":
        return Precision.BF16;
      case "float16":
      case "half":
        return Precision.FP16;
      case "float32":
      case "float":
        return Precision.FP32;
      default:
        throw new IllegalArgumentException(
            origin + ": torch_dtype must be bfloat16, float16 or float32: '" + dtype + "'");
    }
  }

  /** Typed access to config fields with messages naming the file and the field. */
  private static final class Fields {
    private final JsonNode node;
    private final String origin;

    Fields(JsonNode node, String origin) {
      this.node = node;
      this.origin = origin;
    }

    Optional<String> text(String name) {
      JsonNode v = node.get(name);
      return v == null || v.isNull() ? Optional.empty() : Optional.of(v.asText());
    }

    Optional<Boolean> bool(String name) {
      JsonNode v = node.get(name);
      if (v == null || v.isNull()) {
        return Optional.empty();
      }
      if (!v.isBoolean()) {
        throw new IllegalArgumentException(
            origin + ": field '" + name + "' must be true or false: " + v);
      }
      return Optional.of(v.booleanValue());
    }

    /** The first present name among {@code names}, as a positive integer. */
    Optional<Integer> optionalPositiveInt(String... names) {
      for (String name : names) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
          continue;
        }
        if (!v.isIntegralNumber() || v.asLong() <= 0 || v.asLong() > Integer.MAX_VALUE) {
          throw new IllegalArgumentException(
              origin + ": field '" + name + "' must be a positive integer: " + v);
        }
        return Optional.of(v.intValue());
      }
      return Optional.empty();
    }

    int positiveInt(String... names) {
      return optionalPositiveInt(names)
          .orElseThrow(
              () ->
                  new IllegalArgumentException(
                      origin
                          + ": missing required field '"
                          + names[0]
                          + "'"
                          + (names.length > 1
                              ? " (or "
                                  + String.join(
                                      ", ", java.util.Arrays.copyOfRange(names, 1, names.length))
                                  + ")"
                              : "")));
    }

    int divide(int a, int b, String aName, String bName) {
      if (a % b != 0) {
        throw new IllegalArgumentException(
            origin
                + ": head_dim is absent and "
                + aName
                + " ("
                + a
                + ") is not a multiple of "
                + bName
                + " ("
                + b
                + ")");
      }
      return a / b;
    }
  }
}
