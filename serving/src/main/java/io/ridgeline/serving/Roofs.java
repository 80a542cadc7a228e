package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.Flops;
import io.ridgeline.core.FlopsPerByte;
import io.ridgeline.core.FlopsPerSecond;
import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Seconds;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The roofs of a pool's chip and the work of each phase under them: what a roofline chart draws.
 *
 * <p>A <b>roof</b> is the attainable FLOP/s at an arithmetic intensity {@code I} (FLOP/B), {@code
 * min(peak, I × bandwidth)}, with its ridge point at {@code peak / bandwidth}. For each precision
 * the phases compute in (the peak key the math runs at, {@link ComputeTarget#effectivePrecision}):
 *
 * <ul>
 *   <li>the <b>datasheet</b> roof: the catalog's dense peak of that precision and the main memory
 *       tier's bandwidth (H100 SXM, BF16: 989.4 TFLOP/s / 3.35 TB/s = 295 FLOP/B);
 *   <li>the <b>calibrated</b> roofs: the peak and bandwidth at the fractions the pool's step times
 *       use ({@code OperationCost}): the large-GEMM compute fraction of that precision's peak (the
 *       small-M curve and the reduction-depth cost only slow a GEMM below it) and each kernel
 *       class's memory fraction of the bandwidth (attention's own, the other kernels' memory
 *       fraction), one roof per distinct memory fraction. Where a calibrated roof equals the
 *       datasheet roof (the roofline bound, {@code --efficiency ideal}) it is not repeated.
 * </ul>
 *
 * <p>A <b>point</b> is the work of one phase that runs under one roof: its operations of one
 * precision and one memory fraction, with their FLOPs and memory bytes per chip and the sum of
 * their times. Collectives (operations that send bytes over the interconnect) are left out: their
 * time is link time, not the chip's compute or memory. Every operation takes at least {@code
 * max(FLOPs / roof peak, bytes / roof bandwidth)} (bytes read from the main tier, the fastest), so
 * each point lies on or under its own roof: {@code FLOPs / seconds ≤ min(peak, intensity ×
 * bandwidth)}.
 */
public final class Roofs {
  /** Where a roof's figures come from. */
  public enum Kind {
    /** The catalog's peak and bandwidth. */
    DATASHEET,
    /** The efficiency model's fractions of them. */
    CALIBRATED;

