package io.ridgeline.core;

import com.google.common.collect.ImmutableMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Roofline arithmetic: the time of an operation on a target is {@code max(FLOPs / peak, Σ
 * bytes_tier / bandwidth_tier, network time)}; a phase is a sequence of operations.
 *
 * <pre>{@code
 * Roofline.evaluate(op, target).seconds();
 * Roofline.phase(PhaseKind.DECODE_FFN, ops, target).intensity();
 * }</pre>
 */
public final class Roofline {
  private Roofline() {}

  /**
   * The roofline time of {@code op} on {@code target}.
   *
   * @throws IllegalArgumentException when the op sends network bytes on a target without a link, or
   *     the target lacks a peak for the op's precision
   */
  public static OperationResult evaluate(Operation op, ComputeTarget target) {
    return evaluate(op, target, target.computeEfficiency(), target.memoryEfficiency());
  }

  /**
   * The roofline time of {@code op} on {@code target} at the fractions {@code computeEfficiency} of
   * peak FLOP/s and {@code memoryEfficiency} of every tier's bandwidth in place of the target's own
   * (an operation's kernel class), without a copy of the target; the compute fraction is scaled by
   * the target's {@link ComputeTarget#computeScale} of the operation's precision.
   *
   * @throws IllegalArgumentException as {@link #evaluate(Operation, ComputeTarget)}
   */
  public static OperationResult evaluate(
      Operation op, ComputeTarget target, double computeEfficiency, double memoryEfficiency) {
    double flops = op.flops().flops();
    double compute =
        flops == 0
            ? 0
            : computeSeconds(
                flops,
                target.peak(op.precision()).flopsPerSecond(),
                computeEfficiency * target.computeScale(op.precision()));
    return timed(op, target, compute, memoryEfficiency);
  }

  /**
   * The roofline result of {@code op} on {@code target} whose compute time, {@code computeSeconds},
   * the caller has worked out (a kernel whose efficiency depends on more than the target, such as a
   * GEMM on a small-M curve), its bytes read at {@code memoryEfficiency} of every tier's bandwidth
   * as {@link #evaluate(Operation, ComputeTarget, double, double)} reads them.
   *
   * @throws IllegalArgumentException when {@code computeSeconds} is negative or not finite, or as
   *     {@link #evaluate(Operation, ComputeTarget)}
   */
  public static OperationResult timed(
      Operation op, ComputeTarget target, double computeSeconds, double memoryEfficiency) {
    double compute = computeSeconds;
    double memory = 0;
    Map<String, Bytes> tiers;
    if (target.placement().isEmpty() && target.splitPlacement().isEmpty()) {
      // every byte on the main tier
      Bytes all = op.memoryBytes();
      memory =
          memorySeconds(all.bytes(), target.mainBandwidth().bytesPerSecond(), memoryEfficiency);
      tiers = all.bytes() == 0 ? ImmutableMap.of() : ImmutableMap.of(target.mainTier(), all);
    } else {
      Map<String, Double> byTier = new LinkedHashMap<>();
      for (Map.Entry<DataKind, Bytes> e : op.bytes().entrySet()) {
        for (Map.Entry<String, Double> share : target.tierShares(e.getKey()).entrySet()) {
          byTier.merge(share.getKey(), e.getValue().bytes() * share.getValue(), Double::sum);
        }
      }
      // tiers are read in turn: the memory time is the sum of each tier's
      ImmutableMap.Builder<String, Bytes> b = ImmutableMap.builder();
      for (Map.Entry<String, Double> e : byTier.entrySet()) {
        memory +=
            memorySeconds(
                e.getValue(),
                target.tierBandwidth().get(e.getKey()).bytesPerSecond(),
                memoryEfficiency);
        b.put(e.getKey(), Bytes.of(e.getValue()));
      }
      tiers = b.build();
    }
    double network = 0;
    if (op.networkBytes().bytes() > 0 || op.networkSteps() > 0) {
      BytesPerSecond link =
          target
              .linkBandwidth()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "target "
                              + target.name()
                              + " has no interconnect for operation "
                              + op.name()));
      network =
          networkSeconds(
              op.networkSteps(),
              target.linkLatency().seconds(),
              op.networkBytes().bytes(),
              link.bytesPerSecond(),
              target.networkEfficiency());
    }
    return OperationResult.builder()
        .operation(op)
        .computeSeconds(Seconds.of(compute))
        .memorySeconds(Seconds.of(memory))
        .networkSeconds(Seconds.of(network))
        .bytesByTier(tiers)
        .build();
  }

  // ---- the formulas over doubles: the object path above and compiled evaluators share them ----

  /**
   * Compute time, seconds: {@code flops / (peak × efficiency)} (FLOPs, FLOP/s, a fraction of peak).
   * Callers skip it for zero FLOPs, which take no time even without a peak.
   */
  public static double computeSeconds(double flops, double peakFlopsPerSecond, double efficiency) {
    return flops / (peakFlopsPerSecond * efficiency);
  }

  /**
   * Memory time of one tier, seconds: {@code bytes / (bandwidth × efficiency)} (bytes, B/s, a
   * fraction of bandwidth); an operation reading several tiers takes the sum of theirs.
   */
  public static double memorySeconds(double bytes, double bytesPerSecond, double efficiency) {
    return bytes / (bytesPerSecond * efficiency);
  }

  /**
   * Network time, seconds, α-β: {@code steps × hop latency + bytes / (link bandwidth ×
   * efficiency)}.
   */
  public static double networkSeconds(
      double steps,
      double latencySeconds,
      double bytes,
      double linkBytesPerSecond,
      double efficiency) {
    return steps * latencySeconds + bytes / (linkBytesPerSecond * efficiency);
  }

  /**
   * An operation's time, seconds: the largest of its compute, memory and network times (ties keep
   * the earlier one), as {@link OperationResult#seconds()} takes it.
   */
  public static double operationSeconds(double compute, double memory, double network) {
    double cm = compute >= memory ? compute : memory;
    return cm >= network ? cm : network;
  }

  /** The phase of {@code kind} made of {@code ops}, run one after another on {@code target}. */
  public static PhaseResult phase(PhaseKind kind, List<Operation> ops, ComputeTarget target) {
    PhaseResult.Builder b = PhaseResult.builder().kind(kind);
    for (Operation op : ops) {
      b.addOperation(evaluate(op, target));
    }
    return b.build();
  }
}
