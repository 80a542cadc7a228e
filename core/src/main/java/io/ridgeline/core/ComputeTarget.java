package io.ridgeline.core;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.immutables.value.Value;

/**
 * What an operation runs on, as the roofline sees it: peak FLOP/s per precision, bandwidth per
 * named memory tier, which tier serves each {@link DataKind}, and an optional interconnect link.
 *
 * <p>Efficiency factors scale peak, bandwidth and link bandwidth; all default to 1.0 (ideal: 100%
 * of peak and bandwidth). They must lie in (0, 1].
 */
@Value.Immutable
@RidgelineStyle
public abstract class ComputeTarget {
  ComputeTarget() {} // subclassed only by the generated implementation

  /** Fallback order when a target lacks a native peak for a precision (wider formats next). */
  private static final Map<Precision, List<Precision>> FALLBACK =
      Map.of(
          Precision.FP32, List.of(Precision.FP32),
          Precision.TF32, List.of(Precision.TF32, Precision.FP32),
          Precision.BF16, List.of(Precision.BF16, Precision.FP16, Precision.TF32, Precision.FP32),
          Precision.FP16, List.of(Precision.FP16, Precision.BF16, Precision.TF32, Precision.FP32),
          Precision.FP8, List.of(Precision.FP8, Precision.BF16, Precision.FP16, Precision.FP32),
          Precision.INT8,
              List.of(
                  Precision.INT8, Precision.FP8, Precision.BF16, Precision.FP16, Precision.FP32),
          Precision.FP4,
              List.of(Precision.FP4, Precision.FP8, Precision.BF16, Precision.FP16, Precision.FP32),
          Precision.MXFP4,
              List.of(Precision.FP4, Precision.FP8, Precision.BF16, Precision.FP16, Precision.FP32),
          Precision.INT4,
              List.of(
                  Precision.INT4,
                  Precision.INT8,
                  Precision.FP8,
                  Precision.BF16,
                  Precision.FP16,
                  Precision.FP32));

  /** A name for messages, usually the chip id. */
  public abstract String name();

  /** Dense peak FLOP/s per precision key ({@link Precision#peakKey()}). */
  public abstract Map<Precision, FlopsPerSecond> peaks();

  /** Bandwidth of each memory tier by tier name. */
  public abstract Map<String, BytesPerSecond> tierBandwidth();

  /** The tier that serves every data kind not named in {@link #placement()}. */
  public abstract String mainTier();

  /** The tier that serves each data kind, where it is not the main tier. */
  public abstract Map<DataKind, String> placement();

  /**
   * Where a data kind is split over several tiers (it spilled from a full tier): tier name → share
   * of its bytes, the shares summing to 1. Kinds not listed live wholly in {@link
   * #tierFor(DataKind)}.
   */
  public abstract Map<DataKind, Map<String, Double>> splitPlacement();

  /** Interconnect bandwidth per direction per chip, for collectives. */
  public abstract Optional<BytesPerSecond> linkBandwidth();

  /** Latency of one interconnect hop. */
  @Value.Default
  public Seconds linkLatency() {
    return Seconds.ZERO;
  }

  /** Achieved fraction of peak FLOP/s, in (0, 1]; 1 is ideal. */
  @Value.Default
  public double computeEfficiency() {
    return 1.0;
  }

  /**
   * Each peak key's compute efficiency relative to {@link #computeEfficiency()}, for a precision
   * whose matrix products reach a different share of its own peak than the one the compute
   * efficiency describes: math in that precision runs at {@code computeEfficiency × scale} of its
   * peak ({@link #computeScale}). For example an H100's best FP8 matmul reaches 0.709 of its FP8
   * peak against 0.803 of its BF16 peak for BF16, a scale of 0.709 / 0.803 = 0.883 on the FP8 key.
   * Keys not listed scale by 1; each {@code computeEfficiency × scale} must lie in (0, 1].
   */
  public abstract Map<Precision, Double> precisionScales();

  /**
   * The scale of {@link #precisionScales()} for math in {@code precision}: that of the peak key it
   * runs at ({@link #effectivePrecision}), 1 where none is listed.
   *
   * @throws IllegalArgumentException when no precision the target has can run it
   */
  public double computeScale(Precision precision) {
    if (precisionScales().isEmpty()) {
      return 1;
    }
    Double scale = precisionScales().get(effectivePrecision(precision));
    return scale == null ? 1 : scale;
  }

