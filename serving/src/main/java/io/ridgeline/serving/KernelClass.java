package io.ridgeline.serving;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.FlopsPerSecond;
import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.Precision;
import io.ridgeline.core.TensorClass;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.Optional;

/**
 * How an operation's kernel reaches the roofline, decided by its {@link OperationRole} (never by
 * its name): the compute and memory fractions of an {@link Efficiency} that {@link RooflineModel}
 * evaluates it at.
 *
 * <ul>
 *   <li>{@link #GEMM}: a matrix product of the weights with M rows (projections, dense FFN, routed
 *       and shared experts, router, LM head): compute at {@link Efficiency#computeAt(double)
 *       computeAt(M)} = {@code compute × M / (M + gemmHalfTokens)}, memory at the memory fraction.
 *       M = FLOPs / (2 × weight elements read), the step's tokens for a dense GEMM and the mean
 *       tokens per expert read for routed experts (1 multiply-add = 2 FLOPs).
 *   <li>{@link #ATTENTION}: the kernels that read the KV cache ({@link
 *       OperationRole#readsKvCache()}: attention, sliding-window attention, the DSA indexer):
 *       compute at the large-GEMM {@code compute} with no small-M penalty, memory at {@code
 *       attention}, their own fraction of bandwidth (a KV-streaming kernel's, not the weight
 *       GEMVs'). Decode kernels (FlashAttention-2/3 and FlashInfer decode, FlashMLA) put the query
 *       heads that share a KV head on the M dimension of their tiles (a GQA group of 4–16 heads;
 *       all 128 heads of DeepSeek-V3's MLA against its one latent) and are bound by their KV reads,
 *       not by the step's token count; prefill attention (causal FlashAttention) tiles thousands of
 *       queries and is a large GEMM-like kernel. A small-M penalty on M = heads per KV head × query
 *       tokens is left out: for GQA (M = 4–16) decode attention's intensity (≈ the group size,
 *       FLOP/B) stays far below even a penalised ridge point, and for MLA the FlashMLA tile of 64
 *       query rows is filled by 128 heads (FlashMLA README: 3,000 GB/s memory-bound and 580 TFLOP/s
 *       compute-bound on H800 SXM5: 0.90 of the bandwidth, within the range of {@code attention}).
 *   <li>{@link #ELEMENTWISE}: everything else (norms, embedding gather, a linear mixer's state
 *       update or scan): compute at {@code compute} with no GEMM curve, memory at the memory
 *       fraction.
 * </ul>
 *
 * With {@link Efficiency#ideal()} every class runs at 100% of peak and bandwidth: the roofline
 * bound is unchanged.
 */
enum KernelClass {
  /** A weight GEMM of M rows: the small-M GEMM curve at its own rows. */
  GEMM,
  /** A kernel reading the KV cache: the attention class, no small-M curve. */
  ATTENTION,
  /** An element-wise or other kernel: the large-GEMM compute fraction and the memory fraction. */
  ELEMENTWISE;

  /** The class of an operation of {@code role}. */
  static KernelClass of(OperationRole role) {
    return switch (role) {
      case ATTENTION, INDEXER -> ATTENTION; // the roles that read the KV cache
      case ATTENTION_PROJECTION,
          LINEAR_PROJECTION,
          DENSE_FFN,
          ROUTER,
          ROUTED_EXPERTS,
          SHARED_EXPERTS,
          LM_HEAD ->
          GEMM;
      case LINEAR_STATE,
          EMBEDDING,
          NORM,
          TP_ALL_REDUCE,
          FFN_ALL_REDUCE,
          MOE_ALL_TO_ALL,
          PIPELINE_SEND,
          KV_FETCH ->
          ELEMENTWISE;
    };
  }

  /**
   * The tokens at which this class's kernels reach half of the large-GEMM compute fraction, {@link
   * Efficiency#gemmHalfTokens()} for a {@link #GEMM} (the small-M curve {@link
   * Efficiency#computeAt} at its own rows), 0 (no curve) for every other class.
   */
  double halfTokens(Efficiency e) {
    return switch (this) {
      case GEMM -> e.gemmHalfTokens();
      case ATTENTION, ELEMENTWISE -> 0;
    };
  }

  /**
   * The factor on the compute time of {@code op} of this class from its GEMMs' reduction depth
   * ({@link Efficiency#gemmDepthFactor}), given the chips that split its reduction ({@code split},
   * {@link ParallelLayout#reductionSplit}) and the K step's speed in its precision ({@code
   * depthScale}, {@link #depthScale}): a {@link #GEMM}'s {@code 1 + depth × depthScale ×
   * (inverseDepth + split × inverseSplitDepth)}, 1 for every other class and for an operation
   * without FLOPs.
   */
  double depthFactor(Efficiency e, Operation op, double split, double depthScale) {
    return switch (this) {
      case GEMM ->
          e.gemmHalfDepth() == 0 || op.flops().flops() == 0
              ? 1
              : e.gemmDepthFactor(op.inverseDepth(), op.inverseSplitDepth(), split, depthScale);
      case ATTENTION, ELEMENTWISE -> 1;
    };
  }

  /**
   * A K step's speed in {@code precision} relative to BF16 on {@code t}: its peak over the BF16 (or
   * FP16) peak, 1 on a target with neither. A tile's fixed cost takes the same time in every
   * format, so measured in K steps it grows with the format's rate.
   */
  static double depthScale(ComputeTarget t, Precision precision) {
    FlopsPerSecond wide = t.peaks().get(Precision.BF16);
    if (wide == null) {
      wide = t.peaks().get(Precision.FP16);
    }
    return wide == null ? 1 : t.peak(precision).flopsPerSecond() / wide.flopsPerSecond();
  }

  /**
   * The fraction of memory bandwidth of this class: {@link Efficiency#attention()} for attention,
   * else the other kernels' {@code memory}.
   */
  double memoryFraction(Efficiency e, double memory) {
    return switch (this) {
      case ATTENTION -> e.attention();
      case GEMM, ELEMENTWISE -> memory;
    };
  }

  /**
   * The tensor class whose weights an operation of {@code role} reads, if it is a weight GEMM: the
   * precision its weight elements are stored at.
   */
  static Optional<TensorClass> weightClass(OperationRole role) {
    return switch (role) {
      case ATTENTION_PROJECTION, LINEAR_PROJECTION -> Optional.of(TensorClass.ATTENTION);
      case DENSE_FFN, ROUTER, SHARED_EXPERTS -> Optional.of(TensorClass.DENSE_FFN);
      case ROUTED_EXPERTS -> Optional.of(TensorClass.EXPERTS);
      case LM_HEAD -> Optional.of(TensorClass.EMBEDDINGS);
      case ATTENTION,
          INDEXER,
          LINEAR_STATE,
          EMBEDDING,
          NORM,
          TP_ALL_REDUCE,
          FFN_ALL_REDUCE,
          MOE_ALL_TO_ALL,
          PIPELINE_SEND,
          KV_FETCH ->
          Optional.empty();
    };
  }
}
