package io.ridgeline.core;

/**
 * Classes of weight tensors that can be stored at different precisions, as checkpoints do (gpt-oss:
 * MXFP4 experts, BF16 attention; DeepSeek: FP8 blocks, BF16 embeddings).
 */
public enum TensorClass {
  /** Attention and linear-attention (Mamba, DeltaNet) projections and their norms. */
  ATTENTION,
  /** Routed MoE experts. */
  EXPERTS,
  /** Dense FFN layers, shared experts and MoE routers. */
  DENSE_FFN,
  /** The embedding table and the LM head. */
  EMBEDDINGS;

  /** Lower-case id, for example {@code "dense_ffn"}. */
  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