    /** The id in output: {@code datasheet}, {@code calibrated}. */
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One roof.
   *
   * @param precision the peak key its math runs at
   * @param kind datasheet or calibrated
   * @param kernels the kernel classes it bounds ({@code all}, or for a calibrated roof of one
   *     memory fraction among several, for example {@code attention} or {@code gemm+elementwise})
   * @param peak the flat part, FLOP/s per chip
   * @param bandwidth the slope, bytes/s per chip of the main memory tier
   */
  public record Roof(
      Precision precision,
      Kind kind,
      String kernels,
      FlopsPerSecond peak,
      BytesPerSecond bandwidth) {
    /** Validates the rates. */
    public Roof {
      checkArgument(
          peak.flopsPerSecond() > 0 && bandwidth.bytesPerSecond() > 0,
          "a roof's peak and bandwidth must be positive: %s, %s",
          peak,
          bandwidth);
    }

    /** The ridge point, peak / bandwidth (FLOP/B). */
    public FlopsPerByte ridge() {
      return FlopsPerByte.of(peak.flopsPerSecond() / bandwidth.bytesPerSecond());
    }

    /** The attainable FLOP/s at {@code intensity}: {@code min(peak, intensity × bandwidth)}. */
    public FlopsPerSecond attainable(FlopsPerByte intensity) {
      return FlopsPerSecond.of(
          Math.min(peak.flopsPerSecond(), intensity.flopsPerByte() * bandwidth.bytesPerSecond()));
    }

    /** For example {@code "bf16 calibrated: 536.1 TFLOP/s, 2.345 TB/s, ridge 228.6 FLOP/B"}. */
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%s %s%s: %s, %s, ridge %.1f FLOP/B",
          precision.id(),
          kind.id(),
          kernels.equals(ALL) ? "" : " (" + kernels + ")",
          peak,
          bandwidth,
          ridge().flopsPerByte());
    }
  }

  /**
   * The work of one phase under one roof, per chip.
   *
   * @param phase the phase
   * @param label the phase's id, with the precision and kernels when the phase has several points
   *     (for example {@code "prefill: fp8"}, {@code "prefill: bf16 attention"})
   * @param roof the roof its operations run under (calibrated, or the datasheet one where they
   *     coincide)
   * @param flops FLOPs per chip
   * @param bytes memory bytes per chip
   * @param seconds the operations' summed time
   */
  public record Point(
      PhaseKind phase, String label, Roof roof, Flops flops, Bytes bytes, Seconds seconds) {
    /** FLOPs over memory bytes; zero without bytes. */
    public FlopsPerByte intensity() {
      return bytes.bytes() == 0
          ? FlopsPerByte.ZERO
          : FlopsPerByte.of(flops.flops() / bytes.bytes());
    }

    /** Achieved FLOP/s per chip: FLOPs over seconds; zero without time. */
    public FlopsPerSecond achieved() {
      return FlopsPerSecond.of(seconds.seconds() > 0 ? flops.flops() / seconds.seconds() : 0);
    }

    /** Whether the point can be drawn on log axes: FLOPs, bytes and time all positive. */
    public boolean drawable() {
      return flops.flops() > 0 && bytes.bytes() > 0 && seconds.seconds() > 0;
    }
  }

  /** The kernels label of a roof that bounds every kernel class. */
  public static final String ALL = "all";

  private final List<Roof> roofs;
  private final List<Point> points;

  private Roofs(List<Roof> roofs, List<Point> points) {
    this.roofs = ImmutableList.copyOf(roofs);
    this.points = ImmutableList.copyOf(points);
  }

  /** The roofs drawn: per precision in use, the datasheet roof, then its calibrated ones. */
  public List<Roof> roofs() {
    return roofs;
  }

  /** The points, phase by phase in the order given, each with its own roof. */
  public List<Point> points() {
    return points;
  }

  /** The operations of one phase that share a roof's precision and memory fraction. */
  private static final class Group {
    final Precision precision;
    double flops;
    double bytes;
    double seconds;

    Group(Precision precision) {
      this.precision = precision;
    }
  }

  /**
   * The roofs and points of {@code phases}, results of {@code pool} (its {@link
   * RooflineModel#decode} and {@link RooflineModel#prefill} phases).
   */
  public static Roofs of(RooflineModel pool, List<PhaseResult> phases) {
    ComputeTarget t = pool.target();
    Map<PhaseResult, Map<String, Group>> byPhase = new LinkedHashMap<>();
    Map<Precision, Map<Double, Set<KernelClass>>> fractions = new LinkedHashMap<>();
    Map<Precision, Double> computeFractions = new LinkedHashMap<>();
    for (PhaseResult phase : phases) {
      Map<String, Group> groups = new LinkedHashMap<>();
      for (OperationResult r : phase.operations()) {
        Operation op = r.operation();
        Optional<Precision> precision = peakKey(t, op.precision());
        if (op.networkBytes().bytes() > 0 || op.networkSteps() > 0 || precision.isEmpty()) {
          continue; // a collective's time is link time; a precision without a peak computes nothing
        }
        OperationCost cost = OperationCost.of(pool, op, t);
        Group g =
            groups.computeIfAbsent(
                precision.get().id() + "/" + cost.memoryFraction, k -> new Group(precision.get()));
        g.flops += op.flops().flops();
        g.bytes += op.memoryBytes().bytes();
        g.seconds += r.seconds().seconds();
        if (op.flops().flops() > 0) {
          computeFractions.put(precision.get(), cost.computeFraction);
          fractions
              .computeIfAbsent(precision.get(), k -> new LinkedHashMap<>())
              .computeIfAbsent(cost.memoryFraction, k -> EnumSet.noneOf(KernelClass.class))
              .add(KernelClass.of(op.role()));
        }
      }
      byPhase.put(phase, groups);
    }
    List<Roof> roofs = new ArrayList<>();
    Map<String, Roof> own = new LinkedHashMap<>();
    double bandwidth = t.mainBandwidth().bytesPerSecond();
    for (Map.Entry<Precision, Map<Double, Set<KernelClass>>> e : fractions.entrySet()) {
      Precision p = e.getKey();
      double peak = t.peak(p).flopsPerSecond();
      Roof datasheet =
          new Roof(p, Kind.DATASHEET, ALL, FlopsPerSecond.of(peak), BytesPerSecond.of(bandwidth));
      roofs.add(datasheet);
      double compute = computeFractions.get(p);
      boolean several = e.getValue().size() > 1;
      for (Map.Entry<Double, Set<KernelClass>> f : e.getValue().entrySet()) {
        Roof roof = datasheet;
        if (compute != 1 || f.getKey() != 1) {
          roof =
              new Roof(
                  p,
                  Kind.CALIBRATED,
                  several ? kernels(f.getValue()) : ALL,
                  FlopsPerSecond.of(peak * compute),
                  BytesPerSecond.of(bandwidth * f.getKey()));
          roofs.add(roof);
        }
        own.put(p.id() + "/" + f.getKey(), roof);
      }
    }
    List<Point> points = new ArrayList<>();
    for (Map.Entry<PhaseResult, Map<String, Group>> e : byPhase.entrySet()) {
      PhaseKind kind = e.getKey().kind();
      Map<String, Group> groups = e.getValue();
      for (Map.Entry<String, Group> g : groups.entrySet()) {
        Roof roof = own.get(g.getKey());
        if (roof == null) {
          continue; // bytes without FLOPs in a precision nothing computes in: no roof to sit under
        }
        Group v = g.getValue();
        String label =
            groups.size() == 1
                ? kind.id()
                : kind.id()
                    + ": "
                    + v.precision.id()
                    + (roof.kernels().equals(ALL) ? "" : " " + roof.kernels());
        points.add(
            new Point(
                kind, label, roof, Flops.of(v.flops), Bytes.of(v.bytes), Seconds.of(v.seconds)));
      }
    }
    return new Roofs(roofs, points);
  }

  /** The peak key math in {@code precision} runs at on {@code t}, if it has one. */
  private static Optional<Precision> peakKey(ComputeTarget t, Precision precision) {
    try {
      return Optional.of(t.effectivePrecision(precision));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** For example {@code "gemm+elementwise"}. */
  private static String kernels(Set<KernelClass> classes) {
    return classes.stream()
        .map(k -> k.name().toLowerCase(Locale.ROOT))
        .collect(Collectors.toCollection(TreeSet::new))
        .stream()
        .collect(Collectors.joining("+"));
  }
}
