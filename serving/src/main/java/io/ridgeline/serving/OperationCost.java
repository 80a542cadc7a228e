package io.ridgeline.serving;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Operation;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Roofline;
import io.ridgeline.serving.efficiency.Efficiency;

/**
 * One operation's roofline terms on one chip of a {@link RooflineModel pool}: the per-operation
 * formulas of a step, written once, which the object path ({@link PoolOperations#phase}) evaluates
 * operation by operation and the compiled path ({@link CompiledStep}) keeps as coefficients.
 *
 * <p><b>Compute</b> (1 multiply-add = 2 FLOPs): an operation of its {@link KernelClass} runs at the
 * large-GEMM fraction {@code c} of its precision's peak (the pool's {@link
 * RooflineModel#kernelEfficiency()} scaled by the target's {@link ComputeTarget#computeScale}); a
 * weight GEMM of M rows on the small-M curve ({@link Efficiency#computeAt}: {@code c × M / (M +
 * half)}) with a reduction-depth factor {@code d} ({@link KernelClass#depthFactor}) takes
 *
 * <pre>
 *   flops / (peak × c) × (1 + half / M + (d − 1))
 *   = flops × d / (peak × c) + weightBytes × 2 × half / (bytesEach × peak × c)
 * </pre>
 *
 * since M = flops × bytesEach / (2 × weightBytes) (each stored weight element is multiplied with
 * each of M rows): {@link #computeSeconds} = {@code flops × secondsPerFlop + weightBytes ×
 * secondsPerWeightByte}. Every other kernel, and a GEMM without weight bytes (M = 0), has no
 * small-M term; an operation without FLOPs takes no compute time, whatever its precision's peak. A
 * pool whose kernel classes all run at the target's own fractions ({@link
 * PoolOperations#uniformKernels}: the roofline bound, or an efficiency without an attention
 * fraction, small-M curve or depth cost) uses the target's compute fraction with no curve and no
 * depth factor.
 *
 * <p><b>Memory</b>: the operation's bytes at {@link #memoryFraction} of each tier's bandwidth, its
 * kernel class's ({@link KernelClass#memoryFraction}: attention's own for the kernels that read the
 * KV cache), {@code bytes / (bandwidth × fraction)} per tier ({@link Roofline#memorySeconds}); on
 * the main tier alone, as a product with one byte's time ({@link #mainTierMemorySeconds}).
 *
 * <p><b>Shards</b>: how {@link PoolOperations#perChip} divides each kind of byte over the chips of
 * a replica ({@link #shareOf}).
 */
final class OperationCost {
  /** The shards that divide a kind of byte over the chips of a replica ({@link #shareOf}). */
  enum Share {
    /** Weights: over the chips that hold a copy's shards ({@link ParallelLayout#shards}). */
    WEIGHTS,
    /** KV cache: over the busy attention groups × the op's KV shards × pp. */
    KV,
    /** Activations and everything else: over the operation's work shards. */
    WORK
  }

  /** FLOP/s of the operation's precision on the target; 0 for an operation without FLOPs. */
  final double peak;

  /**
   * The large-GEMM fraction {@code c} of the precision's peak: the compute roof no kernel of the
   * operation's precision exceeds ({@link Roofs}); 1 for an operation without FLOPs.
   */
  final double computeFraction;

  /** Compute seconds per FLOP on one chip: {@code d / (peak × c)}; 0 without FLOPs. */
  final double secondsPerFlop;

  /**
   * Compute seconds per weight byte of the small-M term: {@code 2 × half / (bytesEach × peak × c)}.
   */
  final double secondsPerWeightByte;

  /** The fraction of every tier's bandwidth the operation's kernel reaches. */
  final double memoryFraction;

  /**
   * Memory seconds per byte read from the target's main tier: one byte's {@link
   * Roofline#memorySeconds}.
   */
  final double secondsPerMainTierByte;

  private OperationCost(
      double peak,
      double computeFraction,
      double secondsPerFlop,
      double secondsPerWeightByte,
      double memoryFraction,
      double mainBandwidth) {
    this.peak = peak;
    this.computeFraction = computeFraction;
    this.secondsPerFlop = secondsPerFlop;
    this.secondsPerWeightByte = secondsPerWeightByte;
    this.memoryFraction = memoryFraction;
    this.secondsPerMainTierByte = Roofline.memorySeconds(1, mainBandwidth, memoryFraction);
  }

  /**
   * The terms of {@code op} on {@code t} in {@code pool}. {@code hasFlops} says whether the
   * operation computes at all (an operation probed at several sizes may have none at one of them);
   * when it does, {@code op} must have FLOPs, as its reduction depths are FLOP-weighted.
   */
  static OperationCost of(RooflineModel pool, Operation op, ComputeTarget t, boolean hasFlops) {
    return of(pool, op, t, hasFlops, PoolOperations.weightBytesPerElement(pool, op));
  }

