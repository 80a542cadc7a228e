package io.ridgeline.models;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.RidgelineStyle;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * One softmax-attention block: MHA/GQA/MQA, optionally sliding-window, gated (Qwen3-Next), latent
 * (MLA: DeepSeek, Kimi) and sparse (DeepSeek-V3.2 DSA).
 *
 * <p>Parameter counts are elements (weights + biases + norm weights).
 */
@Value.Immutable
@RidgelineStyle
public abstract class Attention {
  Attention() {} // subclassed only by the generated implementation

  /** Query heads. */
  public abstract int heads();

  /** Key/value heads (ignored by MLA, whose latent cache all heads share). */
  public abstract int kvHeads();

  /** Query/key head dimension (for MLA: nope + rope). */
  public abstract int headDim();

  /** Value head dimension; {@link #headDim()} unless set. */
  @Value.Default
  public int valueHeadDim() {
    return headDim();
  }

  /** Tokens a query sees when the layer is sliding-window; empty for full attention. */
  public abstract Optional<Integer> slidingWindow();

  /** Whether Q/K/V carry biases. */
  @Value.Default
  public boolean qkvBias() {
    return false;
  }

  /** Whether the output projection carries a bias. */
  @Value.Default
  public boolean outputBias() {
    return false;
  }

  /** Whether Q and K are normalised per head (Qwen3, Gemma-3, Qwen3-Next). */
  @Value.Default
  public boolean qkNorm() {
    return false;
  }

  /** Whether the query projection also produces a sigmoid output gate (Qwen3-Next). */
  @Value.Default
  public boolean outputGate() {
    return false;
  }

  /** gpt-oss attention sinks: one learned logit per head. */
  @Value.Default
  public boolean sinks() {
    return false;
  }

  /** Multi-head latent attention ranks, for MLA layers. */
  public abstract Optional<Mla> mla();

  /** DeepSeek sparse attention indexer, for DSA layers. */
  public abstract Optional<Indexer> indexer();

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds an {@link Attention}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableAttention.Builder {
    Builder() {}
  }

  /** Multi-head latent attention (DeepSeek-V2/V3): low-rank Q and a shared latent KV cache. */
  @Value.Immutable
  @RidgelineStyle
  public abstract static class Mla {
    Mla() {} // subclassed only by the generated implementation

    /** Query compression rank; 0 when Q is projected directly (DeepSeek-V2-Lite). */
    public abstract int qLoraRank();

    /** KV latent rank: the cached latent per token per layer. */
    public abstract int kvLoraRank();

    /** Per-head Q/K dimension without rotary embedding. */
    public abstract int qkNopeHeadDim();

    /** Per-head rotary Q/K dimension; the rotary key is cached once per token, shared by heads. */
    public abstract int qkRopeHeadDim();

    /** Per-head value dimension. */
    public abstract int vHeadDim();

    /** A new builder. */
    public static Builder builder() {
      return new Builder();
    }

    /** Builds a {@link Mla}: one setter per attribute, then {@code build()}. */
    public static final class Builder extends ImmutableMla.Builder {
      Builder() {}
    }
  }

  /**
   * DeepSeek-V3.2 sparse attention: a lightweight indexer ({@code heads × headDim}) scores every
   * cached token; attention then runs over the {@code topK} best.
   */
  @Value.Immutable
  @RidgelineStyle
  public abstract static class Indexer {
    Indexer() {} // subclassed only by the generated implementation

    /** Tokens attention keeps per query ({@code index_topk}). */
    public abstract int topK();

    /** Indexer heads ({@code index_n_heads}). */
    public abstract int heads();

    /**
     * Indexer head dimension ({@code index_head_dim}); one key of this size is cached per token.
     */
    public abstract int headDim();

    /** A new builder. */
    public static Builder builder() {
      return new Builder();
    }

    /** Builds an {@link Indexer}: one setter per attribute, then {@code build()}. */
    public static final class Builder extends ImmutableIndexer.Builder {
      Builder() {}
    }
  }

  /**
   * Query width: heads × head dim. A {@code long}: each factor is at most 2^16 and 2^14, so the
   * width fits an {@code int} but the sum of the query and output widths may not.
   */
  public long queryWidth() {
    return (long) heads() * headDim();
  }

  /** Value/output width: heads × value head dim (a {@code long}, as {@link #queryWidth()}). */
  public long outputWidth() {
    return (long) heads() * valueHeadDim();
  }

