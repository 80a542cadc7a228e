package io.ridgeline.models;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Flops;
import io.ridgeline.core.Operation;
import io.ridgeline.core.Phase;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import java.util.ArrayList;
import java.util.List;

/**
 * FLOPs and bytes of each operation of a dense transformer, summed over its layers.
 *
 * <p>Conventions (see {@code io.ridgeline.core}): a matrix product of m tokens through a k×n weight
 * costs 2·m·k·n FLOPs, reads the k·n weights once, reads m·k input activations and writes m·n
 * outputs. Attention over a cache of L tokens costs, per query head, 2·L·d FLOPs for QKᵀ and 2·L·d
 * for PV, plus 5·L for scale, max, exp, sum and divide of the softmax. Norms cost 4 FLOPs per
 * element (square, sum, scale, weight) and read and write their activations. Operations of the same
 * kind in every layer are one operation here: the roofline is linear in the layer count, so the sum
 * of per-layer times equals the time of the summed operation.
 */
final class Operations {
  /** FLOPs per element of a norm: square, accumulate, scale, multiply by weight. */
  private static final double NORM_FLOPS_PER_ELEMENT = 4;

  /** FLOPs per attention score of the softmax: scale, max, exp, sum, divide. */
  private static final double SOFTMAX_FLOPS_PER_SCORE = 5;

  /** FLOPs per element of the gated activation (SiLU/GELU ≈ 4, product 1). */
  private static final double ACTIVATION_FLOPS_PER_ELEMENT = 5;

  private Operations() {}

  static List<Phase> decode(Model m, int batch, int context, Precisions p) {
    checkArgument(batch > 0, "batch must be positive: %s", batch);
    checkArgument(context > 0, "context must be positive: %s", context);
    double b = batch;
    double layers = m.layers();
    Precision kv = p.kvCache();

    // attention core: each of B sequences reads L cached tokens of K and V per layer and writes one
    double scores = b * m.attentionHeads() * (double) context * layers;
    Operation attention =
        op("attention", p.attention())
            .flops(Flops.of(4.0 * scores * m.headDim() + SOFTMAX_FLOPS_PER_SCORE * scores))
            .putBytes(DataKind.KV_READ, kv.bytes(2.0 * b * context * m.kvWidth() * layers))
            .putBytes(DataKind.KV_WRITE, kv.bytes(2.0 * b * m.kvWidth() * layers))
            .putBytes(
                DataKind.ACTIVATIONS, p.activations().bytes(2.0 * b * m.queryWidth() * layers))
            .build();

    List<Operation> projections = new ArrayList<>();
    projections.add(
        gemm(
            "qkv_proj",
            m.qkvParametersPerLayer(),
            b,
            m.hiddenSize(),
            m.queryWidth() + 2.0 * m.kvWidth(),
            layers,
            p));
    projections.add(
        gemm("o_proj", m.outputParametersPerLayer(), b, m.queryWidth(), m.hiddenSize(), layers, p));

    List<Operation> ffn = List.of(ffn(m, b, layers, p));

    List<Operation> other = new ArrayList<>();
    other.add(embedding(m, b, p));
    other.add(norms(m, b, p));
    other.add(lmHead(m, b, p));

    return List.of(
        Phase.of("decode_attention", List.of(attention)),
        Phase.of("decode_projection", projections),
        Phase.of("decode_ffn", ffn),
        Phase.of("decode_other", other));
  }

  static Phase prefill(Model m, int batch, int promptTokens, Precisions p) {
    checkArgument(batch > 0, "batch must be positive: %s", batch);
    checkArgument(promptTokens > 0, "prompt tokens must be positive: %s", promptTokens);
    double b = batch;
    double t = b * promptTokens;
    double layers = m.layers();
    Precision kv = p.kvCache();

    // causal attention: token i attends to i earlier-or-equal tokens, so a prompt of P tokens has
    // P(P+1)/2 query-key pairs per head (the causal half of the P×P score matrix, diagonal
    // included)
    double pairs = b * promptTokens * (promptTokens + 1.0) / 2.0;
    double scores = pairs * m.attentionHeads() * layers;
    // flash attention: K and V are written once and read once per sequence (tile reuse assumed)
    Bytes kvBytes = kv.bytes(2.0 * t * m.kvWidth() * layers);
    Operation attention =
        op("attention", p.attention())
            .flops(Flops.of(4.0 * scores * m.headDim() + SOFTMAX_FLOPS_PER_SCORE * scores))
            .putBytes(DataKind.KV_READ, kvBytes)
            .putBytes(DataKind.KV_WRITE, kvBytes)
            .putBytes(
                DataKind.ACTIVATIONS, p.activations().bytes(2.0 * t * m.queryWidth() * layers))
            .build();

    List<Operation> ops = new ArrayList<>();
    ops.add(embedding(m, t, p));
    ops.add(
        gemm(
            "qkv_proj",
            m.qkvParametersPerLayer(),
            t,
            m.hiddenSize(),
            m.queryWidth() + 2.0 * m.kvWidth(),
            layers,
            p));
    ops.add(attention);
    ops.add(
        gemm("o_proj", m.outputParametersPerLayer(), t, m.queryWidth(), m.hiddenSize(), layers, p));
    ops.add(ffn(m, t, layers, p));
    ops.add(norms(m, t, p));
    // engines compute logits only for the last position of each prompt: B rows through the LM head
    ops.add(lmHead(m, b, p));
    return Phase.of("prefill", ops);
  }

