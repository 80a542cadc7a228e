package io.ridgeline.models;

import java.util.ArrayList;
import java.util.List;

/** Nemotron-H's layers: one layer per character of {@code hybrid_override_pattern}. */
final class NemotronLayers {
  private final ConfigFields f;
  private final int hidden;
  private final int layers;

  NemotronLayers(ConfigFields f, int hidden, int layers) {
    this.f = f;
    this.hidden = hidden;
    this.layers = layers;
  }

  /** M is a Mamba-2 mixer, * attention, - a dense MLP and E a mixture of experts. */
  List<Layer> build() {
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
      Layer.Builder b = Layer.builder();
      switch (c) {
        case 'M':
          b.linear(mamba());
          break;
        case '*':
          b.attention(attention());
          break;
        case '-':
          b.ffn(mlp(plain));
          break;
        case 'E':
          b.ffn(moe(plain));
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

  private LinearMixer mamba() {
    int heads = f.positiveInt("mamba_num_heads");
    int groups = f.positiveInt("n_groups");
    f.checkMultiple(
        "mamba_num_heads",
        heads,
        "n_groups",
        groups,
        "each group's B and C serve a whole set of heads");
    return LinearMixer.builder()
        .kind(LinearMixer.Kind.MAMBA2)
        .heads(heads)
        .valueHeadDim(f.positiveInt("mamba_head_dim"))
        .keyHeads(groups)
        .keyHeadDim(f.positiveInt("ssm_state_size"))
        .convKernel(f.positiveInt("conv_kernel"))
        .convBias(f.bool("use_conv_bias").orElse(true))
        .chunkSize(f.optionalPositiveInt("chunk_size").orElse(128))
        .statePrecision(f.text("mamba_ssm_cache_dtype").map(f::dtype))
        .build();
  }

  private Attention attention() {
    int heads = f.positiveInt("num_attention_heads");
    int kvHeads = f.optionalPositiveInt("num_key_value_heads").orElse(heads);
    f.checkMultiple(
        "num_attention_heads",
        heads,
        "num_key_value_heads",
        kvHeads,
        "each key/value head serves a whole group of query heads");
    return Attention.builder()
        .heads(heads)
        .kvHeads(kvHeads)
        .headDim(
            f.optionalPositiveInt("head_dim", "attention_head_dim")
                .orElseGet(() -> f.divide(hidden, heads, "hidden_size", "num_attention_heads")))
        .qkvBias(f.bool("attention_bias").orElse(false))
        .outputBias(f.bool("attention_bias").orElse(false))
        .build();
  }

  private Ffn mlp(boolean plain) {
    return Ffn.builder()
        .innerSize(f.positiveInt("intermediate_size"))
        .gated(!plain)
        .bias(f.bool("mlp_bias").orElse(false))
        .build();
  }

  private Ffn moe(boolean plain) {
    int moeInner = f.positiveInt("moe_intermediate_size");
    return Ffn.builder()
        .innerSize(moeInner)
        .gated(!plain)
        .experts(f.positiveInt("n_routed_experts"))
        .topK(f.positiveInt("num_experts_per_tok"))
        .sharedExperts(f.optionalNonNegativeInt("n_shared_experts").orElse(0))
        .sharedInnerSize(
            f.optionalPositiveInt("moe_shared_expert_intermediate_size").orElse(moeInner))
        .routerBias(true)
        .build();
  }
}