  /** Tokens attended at {@code context} cached tokens: the window caps it, DSA caps it at top-k. */
  public long attendedTokens(long context) {
    long n = context;
    if (slidingWindow().isPresent()) {
      n = Math.min(n, slidingWindow().get());
    }
    if (indexer().isPresent()) {
      n = Math.min(n, indexer().get().topK());
    }
    return n;
  }

  /** Tokens held in the cache at {@code context}: the window caps it; DSA keeps every token. */
  public long cachedTokens(long context) {
    return slidingWindow().isPresent() ? Math.min(context, slidingWindow().get()) : context;
  }

  /**
   * Cache elements per token: 2 × KV heads × head dim (K and V) for standard attention; the latent
   * plus the shared rotary key ({@code kv_lora_rank + qk_rope_head_dim}) for MLA; plus the indexer
   * key for DSA.
   */
  public long cacheElementsPerToken() {
    long e =
        mla().isPresent()
            ? (long) mla().get().kvLoraRank() + mla().get().qkRopeHeadDim()
            : 2L * kvHeads() * headDim();
    return e + indexer().map(Indexer::headDim).orElse(0);
  }

  /**
   * The most ways the cache splits over tensor-parallel chips: KV heads, or 1 for a shared latent.
   */
  public int kvShards() {
    return mla().isPresent() ? 1 : kvHeads();
  }

  /** Parameters of the block's projections, biases and norms (the pre-norm excluded). */
  public double parameters(int hidden) {
    double h = hidden;
    double p;
    if (mla().isPresent()) {
      Mla m = mla().get();
      double qk = m.qkNopeHeadDim() + m.qkRopeHeadDim();
      // q: hidden → q_lora (+ norm) → heads × (nope + rope), or hidden → heads × (nope + rope)
      p =
          m.qLoraRank() > 0
              ? h * m.qLoraRank() + m.qLoraRank() + (double) m.qLoraRank() * heads() * qk
              : h * heads() * qk;
      // kv_a: hidden → kv_lora + rope (+ norm on kv_lora); kv_b: kv_lora → heads × (nope + v)
      p += h * (m.kvLoraRank() + m.qkRopeHeadDim()) + m.kvLoraRank();
      p += (double) m.kvLoraRank() * heads() * (m.qkNopeHeadDim() + m.vHeadDim());
      // o: heads × v → hidden
      p += (double) heads() * m.vHeadDim() * h;
    } else {
      double q = (outputGate() ? 2.0 : 1.0) * queryWidth();
      double kv = 2.0 * kvHeads() * headDim();
      p = h * (q + kv) + (qkvBias() ? queryWidth() + kv : 0);
      p += (double) outputWidth() * h;
      p += qkNorm() ? 2.0 * headDim() : 0;
    }
    p += outputBias() ? h : 0;
    p += sinks() ? heads() : 0;
    if (indexer().isPresent()) {
      Indexer ix = indexer().get();
      double qIn = mla().map(m -> m.qLoraRank() > 0 ? (double) m.qLoraRank() : h).orElse(h);
      // wq_b: q_lora → heads × dim; wk: hidden → dim (+ LayerNorm weight and bias); weights_proj:
      // hidden → heads
      p += qIn * ix.heads() * ix.headDim() + h * ix.headDim() + 2.0 * ix.headDim() + h * ix.heads();
    }
    return p;
  }

  @Value.Check
  void check() {
    checkArgument(heads() > 0, "attention heads must be positive: %s", heads());
    checkArgument(kvHeads() > 0, "attention kv heads must be positive: %s", kvHeads());
    checkArgument(headDim() > 0, "attention head dim must be positive: %s", headDim());
    checkArgument(
        valueHeadDim() > 0, "attention value head dim must be positive: %s", valueHeadDim());
    checkArgument(
        mla().isPresent() || heads() % kvHeads() == 0,
        "attention heads (%s) must be a multiple of kv heads (%s)",
        heads(),
        kvHeads());
    slidingWindow().ifPresent(w -> checkArgument(w > 0, "sliding window must be positive: %s", w));
    checkArgument(
        indexer().isEmpty() || mla().isPresent(),
        "a sparse-attention indexer (DSA) is modelled on MLA layers only");
  }

  /** A short description such as {@code "gqa 64/8×128, window 128"}. */
  @Override
  public String toString() {
    String kind =
        mla().isPresent()
            ? (indexer().isPresent() ? "mla+dsa" : "mla")
            : kvHeads() == heads() ? "mha" : kvHeads() == 1 ? "mqa" : "gqa";
    return kind
        + " "
        + heads()
        + "/"
        + kvHeads()
        + "×"
        + headDim()
        + slidingWindow().map(w -> ", window " + w).orElse("")
        + (outputGate() ? ", gated" : "");
  }
}
