package io.ridgeline.models;

import io.ridgeline.core.DataKind;
import io.ridgeline.core.Flops;
import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import java.util.List;

/**
 * The attention operations of {@link Operations}: attention over the KV cache, the DSA indexer and
 * the attention block's projections, standard or MLA.
 *
 * <p>Attention over L tokens costs, per query head, 2·L·d_qk for QKᵀ, 2·L·d_v for PV and 5·L for
 * the softmax (scale, max, exp, sum, divide).
 *
 * <p>MLA decode runs absorbed, as serving engines run it: the query's no-rope part is multiplied
 * into the latent space by W_UK and the latent output back by W_UV, so attention reads only the
 * cached latent (kv_lora_rank + rope dims per token) and each score costs 2·(kv_lora + rope) + 2·
 * kv_lora FLOPs per head. MLA prefill runs expanded: K and V are up-projected for every token and
 * attention runs at (nope + rope) / v head dims. DSA decode adds the indexer, which scores every
 * cached token (2·index_head_dim FLOPs per head, plus 2 for the ReLU-weighted sum) and reads its
 * cached keys; attention then runs over min(L, top-k) tokens.
 */
final class AttentionOperations {
  private static final double SOFTMAX_FLOPS_PER_SCORE = 5;

  private AttentionOperations() {}

  /** Decode attention over the cache of one layer shape (n layers). */
  static Operation decodeAttention(
      Attention a, double b, double q, long context, double n, Precisions p) {
    double attended = a.attendedTokens(context);
    double scores = b * q * a.heads() * attended * n;
    Precision kv = p.kvCache();
    double flops;
    double latentRead;
    double act;
    if (a.mla().isPresent()) {
      Attention.Mla mla = a.mla().get();
      // absorbed: scores against latent + rope key; output accumulated in the latent space
      flops = scores * (2.0 * (mla.kvLoraRank() + mla.qkRopeHeadDim()) + 2.0 * mla.kvLoraRank());
      latentRead = mla.kvLoraRank() + mla.qkRopeHeadDim();
      act = b * q * a.heads() * (2.0 * mla.kvLoraRank() + mla.qkRopeHeadDim()) * n;
    } else {
      flops = scores * (2.0 * a.headDim() + 2.0 * a.valueHeadDim());
      latentRead = 2.0 * a.kvHeads() * a.headDim();
      act = b * q * (a.queryWidth() + a.outputWidth()) * n;
    }
    return attentionOp(a, p)
        .flops(Flops.of(flops + SOFTMAX_FLOPS_PER_SCORE * scores))
        .putBytes(DataKind.KV_READ, kv.bytes(b * attended * latentRead * n))
        .putBytes(DataKind.KV_WRITE, kv.bytes(b * q * a.cacheElementsPerToken() * n))
        .putBytes(DataKind.ACTIVATIONS, p.activations().bytes(act))
        .kvShards(a.kvShards())
        .build();
  }

  /** DSA indexer at decode: scores every cached token with its cached key. */
  static Operation indexer(Attention a, double b, double q, long context, double n, Precisions p) {
    Attention.Indexer ix = a.indexer().get();
    double scores = b * q * ix.heads() * (double) context * n;
    return Operations.op("indexer", OperationRole.INDEXER, p.attention())
        .flops(Flops.of(scores * (2.0 * ix.headDim() + 2)))
        .putBytes(DataKind.KV_READ, p.kvCache().bytes(b * context * ix.headDim() * n))
        .putBytes(
            DataKind.ACTIVATIONS,
            p.activations().bytes(b * q * ix.heads() * (ix.headDim() + 1.0) * n))
        .kvShards(1)
        .build();
  }

  /** Query-key pairs of a causal prompt of P tokens with an optional window: Σ_i min(i, w). */
  static double causalPairs(long prompt, long window) {
    long w = Math.min(prompt, window);
    // the first w tokens see 1..w tokens; each later one sees w
    return w * (w + 1.0) / 2.0 + (double) (prompt - w) * w;
  }

