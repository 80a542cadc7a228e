package io.ridgeline.models;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Flops;
import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.Phase;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.TensorClass;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * FLOPs and bytes of each operation of a model, summed over the layers of one shape.
 *
 * <p>Conventions (see {@code io.ridgeline.core}): a matrix product of m tokens through a k×n weight
 * costs 2·m·k·n FLOPs, reads the k·n weights once, reads the m·k inputs and writes the m·n outputs.
 * Attention over L tokens costs, per query head, 2·L·d_qk for QKᵀ, 2·L·d_v for PV and 5·L for the
 * softmax (scale, max, exp, sum, divide). Norms cost 4 FLOPs per element and read and write their
 * activations. Identical layers are one operation: the roofline is linear in the layer count, so
 * the sum of per-layer times equals the time of the summed operation.
 *
 * <p>Each weight GEMM runs at {@link Precisions#matmul(TensorClass)} of its tensor class and moves
 * its activations at {@link Precisions#gemmActivations(TensorClass)} (1 B/element into an FP8
 * GEMM); attention, norms and the embedding gather move activations at the activation precision.
 *
 * <p>MLA decode runs absorbed, as serving engines run it: the query's no-rope part is multiplied
 * into the latent space by W_UK and the latent output back by W_UV, so attention reads only the
 * cached latent (kv_lora_rank + rope dims per token) and each score costs 2·(kv_lora + rope) + 2·
 * kv_lora FLOPs per head. MLA prefill runs expanded: K and V are up-projected for every token and
 * attention runs at (nope + rope) / v head dims. DSA decode adds the indexer, which scores every
 * cached token (2·index_head_dim FLOPs per head, plus 2 for the ReLU-weighted sum) and reads its
 * cached keys; attention then runs over min(L, top-k) tokens.
 */
final class Operations {
  private static final double NORM_FLOPS_PER_ELEMENT = 4;
  private static final double SOFTMAX_FLOPS_PER_SCORE = 5;

  /** FLOPs per inner element of the activation (SiLU/GELU ≈ 4, gate product 1). */
  private static final double ACTIVATION_FLOPS_PER_ELEMENT = 5;

  private Operations() {}

  /**
   * The phases of a decode step, in {@link PhaseKind} order, empty ones left out: q query tokens
   * per sequence (speculative verification) make the GEMMs see b·q tokens while attention reads
   * each sequence's cache once for its q queries.
   */
  static List<Phase> decode(
      Model m, double batch, int context, Precisions p, Routing routing, int queries) {
    checkArgument(batch > 0 && Double.isFinite(batch), "batch must be positive: %s", batch);
    checkArgument(context > 0, "context must be positive: %s", context);
    checkArgument(queries > 0, "tokens per sequence must be positive: %s", queries);
    double b = batch;
    double q = queries;
    double tokens = b * q;
    Map<PhaseKind, List<Operation>> phases = new EnumMap<>(PhaseKind.class);
    for (Map.Entry<Layer, Integer> g : m.layerGroups().entrySet()) {
      Layer layer = g.getKey();
      double n = g.getValue();
      if (layer.attention().isPresent()) {
        Attention a = layer.attention().get();
        PhaseKind kind =
            a.slidingWindow().isPresent()
                ? PhaseKind.DECODE_ATTENTION_SLIDING
                : PhaseKind.DECODE_ATTENTION;
        if (a.indexer().isPresent()) {
          add(phases, kind, indexer(a, b, q, context, n, p));
        }
        add(phases, kind, decodeAttention(a, b, q, context, n, p));
        attentionProjections(m, a, tokens, n, p)
            .forEach(o -> add(phases, PhaseKind.DECODE_PROJECTION, o));
      }
      if (layer.linear().isPresent()) {
        LinearMixer l = layer.linear().get();
        add(phases, PhaseKind.DECODE_LINEAR_ATTENTION, linearStep(l, b, q, n, p));
        add(phases, PhaseKind.DECODE_PROJECTION, linearProjection(m, l, tokens, n, p));
      }
      if (layer.ffn().isPresent()) {
        Ffn f = layer.ffn().get();
        if (f.isMoe()) {
          moe(m, f, tokens, n, p, routing).forEach(o -> add(phases, PhaseKind.DECODE_MOE, o));
        } else {
          add(phases, PhaseKind.DECODE_FFN, denseFfn(m, f, tokens, n, p));
        }
      }
    }
    add(phases, PhaseKind.DECODE_OTHER, embedding(m, tokens, p));
    add(phases, PhaseKind.DECODE_OTHER, norms(m, tokens, p));
    add(phases, PhaseKind.DECODE_OTHER, lmHead(m, tokens, p));
    List<Phase> out = new ArrayList<>();
    phases.forEach((kind, ops) -> out.add(Phase.of(kind, ops)));
    return out;
  }

  private static void add(Map<PhaseKind, List<Operation>> phases, PhaseKind kind, Operation op) {
    phases.computeIfAbsent(kind, k -> new ArrayList<>()).add(op);
  }

  static Phase prefill(
      Model m, double batch, int promptTokens, int cached, Precisions p, Routing routing) {
    checkArgument(batch > 0 && Double.isFinite(batch), "batch must be positive: %s", batch);
    checkArgument(promptTokens > 0, "prompt tokens must be positive: %s", promptTokens);
    checkArgument(cached >= 0, "cached tokens must be non-negative: %s", cached);
    double b = batch;
    double t = b * promptTokens;
    List<Operation> ops = new ArrayList<>();
    ops.add(embedding(m, t, p));
    for (Map.Entry<Layer, Integer> g : m.layerGroups().entrySet()) {
      Layer layer = g.getKey();
      double n = g.getValue();
      if (layer.attention().isPresent()) {
        Attention a = layer.attention().get();
        ops.addAll(attentionProjections(m, a, t, n, p));
        if (a.indexer().isPresent()) {
          ops.add(prefillIndexer(a, b, promptTokens, cached, n, p));
        }
        ops.add(prefillAttention(a, b, promptTokens, cached, n, p));
      }
      if (layer.linear().isPresent()) {
        LinearMixer l = layer.linear().get();
        ops.add(linearProjection(m, l, t, n, p));
        ops.add(prefillLinear(l, b, promptTokens, cached, n, p));
      }
      if (layer.ffn().isPresent()) {
        Ffn f = layer.ffn().get();
        if (f.isMoe()) {
          ops.addAll(moe(m, f, t, n, p, routing));
        } else {
          ops.add(denseFfn(m, f, t, n, p));
        }
      }
    }
    ops.add(norms(m, t, p));
    // engines compute logits only for the last position of each prompt: B rows through the LM head
    ops.add(lmHead(m, b, p));
    return Phase.of(PhaseKind.PREFILL, ops);
  }

  // ---- attention ----

  /** Decode attention over the cache of one layer shape (n layers). */
  private static Operation decodeAttention(
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
  private static Operation indexer(
      Attention a, double b, double q, long context, double n, Precisions p) {
    Attention.Indexer ix = a.indexer().get();
    double scores = b * q * ix.heads() * (double) context * n;
    return op("indexer", OperationRole.INDEXER, p.attention())
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
  private static Operation prefillAttention(
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
  private static Operation prefillIndexer(
      Attention a, double b, long prompt, long cached, double n, Precisions p) {
    Attention.Indexer ix = a.indexer().get();
    double scores = b * causalPairs(prompt, cached, cached + prompt) * ix.heads() * n;
    return op("indexer", OperationRole.INDEXER, p.attention())
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
  private static List<Operation> attentionProjections(
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
          depths(
              projection(
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
        depths(
            projection(
                "qkv_proj", OperationRole.ATTENTION_PROJECTION, qkv, tokens, h + q + kv, n, p),
            new double[] {1.0 / h, 0}),
        depths(
            projection(
                "o_proj", OperationRole.ATTENTION_PROJECTION, o, tokens, a.outputWidth() + h, n, p),
            new double[] {0, 1.0 / a.outputWidth()}));
  }

  // ---- linear mixers ----

  private static Operation linearProjection(
      Model m, LinearMixer l, double tokens, double n, Precisions p) {
    double params = l.parameters(m.hiddenSize());
    double width = 2.0 * m.hiddenSize() + l.inputProjectionWidth() + l.innerWidth();
    // the input projection reduces over the hidden size, the output projection over the inner width
    double in = (double) l.inputProjectionWidth();
    double out = (double) l.innerWidth();
    return depths(
        projection("linear_proj", OperationRole.LINEAR_PROJECTION, params, tokens, width, n, p),
        new double[] {in / (in + out) / m.hiddenSize(), out / (in + out) / l.innerWidth()});
  }

  /** One token's recurrent update per sequence: the state is read and written whole. */
  private static Operation linearStep(LinearMixer l, double b, double q, double n, Precisions p) {
    Bytes state = Bytes.of(b * l.stateBytes(p.kvCache()) * n);
    return op("linear_state", OperationRole.LINEAR_STATE, p.attention())
        .flops(Flops.of(b * q * l.stepFlopsPerToken() * n))
        .putBytes(DataKind.KV_READ, state)
        .putBytes(DataKind.KV_WRITE, state)
        .putBytes(
            DataKind.ACTIVATIONS,
            p.activations().bytes(b * q * (l.convChannels() + l.innerWidth()) * n))
        .kvShards(l.heads())
        .build();
  }

  /**
   * Chunked prefill of a linear mixer (SSD / chunked delta rule): per token and head, intra-chunk
   * attention of 2·chunk·(key dim + value dim) FLOPs plus the inter-chunk state terms of 4·key ×
   * value dims; the state is written once per sequence, and read once when a cached history left
   * one.
   */
  private static Operation prefillLinear(
      LinearMixer l, double b, long prompt, long cached, double n, Precisions p) {
    double tokens = b * prompt;
    double perToken =
        l.heads()
                * (2.0 * l.chunkSize() * (l.keyHeadDim() + l.valueHeadDim())
                    + 4.0 * l.keyHeadDim() * l.valueHeadDim())
            + 2.0 * l.convKernel() * l.convChannels();
    Bytes state = Bytes.of(b * l.stateBytes(p.kvCache()) * n);
    Operation.Builder o = op("linear_state", OperationRole.LINEAR_STATE, p.attention());
    if (cached > 0) {
      o.putBytes(DataKind.KV_READ, state);
    }
    return o.flops(Flops.of(tokens * perToken * n))
        .putBytes(DataKind.KV_WRITE, state)
        .putBytes(
            DataKind.ACTIVATIONS,
            p.activations().bytes(tokens * (l.convChannels() + l.innerWidth()) * n))
        .kvShards(l.heads())
        .build();
  }

  // ---- FFN ----

  private static Operation denseFfn(Model m, Ffn f, double tokens, double n, Precisions p) {
    double params = f.expertParameters(m.hiddenSize());
    double inner = f.innerSize();
    double act = tokens * (2.0 * m.hiddenSize() + (f.gated() ? 3.0 : 2.0) * inner);
    double[] d = ffnDepths(m.hiddenSize(), inner, f.gated());
    return op("ffn", OperationRole.DENSE_FFN, p.matmul(TensorClass.DENSE_FFN))
        .inverseDepth(d[0])
        .inverseSplitDepth(d[1])
        .flops(
            Flops.of((2.0 * tokens * params + ACTIVATION_FLOPS_PER_ELEMENT * tokens * inner) * n))
        .putBytes(DataKind.WEIGHTS, p.weights(TensorClass.DENSE_FFN).bytes(params * n))
        .putBytes(DataKind.ACTIVATIONS, p.gemmActivations(TensorClass.DENSE_FFN).bytes(act * n))
        .build();
  }

  /**
   * A MoE block for {@code tokens} tokens: the router, the routed experts (FLOPs for k experts per
   * token; weights for the expected number of distinct experts the tokens touch) and the shared
   * experts.
   */
  private static List<Operation> moe(
      Model m, Ffn f, double tokens, double n, Precisions p, Routing routing) {
    int h = m.hiddenSize();
    List<Operation> ops = new ArrayList<>();
    ops.add(
        op("router", OperationRole.ROUTER, p.matmul(TensorClass.DENSE_FFN))
            .inverseDepth(1.0 / h)
            .flops(Flops.of(2.0 * tokens * f.routerParameters(h) * n))
            .putBytes(
                DataKind.WEIGHTS, p.weights(TensorClass.DENSE_FFN).bytes(f.routerParameters(h) * n))
            .putBytes(
                DataKind.ACTIVATIONS,
                p.gemmActivations(TensorClass.DENSE_FFN)
                    .bytes(tokens * ((double) h + f.experts()) * n))
            .build());
    double expert = f.expertParameters(h);
    double distinct = routing.expectedDistinctExperts(f.experts(), f.topK(), tokens);
    double routed = tokens * f.topK();
    double inner = f.innerSize();
    double[] d = ffnDepths(h, inner, f.gated());
    ops.add(
        op("experts", OperationRole.ROUTED_EXPERTS, p.matmul(TensorClass.EXPERTS))
            .inverseDepth(d[0])
            .inverseSplitDepth(d[1])
            .flops(
                Flops.of(
                    (2.0 * routed * expert + ACTIVATION_FLOPS_PER_ELEMENT * routed * inner) * n))
            .putBytes(DataKind.WEIGHTS, p.weights(TensorClass.EXPERTS).bytes(distinct * expert * n))
            .putBytes(
                DataKind.ACTIVATIONS,
                p.gemmActivations(TensorClass.EXPERTS)
                    .bytes(routed * (2.0 * h + (f.gated() ? 3.0 : 2.0) * inner) * n))
            .build());
    if (f.sharedExperts() > 0) {
      double shared = f.sharedParameters(h);
      double sharedInner = (double) f.sharedExperts() * f.sharedInnerSize();
      double[] ds = ffnDepths(h, sharedInner, f.gated());
      ops.add(
          op("shared_experts", OperationRole.SHARED_EXPERTS, p.matmul(TensorClass.DENSE_FFN))
              .inverseDepth(ds[0])
              .inverseSplitDepth(ds[1])
              .flops(
                  Flops.of(
                      (2.0 * tokens * shared + ACTIVATION_FLOPS_PER_ELEMENT * tokens * sharedInner)
                          * n))
              .putBytes(DataKind.WEIGHTS, p.weights(TensorClass.DENSE_FFN).bytes(shared * n))
              .putBytes(
                  DataKind.ACTIVATIONS,
                  p.gemmActivations(TensorClass.DENSE_FFN)
                      .bytes(tokens * (2.0 * h + (f.gated() ? 3.0 : 2.0) * sharedInner) * n))
              .build());
    }
    return ops;
  }

  // ---- GEMM reduction depths (Operation#inverseDepth, #inverseSplitDepth) ----

  /** {@code op} with the reduction depths {@code d = {inverse depth, inverse split depth}}. */
  private static Operation depths(Operation op, double[] d) {
    return Operation.builder().from(op).inverseDepth(d[0]).inverseSplitDepth(d[1]).build();
  }

  /**
   * An FFN's (or expert's) reduction depths: the gate and up projections (two of a gated FFN's
   * three matrices, one of a plain FFN's two) reduce over the hidden size {@code h}
   * (column-parallel), the down projection over the inner size (row-parallel); each matrix holds
   * the same h × inner weights, so each carries its share of the FLOPs.
   */
  static double[] ffnDepths(double h, double inner, boolean gated) {
    double matrices = gated ? 3 : 2;
    return new double[] {(matrices - 1) / matrices / h, 1 / matrices / inner};
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
        (qa + kva) / h
            + qb / (mla.qLoraRank() > 0 ? mla.qLoraRank() : h)
            + kvb / mla.kvLoraRank();
    return new double[] {column / sum, o / (heads * mla.vHeadDim()) / sum};
  }

  // ---- embeddings, norms, head ----

  /**
   * A projection of the attention block or a linear mixer (attention tensor class): a {@code
   * tokens} × in → out GEMM over {@code params} weights, in n layers.
   */
  private static Operation projection(
      String name,
      OperationRole role,
      double params,
      double tokens,
      double ioWidth,
      double n,
      Precisions p) {
    TensorClass tensors = TensorClass.ATTENTION;
    return op(name, role, p.matmul(tensors))
        .flops(Flops.of(2.0 * tokens * params * n))
        .putBytes(DataKind.WEIGHTS, p.weights(tensors).bytes(params * n))
        .putBytes(DataKind.ACTIVATIONS, p.gemmActivations(tensors).bytes(tokens * ioWidth * n))
        .build();
  }

  /** Gathers one embedding row per token: no FLOPs, rows read, activations written. */
  private static Operation embedding(Model m, double tokens, Precisions p) {
    double rows = Math.min(tokens, m.vocabSize());
    return op("embedding", OperationRole.EMBEDDING, p.activations())
        .flops(Flops.ZERO)
        .putBytes(DataKind.WEIGHTS, p.weights(TensorClass.EMBEDDINGS).bytes(rows * m.hiddenSize()))
        .putBytes(DataKind.ACTIVATIONS, p.activations().bytes(tokens * m.hiddenSize()))
        .build();
  }

  /** Every norm of the forward pass (pre-/post-norms of each layer, final and embedding norm). */
  private static Operation norms(Model m, double tokens, Precisions p) {
    double count = 1 + (m.embeddingNorm() ? 1 : 0);
    for (Map.Entry<Layer, Integer> g : m.layerGroups().entrySet()) {
      count += (double) g.getKey().norms() * g.getValue();
    }
    double width = m.normKind() == Model.NormKind.LAYER ? 2.0 * m.hiddenSize() : m.hiddenSize();
    double elements = tokens * m.hiddenSize() * count;
    return op("norms", OperationRole.NORM, p.activations())
        .flops(Flops.of(NORM_FLOPS_PER_ELEMENT * elements))
        .putBytes(DataKind.WEIGHTS, p.weights(TensorClass.ATTENTION).bytes(width * count))
        .putBytes(DataKind.ACTIVATIONS, p.activations().bytes(2.0 * elements))
        .build();
  }

  /** Logits for {@code rows} positions: vocab × hidden weights (the embedding table when tied). */
  private static Operation lmHead(Model m, double rows, Precisions p) {
    double params = (double) m.vocabSize() * m.hiddenSize();
    return op("lm_head", OperationRole.LM_HEAD, p.matmul(TensorClass.EMBEDDINGS))
        .inverseDepth(1.0 / m.hiddenSize())
        .flops(Flops.of(2.0 * rows * params))
        .putBytes(DataKind.WEIGHTS, p.weights(TensorClass.EMBEDDINGS).bytes(params))
        .putBytes(
            DataKind.ACTIVATIONS,
            p.gemmActivations(TensorClass.EMBEDDINGS)
                .bytes(rows * ((double) m.hiddenSize() + m.vocabSize())))
        .build();
  }

  private static Operation.Builder op(String name, OperationRole role, Precision precision) {
    return Operation.builder().name(name).role(role).precision(precision);
  }

  /**
   * Attention of a layer shape: {@code attention_sliding} for a sliding window, else {@code
   * attention}.
   */
  private static Operation.Builder attentionOp(Attention a, Precisions p) {
    String name = a.slidingWindow().isPresent() ? "attention_sliding" : "attention";
    return op(name, OperationRole.ATTENTION, p.attention());
  }
}