  /** Achieved fraction of memory bandwidth, in (0, 1]; 1 is ideal. */
  @Value.Default
  public double memoryEfficiency() {
    return 1.0;
  }

  /** Achieved fraction of link bandwidth, in (0, 1]; 1 is ideal. */
  @Value.Default
  public double networkEfficiency() {
    return 1.0;
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link ComputeTarget}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableComputeTarget.Builder {
    Builder() {}
  }

  /** The tier name that serves {@code kind} (the first tier of a split placement). */
  public String tierFor(DataKind kind) {
    return placement().getOrDefault(kind, mainTier());
  }

  /** The tiers that serve {@code kind} with their shares of its bytes (summing to 1). */
  public Map<String, Double> tierShares(DataKind kind) {
    Map<String, Double> split = splitPlacement().get(kind);
    return split != null ? split : Map.of(tierFor(kind), 1.0);
  }

  /**
   * The precision whose peak math in {@code precision} runs at: its own peak key when the target
   * has one, else the next wider format the target supports (FP8 math on a chip without FP8 runs at
   * its BF16/FP16 rate, as weight-only or upcast kernels do).
   *
   * @throws IllegalArgumentException when no such precision has a peak
   */
  public Precision effectivePrecision(Precision precision) {
    for (Precision p : FALLBACK.get(precision)) {
      if (peaks().containsKey(p)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "target "
            + name()
            + " has no peak for "
            + precision.id()
            + " or any wider precision; it has: "
            + peaks().keySet().stream().map(Precision::id).collect(Collectors.joining(", ")));
  }

  /**
   * The peak FLOP/s for math in {@code precision}, before efficiency (see {@link
   * #effectivePrecision}).
   */
  public FlopsPerSecond peak(Precision precision) {
    return peaks().get(effectivePrecision(precision));
  }

  /** Bandwidth of the main tier, before efficiency. */
  public BytesPerSecond mainBandwidth() {
    return tierBandwidth().get(mainTier());
  }

  /**
   * The ridge point for {@code precision} against the main tier: peak / bandwidth in FLOP/B. Work
   * of higher intensity is compute-bound. Efficiency factors apply to both.
   */
  public FlopsPerByte ridgePoint(Precision precision) {
    return peak(precision)
        .times(computeFraction(precision))
        .per(mainBandwidth().times(memoryEfficiency()));
  }

  /**
   * The share of {@code precision}'s peak that math in it reaches: {@code computeEfficiency ×}
   * {@link #computeScale}.
   */
  private double computeFraction(Precision precision) {
    return computeEfficiency() * computeScale(precision);
  }

  /**
   * Attainable FLOP/s at {@code intensity} on the main tier: {@code min(peak, intensity ×
   * bandwidth)}, efficiency applied.
   */
  public FlopsPerSecond attainable(FlopsPerByte intensity, Precision precision) {
    double roof = peak(precision).flopsPerSecond() * computeFraction(precision);
    double slope = intensity.flopsPerByte() * mainBandwidth().bytesPerSecond() * memoryEfficiency();
    return FlopsPerSecond.of(Math.min(roof, slope));
  }

  /** This target with the given efficiency factors. */
  public ComputeTarget withEfficiency(double compute, double memory, double network) {
    return ComputeTarget.builder()
        .from(this)
        .computeEfficiency(compute)
        .memoryEfficiency(memory)
        .networkEfficiency(network)
        .build();
  }

  @Value.Check
  void check() {
    checkArgument(!peaks().isEmpty(), "target %s: peaks must not be empty", name());
    checkTierNames();
    checkSplitPlacement();
    checkRates();
    checkEfficiency("compute efficiency", computeEfficiency());
    checkEfficiency("memory efficiency", memoryEfficiency());
    checkEfficiency("network efficiency", networkEfficiency());
    for (Map.Entry<Precision, Double> e : precisionScales().entrySet()) {
      checkArgument(
          peaks().containsKey(e.getKey()),
          "target %s: precision scale of %s names a precision without a peak; peaks: %s",
          name(),
          e.getKey().id(),
          peaks().keySet());
      // a scale of a ratio of fractions may round a product of 1 up by an ulp
      double product = computeEfficiency() * e.getValue();
      checkEfficiency(
          "compute efficiency x precision scale of " + e.getKey().id(),
          product > 1 && product < 1 + 1e-12 ? 1 : product);
    }
  }

  /** The main tier and every placed tier must be among the tiers. */
  private void checkTierNames() {
    checkArgument(
        tierBandwidth().containsKey(mainTier()),
        "target %s: main tier '%s' must be one of the tiers %s",
        name(),
        mainTier(),
        tierBandwidth().keySet());
    for (Map.Entry<DataKind, String> e : placement().entrySet()) {
      checkArgument(
          tierBandwidth().containsKey(e.getValue()),
          "target %s: placement of %s names unknown tier '%s'; tiers: %s",
          name(),
          e.getKey().id(),
          e.getValue(),
          tierBandwidth().keySet());
    }
  }

  /** Each split placement names known tiers with shares in [0, 1] that sum to 1. */
  private void checkSplitPlacement() {
    for (Map.Entry<DataKind, Map<String, Double>> e : splitPlacement().entrySet()) {
      double sum = 0;
      for (Map.Entry<String, Double> t : e.getValue().entrySet()) {
        checkShare(e.getKey(), t.getKey(), t.getValue());
        sum += t.getValue();
      }
      checkArgument(
          Math.abs(sum - 1) < 1e-9,
          "target %s: shares of %s must sum to 1: %s",
          name(),
          e.getKey().id(),
          sum);
    }
  }

  private void checkShare(DataKind kind, String tier, double share) {
    checkArgument(
        tierBandwidth().containsKey(tier),
        "target %s: split placement of %s names unknown tier '%s'; tiers: %s",
        name(),
        kind.id(),
        tier,
        tierBandwidth().keySet());
    checkArgument(
        share >= 0 && share <= 1,
        "target %s: share of %s on %s must be in [0, 1]: %s",
        name(),
        kind.id(),
        tier,
        share);
  }

  /** Tier bandwidths, peaks and the link bandwidth must be positive. */
  private void checkRates() {
    for (Map.Entry<String, BytesPerSecond> e : tierBandwidth().entrySet()) {
      checkArgument(
          e.getValue().bytesPerSecond() > 0,
          "target %s: bandwidth of tier %s must be positive: %s",
          name(),
          e.getKey(),
          e.getValue());
    }
    for (Map.Entry<Precision, FlopsPerSecond> e : peaks().entrySet()) {
      checkArgument(
          e.getValue().flopsPerSecond() > 0,
          "target %s: peak for %s must be positive: %s",
          name(),
          e.getKey().id(),
          e.getValue());
    }
    linkBandwidth()
        .ifPresent(
            b ->
                checkArgument(
                    b.bytesPerSecond() > 0,
                    "target %s: link bandwidth must be positive: %s",
                    name(),
                    b));
  }

  private void checkEfficiency(String what, double value) {
    checkArgument(
        value > 0 && value <= 1, "target %s: %s must be in (0, 1]: %s", name(), what, value);
  }

  /** Tier names in a stable order. */
  public List<String> tierNames() {
    return ImmutableList.copyOf(tierBandwidth().keySet());
  }

  /**
   * The peaks, tier bandwidths and link with units and the efficiencies below 100%, for example
   * {@code "h100-sxm: bf16 989.4 TFLOP/s, fp8 1.9788 PFLOP/s; hbm 3.35 TB/s (main); link 450 GB/s +
   * 1 µs/hop"}.
   */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(name()).append(": ");
    String sep = "";
    for (Map.Entry<Precision, FlopsPerSecond> e : peaks().entrySet()) {
      b.append(sep).append(e.getKey().id()).append(' ').append(e.getValue());
      sep = ", ";
    }
    sep = "; ";
    for (Map.Entry<String, BytesPerSecond> e : tierBandwidth().entrySet()) {
      b.append(sep).append(e.getKey()).append(' ').append(e.getValue());
      if (e.getKey().equals(mainTier())) {
        b.append(" (main)");
      }
      sep = ", ";
    }
    linkBandwidth()
        .ifPresent(
            l -> b.append("; link ").append(l).append(" + ").append(linkLatency()).append("/hop"));
    if (computeEfficiency() < 1 || memoryEfficiency() < 1 || networkEfficiency() < 1) {
      b.append(
          String.format(
              java.util.Locale.ROOT,
              "; at %.0f%% compute, %.0f%% memory, %.0f%% network",
              100 * computeEfficiency(),
              100 * memoryEfficiency(),
              100 * networkEfficiency()));
    }
    for (Map.Entry<Precision, Double> e : precisionScales().entrySet()) {
      b.append(
          String.format(
              java.util.Locale.ROOT, "; %s compute x%.3f", e.getKey().id(), e.getValue()));
    }
    return b.toString();
  }
}