  /**
   * Query-key pairs of P new tokens after C cached ones, window w: new token i (1..P) attends over
   * min(C + i, w) tokens, so the pairs are Σ_{j=C+1..C+P} min(j, w) = causalPairs(C + P, w) −
   * causalPairs(C, w).
   */
  static double causalPairs(long prompt, long cached, long window) {
    return causalPairs(cached + prompt, window) - causalPairs(cached, window);
  }

  /**
   * Prefill attention (expanded MLA) of {@code prompt} new tokens after {@code cached} cached ones:
   * the causal pairs ({@link #causalPairs(long, long, long)}), window and top-k capped. Flash
   * attention reads the keys and values it attends over once per sequence (tile reuse): the new
   * tokens' and the cached ones within reach, min(C + P, w + P) tokens; MLA reads the cached latent
   * and up-projects it (W_UK and W_UV, 2·kv_lora·heads·(nope + v) FLOPs per cached token).
   */
  static Operation prefillAttention(
      Attention a, double b, long prompt, long cached, double n, Precisions p) {
    long cap =
        Math.min(
            a.slidingWindow().map(Integer::longValue).orElse(Long.MAX_VALUE),
            a.indexer().map(ix -> (long) ix.topK()).orElse(Long.MAX_VALUE));
    double pairs = b * causalPairs(prompt, cached, cap);
    double scores = pairs * a.heads() * n;
    double qk =
        a.mla()
            .map(m -> (double) m.qkNopeHeadDim() + m.qkRopeHeadDim())
            .orElse((double) a.headDim());
    double v = a.mla().map(m -> (double) m.vHeadDim()).orElse((double) a.valueHeadDim());
    double tokens = b * prompt;
    // flash attention: the layer's cache is written once and read once per sequence (tile reuse)
    double cache = tokens * a.cacheElementsPerToken() * n;
    // the cached tokens within reach of the new ones (a window reaches w back from each)
    double reach = Math.min((double) cached, a.slidingWindow().map(w -> (double) w).orElse(1e18));
    double cachedRead = b * reach * a.cacheElementsPerToken() * n;
    double upProjection =
        a.mla()
            .map(
                m ->
                    2.0
                        * b
                        * reach
                        * m.kvLoraRank()
                        * a.heads()
                        * (m.qkNopeHeadDim() + m.vHeadDim())
                        * n)
            .orElse(0.0);
    return attentionOp(a, p)
        .flops(
            Flops.of(scores * (2 * qk + 2 * v) + SOFTMAX_FLOPS_PER_SCORE * scores + upProjection))
        .putBytes(DataKind.KV_WRITE, p.kvCache().bytes(cache))
        .putBytes(DataKind.KV_READ, p.kvCache().bytes(cache + cachedRead))
        .putBytes(
            DataKind.ACTIVATIONS, p.activations().bytes(tokens * a.heads() * (2 * qk + 2 * v) * n))
        .kvShards(a.kvShards())
        .build();
  }

  /** DSA indexer at prefill: every causal pair scored, cached keys included. */
  static Operation prefillIndexer(
      Attention a, double b, long prompt, long cached, double n, Precisions p) {
    Attention.Indexer ix = a.indexer().get();
    double scores = b * causalPairs(prompt, cached, cached + prompt) * ix.heads() * n;
    return Operations.op("indexer", OperationRole.INDEXER, p.attention())
        .flops(Flops.of(scores * (2.0 * ix.headDim() + 2)))
        .putBytes(DataKind.KV_READ, p.kvCache().bytes(b * (cached + prompt) * ix.headDim() * n))
        .putBytes(
            DataKind.ACTIVATIONS,
            p.activations().bytes(b * prompt * ix.heads() * (ix.headDim() + 1.0) * n))
        .kvShards(1)
        .build();
  }

