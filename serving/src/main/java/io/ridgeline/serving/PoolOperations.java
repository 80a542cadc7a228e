package io.ridgeline.serving;

import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Flops;
import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Roofline;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The operations of one chip of a {@link RooflineModel pool} and their times: each operation's
 * share on the busiest chip of the layout ({@link #perChip}), the kernel-class efficiency each runs
 * at ({@link #phase}) and the copy that brings offloaded KV back ({@link #kvFetch}). Split out of
 * {@link RooflineModel}, which builds its steps from these.
 */
final class PoolOperations {
  private PoolOperations() {}

  /**
   * The phase {@code kind} of {@code ops} on {@code t}. Each operation runs at the fractions of its
   * {@link KernelClass} (decided by its {@link OperationRole}): weight GEMMs on the small-M GEMM
   * curve ({@link Efficiency#gemmHalfTokens()}) at their own rows M = FLOPs / (2 × weight elements
   * read) (the step's tokens for a dense GEMM, the mean tokens per expert read for routed experts:
   * tokens × k / distinct experts); the kernels that read the KV cache at {@link
   * Efficiency#attention()} of the large-GEMM compute fraction and of the memory fraction, with no
   * small-M penalty; the rest at the large-GEMM compute fraction and the memory fraction.
   */
  static PhaseResult phase(
      RooflineModel pool, PhaseKind kind, List<Operation> ops, ComputeTarget t) {
    Efficiency e = pool.kernelEfficiency();
    if (uniformKernels(pool)) {
      return Roofline.phase(kind, ops, t);
    }
    PhaseResult.Builder b = PhaseResult.builder().kind(kind);
    for (Operation op : ops) {
      KernelClass k = KernelClass.of(op.role());
      double rows =
          gemmRows(
              op.flops().flops(),
              op.bytes(DataKind.WEIGHTS).bytes(),
              weightBytesPerElement(pool, op));
      double compute = k.computeFraction(e, rows);
      double depth = k.depthFactor(e, op, pool.layout(), t);
      if (depth != 1) {
        // seconds per FLOP over peak: 1 / fraction(M) + (depth factor − 1) / large-GEMM fraction,
        // i.e. compute time = flops / (peak × compute) × (1 + half / M + depth / K)
        compute = 1 / (1 / compute + (depth - 1) / k.computeFraction(e, 0));
      }
      // the target at the kernel class's fractions, without a validated copy per operation
      b.addOperation(Roofline.evaluate(op, t, compute, k.memoryFraction(e, t.memoryEfficiency())));
    }
    return b.build();
  }

  /**
   * Whether every kernel class of {@code pool} runs at the target's own fractions (no attention
   * factor, no small-M GEMM curve, no reduction-depth cost), so that {@link Roofline#phase} applies
   * as is.
   */
  static boolean uniformKernels(RooflineModel pool) {
    Efficiency e = pool.efficiency();
    return e.attention() == e.memory() && e.gemmHalfTokens() == 0 && e.gemmHalfDepth() == 0;
  }

  /**
   * Bytes per stored weight element of {@code op}: its tensor class's weight precision for a weight
   * GEMM (a weight-only FP8 GEMM computes at BF16 but reads 1 B each), else its own precision's.
   */
  static double weightBytesPerElement(RooflineModel pool, Operation op) {
    return KernelClass.weightClass(op.role())
        .map(c -> pool.computePrecisions().weights(c).bytesPerElement())
        .orElse(op.precision().bytesPerElement());
  }

  /**
   * The rows M of a GEMM of {@code flops} FLOPs over {@code weightBytes} bytes of weights stored at
   * {@code bytesEach} bytes per element: FLOPs = 2·M·elements → M = FLOPs / (2 · weight bytes /
   * bytes each); 0 for an operation without weights or FLOPs.
   */
  static double gemmRows(double flops, double weightBytes, double bytesEach) {
    return weightBytes > 0 && flops > 0 ? flops / (2 * weightBytes / bytesEach) : 0;
  }

  /**
   * The busiest chip's share of each operation in a step of {@code sequences} sequences (or
   * prompts) per micro-batch: FLOPs and activations of stage-wide operations over tp·dp·pp, of the
   * operations that run per attention group ({@link ParallelLayout#runsPerGroup}: the attention
   * side, and with dp &gt; 1 the dense-FFN class) over tp·pp·(busy attention groups, {@link
   * ParallelLayout#busyAttentionGroups}: each dp group runs whole sequences, so 4 sequences keep 4
   * of 8 groups busy and a single prompt one); their weights over tp·pp (each dp group holds a
   * copy), other weights over tp·dp·pp; KV over (busy groups)·min(tp, the op's KV shards)·pp.
   */
  static List<Operation> perChip(RooflineModel pool, List<Operation> ops, double sequences) {
    ParallelLayout layout = pool.layout();
    if (layout.replicaChips() == 1) {
      return ops;
    }
    List<Operation> out = new ArrayList<>(ops.size());
    for (Operation op : ops) {
      boolean perGroup = layout.runsPerGroup(op.role());
      ParallelLayout.Sharding weights =
          perGroup ? ParallelLayout.Sharding.ATTENTION_GROUP : ParallelLayout.Sharding.STAGE;
      // the step takes the busiest attention group's time: its share of the per-group work
      double work = layout.workShards(perGroup, sequences);
      ImmutableMap.Builder<DataKind, Bytes> bytes = ImmutableMap.builder();
      for (Map.Entry<DataKind, Bytes> e : op.bytes().entrySet()) {
        double divisor;
        switch (e.getKey()) {
          case WEIGHTS:
            divisor = layout.shards(weights);
            break;
          case KV_READ:
          case KV_WRITE:
            divisor = layout.kvShards(op.kvShards(), sequences);
            break;
          default:
            divisor = work;
        }
        bytes.put(e.getKey(), e.getValue().dividedBy(divisor));
      }
      out.add(
          Operation.builder()
              .from(op)
              .flops(op.flops().dividedBy(work))
              .bytes(bytes.build())
              .build());
    }
    return out;
  }

  /**
   * Bringing the cached KV of a micro-batch of {@code prompts} prompts back from the offload tier
   * ({@link KvOffload#HISTORY}), per chip: {@code kv_fetch}, no FLOPs, reading {@code prompts ×
   * cacheBytesPerSequence(cached, kv, tp) / (busy attention groups × pp)} (each chip fetches its
   * own KV heads of its own sequences, the layers of its stage) from the tier that {@link
   * MemoryPlan#fetchTarget} places them on.
   */
  static Operation kvFetch(RooflineModel pool, double prompts, int cachedTokens) {
    ParallelLayout layout = pool.layout();
    Precision kv = pool.precisions().kvCache();
    Bytes perChip =
        pool.model()
            .cacheBytesPerSequence(cachedTokens, kv, pool.tensorParallel())
            .times(prompts)
            .dividedBy(layout.busyAttentionGroups(prompts) * pool.pipelineParallel());
    return Operation.builder()
        .name("kv_fetch")
        .role(OperationRole.KV_FETCH)
        .flops(Flops.ZERO)
        .precision(kv)
        .putBytes(DataKind.KV_READ, perChip)
        .build();
  }
}
