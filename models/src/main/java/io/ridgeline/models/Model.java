package io.ridgeline.models;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.GemmInputs;
import io.ridgeline.core.Phase;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.TensorClass;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * A decoder-only model as inference sees it: an embedding, a stack of {@link Layer}s (attention,
 * linear mixers, dense or MoE FFNs), a final norm and an LM head; its parameter counts, cache sizes
 * and per-phase operations.
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
  Model() {} // subclassed only by the generated implementation

  /** Catalog id such as {@code "llama-3.1-8b"} (or the file name for user configs). */
  public abstract String id();

  /** HuggingFace {@code model_type}, for example {@code "llama"}. */
  public abstract String modelType();

  /** Where the configuration came from (catalog source or file path). */
  public abstract String source();

  /** Model width ({@code hidden_size}). */
  public abstract int hiddenSize();

  /** Vocabulary size. */
  public abstract int vocabSize();

  /** The blocks, in order. */
  public abstract List<Layer> layers();

  /** RMSNorm or LayerNorm. */
  @Value.Default
  public NormKind normKind() {
    return NormKind.RMS;
  }

  /** Whether the LM head shares the embedding matrix. */
  public abstract boolean tiedEmbeddings();

  /** Whether a norm follows the embedding (BLOOM's {@code word_embeddings_layernorm}). */
  @Value.Default
  public boolean embeddingNorm() {
    return false;
  }

  /** The longest context the configuration declares, if it declares one. */
  public abstract Optional<Integer> maxContext();

  /**
   * A warning when a sequence of {@code tokens} (history, prompt and output together) is longer
   * than the context the configuration declares ({@link #maxContext()}, its {@code
   * max_position_embeddings}): engines refuse such a request (vLLM's and SGLang's maximum model
   * length default to it), so an estimate there extrapolates the architecture. Empty within the
   * window, or when the configuration declares none.
   */
  public Optional<String> contextWarning(long tokens) {
    return maxContext()
        .filter(max -> tokens > max)
        .map(
            max ->
                String.format(
                    Locale.ROOT,
                    "%s: a sequence of %,d tokens is longer than its context window of %,d tokens"
                        + " (max_position_embeddings); engines refuse such requests, and the"
                        + " estimate extrapolates",
                    id(),
                    tokens,
                    max));
  }

  /** The precision the checkpoint's unquantised tensors ship in ({@code torch_dtype}). */
  @Value.Default
  public Precision nativePrecision() {
    return Precision.BF16;
  }

  /** Checkpoint weight precisions by tensor class from {@code quantization_config}. */
  public abstract Map<TensorClass, Precision> quantizedWeights();

  /** Multi-token-prediction layers shipped beside the model (DeepSeek); not counted anywhere. */
  @Value.Default
  public int mtpLayers() {
    return 0;
  }

  /**
   * Warnings about the configuration this model was read from, each a sentence naming the file and
   * the key: keys that would change the model for another family but that this family does not
   * read. Not part of equality.
   */
  @Value.Auxiliary
  public abstract List<String> warnings();

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link Model}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableModel.Builder {
    Builder() {}
  }

  /** Number of blocks. */
  public int layerCount() {
    return layers().size();
  }

  /** Distinct layer shapes with how many times each occurs, in first-seen order. */
  @Value.Lazy
  public Map<Layer, Integer> layerGroups() {
    Map<Layer, Integer> m = new LinkedHashMap<>();
    for (Layer l : layers()) {
      m.merge(l, 1, Integer::sum);
    }
    return ImmutableMap.copyOf(m);
  }

  /**
   * The checkpoint's precisions: weights at the native precision, quantised classes at theirs; KV
   * cache and activations at BF16 (or FP16 for FP16 checkpoints); GEMM inputs at {@link
   * GemmInputs#WEIGHT_PRECISION}, as engines serve FP8, NVFP4 and MXFP4 checkpoints: W8A8 or W4A4
   * where the chip has the units, weight-only where it does not (the serving layer resolves the
   * chip, see {@link Precisions#resolvedFor}).
   */
  public Precisions defaultPrecisions() {
    Precision act = nativePrecision() == Precision.FP32 ? Precision.BF16 : nativePrecision();
    return Precisions.builder()
        .gemmInputs(GemmInputs.WEIGHT_PRECISION)
        .weights(nativePrecision())
        .weightOverrides(quantizedWeights())
        .kvCache(act)
        .activations(act)
        .build();
  }

  // ---- parameter counts (elements; a bias or a norm weight is one element per channel) ----

  /** Elements of one norm's parameters: {@link NormKind#vectors()} × hidden size. */
  double normWidth() {
    return normKind().vectors() * (double) hiddenSize();
  }

  /** Embedding-table parameters: vocab × hidden (+ embedding norm). */
  public double embeddingParameters() {
    return (double) vocabSize() * hiddenSize() + (embeddingNorm() ? normWidth() : 0);
  }

  /** LM-head parameters: vocab × hidden when untied, zero when tied. */
  public double lmHeadParameters() {
    return tiedEmbeddings() ? 0 : (double) vocabSize() * hiddenSize();
  }

  /** Parameters by tensor class (norms count with attention). */
  @Value.Lazy
  public Map<TensorClass, Double> parametersByClass() {
    double attention = normWidth(); // final norm
    double experts = 0;
    double dense = 0;
    for (Map.Entry<Layer, Integer> e : layerGroups().entrySet()) {
      Layer l = e.getKey();
      int n = e.getValue();
      attention += n * l.norms() * normWidth();
      attention += n * l.attention().map(a -> a.parameters(hiddenSize())).orElse(0.0);
      attention += n * l.linear().map(a -> a.parameters(hiddenSize())).orElse(0.0);
      if (l.ffn().isPresent()) {
        Ffn f = l.ffn().get();
        if (f.isMoe()) {
          experts += n * f.experts() * f.expertParameters(hiddenSize());
          dense += n * (f.sharedParameters(hiddenSize()) + f.routerParameters(hiddenSize()));
        } else {
          dense += n * f.parameters(hiddenSize());
        }
      }
    }
    return ImmutableMap.of(
        TensorClass.ATTENTION, attention,
        TensorClass.EXPERTS, experts,
        TensorClass.DENSE_FFN, dense,
        TensorClass.EMBEDDINGS, embeddingParameters() + lmHeadParameters());
  }

  /** Every parameter: blocks, embeddings, final norm, untied LM head (MTP layers excluded). */
  public double totalParameters() {
    return parametersByClass().values().stream().mapToDouble(Double::doubleValue).sum();
  }

  /**
   * Parameters one token uses: everything but the routed experts it is not sent to. Embeddings
   * count in full, as published active counts do.
   */
  public double activeParameters() {
    double unused = 0;
    for (Map.Entry<Layer, Integer> e : layerGroups().entrySet()) {
      Optional<Ffn> f = e.getKey().ffn();
      if (f.isPresent() && f.get().isMoe()) {
        unused +=
            e.getValue()
                * (f.get().experts() - f.get().topK())
                * f.get().expertParameters(hiddenSize());
      }
    }
    return totalParameters() - unused;
  }

  /** Bytes of every weight at a single precision. */
  public Bytes weightBytes(Precision weights) {
    return weights.bytes(totalParameters());
  }

  /** Bytes of every weight, each tensor class at its precision. */
  public Bytes weightBytes(Precisions precisions) {
    double b = 0;
    for (Map.Entry<TensorClass, Double> e : parametersByClass().entrySet()) {
      b += e.getValue() * precisions.weights(e.getKey()).bytesPerElement();
    }
    return Bytes.of(b);
  }

  // ---- caches ----

  /**
   * Bytes per token of the cache that grows with context: full-attention layers' K and V (or MLA
   * latent, plus DSA indexer keys). Sliding-window and linear layers are bounded; see {@link
   * #boundedCacheBytesPerSequence}.
   */
  public Bytes kvBytesPerToken(Precision kv) {
    double e = 0;
    for (Map.Entry<Layer, Integer> g : layerGroups().entrySet()) {
      Optional<Attention> a = g.getKey().attention();
      if (a.isPresent() && a.get().slidingWindow().isEmpty()) {
        e += g.getValue() * (double) a.get().cacheElementsPerToken();
      }
    }
    return kv.bytes(e);
  }

  /**
   * Per-sequence bytes that stop growing: sliding-window layers' caches when full (window tokens),
   * and linear layers' recurrent plus convolution state.
   */
  public Bytes boundedCacheBytesPerSequence(Precision kv) {
    double e = 0;
    double state = 0;
    for (Map.Entry<Layer, Integer> g : layerGroups().entrySet()) {
      Optional<Attention> a = g.getKey().attention();
      if (a.isPresent() && a.get().slidingWindow().isPresent()) {
        e +=
            g.getValue() * (double) a.get().cacheElementsPerToken() * a.get().slidingWindow().get();
      }
      Optional<LinearMixer> l = g.getKey().linear();
      if (l.isPresent()) {
        state += g.getValue() * l.get().stateBytes(kv);
      }
    }
    return kv.bytes(e).plus(Bytes.of(state));
  }

  /**
   * Cache bytes of one sequence at {@code context} tokens on one of {@code tp} tensor-parallel
   * chips: every layer's cache or state, split over min(tp, its shards).
   */
  public Bytes cacheBytesPerSequence(long context, Precision kv, int tp) {
    checkArgument(context > 0, "context must be positive: %s", context);
    checkArgument(tp > 0, "tensor parallel degree must be positive: %s", tp);
    double e = 0;
    double state = 0;
    for (Map.Entry<Layer, Integer> g : layerGroups().entrySet()) {
      Optional<Attention> a = g.getKey().attention();
      if (a.isPresent()) {
        e +=
            g.getValue()
                * (double) a.get().cacheElementsPerToken()
                * a.get().cachedTokens(context)
                / Math.min(tp, a.get().kvShards());
      }
      Optional<LinearMixer> l = g.getKey().linear();
      if (l.isPresent()) {
        state += g.getValue() * l.get().stateBytes(kv) / Math.min(tp, l.get().heads());
      }
    }
    return kv.bytes(e).plus(Bytes.of(state));
  }

  // ---- shape helpers for serving ----

  /** Sub-blocks per forward pass whose outputs a tensor-parallel group all-reduces. */
  public int allReducesPerForward() {
    return layers().stream().mapToInt(Layer::subBlocks).sum();
  }

  /** Whether every layer's heads split evenly over {@code tp} chips. */
  public Optional<String> tensorParallelProblem(int tp) {
    for (Layer l : layerGroups().keySet()) {
      Optional<String> problem =
          l.attention()
              .flatMap(a -> splitProblem(tp, a.heads(), "attention heads"))
              .or(() -> l.linear().flatMap(x -> splitProblem(tp, x.heads(), "linear-mixer heads")));
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  private Optional<String> splitProblem(int tp, int heads, String what) {
    if (heads % tp == 0) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            Locale.ROOT,
            "tensor parallel degree (%d) must divide the %d %s of %s",
            tp,
            heads,
            what,
            id()));
  }

  /**
   * The widest per-token activation of any layer, in elements, on one of {@code tp} chips: the
   * residual stream (2 × hidden) plus the largest mixer projection and FFN inner width (gated FFNs
   * hold gate and up; MoE tokens hold top-k experts' and shared experts' inner widths).
   */
  public double activationElementsPerToken(int tp) {
    double widest = 0;
    for (Layer l : layerGroups().keySet()) {
      double w = 0;
      if (l.attention().isPresent()) {
        Attention a = l.attention().get();
        w += a.queryWidth() + 2.0 * a.kvHeads() * a.headDim() + a.outputWidth();
      }
      if (l.linear().isPresent()) {
        w += l.linear().get().inputProjectionWidth();
      }
      if (l.ffn().isPresent()) {
        Ffn f = l.ffn().get();
        double inner = (f.gated() ? 2.0 : 1.0) * f.innerSize();
        w +=
            f.isMoe()
                ? f.topK() * inner
                    + f.sharedExperts() * (f.gated() ? 2.0 : 1.0) * f.sharedInnerSize()
                : inner;
      }
      widest = Math.max(widest, w);
    }
    return 2.0 * hiddenSize() + widest / tp;
  }

  /** Whether any layer is a mixture of experts. */
  public boolean hasMoe() {
    return layerGroups().keySet().stream().anyMatch(l -> l.ffn().map(Ffn::isMoe).orElse(false));
  }

  // ---- operations ----

  /**
   * The operations of one decode step for {@code batch} sequences that each hold {@code context}
   * tokens in the cache (the new token included), grouped into the phases this model has, in order:
   * {@code decode_attention}, {@code decode_attention_sliding}, {@code decode_linear_attention},
   * {@code decode_projection}, {@code decode_ffn}, {@code decode_moe}, {@code decode_other}.
   *
   * @throws IllegalArgumentException when batch or context is not positive
   */
  public List<Phase> decodeStep(int batch, int context, Precisions precisions) {
    return decodeStep(batch, context, precisions, Routing.uniform());
  }

  /** As {@link #decodeStep(int, int, Precisions)} with the given MoE routing. */
  public List<Phase> decodeStep(int batch, int context, Precisions precisions, Routing routing) {
    return Operations.decode(this, batch, context, precisions, routing, 1);
  }

  /**
   * One decode step where each of {@code batch} sequences (a mean, so it may be fractional)
   * processes {@code tokensPerSequence} query tokens at once, as a speculative-decoding verify pass
   * does: weight GEMMs see {@code batch × tokensPerSequence} tokens while each sequence's cache is
   * read once.
   *
   * @throws IllegalArgumentException when batch, context or tokens per sequence is not positive
   */
  public List<Phase> decodeStep(
      double batch, int context, Precisions precisions, Routing routing, int tokensPerSequence) {
    return Operations.decode(this, batch, context, precisions, routing, tokensPerSequence);
  }

  /**
   * The single phase {@code prefill}: {@code batch} prompts of {@code promptTokens} tokens each,
   * processed in one pass.
   *
   * @throws IllegalArgumentException when batch or prompt length is not positive
   */
  public Phase prefill(int batch, int promptTokens, Precisions precisions) {
    return prefill(batch, promptTokens, precisions, Routing.uniform());
  }

  /** As {@link #prefill(int, int, Precisions)} with the given MoE routing. */
  public Phase prefill(int batch, int promptTokens, Precisions precisions, Routing routing) {
    return Operations.prefill(this, batch, promptTokens, 0, precisions, routing);
  }

  /**
   * Prefill of a mean of {@code prompts} prompts (fractional allowed: the average work of a
   * chunked-prefill step) of {@code promptTokens} tokens each.
   *
   * @throws IllegalArgumentException when prompts or prompt length is not positive
   */
  public Phase prefill(double prompts, int promptTokens, Precisions precisions, Routing routing) {
    return Operations.prefill(this, prompts, promptTokens, 0, precisions, routing);
  }

  /**
   * Prefill of {@code promptTokens} new tokens per prompt appended to {@code cachedTokens} tokens
   * already in each prompt's KV cache (a conversation's history, a prefix-cache hit): the GEMMs see
   * only the new tokens, while attention scores each new token against the cached and the earlier
   * new tokens (token i of the new ones attends over {@code cachedTokens + i}, window and top-k
   * capped) and reads the cached keys and values once per sequence. MLA up-projects the cached
   * latent through its key/value up-projection to attend in expanded form; a linear mixer reads its
   * recurrent state once. {@code cachedTokens} 0 is {@link #prefill(double, int, Precisions,
   * Routing)}.
   *
   * @throws IllegalArgumentException when prompts or prompt length is not positive, or the cached
   *     length is negative
   */
  public Phase prefill(
      double prompts, int promptTokens, int cachedTokens, Precisions precisions, Routing routing) {
    return Operations.prefill(this, prompts, promptTokens, cachedTokens, precisions, routing);
  }

  @Value.Check
  void check() {
    checkArgument(!id().isBlank(), "model id must not be blank");
    checkArgument(
        hiddenSize() > 0, "model %s: hidden_size must be positive: %s", id(), hiddenSize());
    checkArgument(vocabSize() > 0, "model %s: vocab_size must be positive: %s", id(), vocabSize());
    checkArgument(!layers().isEmpty(), "model %s: must have at least one layer", id());
  }

  /** A one-line summary with units. */
  @Override
  public String toString() {
    StringBuilder kinds = new StringBuilder();
    layerGroups()
        .forEach(
            (l, n) ->
                kinds.append(kinds.length() > 0 ? "; " : "").append(n).append("× ").append(l));
    return String.format(
        Locale.ROOT,
        "%s (%s): %.2fB params (%.2fB active), %d layers [%s], hidden %d, vocab %d, KV %s/token at bf16",
        id(),
        modelType(),
        totalParameters() / 1e9,
        activeParameters() / 1e9,
        layerCount(),
        kinds,
        hiddenSize(),
        vocabSize(),
        kvBytesPerToken(Precision.BF16));
  }
}
