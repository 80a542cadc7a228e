package io.ridgeline.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableSortedSet;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.ridgeline.core.InputFiles;
import io.ridgeline.core.Precision;
import io.ridgeline.core.TensorClass;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a HuggingFace {@code config.json} into a {@link Model}, layer by layer.
 *
 * <p>Handles the field-name variants of the supported families (see {@code configs/SOURCES.md}):
 * layer counts ({@code num_hidden_layers} / {@code n_layer} / {@code num_layers}), head dims
 * ({@code head_dim} / {@code attention_head_dim} / hidden ÷ heads), missing {@code
 * num_key_value_heads} (= heads), expert counts ({@code num_local_experts} / {@code num_experts} /
 * {@code n_routed_experts}), top-k ({@code num_experts_per_tok} / {@code experts_per_token}), which
 * layers are MoE ({@code first_k_dense_replace} + {@code moe_layer_freq}; {@code
 * decoder_sparse_step} + {@code mlp_only_layers}; {@code E} in {@code hybrid_override_pattern}),
 * sliding-window layout ({@code layer_types}; Gemma-2 alternation; Gemma-3 {@code
 * sliding_window_pattern}; Mistral/Qwen {@code sliding_window}), Qwen3-Next's {@code
 * full_attention_interval}, Nemotron-H's {@code hybrid_override_pattern}, MLA and DSA fields, LLM
 * fields nested under {@code text_config}, bare {@code Infinity}, and {@code quantization_config}
 * (FP8 blocks; MXFP4 with {@code modules_to_not_convert}). Keys a model class fills by default come
 * from per-type defaults written next to their use.
 *
 * <p>The layer stack comes from {@code StandardLayers} (every type but Nemotron-H) or {@code
 * NemotronLayers}; field access and its messages from {@code ConfigFields}.
 */
final class ConfigReader {
  /** The {@code model_type} values this reader understands. */
  static final Set<String> SUPPORTED =
      ImmutableSortedSet.of(
          "bloom",
          "deepseek_v2",
          "deepseek_v3",
          "deepseek_v32",
          "gemma2",
          "gemma3",
          "gemma3_text",
          "glm4_moe",
          "gpt_oss",
          "kimi_k2",
          "llama",
          "mistral",
          "mixtral",
          "nemotron_h",
          "phi3",
          "qwen2",
          "qwen2_moe",
          "qwen3",
          "qwen3_moe",
          "qwen3_next");

  /**
   * Keys that change the model in the families that read them (experts, latent attention, windows,
   * hybrid layouts): a file that sets one its family does not read gets a warning.
   */
  private static final List<String> FAMILY_KEYS =
      List.of(
          "num_local_experts",
          "num_experts",
          "n_routed_experts",
          "num_experts_per_tok",
          "experts_per_token",
          "moe_intermediate_size",
          "n_shared_experts",
          "shared_expert_intermediate_size",
          "moe_shared_expert_intermediate_size",
          "decoder_sparse_step",
          "mlp_only_layers",
          "first_k_dense_replace",
          "moe_layer_freq",
          "kv_lora_rank",
          "q_lora_rank",
          "qk_nope_head_dim",
          "qk_rope_head_dim",
          "v_head_dim",
          "index_topk",
          "layer_types",
          "sliding_window",
          "sliding_window_pattern",
          "use_sliding_window",
          "full_attention_interval",
          "linear_num_value_heads",
          "linear_num_key_heads",
          "linear_key_head_dim",
          "linear_value_head_dim",
          "hybrid_override_pattern",
          "mamba_num_heads");

  private ConfigReader() {}

  /** Parses JSON text; {@code origin} names the file in messages. */
  static Model parse(String json, String id, String origin, String source) {
    return parse(json, id, origin, source, Optional.empty());
  }

  /**
   * Parses JSON text, reading it as the model type {@code family} when one is given (whatever the
   * file's own {@code model_type}); {@code origin} names the file in messages.
   */
  static Model parse(
      String json, String id, String origin, String source, Optional<String> family) {
    JsonNode root = tree(json, origin);
    String type = root.path("model_type").asText("");
    JsonNode cfg = root;
    // the file around the text config, when the text config is nested (null otherwise)
    JsonNode outer = null;
    if (!root.has("hidden_size") && root.path("text_config").isObject()) {
      cfg = root.get("text_config");
      outer = root;
      if (type.isEmpty()) {
        type = cfg.path("model_type").asText("");
      }
    }
    if (family.isPresent()) {
      String read = checkFamily(family.get());
      if (!read.equals(type)) {
        source = source + " (model_type '" + type + "' read as " + read + ")";
      }
      type = read;
    } else if (type.isEmpty()) {
      throw new IllegalArgumentException(
          origin
              + ": missing required field 'model_type'; supported: "
              + String.join(", ", SUPPORTED)
              + "; to read it as one of these, give --architecture FAMILY");
    } else if (!SUPPORTED.contains(type)) {
      throw new IllegalArgumentException(
          origin
              + ": unsupported model_type '"
              + type
              + "'; to read it as a supported family give --architecture FAMILY (one of "
              + String.join(", ", SUPPORTED)
              + ")");
    }
    if (type.equals("gemma3") || type.equals("gemma3_text")) {
      // the hub's Gemma-3 configs state only what differs from the class defaults
      cfg = Gemma3Defaults.apply(cfg);
    }
    // in a multimodal file the dtype, tying and quantization may sit beside text_config
    ConfigFields f = new ConfigFields(cfg, outer, origin);
    Reader r = new Reader(f, type);
    return r.build(id, source);
  }

