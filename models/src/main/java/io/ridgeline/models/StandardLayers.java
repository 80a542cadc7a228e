package io.ridgeline.models;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The layers of every supported type but Nemotron-H: attention (or Qwen3-Next's Gated DeltaNet) +
 * FFN in every layer, with per-type attention, sliding-window and MoE layout.
 */
final class StandardLayers {
  private final ConfigFields f;
  private final String type;
  private final int hidden;
  private final int layers;

  /** mlp_only_layers, once read (Qwen MoE types only). */
  private Set<Integer> mlpOnly;

  StandardLayers(ConfigFields f, String type, int hidden, int layers) {
    this.f = f;
    this.type = type;
    this.hidden = hidden;
    this.layers = layers;
  }

  private boolean is(String... types) {
    for (String t : types) {
      if (t.equals(type)) {
        return true;
      }
    }
    return false;
  }

  /** Attention + FFN in every layer, with per-type attention, window and MoE layout. */
  List<Layer> build() {
    List<Layer> out = new ArrayList<>(layers);
    List<String> layerTypes = f.stringList("layer_types");
    if (f.has("layer_types") && layerTypes.size() != layers) {
      throw f.error("layer_types", "must list " + layers + " layers, found " + layerTypes.size());
    }
    // an unknown entry is an error: read as full attention it would silently change the KV cache
    List<String> known =
        is("qwen3_next")
            ? List.of("full_attention", "sliding_attention", "linear_attention")
            : List.of("full_attention", "sliding_attention");
    for (int i = 0; i < layerTypes.size(); i++) {
      if (!known.contains(layerTypes.get(i))) {
        throw f.error(
            "layer_types",
            "has '"
                + layerTypes.get(i)
                + "' at index "
                + i
                + "; expected "
                + String.join(" or ", known));
      }
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
      out.add(Layer.builder().attention(attention).linear(linear).ffn(ffn(i)).norms(norms).build());
    }
    return out;
  }

  private Attention attention(int i, List<String> layerTypes) {
    int heads = f.positiveInt("num_attention_heads", "n_head");
    Attention.Builder a = Attention.builder().heads(heads);
    if (is("deepseek_v2", "deepseek_v3", "deepseek_v32", "kimi_k2")) {
      return mla(a, heads);
    }
    int kvHeads = f.optionalPositiveInt("num_key_value_heads").orElse(heads);
    f.checkMultiple(
        f.present("num_attention_heads", "n_head"),
        heads,
        "num_key_value_heads",
        kvHeads,
        "each key/value head serves a whole group of query heads");
    int headDim =
        f.optionalPositiveInt("head_dim", "attention_head_dim")
            .orElseGet(() -> f.divide(hidden, heads, "hidden_size", "num_attention_heads"));
    a.kvHeads(kvHeads).headDim(headDim);
    // class defaults for biases: BLOOM and Qwen2 bias Q/K/V; gpt-oss sets attention_bias for
    // Q/K/V/O
    boolean bias = f.bool("attention_bias").orElse(is("bloom", "qwen2", "qwen2_moe"));
    a.qkvBias(bias).outputBias(is("bloom") || (is("gpt_oss") && bias));
    // GLM-4.5 normalises Q and K per head when use_qk_norm is set (GLM-4.5-Air does not)
    a.qkNorm(
        is("qwen3", "qwen3_moe", "qwen3_next", "gemma3", "gemma3_text")
            || (is("glm4_moe") && f.bool("use_qk_norm").orElse(false)));
    a.outputGate(is("qwen3_next"));
    a.sinks(is("gpt_oss"));
    sliding(i, layerTypes).ifPresent(a::slidingWindow);
    return a.build();
  }

  /** DeepSeek/Kimi multi-head latent attention, with DSA's indexer where index_topk is set. */
  private Attention mla(Attention.Builder a, int heads) {
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
                        "sliding_window", "is required when layer_types lists sliding_attention")));
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
    if (is("qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "qwen3_next")) {
      // Qwen: sliding only when use_sliding_window, from layer max_window_layers on
      if (!f.bool("use_sliding_window").orElse(false)) {
        return Optional.empty();
      }
      return i >= f.optionalNonNegativeInt("max_window_layers").orElse(0)
          ? window
          : Optional.empty();
    }
    if (is("mistral", "mixtral", "llama", "phi3")) {
      // transformers Phi3 applies sliding_window (2047 for Phi-3-mini-4k) to every layer
      return window;
    }
    return Optional.empty();
  }

  private LinearMixer deltaNet() {
    int valueHeads = f.positiveInt("linear_num_value_heads");
    int keyHeads = f.positiveInt("linear_num_key_heads");
    f.checkMultiple(
        "linear_num_value_heads",
        valueHeads,
        "linear_num_key_heads",
        keyHeads,
        "each key head serves a whole group of value heads");
    return LinearMixer.builder()
        .kind(LinearMixer.Kind.GATED_DELTANET)
        .heads(valueHeads)
        .valueHeadDim(f.positiveInt("linear_value_head_dim"))
        .keyHeads(keyHeads)
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
    if (is("qwen2_moe", "qwen3_moe", "qwen3_next")) {
      return Optional.of(qwenFfn(i));
    }
    if (is("deepseek_v2", "deepseek_v3", "deepseek_v32", "kimi_k2", "glm4_moe")) {
      return Optional.of(deepseekFfn(i));
    }
    return Optional.of(Ffn.dense(f.positiveInt("intermediate_size"), gated));
  }

  /** Qwen2-MoE, Qwen3-MoE/Next: MoE every decoder_sparse_step-th layer except mlp_only_layers. */
  private Ffn qwenFfn(int i) {
    Set<Integer> mlpOnly = mlpOnlyLayers();
    int step = f.optionalPositiveInt("decoder_sparse_step").orElse(1);
    int experts = f.optionalNonNegativeInt("num_experts").orElse(0);
    if (!mlpOnly.contains(i) && experts > 0 && (i + 1) % step == 0) {
      Ffn.Builder b =
          Ffn.builder()
              .innerSize(f.positiveInt("moe_intermediate_size"))
              .gated(true)
              .experts(experts)
              .topK(f.positiveInt("num_experts_per_tok"));
      // Qwen2-MoE, Qwen3-Next: one shared expert, scaled by a sigmoid gate (hidden → 1)
      f.optionalPositiveInt("shared_expert_intermediate_size")
          .ifPresent(s -> b.sharedExperts(1).sharedInnerSize(s).sharedExpertGate(true));
      return b.build();
    }
    return Ffn.dense(f.positiveInt("intermediate_size"), true);
  }

  /** The layers mlp_only_layers keeps dense, each in [0, layers); read once. */
  private Set<Integer> mlpOnlyLayers() {
    if (mlpOnly == null) {
      List<Integer> listed = f.intList("mlp_only_layers");
      for (int k = 0; k < listed.size(); k++) {
        if (listed.get(k) >= layers) {
          throw f.error(
              "mlp_only_layers",
              "has "
                  + listed.get(k)
                  + " at index "
                  + k
                  + "; layers are numbered 0 to "
                  + (layers - 1)
                  + " (num_hidden_layers "
                  + layers
                  + ")");
        }
      }
      mlpOnly = new HashSet<>(listed);
    }
    return mlpOnly;
  }

  /**
   * DeepSeek/Kimi and GLM-4.5 (same layout): MoE from first_k_dense_replace on, every
   * moe_layer_freq-th layer.
   */
  private Ffn deepseekFfn(int i) {
    int experts = f.optionalNonNegativeInt("n_routed_experts").orElse(0);
    int firstDense = f.optionalNonNegativeInt("first_k_dense_replace").orElse(0);
    int freq = f.optionalPositiveInt("moe_layer_freq").orElse(1);
    if (experts > 0 && i >= firstDense && i % freq == 0) {
      int moeInner = f.positiveInt("moe_intermediate_size");
      return Ffn.builder()
          .innerSize(moeInner)
          .gated(true)
          .experts(experts)
          .topK(f.positiveInt("num_experts_per_tok"))
          .sharedExperts(f.optionalNonNegativeInt("n_shared_experts").orElse(0))
          .sharedInnerSize(moeInner)
          // noaux_tc routing adds a per-expert score-correction bias; GLM-4.5's router always
          // has one (e_score_correction_bias) and its config names no topk_method
          .routerBias(is("glm4_moe") || f.text("topk_method").map("noaux_tc"::equals).orElse(false))
          .build();
    }
    return Ffn.dense(f.positiveInt("intermediate_size"), true);
  }
}
