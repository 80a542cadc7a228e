package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.PhaseResult;
import java.util.Locale;
import java.util.function.BiPredicate;

/**
 * How busy a chip's compute and memory are over some span of time: "GPUs sit idle in decode" as two
 * numbers.
 *
 * <ul>
 *   <li><b>MFU</b> (model FLOP utilisation): the FLOPs the chip executes over the span, each at the
 *       peak of the precision it runs at, over the span: {@code Σ_ops (FLOPs / peak(op's
 *       precision)) / seconds}, i.e. achieved FLOP/s ÷ peak FLOP/s of the precision used (with one
 *       precision exactly that; with several, the time-weighted mix). Peaks are the catalog's dense
 *       figures before any efficiency factor ({@link ComputeTarget#peak}); 1 multiply-add = 2
 *       FLOPs.
 *   <li><b>Memory-bandwidth utilisation</b>: the bytes the chip reads and writes in memory
 *       (weights, KV cache, activations, from whichever tier holds them) over the span, divided by
 *       the span and the main tier's bandwidth (HBM, or SRAM on SRAM-only chips): achieved bytes/s
 *       ÷ main-tier bytes/s. Network bytes are not counted.
 * </ul>
 *
 * <p>Both are fractions (1 = the roofline bound); fixed costs, pipeline bubbles, collectives and
 * the efficiency profile's derating all show up as utilisation below 1. Decimal units throughout.
 *
 * @param mfu achieved FLOP/s over peak FLOP/s of the precision used, in [0, ∞) (≤ 1 on a consistent
 *     model)
 * @param bandwidth achieved memory bytes/s over the main tier's bandwidth, in [0, ∞)
 */
public record Utilisation(double mfu, double bandwidth) {
  /**
   * Validates the fractions.
   *
   * @throws IllegalArgumentException when one is negative or not finite
   */
  public Utilisation {
    checkArgument(mfu >= 0 && Double.isFinite(mfu), "MFU must be finite and >= 0: %s", mfu);
    checkArgument(
        bandwidth >= 0 && Double.isFinite(bandwidth),
        "bandwidth utilisation must be finite and >= 0: %s",
        bandwidth);
  }

  /** Zero utilisation: a span with no work (or no time). */
  public static final Utilisation IDLE = new Utilisation(0, 0);

  /**
   * One phase on its own time ({@link PhaseResult#seconds()}): its per-chip FLOPs and bytes on
   * {@code pool}'s chip.
   */
  public static Utilisation of(PhaseResult phase, RooflineModel pool) {
    Work w = new Work(pool.target());
    w.add(phase, (p, o) -> true, 1);
    return w.over(phase.seconds().seconds());
  }

  /**
   * One step ({@link StepResult#seconds()}, fixed costs, hand-offs and pipeline passes included):
   * the {@link StepResult#microBatches()} micro-batches' work of one chip of {@code pool}.
   */
  public static Utilisation of(StepResult step, RooflineModel pool) {
    Work w = new Work(pool.target());
    for (PhaseResult p : step.phases()) {
      w.add(p, (ph, o) -> true, step.microBatches());
    }
    return w.over(step.seconds().seconds());
  }

  /** Per-chip peak-seconds and bytes of the operations a filter selects. */
  static final class Work {
    private final ComputeTarget target;
    private double peakSeconds;
    private double bytes;

    Work(ComputeTarget target) {
      this.target = target;
    }

    /** Adds {@code times} × the selected operations of {@code phase}. */
    void add(PhaseResult phase, BiPredicate<PhaseResult, OperationResult> on, double times) {
      for (OperationResult o : phase.operations()) {
        if (!on.test(phase, o)) {
          continue;
        }
        double flops = o.operation().flops().flops();
        if (flops > 0) {
          peakSeconds += times * flops / target.peak(o.operation().precision()).flopsPerSecond();
        }
        bytes += times * o.operation().memoryBytes().bytes();
      }
    }

    /** The work's utilisation over {@code seconds}; idle when there is no time. */
    Utilisation over(double seconds) {
      return Utilisation.over(peakSeconds, bytes, seconds, target.mainBandwidth().bytesPerSecond());
    }
  }

  /**
   * The utilisation of work of {@code peakSeconds} (Σ FLOPs / peak of their precision) and {@code
   * bytes} memory bytes over {@code seconds} on a main tier of {@code mainBytesPerSecond}; idle
   * when there is no time.
   */
  static Utilisation over(
      double peakSeconds, double bytes, double seconds, double mainBytesPerSecond) {
    if (!(seconds > 0)) {
      return IDLE;
    }
    return new Utilisation(peakSeconds / seconds, bytes / seconds / mainBytesPerSecond);
  }

  /**
   * The utilisation of chips in two groups, weighted by their counts: {@code (a × na + b × nb) /
   * (na + nb)} for each figure.
   */
  static Utilisation weighted(Utilisation a, double na, Utilisation b, double nb) {
    double n = na + nb;
    return new Utilisation(
        (a.mfu * na + b.mfu * nb) / n, (a.bandwidth * na + b.bandwidth * nb) / n);
  }

  /** For example {@code MFU 12.3%, memory bandwidth 81.0%}. */
  @Override
  public String toString() {
    return String.format(
        Locale.ROOT, "MFU %.1f%%, memory bandwidth %.1f%%", 100 * mfu, 100 * bandwidth);
  }
}
