package io.ridgeline.serving;

import java.util.Optional;

/**
 * A pool's decode step at one context, compiled ({@link CompiledSteps#decode}): its time at any
 * batch as {@link RooflineModel#decode(int, int)} gives it ({@link StepResult#seconds()}: passes ×
 * the longer of the device's pass, stage + pipeline hand-off + the kernels' fixed cost, and the
 * host's step work), each operation's bytes read from the tiers the object path places them on
 * ({@link MemoryPlan#placed}, batch by batch through {@link WeightSpill}). The compiled stage
 * equals the object path's to the last digit or two ({@link CompiledSteps} checks it); {@link
 * CompiledColocated} composes its points from it.
 */
final class CompiledDecode {
  /** The compiled step, in sequences per micro-batch. */
  final CompiledStep step;

  /** RooflineModel.decode's passes (pp), none of which depends on the batch or the context. */
  final double passes;

  /** The pipeline hand-off of one token, seconds. */
  final double handOff;

  /** The kernels' fixed cost per pass on the device, seconds. */
  final double overhead;

  /** The step's host work, seconds, overlapping the device's pass. */
  final double host;

  /** Where the weights of a step sit batch by batch; null on a chip of one memory tier. */
  final WeightSpill spill;

  /** The largest batch whose bytes all sit on the main tier (Integer.MAX_VALUE: every batch). */
  final int onMainTier;

  private final RooflineModel pool;

  private CompiledDecode(RooflineModel pool, CompiledStep step, int context) {
    this.pool = pool;
    this.step = step;
    passes = pool.pipelineParallel();
    handOff = Collectives.handOff(pool, 1).seconds();
    overhead = PoolOperations.passOverhead(pool, pool.kernels()).seconds();
    host = PoolOperations.decodeHost(pool, pool.kernels()).seconds();
    spill = pool.chip().memory().size() > 1 ? WeightSpill.of(pool, context) : null;
    onMainTier = WeightSpill.onMainTier(pool, context, spill);
  }

  /**
   * {@code pool}'s decode step at {@code context} cached tokens, compiled; empty when it does not
   * compile ({@link CompiledSteps#obstacle}, offloaded KV, or a step whose coefficients do not
   * reproduce the object path).
   */
  static Optional<CompiledDecode> of(RooflineModel pool, int context) {
    if (pool.kvOffload() != KvOffload.NONE || CompiledSteps.obstacle(pool).isPresent()) {
      return Optional.empty();
    }
    return CompiledSteps.decode(pool, context, 1).map(s -> new CompiledDecode(pool, s, context));
  }

  /**
   * The step's time from a stage that takes {@code stage} seconds ({@link StepResult#seconds()}).
   */
  double seconds(double stage) {
    return passes * StepResult.passSeconds(device(stage), host);
  }

  /** The device's pass of a stage that takes {@code stage} seconds (StepResult.deviceSeconds). */
  double device(double stage) {
    return StepResult.deviceSeconds(stage, handOff, overhead);
  }

  /** The tiers of a step of {@code batch} sequences; null when all are on the main tier. */
  StepTiers tiers(int batch) {
    return batch <= onMainTier ? null : StepTiers.placed(pool.baseTarget(), spill, batch);
  }

  /**
   * The step's time at {@code batch} sequences, its operations' times into {@code compute} and
   * {@code memory} (one slot per operation).
   */
  double secondsAt(int batch, double[] compute, double[] memory) {
    step.operationTimes(batch, tiers(batch), compute, memory);
    return seconds(step.stageSeconds(batch, compute, memory));
  }
}