  /**
   * The family itself when it is a supported model type.
   *
   * @throws IllegalArgumentException naming the rule and the value otherwise
   */
  @CanIgnoreReturnValue
  static String checkFamily(String family) {
    if (!SUPPORTED.contains(family)) {
      throw new IllegalArgumentException(
          "architecture must be a supported model_type ("
              + String.join(", ", SUPPORTED)
              + "): '"
              + family
              + "'");
    }
    return family;
  }

  /** The file's {@code _name_or_path}, when it has a non-blank one. */
  static Optional<String> nameOrPath(String json, String origin) {
    String name = tree(json, origin).path("_name_or_path").asText("").trim();
    return name.isEmpty() ? Optional.empty() : Optional.of(name);
  }

  private static JsonNode tree(String json, String origin) {
    // NaN and Infinity read as numbers, so that the field they sit in is named
    JsonNode root = InputFiles.readJson(json, origin, true);
    if (!root.isObject()) {
      throw new IllegalArgumentException(origin + ": expected a JSON object with a model_type");
    }
    return root;
  }

  /** Builds a model of one type from its fields. */
  private static final class Reader {
    private final ConfigFields f;
    private final String type;
    private final int hidden;
    private final int layers;

    Reader(ConfigFields f, String type) {
      this.f = f;
      this.type = type;
      this.hidden = f.positiveInt("hidden_size", "n_embed", "d_model");
      this.layers = f.positiveInt("num_hidden_layers", "n_layer", "num_layers");
    }

    boolean is(String... types) {
      for (String t : types) {
        if (t.equals(type)) {
          return true;
        }
      }
      return false;
    }

    Model build(String id, String source) {
      boolean bloom = is("bloom");
      boolean gemma = is("gemma2", "gemma3", "gemma3_text");
      List<Layer> stack =
          is("nemotron_h")
              ? new NemotronLayers(f, hidden, layers).build()
              : new StandardLayers(f, type, hidden, layers).build();
      Model.Builder b =
          Model.builder()
              .id(id)
              .modelType(type)
              .source(source)
              .hiddenSize(hidden)
              // Gemma-3's omitted keys come from its class defaults (Gemma3Defaults)
              .vocabSize(f.positiveInt("vocab_size"))
              .layers(stack)
              .normKind(bloom ? NormKind.LAYER : NormKind.RMS)
              // class defaults: BLOOM and Gemma tie the LM head to the embedding; the rest do not
              .tiedEmbeddings(f.bool("tie_word_embeddings").orElse(bloom || gemma))
              .embeddingNorm(bloom)
              .maxContext(f.optionalPositiveInt("max_position_embeddings"))
              .nativePrecision(
                  f.text("torch_dtype")
                      .or(() -> f.text("dtype"))
                      .map(f::dtype)
                      .orElse(Precision.BF16))
              .mtpLayers(f.optionalNonNegativeInt("num_nextn_predict_layers").orElse(0));
      quantization(b);
      for (String k : f.unread(FAMILY_KEYS)) {
        b.addWarnings(
            f.origin()
                + ": key '"
                + k
                + "' is not read for model_type '"
                + type
                + "' and has no effect on the estimate");
      }
      return b.build();
    }

    /** Checkpoint precisions from quantization_config. */
    private void quantization(Model.Builder b) {
      JsonNode q = f.node("quantization_config");
      if (q == null || q.isNull()) {
        return;
      }
      String method = q.path("quant_method").asText("");
      switch (method) {
        case "fp8":
          // DeepSeek/Kimi FP8 blocks (128×128 scales, < 0.1% overhead): every linear weight is
          // FP8; the embedding and LM head stay at torch_dtype
          b.putQuantizedWeight(TensorClass.ATTENTION, Precision.FP8);
          b.putQuantizedWeight(TensorClass.EXPERTS, Precision.FP8);
          b.putQuantizedWeight(TensorClass.DENSE_FFN, Precision.FP8);
          break;
        case "mxfp4":
          // gpt-oss / transformers Mxfp4Config: only the MoE experts are quantised; attention,
          // router, embeddings and head stay at torch_dtype (modules_to_not_convert lists them)
          b.putQuantizedWeight(TensorClass.EXPERTS, Precision.MXFP4);
          break;
        default:
          throw f.error(
              "quantization_config.quant_method",
              "must be fp8 or mxfp4 (others are not modelled yet): '" + method + "'");
      }
    }
  }
}
