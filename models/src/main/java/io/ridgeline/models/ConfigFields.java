package io.ridgeline.models;

import com.fasterxml.jackson.databind.JsonNode;
import io.ridgeline.core.Precision;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** Typed access to config fields with messages naming the file and the field. */
final class ConfigFields {
  /** Keys read from the enclosing object when a nested text_config lacks them. */
  private static final Set<String> INHERITED =
      Set.of("torch_dtype", "dtype", "tie_word_embeddings", "quantization_config");

  /** Layers a config may declare: far above any published model (Llama-3.1-405B has 126). */
  static final int MAX_LAYERS = 4_096;

  /**
   * The largest value of each size field (docs/errors.md): far above any published model, and low
   * enough that products of two sizes stay exact in an {@code int} and products of several in a
   * {@code long} or a {@code double}. Other integer fields (positions, windows, layer indices) may
   * take any value up to 2^31 − 1.
   */
  static final java.util.Map<String, Integer> MAX = maxima();

  private final JsonNode node;
  private final JsonNode parent;
  private final String origin;

  /** Every key a reader asked for, to tell which keys a file sets but the model never reads. */
  private final Set<String> read = new java.util.HashSet<>();

  private static java.util.Map<String, Integer> maxima() {
    java.util.Map<String, Integer> m = new java.util.HashMap<>();
    for (String k : List.of("num_hidden_layers", "n_layer", "num_layers")) {
      m.put(k, MAX_LAYERS);
    }
    // widths: hidden, FFN, latent ranks, vocabulary: at most 2^20 (1,048,576)
    for (String k :
        List.of(
            "hidden_size",
            "n_embed",
            "d_model",
            "intermediate_size",
            "n_inner",
            "moe_intermediate_size",
            "shared_expert_intermediate_size",
            "moe_shared_expert_intermediate_size",
            "kv_lora_rank",
            "q_lora_rank",
            "vocab_size")) {
      m.put(k, 1 << 20);
    }
    // per-head dimensions and kernels: at most 2^14 (16,384)
    for (String k :
        List.of(
            "head_dim",
            "attention_head_dim",
            "qk_nope_head_dim",
            "qk_rope_head_dim",
            "v_head_dim",
            "index_head_dim",
            "linear_key_head_dim",
            "linear_value_head_dim",
            "linear_conv_kernel_dim",
            "mamba_head_dim",
            "ssm_state_size",
            "conv_kernel",
            "chunk_size")) {
      m.put(k, 1 << 14);
    }
    // counts of heads, groups and experts, and layout periods: at most 2^16 (65,536)
    for (String k :
        List.of(
            "num_attention_heads",
            "n_head",
            "num_key_value_heads",
            "index_n_heads",
            "linear_num_value_heads",
            "linear_num_key_heads",
            "mamba_num_heads",
            "n_groups",
            "num_local_experts",
            "num_experts",
            "n_routed_experts",
            "num_experts_per_tok",
            "experts_per_token",
            "n_shared_experts",
            "decoder_sparse_step",
            "moe_layer_freq",
            "full_attention_interval",
            "sliding_window_pattern",
            "num_nextn_predict_layers")) {
      m.put(k, 1 << 16);
    }
    return java.util.Map.copyOf(m);
  }

  ConfigFields(JsonNode node, JsonNode parent, String origin) {
    this.node = node;
    this.parent = parent;
    this.origin = origin;
  }

  /** The file (or resource) name that starts every message. */
  String origin() {
    return origin;
  }

  private JsonNode get(String name) {
    read.add(name);
    JsonNode v = node.get(name);
    if ((v == null || v.isNull()) && parent != null && INHERITED.contains(name)) {
      return parent.get(name);
    }
    return v;
  }

  IllegalArgumentException error(String field, String problem) {
    // a value in a message is cut short: a message stays one readable line for any file
    String p = problem.length() > 300 ? problem.substring(0, 300) + "…" : problem;
    return new IllegalArgumentException(origin + ": field '" + field + "' " + p);
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

  /** Whether the file sets {@code name} (to anything but null). */
  boolean has(String name) {
    JsonNode v = get(name);
    return v != null && !v.isNull();
  }

  /**
   * The keys of {@code candidates} that the file sets to something meaningful (not null, false, 0
   * or an empty list) but no reader asked for: settings the model would silently ignore.
   */
  List<String> unread(java.util.Collection<String> candidates) {
    List<String> out = new ArrayList<>();
    for (String k : candidates) {
      if (read.contains(k)) {
        continue;
      }
      JsonNode v = node.get(k);
      boolean meaningful =
          v != null
              && !v.isNull()
              && !(v.isBoolean() && !v.booleanValue())
              && !(v.isNumber() && v.doubleValue() == 0)
              && !(v.isContainerNode() && v.isEmpty())
              && !(v.isTextual() && v.textValue().isEmpty());
      if (meaningful) {
        out.add(k);
      }
    }
    return out;
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
    for (JsonNode e : v) {
      if (!e.isTextual()) {
        throw error(name, "must be a list of strings: " + e + " at index " + out.size());
      }
      out.add(e.textValue());
    }
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
      if (!e.isIntegralNumber() || !e.canConvertToInt() || e.intValue() < 0) {
        throw error(
            name, "must be a list of non-negative integers: " + e + " at index " + out.size());
      }
      out.add(e.intValue());
    }
    return out;
  }

  private Optional<Integer> integer(boolean allowZero, String... names) {
    // aliases are read together: the first present wins, the others are not "unread"
    read.addAll(List.of(names));
    for (String name : names) {
      JsonNode v = get(name);
      if (v == null || v.isNull()) {
        continue;
      }
      long min = allowZero ? 0 : 1;
      long max = MAX.getOrDefault(name, Integer.MAX_VALUE);
      if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < min) {
        throw error(
            name, "must be a " + (allowZero ? "non-negative" : "positive") + " integer: " + v);
      }
      if (v.asLong() > max) {
        throw error(name, String.format(Locale.ROOT, "must be at most %,d: %s", max, v));
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

  /** The first of {@code names} the file sets, to name an aliased field; the first name if none. */
  String present(String... names) {
    for (String name : names) {
      JsonNode v = node.get(name);
      if (v != null && !v.isNull()) {
        return name;
      }
    }
    return names[0];
  }

  /**
   * Refuses an architecture whose field {@code aName} ({@code a}) is not a multiple of field {@code
   * bName} ({@code b}); {@code why} says what the rule keeps whole.
   */
  void checkMultiple(String aName, int a, String bName, int b, String why) {
    if (a % b != 0) {
      throw error(aName, "(" + a + ") must be a multiple of '" + bName + "' (" + b + "): " + why);
    }
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

  /** A torch dtype name as a precision; an unknown name is an error naming torch_dtype. */
  Precision dtype(String dtype) {
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
        throw error("torch_dtype", "must be bfloat16, float16 or float32: '" + dtype + "'");
    }
  }
}