  /**
   * {@link #of(RooflineModel, Operation, ComputeTarget, boolean)} given the operation's bytes per
   * stored weight element, {@code bytesEach} ({@link PoolOperations#weightBytesPerElement}, which
   * depends on the pool's compute precisions and the operation alone: counted once with a step's
   * operations, {@link PoolOperations.Counted}).
   */
  static OperationCost of(
      RooflineModel pool, Operation op, ComputeTarget t, boolean hasFlops, double bytesEach) {
    return of(op, hasFlops, bytesEach, pool.layout().reductionSplit(op.role()), new Rates(pool, t));
  }

  /**
   * {@link #of(RooflineModel, Operation, ComputeTarget, boolean, double)} given the chips that
   * split the operation's reduction ({@link ParallelLayout#reductionSplit}, {@code split}) and the
   * pool's and target's {@link Rates}, which a phase reads once for all its operations.
   */
  static OperationCost of(
      Operation op, boolean hasFlops, double bytesEach, double split, Rates rates) {
    KernelClass kernel = KernelClass.of(op.role());
    boolean uniform = rates.uniform;
    Efficiency e = rates.efficiency;
    // zero FLOPs take no time even without a peak for their precision
    double peak = hasFlops ? rates.peak(op.precision()) : 0;
    double scale = hasFlops ? rates.computeScale(op.precision()) : 1;
    double large = (uniform ? rates.target.computeEfficiency() : e.compute()) * scale;
    double depth =
        uniform || !hasFlops
            ? 1
            : kernel.depthFactor(e, op, split, rates.depthScale(op.precision()));
    double half = uniform ? 0 : kernel.halfTokens(e);
    return new OperationCost(
        peak,
        hasFlops ? large : 1,
        hasFlops ? depth / (peak * large) : 0,
        half > 0 && bytesEach > 0 && hasFlops ? 2 * half / (bytesEach * peak * large) : 0,
        uniform ? rates.target.memoryEfficiency() : kernel.memoryFraction(e, rates.memory),
        rates.mainBandwidth);
  }

  /**
   * What the operations of one phase read of their pool and target, read once: the pool's {@link
   * RooflineModel#kernelEfficiency()} and whether its kernels are uniform ({@link
   * PoolOperations#uniformKernels}); per precision the peak ({@link ComputeTarget#peak}), the
   * compute scale ({@link ComputeTarget#computeScale}) and the K step's speed ({@link
   * KernelClass#depthScale}); the main tier's bandwidth and the memory efficiency. Not for sharing
   * between threads.
   */
  static final class Rates {
    private static final Precision[] PRECISIONS = Precision.values();

    final ComputeTarget target;
    final Efficiency efficiency;
    final boolean uniform;
    final double mainBandwidth;
    final double memory;
    private final double[] peak = new double[PRECISIONS.length];
    private final double[] scale = new double[PRECISIONS.length];
    private final double[] depthScale = new double[PRECISIONS.length];
    private final boolean[] read = new boolean[PRECISIONS.length];

    Rates(RooflineModel pool, ComputeTarget target) {
      this.target = target;
      this.efficiency = pool.kernelEfficiency();
      this.uniform = PoolOperations.uniformKernels(pool);
      this.mainBandwidth = target.mainBandwidth().bytesPerSecond();
      this.memory = target.memoryEfficiency();
    }

    double peak(Precision p) {
      return read(p).peak[p.ordinal()];
    }

    double computeScale(Precision p) {
      return read(p).scale[p.ordinal()];
    }

    double depthScale(Precision p) {
      return read(p).depthScale[p.ordinal()];
    }

    private Rates read(Precision p) {
      int i = p.ordinal();
      if (!read[i]) {
        peak[i] = target.peak(p).flopsPerSecond();
        scale[i] = target.computeScale(p);
        depthScale[i] = KernelClass.depthScale(target, p);
        read[i] = true;
      }
      return this;
    }
  }

  /** {@link #of(RooflineModel, Operation, ComputeTarget, boolean)} of an operation as it is. */
  static OperationCost of(RooflineModel pool, Operation op, ComputeTarget t) {
    return of(pool, op, t, op.flops().flops() > 0);
  }

  /**
   * Compute seconds of {@code flops} FLOPs on one chip whose weight bytes are {@code weightBytes}
   * (the GEMM's rows; see the class comment); 0 for no FLOPs.
   */
  double computeSeconds(double flops, double weightBytes) {
    return flops == 0 ? 0 : flops * secondsPerFlop + weightBytes * secondsPerWeightByte;
  }

  /**
   * Memory seconds of {@code bytes} all read from the target's main tier, as the product with
   * {@link #secondsPerMainTierByte}.
   */
  double mainTierMemorySeconds(double bytes) {
    return bytes * secondsPerMainTierByte;
  }

  /** The shards that divide bytes of {@code kind} over the chips of a replica. */
  static Share shareOf(DataKind kind) {
    return switch (kind) {
      case WEIGHTS -> Share.WEIGHTS;
      case KV_READ, KV_WRITE -> Share.KV;
      case ACTIVATIONS -> Share.WORK;
    };
  }
}