  /**
   * The attention block's projections for {@code tokens} tokens: QKV and O for standard attention
   * (biases add one FLOP per output), all of MLA's projections (absorbed or expanded, each weight
   * is used once per token: 2 FLOPs per weight per token) and the DSA indexer's.
   */
  static List<Operation> attentionProjections(
      Model m, Attention a, double tokens, double n, Precisions p) {
    int h = m.hiddenSize();
    if (a.mla().isPresent() || a.indexer().isPresent()) {
      double params = a.parameters(h);
      Attention.Mla mla = a.mla().orElseThrow();
      double width =
          h
              + mla.kvLoraRank()
              + a.heads() * (2.0 * (mla.qkNopeHeadDim() + mla.qkRopeHeadDim()) + mla.vHeadDim());
      return List.of(
          Operations.depths(
              Operations.projection(
                  "mla_proj", OperationRole.ATTENTION_PROJECTION, params, tokens, width, n, p),
              mlaDepths(h, a, mla)));
    }
    double q = (a.outputGate() ? 2.0 : 1.0) * a.queryWidth();
    double kv = 2.0 * a.kvHeads() * a.headDim();
    double qkv =
        h * (q + kv)
            + (a.qkvBias() ? a.queryWidth() + kv : 0)
            + (a.qkNorm() ? 2.0 * a.headDim() : 0);
    double o =
        (double) a.outputWidth() * h + (a.outputBias() ? h : 0) + (a.sinks() ? a.heads() : 0);
    // QKV reduces over the hidden size (column-parallel), O over the heads' output (row-parallel)
    return List.of(
        Operations.depths(
            Operations.projection(
                "qkv_proj", OperationRole.ATTENTION_PROJECTION, qkv, tokens, h + q + kv, n, p),
            new double[] {1.0 / h, 0}),
        Operations.depths(
            Operations.projection(
                "o_proj",
                OperationRole.ATTENTION_PROJECTION,
                o,
                tokens,
                (double) a.outputWidth() + h,
                n,
                p),
            new double[] {0, 1.0 / a.outputWidth()}));
  }

  /**
   * MLA's reduction depths, FLOP-weighted over its projections (each weight used once per token):
   * the query down-projection (or the direct query projection without a query LoRA) and the joint
   * KV down-projection reduce over the hidden size, the query and KV up-projections over their LoRA
   * ranks (column-parallel over heads), and the output projection over the heads' value outputs
   * (row-parallel). The DSA indexer's small projections are left out of the weighting.
   */
  static double[] mlaDepths(double h, Attention a, Attention.Mla mla) {
    double heads = a.heads();
    double qk = mla.qkNopeHeadDim() + mla.qkRopeHeadDim();
    double qa = mla.qLoraRank() > 0 ? h * mla.qLoraRank() : 0;
    double qb = (mla.qLoraRank() > 0 ? mla.qLoraRank() : h) * heads * qk;
    double kva = h * (mla.kvLoraRank() + mla.qkRopeHeadDim());
    double kvb = (double) mla.kvLoraRank() * heads * (mla.qkNopeHeadDim() + mla.vHeadDim());
    double o = heads * mla.vHeadDim() * h;
    double sum = qa + qb + kva + kvb + o;
    double column =
        (qa + kva) / h + qb / (mla.qLoraRank() > 0 ? mla.qLoraRank() : h) + kvb / mla.kvLoraRank();
    return new double[] {column / sum, o / (heads * mla.vHeadDim()) / sum};
  }

  /**
   * Attention of a layer shape: {@code attention_sliding} for a sliding window, else {@code
   * attention}.
   */
  private static Operation.Builder attentionOp(Attention a, Precisions p) {
    String name = a.slidingWindow().isPresent() ? "attention_sliding" : "attention";
    return Operations.op(name, OperationRole.ATTENTION, p.attention());
  }
}
