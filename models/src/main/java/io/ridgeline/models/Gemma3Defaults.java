package io.ridgeline.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableMap;
import java.util.Map;

/**
 * The class defaults of transformers' {@code Gemma3TextConfig}, which Gemma-3 hub configs rely on:
 * a {@code text_config} states only what differs from them ({@code google/gemma-3-4b-it} omits
 * {@code num_attention_heads} (8), {@code google/gemma-3-12b-it} omits {@code head_dim} (256, not
 * hidden ÷ heads = 3840 ÷ 16 = 240)). A key the config omits takes its default here; a key it
 * states is kept.
 *
 * <p>Source: huggingface/transformers, {@code
 * src/transformers/models/gemma3/configuration_gemma3.py}, {@code Gemma3TextConfig.__init__} at
 * commit 008f5c8c29be84d4721dc6d1e0fcd72300580be4 (read 2026-12-06): vocab_size 262_208,
 * hidden_size 2304, intermediate_size 9216, num_hidden_layers 26, num_attention_heads 8,
 * num_key_value_heads 4, head_dim 256, max_position_embeddings 131_072, tie_word_embeddings True,
 * sliding_window 4096, sliding_window_pattern 6.
 */
final class Gemma3Defaults {
  private Gemma3Defaults() {}

  /** The defaults by key (integers; the tying flag is the reader's Gemma default). */
  static final Map<String, Integer> DEFAULTS =
      ImmutableMap.<String, Integer>builder()
          .put("vocab_size", 262_208)
          .put("hidden_size", 2304)
          .put("intermediate_size", 9216)
          .put("num_hidden_layers", 26)
          .put("num_attention_heads", 8)
          .put("num_key_value_heads", 4)
          .put("head_dim", 256)
          .put("max_position_embeddings", 131_072)
          .put("sliding_window", 4096)
          .put("sliding_window_pattern", 6)
          .buildOrThrow();

  /**
   * {@code cfg} (a Gemma-3 text config) with every default it omits (absent or JSON null) added; a
   * copy, {@code cfg} itself when it omits none or is not an object.
   */
  static JsonNode apply(JsonNode cfg) {
    if (!cfg.isObject()) {
      return cfg;
    }
    ObjectNode out = null;
    for (Map.Entry<String, Integer> e : DEFAULTS.entrySet()) {
      JsonNode v = cfg.get(e.getKey());
      if (v == null || v.isNull()) {
        if (out == null) {
          out = ((ObjectNode) cfg).deepCopy();
        }
        out.put(e.getKey(), e.getValue());
      }
    }
    return out == null ? cfg : out;
  }
}
