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
 * Norms cost 4 FLOPs per element and read and write their activations. Identical layers are one
 * operation: the roofline is linear in the layer count, so the sum of per-layer times equals the
 * time of the summed operation.
 *
 * <p>Each weight GEMM runs at {@link Precisions#matmul(TensorClass)} of its tensor class and moves
 * its activations at {@link Precisions#gemmActivations(TensorClass)} (1 B/element into an FP8
 * GEMM); attention, norms and the embedding gather move activations at the activation precision.
 *
 * <p>Attention, the DSA indexer and MLA are built by {@link AttentionOperations}, dense FFNs and
 * MoE blocks by {@link FfnOperations}; linear mixers, embeddings, norms and the LM head here.
 */
final class Operations {
  private static final double NORM_FLOPS_PER_ELEMENT = 4;

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
          add(phases, kind, AttentionOperations.indexer(a, b, q, context, n, p));
        }
        add(phases, kind, AttentionOperations.decodeAttention(a, b, q, context, n, p));
        AttentionOperations.attentionProjections(m, a, tokens, n, p)
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
          FfnOperations.moe(m, f, tokens, n, p, routing)
              .forEach(o -> add(phases, PhaseKind.DECODE_MOE, o));
        } else {
          add(phases, PhaseKind.DECODE_FFN, FfnOperations.denseFfn(m, f, tokens, n, p));
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
        ops.addAll(AttentionOperations.attentionProjections(m, a, t, n, p));
        if (a.indexer().isPresent()) {
          ops.add(AttentionOperations.prefillIndexer(a, b, promptTokens, cached, n, p));
        }
        ops.add(AttentionOperations.prefillAttention(a, b, promptTokens, cached, n, p));
      }
      if (layer.linear().isPresent()) {
        LinearMixer l = layer.linear().get();
        ops.add(linearProjection(m, l, t, n, p));
        ops.add(prefillLinear(l, b, promptTokens, cached, n, p));
      }
      if (layer.ffn().isPresent()) {
        Ffn f = layer.ffn().get();
        if (f.isMoe()) {
          ops.addAll(FfnOperations.moe(m, f, t, n, p, routing));
        } else {
          ops.add(FfnOperations.denseFfn(m, f, t, n, p));
        }
      }
    }
    ops.add(norms(m, t, p));
    // engines compute logits only for the last position of each prompt: B rows through the LM head
    ops.add(lmHead(m, b, p));
    return Phase.of(PhaseKind.PREFILL, ops);
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

  // ---- GEMM reduction depths (Operation#inverseDepth, #inverseSplitDepth) ----

  /** {@code op} with the reduction depths {@code d = {inverse depth, inverse split depth}}. */
  static Operation depths(Operation op, double[] d) {
    return Operation.builder().from(op).inverseDepth(d[0]).inverseSplitDepth(d[1]).build();
  }

  // ---- embeddings, norms, head ----

  /**
   * A projection of the attention block or a linear mixer (attention tensor class): a {@code
   * tokens} × in → out GEMM over {@code params} weights, in n layers.
   */
  static Operation projection(
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
    double width = m.normWidth();
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

  static Operation.Builder op(String name, OperationRole role, Precision precision) {
    return Operation.builder().name(name).role(role).precision(precision);
  }
}
