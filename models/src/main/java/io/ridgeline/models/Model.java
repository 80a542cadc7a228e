package io.ridgeline.models;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.Phase;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.RidgelineStyle;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * A decoder-only transformer as inference sees it: its shape, parameter count, KV-cache size and
 * per-phase operations.
 *
 * <p>Build one from a HuggingFace {@code config.json} with {@link Models#fromConfig} or take one
 * from the catalog with {@link Models#byId}.
 *
 * <pre>{@code
 * Model m = Models.byId("llama-3.1-70b");
 * m.totalParameters();                 // 7.055e10
 * m.kvBytesPerToken(Precision.BF16);   // 327680 B = 2 (K,V) × 80 layers × 8 heads × 128 × 2 B
 * }</pre>
 */
@Value.Immutable
@RidgelineStyle
public abstract class Model {
  /** How the FFN is built. */
  public enum FfnKind {
    /**
     * SwiGLU / GeGLU: gate and up projections, element-wise product, down projection (3 matrices).
     */
    GATED,
    /** One up projection, an activation (GELU, ReLU²), a down projection (2 matrices). */
    PLAIN
  }

  /** How each norm is built. */
  public enum NormKind {
    /** RMSNorm: one weight vector. */
    RMS,
    /** LayerNorm: a weight and a bias vector. */
    LAYER
  }

  /** Catalog id such as {@code "llama-3.1-8b"} (or the file name for user configs). */
  public abstract String id();

  /** HuggingFace {@code model_type}, for example {@code "llama"}. */
  public abstract String modelType();

  /** Where the configuration came from (catalog source or file path). */
  public abstract String source();

  /** Model width ({@code hidden_size}). */
  public abstract int hiddenSize();

  /** Transformer blocks ({@code num_hidden_layers}). */
  public abstract int layers();

  /** Query heads. */
  public abstract int attentionHeads();

  /** Key/value heads (equal to query heads for MHA, 1 for MQA). */
  public abstract int kvHeads();

  /** Per-head dimension; not always {@code hidden / heads}. */
  public abstract int headDim();

  /** FFN inner width. */
  public abstract int intermediateSize();

  /** Vocabulary size. */
  public abstract int vocabSize();

  /** Gated or plain FFN. */
  public abstract FfnKind ffnKind();

  /** RMSNorm or LayerNorm. */
  public abstract NormKind normKind();

  /** Whether the LM head shares the embedding matrix. */
  public abstract boolean tiedEmbeddings();

  /** Whether Q/K/V projections carry biases. */
  @Value.Default
  public boolean qkvBias() {
    return false;
  }

  /** Whether the output projection and the FFN matrices carry biases (BLOOM). */
  @Value.Default
  public boolean denseBias() {
    return false;
  }

  /** Whether a norm follows the embedding (BLOOM's {@code word_embeddings_layernorm}). */
  @Value.Default
  public boolean embeddingNorm() {
    return false;
  }

  /** Whether each layer normalises Q and K per head (Qwen3's {@code q_norm}/{@code k_norm}). */
  @Value.Default
  public boolean qkNorm() {
    return false;
  }

  /** The longest context the configuration declares, if it declares one. */
  public abstract Optional<Integer> maxContext();

  /** The precision the checkpoint ships in ({@code torch_dtype}). */
  @Value.Default
  public Precision nativePrecision() {
    return Precision.BF16;
  }

  /** A new builder. */
  public static ImmutableModel.Builder builder() {
    return ImmutableModel.builder();
  }

  // ---- parameter counts (elements; a bias or a norm weight is one element per channel) ----

  /** Query width: heads × head dim. */
  public int queryWidth() {
    return attentionHeads() * headDim();
  }

  /** Key (and value) width: KV heads × head dim. */
  public int kvWidth() {
    return kvHeads() * headDim();
  }

  /** Parameters of the Q, K and V projections of one layer: hidden × (q + 2·kv) (+ biases). */
  public double qkvParametersPerLayer() {
    double w = (double) hiddenSize() * (queryWidth() + 2.0 * kvWidth());
    return w + (qkvBias() ? queryWidth() + 2.0 * kvWidth() : 0);
  }

  /** Parameters of the output projection of one layer: q × hidden (+ bias). */
  public double outputParametersPerLayer() {
    return (double) queryWidth() * hiddenSize() + (denseBias() ? hiddenSize() : 0);
  }

  /** Parameters of one FFN: 3 (gated) or 2 (plain) hidden × inner matrices (+ biases). */
  public double ffnParametersPerLayer() {
    int matrices = ffnKind() == FfnKind.GATED ? 3 : 2;
    double w = (double) matrices * hiddenSize() * intermediateSize();
    double b = denseBias() ? (matrices - 1.0) * intermediateSize() + hiddenSize() : 0;
    return w + b;
  }

  /** Norm parameters of one layer: two norms of hidden (×2 with LayerNorm bias), plus QK norms. */
  public double normParametersPerLayer() {
    return 2.0 * normWidth() + (qkNorm() ? 2.0 * headDim() : 0);
  }

  private double normWidth() {
    return normKind() == NormKind.LAYER ? 2.0 * hiddenSize() : hiddenSize();
  }

  /** Embedding-table parameters: vocab × hidden (+ embedding norm). */
  public double embeddingParameters() {
    return (double) vocabSize() * hiddenSize() + (embeddingNorm() ? normWidth() : 0);
  }

  /** LM-head parameters: vocab × hidden when untied, zero when tied. */
  public double lmHeadParameters() {
    return tiedEmbeddings() ? 0 : (double) vocabSize() * hiddenSize();
  }

  /** Parameters of one transformer block. */
  public double parametersPerLayer() {
    return qkvParametersPerLayer()
        + outputParametersPerLayer()
        + ffnParametersPerLayer()
        + normParametersPerLayer();
  }

  /** Every parameter: blocks, embeddings, final norm, untied LM head. */
  public double totalParameters() {
    return layers() * parametersPerLayer()
        + embeddingParameters()
        + normWidth()
        + lmHeadParameters();
  }

  /**
   * Parameters used per token. For a dense model this is every parameter (the embedding table
   * counts in full, as published figures do).
   */
  public double activeParameters() {
    return totalParameters();
  }

  /**
   * KV-cache bytes per token across all layers: 2 (K and V) × layers × KV heads × head dim × bytes
   * per element.
   */
  public Bytes kvBytesPerToken(Precision kv) {
    return kv.bytes(2.0 * layers() * kvWidth());
  }

  /** Bytes of every weight at {@code weights} precision. */
  public Bytes weightBytes(Precision weights) {
    return weights.bytes(totalParameters());
  }

  /**
   * The operations of one decode step for {@code batch} sequences that each hold {@code context}
   * tokens in the cache (the new token included): phases {@code decode_attention}, {@code
   * decode_projection}, {@code decode_ffn} and {@code decode_other}, in that order.
   *
   * @throws IllegalArgumentException when batch or context is not positive
   */
  public List<Phase> decodeStep(int batch, int context, Precisions precisions) {
    return Operations.decode(this, batch, context, precisions);
  }

  /**
   * The single phase {@code prefill}: {@code batch} prompts of {@code promptTokens} tokens each,
   * processed in one pass.
   *
   * @throws IllegalArgumentException when batch or prompt length is not positive
   */
  public Phase prefill(int batch, int promptTokens, Precisions precisions) {
    return Operations.prefill(this, batch, promptTokens, precisions);
  }

  @Value.Check
  void check() {
    checkArgument(!id().isBlank(), "model id must not be blank");
    positive("hidden_size", hiddenSize());
    positive("num_hidden_layers", layers());
    positive("num_attention_heads", attentionHeads());
    positive("num_key_value_heads", kvHeads());
    positive("head_dim", headDim());
    positive("intermediate_size", intermediateSize());
    positive("vocab_size", vocabSize());
    checkArgument(
        attentionHeads() % kvHeads() == 0,
        "model %s: num_attention_heads (%s) must be a multiple of num_key_value_heads (%s)",
        id(),
        attentionHeads(),
        kvHeads());
  }

  private void positive(String field, int value) {
    checkArgument(value > 0, "model %s: %s must be positive: %s", id(), field, value);
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%s (%s): %.2fB params, %d layers, hidden %d, %d/%d heads × %d, FFN %d %s, vocab %d, KV %s/token at bf16",
        id(),
        modelType(),
        totalParameters() / 1e9,
        layers(),
        hiddenSize(),
        attentionHeads(),
        kvHeads(),
        headDim(),
        intermediateSize(),
        ffnKind().name().toLowerCase(Locale.ROOT),
        vocabSize(),
        kvBytesPerToken(Precision.BF16));
  }
}