  /**
   * {@code tokens} rows through a weight of {@code params} elements shaped in × out, in every
   * layer: 2·tokens·params FLOPs (biases add one FLOP per output), weights read once, inputs read
   * and outputs written.
   */
  private static Operation gemm(
      String name,
      double params,
      double tokens,
      double in,
      double out,
      double layers,
      Precisions p) {
    return op(name, p.matmul())
        .flops(Flops.of(2.0 * tokens * params * layers))
        .putBytes(DataKind.WEIGHTS, p.weights().bytes(params * layers))
        .putBytes(DataKind.ACTIVATIONS, p.activations().bytes(tokens * (in + out) * layers))
        .build();
  }

  /** The FFN of every layer: 2 or 3 matrix products plus the activation. */
  private static Operation ffn(Model m, double tokens, double layers, Precisions p) {
    double params = m.ffnParametersPerLayer();
    boolean gated = m.ffnKind() == Model.FfnKind.GATED;
    double inner = m.intermediateSize();
    // activations: read x (hidden), write up (and gate) (inner each), read act(inner), write y
    // (hidden)
    double actElements = tokens * (2.0 * m.hiddenSize() + (gated ? 3.0 : 2.0) * inner);
    return op("ffn", p.matmul())
        .flops(
            Flops.of(
                (2.0 * tokens * params + ACTIVATION_FLOPS_PER_ELEMENT * tokens * inner) * layers))
        .putBytes(DataKind.WEIGHTS, p.weights().bytes(params * layers))
        .putBytes(DataKind.ACTIVATIONS, p.activations().bytes(actElements * layers))
        .build();
  }

  /** Gathers one embedding row per token: no FLOPs, rows read, activations written. */
  private static Operation embedding(Model m, double tokens, Precisions p) {
    double rows = Math.min(tokens, m.vocabSize());
    return op("embedding", p.activations())
        .flops(Flops.ZERO)
        .putBytes(DataKind.WEIGHTS, p.weights().bytes(rows * m.hiddenSize()))
        .putBytes(DataKind.ACTIVATIONS, p.activations().bytes(tokens * m.hiddenSize()))
        .build();
  }

  /** Two norms per layer plus the final norm (and BLOOM's embedding norm). */
  private static Operation norms(Model m, double tokens, Precisions p) {
    double count = 2.0 * m.layers() + 1 + (m.embeddingNorm() ? 1 : 0);
    double elements = tokens * m.hiddenSize() * count;
    double weights =
        m.normParametersPerLayer() * m.layers() + m.hiddenSize() * (count - 2.0 * m.layers());
    return op("norms", p.activations())
        .flops(Flops.of(NORM_FLOPS_PER_ELEMENT * elements))
        .putBytes(DataKind.WEIGHTS, p.weights().bytes(weights))
        .putBytes(DataKind.ACTIVATIONS, p.activations().bytes(2.0 * elements))
        .build();
  }

  /** Logits for {@code rows} positions: vocab × hidden weights (the embedding table when tied). */
  private static Operation lmHead(Model m, double rows, Precisions p) {
    double params = (double) m.vocabSize() * m.hiddenSize();
    return op("lm_head", p.matmul())
        .flops(Flops.of(2.0 * rows * params))
        .putBytes(DataKind.WEIGHTS, p.weights().bytes(params))
        .putBytes(
            DataKind.ACTIVATIONS,
            p.activations().bytes(rows * ((double) m.hiddenSize() + m.vocabSize())))
        .build();
  }

  private static io.ridgeline.core.ImmutableOperation.Builder op(String name, Precision precision) {
    return Operation.builder().name(name).precision(precision);
  }
}
