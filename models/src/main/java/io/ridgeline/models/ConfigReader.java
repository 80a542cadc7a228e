package io.ridgeline.models;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.common.collect.ImmutableSortedSet;
import io.ridgeline.core.Precision;
import io.ridgeline.core.TensorClass;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
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
          "gpt_oss",
          "kimi_k2",
          "llama",
          "mistral",
          "mixtral",
          "nemotron_h",
          "qwen2",
          "qwen3",
          "qwen3_moe",
          "qwen3_next");

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
    String type = root.path("model_type").asText("");
    JsonNode cfg = root;
    if (!root.has("hidden_size") && root.path("text_config").isObject()) {
      cfg = root.get("text_config");
      if (type.isEmpty()) {
        type = cfg.path("model_type").asText("");
      }
    }
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
    // in a multimodal file the dtype, tying and quantization may sit beside text_config
    Fields f = new Fields(cfg, cfg == root ? null : root, origin);
    Reader r = new Reader(f, type);
    return r.build(id, source);
  }

  /** Builds the layers of one model type from its fields. */
  private static final class Reader {
    private final Fields f;
    private final String type;
    private final int hidden;
    private final int layers;

    Reader(Fields f, String type) {
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
      List<Layer> stack = is("nemotron_h") ? nemotron() : standard();
      ImmutableModel.Builder b =
          Model.builder()
              .id(id)
              .modelType(type)
              .source(source)
              .hiddenSize(hidden)
              // Gemma-3 omits vocab_size: its class default is 262,208
              .vocabSize(
                  is("gemma3", "gemma3_text")
                      ? f.optionalPositiveInt("vocab_size").orElse(262_208)
                      : f.positiveInt("vocab_size"))
              .layers(stack)
              .normKind(bloom ? Model.NormKind.LAYER : Model.NormKind.RMS)
              // class defaults: BLOOM and Gemma tie the LM head to the embedding; the rest do not
              .tiedEmbeddings(f.bool("tie_word_embeddings").orElse(bloom || gemma))
              .embeddingNorm(bloom)
              // Gemma-3's hub config omits max_position_embeddings: its class default is 131,072
              .maxContext(
                  f.optionalPositiveInt("max_position_embeddings")
                      .or(
                          () ->
                              is("gemma3", "gemma3_text")
                                  ? Optional.of(131_072)
                                  : Optional.empty()))
              .nativePrecision(
                  f.text("torch_dtype")
                      .or(() -> f.text("dtype"))
                      .map(this::dtype)
                      .orElse(Precision.BF16))
              .mtpLayers(f.optionalNonNegativeInt("num_nextn_predict_layers").orElse(0));
      quantization(b);
      return b.build();
    }

    /** Attention + FFN in every layer, with per-type attention, window and MoE layout. */
    private List<Layer> standard() {
      List<Layer> out = new ArrayList<>(layers);
      List<String> layerTypes = f.stringList("layer_types");
      if (!layerTypes.isEmpty() && layerTypes.size() != layers) {
        throw f.error("layer_types", "must list " + layers + " layers, found " + layerTypes.size());
      }
      for (int i = 0; i < layers; i++) {
        Optional<Attention> attention = Optional.empty();
        Optional<LinearMixer> linear = Optional.empty();
        if (is("qwen3_next")
            && (i + 1) % f.optionalPositiveInt("full_attention_interval").orElse(4) != 0) {
          linear = Optional.of(deltaNet());
        } else {
          attention = Optional.of(attention(i, layerTypes));
        }
        int norms = is("gemma2", "gemma3", "gemma3_text") ? 4 : 2;
        out.add(
            ImmutableLayer.builder()
                .attention(attention)
                .linear(linear)
                .ffn(ffn(i))
                .norms(norms)
                .build());
      }
      return out;
    }

    private Attention attention(int i, List<String> layerTypes) {
      int heads = f.positiveInt("num_attention_heads", "n_head");
      ImmutableAttention.Builder a = Attention.builder().heads(heads);
      if (is("deepseek_v2", "deepseek_v3", "deepseek_v32", "kimi_k2")) {
        int nope = f.positiveInt("qk_nope_head_dim");
        int rope = f.positiveInt("qk_rope_head_dim");
        int v = f.positiveInt("v_head_dim");
        // q_lora_rank is null (HF) or 0 (DeepSeek's own schema) when Q is not compressed
        a.kvHeads(heads)
            .headDim(nope + rope)
            .valueHeadDim(v)
            .mla(
                Attention.Mla.builder()
                    .qLoraRank(f.optionalNonNegativeInt("q_lora_rank").orElse(0))
                    .kvLoraRank(f.positiveInt("kv_lora_rank"))
                    .qkNopeHeadDim(nope)
                    .qkRopeHeadDim(rope)
                    .vHeadDim(v)
                    .build());
        if (f.optionalPositiveInt("index_topk").isPresent()) {
          a.indexer(
              Attention.Indexer.builder()
                  .topK(f.positiveInt("index_topk"))
                  .heads(f.positiveInt("index_n_heads"))
                  .headDim(f.positiveInt("index_head_dim"))
                  .build());
        }
        return a.qkvBias(f.bool("attention_bias").orElse(false)).build();
      }
      int kvHeads = f.optionalPositiveInt("num_key_value_heads").orElse(heads);
      int headDim =
          f.optionalPositiveInt("head_dim", "attention_head_dim")
              .orElseGet(() -> f.divide(hidden, heads, "hidden_size", "num_attention_heads"));
      a.kvHeads(kvHeads).headDim(headDim);
      // class defaults for biases: BLOOM and Qwen2 bias Q/K/V; gpt-oss sets attention_bias for
      // Q/K/V/O
      boolean bias = f.bool("attention_bias").orElse(is("bloom", "qwen2"));
      a.qkvBias(bias).outputBias(is("bloom") || (is("gpt_oss") && bias));
      a.qkNorm(is("qwen3", "qwen3_moe", "qwen3_next", "gemma3", "gemma3_text"));
      a.outputGate(is("qwen3_next"));
      a.sinks(is("gpt_oss"));
      sliding(i, layerTypes).ifPresent(a::slidingWindow);
      return a.build();
    }

    /** The window of layer i, if it is a sliding-window layer. */
    private Optional<Integer> sliding(int i, List<String> layerTypes) {
      Optional<Integer> window = f.optionalPositiveInt("sliding_window");
      if (!layerTypes.isEmpty()) {
        String t = layerTypes.get(i);
        if (t.equals("sliding_attention")) {
          return Optional.of(
              window.orElseThrow(
                  () ->
                      f.error(
                          "sliding_window",
                          "is required when layer_types lists sliding_attention")));
        }
        return Optional.empty();
      }
      if (window.isEmpty()) {
        return Optional.empty();
      }
      if (is("gemma2")) {
        // transformers Gemma2: even layers are local (sliding), odd layers global
        return i % 2 == 0 ? window : Optional.empty();
      }
      if (is("gemma3", "gemma3_text")) {
        // transformers Gemma3: every sliding_window_pattern-th layer is global (default 6: 5 local
        // : 1)
        int pattern = f.optionalPositiveInt("sliding_window_pattern").orElse(6);
        return (i + 1) % pattern != 0 ? window : Optional.empty();
      }
      if (is("qwen2", "qwen3", "qwen3_moe", "qwen3_next")) {
        // Qwen: sliding only when use_sliding_window, from layer max_window_layers on
        if (!f.bool("use_sliding_window").orElse(false)) {
          return Optional.empty();
        }
        return i >= f.optionalNonNegativeInt("max_window_layers").orElse(0)
            ? window
            : Optional.empty();
      }
      if (is("mistral", "mixtral", "llama")) {
        return window;
      }
      return Optional.empty();
    }

    private LinearMixer deltaNet() {
      return LinearMixer.builder()
          .kind(LinearMixer.Kind.GATED_DELTANET)
          .heads(f.positiveInt("linear_num_value_heads"))
          .valueHeadDim(f.positiveInt("linear_value_head_dim"))
          .keyHeads(f.positiveInt("linear_num_key_heads"))
          .keyHeadDim(f.positiveInt("linear_key_head_dim"))
          .convKernel(f.positiveInt("linear_conv_kernel_dim"))
          .build();
    }

    private Optional<Ffn> ffn(int i) {
      boolean gated = !is("bloom");
      if (is("bloom")) {
        int inner = f.optionalPositiveInt("n_inner", "intermediate_size").orElse(4 * hidden);
        return Optional.of(Ffn.builder().innerSize(inner).gated(false).bias(true).build());
      }
      if (is("mixtral", "gpt_oss")) {
        // intermediate_size is the width of one expert; every layer is MoE
        return Optional.of(
            Ffn.builder()
                .innerSize(f.positiveInt("intermediate_size"))
                .gated(true)
                .experts(f.positiveInt("num_local_experts"))
                .topK(f.positiveInt("num_experts_per_tok", "experts_per_token"))
                .bias(is("gpt_oss"))
                .routerBias(is("gpt_oss"))
                .build());
      }
      if (is("qwen3_moe", "qwen3_next")) {
        Set<Integer> mlpOnly = new HashSet<>(f.intList("mlp_only_layers"));
        int step = f.optionalPositiveInt("decoder_sparse_step").orElse(1);
        int experts = f.optionalNonNegativeInt("num_experts").orElse(0);
        if (!mlpOnly.contains(i) && experts > 0 && (i + 1) % step == 0) {
          ImmutableFfn.Builder b =
              Ffn.builder()
                  .innerSize(f.positiveInt("moe_intermediate_size"))
                  .gated(true)
                  .experts(experts)
                  .topK(f.positiveInt("num_experts_per_tok"));
          // Qwen3-Next: one shared expert, scaled by a sigmoid gate (a hidden → 1 projection)
          f.optionalPositiveInt("shared_expert_intermediate_size")
              .ifPresent(s -> b.sharedExperts(1).sharedInnerSize(s).sharedExpertGate(true));
          return Optional.of(b.build());
        }
        return Optional.of(Ffn.dense(f.positiveInt("intermediate_size"), true));
      }
      if (is("deepseek_v2", "deepseek_v3", "deepseek_v32", "kimi_k2")) {
        int experts = f.optionalNonNegativeInt("n_routed_experts").orElse(0);
        int firstDense = f.optionalNonNegativeInt("first_k_dense_replace").orElse(0);
        int freq = f.optionalPositiveInt("moe_layer_freq").orElse(1);
        if (experts > 0 && i >= firstDense && i % freq == 0) {
          int moeInner = f.positiveInt("moe_intermediate_size");
          return Optional.of(
              Ffn.builder()
                  .innerSize(moeInner)
                  .gated(true)
                  .experts(experts)
                  .topK(f.positiveInt("num_experts_per_tok"))
                  .sharedExperts(f.optionalNonNegativeInt("n_shared_experts").orElse(0))
                  .sharedInnerSize(moeInner)
                  // noaux_tc routing adds a per-expert score-correction bias
                  .routerBias(f.text("topk_method").map("noaux_tc"::equals).orElse(false))
                  .build());
        }
        return Optional.of(Ffn.dense(f.positiveInt("intermediate_size"), true));
      }
      return Optional.of(Ffn.dense(f.positiveInt("intermediate_size"), gated));
    }

    /** Nemotron-H: one layer per character of hybrid_override_pattern. */
    private List<Layer> nemotron() {
      String pattern =
          f.text("hybrid_override_pattern").orElseThrow(() -> f.missing("hybrid_override_pattern"));
      if (pattern.length() != layers) {
        throw f.error(
            "hybrid_override_pattern",
            "must have num_hidden_layers (" + layers + ") characters, has " + pattern.length());
      }
      boolean plain = f.text("mlp_hidden_act").map(a -> a.startsWith("relu2")).orElse(true);
      List<Layer> out = new ArrayList<>(layers);
      for (int i = 0; i < layers; i++) {
        char c = pattern.charAt(i);
        ImmutableLayer.Builder b = Layer.builder();
        switch (c) {
          case 'M':
            b.linear(
                LinearMixer.builder()
                    .kind(LinearMixer.Kind.MAMBA2)
                    .heads(f.positiveInt("mamba_num_heads"))
                    .valueHeadDim(f.positiveInt("mamba_head_dim"))
                    .keyHeads(f.positiveInt("n_groups"))
                    .keyHeadDim(f.positiveInt("ssm_state_size"))
                    .convKernel(f.positiveInt("conv_kernel"))
                    .convBias(f.bool("use_conv_bias").orElse(true))
                    .chunkSize(f.optionalPositiveInt("chunk_size").orElse(128))
                    .statePrecision(f.text("mamba_ssm_cache_dtype").map(this::dtype))
                    .build());
            break;
          case '*':
            int heads = f.positiveInt("num_attention_heads");
            b.attention(
                Attention.builder()
                    .heads(heads)
                    .kvHeads(f.optionalPositiveInt("num_key_value_heads").orElse(heads))
                    .headDim(
                        f.optionalPositiveInt("head_dim", "attention_head_dim")
                            .orElseGet(
                                () ->
                                    f.divide(hidden, heads, "hidden_size", "num_attention_heads")))
                    .qkvBias(f.bool("attention_bias").orElse(false))
                    .outputBias(f.bool("attention_bias").orElse(false))
                    .build());
            break;
          case '-':
            b.ffn(
                Ffn.builder()
                    .innerSize(f.positiveInt("intermediate_size"))
                    .gated(!plain)
                    .bias(f.bool("mlp_bias").orElse(false))
                    .build());
            break;
          case 'E':
            int moeInner = f.positiveInt("moe_intermediate_size");
            b.ffn(
                Ffn.builder()
                    .innerSize(moeInner)
                    .gated(!plain)
                    .experts(f.positiveInt("n_routed_experts"))
                    .topK(f.positiveInt("num_experts_per_tok"))
                    .sharedExperts(f.optionalNonNegativeInt("n_shared_experts").orElse(0))
                    .sharedInnerSize(
                        f.optionalPositiveInt("moe_shared_expert_intermediate_size")
                            .orElse(moeInner))
                    .routerBias(true)
                    .build());
            break;
          default:
            throw f.error(
                "hybrid_override_pattern",
                "has '" + c + "' at position " + i + "; expected M, *, - or E");
        }
        out.add(b.build());
      }
      return out;
    }

    /** Checkpoint precisions from quantization_config. */
    private void quantization(ImmutableModel.Builder b) {
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

    private Precision dtype(String dtype) {
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
          throw f.error("torch_dtype", "must be bfloat16, float16 or float32: '" + dtype + "'");
      }
    }
  }

  /** Typed access to config fields with messages naming the file and the field. */
  private static final class Fields {
    /** Keys read from the enclosing object when a nested text_config lacks them. */
    private static final Set<String> INHERITED =
        Set.of("torch_dtype", "dtype", "tie_word_embeddings", "quantization_config");

    private final JsonNode node;
    private final JsonNode parent;
    private final String origin;

    Fields(JsonNode node, JsonNode parent, String origin) {
      this.node = node;
      this.parent = parent;
      this.origin = origin;
    }

    private JsonNode get(String name) {
      JsonNode v = node.get(name);
      if ((v == null || v.isNull()) && parent != null && INHERITED.contains(name)) {
        return parent.get(name);
      }
      return v;
    }

    IllegalArgumentException error(String field, String problem) {
      return new IllegalArgumentException(origin + ": field '" + field + "' " + problem);
    }

    IllegalArgumentException missing(String field) {
      return new IllegalArgumentException(origin + ": missing required field '" + field + "'");
    }

    JsonNode node(String name) {
      return get(name);
    }

    Optional<String> text(String name) {
      JsonNode v = get(name);
      return v == null || v.isNull() ? Optional.empty() : Optional.of(v.asText());
    }

    Optional<Boolean> bool(String name) {
      JsonNode v = get(name);
      if (v == null || v.isNull()) {
        return Optional.empty();
      }
      if (!v.isBoolean()) {
        throw error(name, "must be true or false: " + v);
      }
      return Optional.of(v.booleanValue());
    }

    List<String> stringList(String name) {
      JsonNode v = get(name);
      List<String> out = new ArrayList<>();
      if (v == null || v.isNull()) {
        return out;
      }
      if (!v.isArray()) {
        throw error(name, "must be a list of strings: " + v);
      }
      v.forEach(e -> out.add(e.asText()));
      return out;
    }

    List<Integer> intList(String name) {
      JsonNode v = get(name);
      List<Integer> out = new ArrayList<>();
      if (v == null || v.isNull()) {
        return out;
      }
      if (!v.isArray()) {
        throw error(name, "must be a list of integers: " + v);
      }
      for (JsonNode e : v) {
        if (!e.isIntegralNumber()) {
          throw error(name, "must be a list of integers: " + v);
        }
        out.add(e.intValue());
      }
      return out;
    }

    private Optional<Integer> integer(boolean allowZero, String... names) {
      for (String name : names) {
        JsonNode v = get(name);
        if (v == null || v.isNull()) {
          continue;
        }
        long min = allowZero ? 0 : 1;
        if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > Integer.MAX_VALUE) {
          throw error(
              name, "must be a " + (allowZero ? "non-negative" : "positive") + " integer: " + v);
        }
        return Optional.of(v.intValue());
      }
      return Optional.empty();
    }

    /** The first present name among {@code names}, as a positive integer. */
    Optional<Integer> optionalPositiveInt(String... names) {
      return integer(false, names);
    }

    Optional<Integer> optionalNonNegativeInt(String... names) {
      return integer(true, names);
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
