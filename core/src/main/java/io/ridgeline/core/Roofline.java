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
    double flops = op.flops().flops();
    // compute time = FLOPs / (peak × efficiency); zero work takes no time even without a peak
    double compute =
        flops == 0
            ? 0
            : flops / (target.peak(op.precision()).flopsPerSecond() * target.computeEfficiency());
    double memory = 0;
    Map<String, Bytes> tiers;
    if (target.placement().isEmpty() && target.splitPlacement().isEmpty()) {
      // every byte on the main tier: memory time = bytes / (bandwidth × efficiency)
      Bytes all = op.memoryBytes();
      memory = all.bytes() / (target.mainBandwidth().bytesPerSecond() * target.memoryEfficiency());
      tiers = all.bytes() == 0 ? ImmutableMap.of() : ImmutableMap.of(target.mainTier(), all);
    } else {
      Map<String, Double> byTier = new LinkedHashMap<>();
      for (Map.Entry<DataKind, Bytes> e : op.bytes().entrySet()) {
        for (Map.Entry<String, Double> share : target.tierShares(e.getKey()).entrySet()) {
          byTier.merge(share.getKey(), e.getValue().bytes() * share.getValue(), Double::sum);
        }
      }
      // memory time = Σ_tier bytes_tier / (bandwidth_tier × efficiency): tiers are read in turn
      ImmutableMap.Builder<String, Bytes> b = ImmutableMap.builder();
      for (Map.Entry<String, Double> e : byTier.entrySet()) {
        memory +=
            e.getValue()
                / (target.tierBandwidth().get(e.getKey()).bytesPerSecond()
                    * target.memoryEfficiency());
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
      // α-β cost: steps × hop latency + bytes / (link bandwidth × efficiency)
      network =
          op.networkSteps() * target.linkLatency().seconds()
              + op.networkBytes().bytes() / (link.bytesPerSecond() * target.networkEfficiency());
    }
    return ImmutableOperationResult.builder()
        .operation(op)
        .computeSeconds(Seconds.of(compute))
        .memorySeconds(Seconds.of(memory))
        .networkSeconds(Seconds.of(network))
        .bytesByTier(tiers)
        .build();
  }

  /** The phase of {@code kind} made of {@code ops}, run one after another on {@code target}. */
  public static PhaseResult phase(PhaseKind kind, List<Operation> ops, ComputeTarget target) {
    ImmutablePhaseResult.Builder b = ImmutablePhaseResult.builder().kind(kind);
    for (Operation op : ops) {
      b.addOperation(evaluate(op, target));
    }
    return b.build();
  }
}
