package io.ridgeline.serving;

/**
 * A prefill step's side of its riding a decode step at one size x ({@link #fill}; {@link
 * ColocatedDeployment#prefillWithoutWeights} on the compiled path): per operation its compute time
 * and its memory time less the weights' share ({@link RidingPrefill#withoutWeights}) on one chip,
 * and per collective its riding time (its bandwidth time without the per-hop latency); a reused
 * scratch, not shared between threads.
 */
final class RidingSide {
  double[] compute = new double[0];
  double[] withoutWeights = new double[0];
  double[] collective = new double[0];
  double[] memory = new double[0];
  double[] weightBytes = new double[0];
  double[] memoryBytes = new double[0];
  boolean mainTier = true; // every byte read from the main tier
  double x; // the prompts of the prefill

  private void size(int ops, int collectives) {
    if (compute.length < ops) {
      compute = new double[ops];
      withoutWeights = new double[ops];
      memory = new double[ops];
      weightBytes = new double[ops];
      memoryBytes = new double[ops];
    }
    if (collective.length < collectives) {
      collective = new double[collectives];
    }
  }

  /**
   * Fills this with the prefill step {@code step}'s side of {@code x} prompts' prefill riding a
   * decode step, its bytes read from the tiers of {@code tiers} (null: the main tier), for {@link
   * #ridingSeconds}.
   */
  void fill(CompiledStep step, double x, StepTiers tiers) {
    size(step.ops, step.collectives);
    step.times(x, tiers, this.compute, this.memory, this.memoryBytes, this.weightBytes, null);
    this.mainTier = tiers == null;
    this.x = x;
    for (int i = 0; i < step.ops; i++) {
      this.withoutWeights[i] =
          tiers == null
              ? CompiledStep.mainTierWithoutWeights(
                  step.cost[i].secondsPerMainTierByte, this.weightBytes[i], this.memoryBytes[i])
              : RidingPrefill.withoutWeights(
                  this.memory[i], this.weightBytes[i], this.memoryBytes[i]);
    }
    for (int c = 0; c < step.collectives; c++) {
      this.collective[c] = step.ridingCollective(c, x);
    }
  }

  /**
   * The time of a prefill riding a decode step, one stage ({@link
   * ColocatedDeployment#prefillWithoutWeights} for one pipeline stage and pass): the prefill step
   * {@code step}'s side, this ({@link #fill}), operation i joining the kernel of the running step's
   * operation {@code pairs[i]} ({@link CompiledStep#pairWith}; −1: none), whose times are {@code
   * runningCompute} and {@code runningMemory} and whose weight bytes are {@code runningWeights}
   * ({@link CompiledStep#operationTimes(double, StepTiers, double[], double[], double[])} of the
   * running step at its size): a joined operation is credited the weights the running kernel's read
   * serves ({@link CompiledStep#sharedWithoutWeights}, {@code chunk} the workload's TTFT chunk of
   * {@code chunkPrompts} prompts) when both steps read every byte from the main tier ({@code
   * runningMainTier}, {@link #mainTier}; {@link RidingPrefill#onMainTier}), an operation with none
   * to join, or off the main tier, all of its this.
   */
  double ridingSeconds(
      CompiledStep step,
      RidingSide chunk,
      double chunkPrompts,
      double[] runningCompute,
      double[] runningMemory,
      double[] runningWeights,
      boolean runningMainTier,
      int[] pairs) {
    boolean shares = this.mainTier && runningMainTier;
    double chunksPerStep = this.x / chunkPrompts;
    double stage = 0;
    for (int i = 0; i < step.ops; i++) {
      int j = pairs[i];
      double compute = 0;
      double memory = 0;
      double withoutWeights = this.withoutWeights[i];
      if (j >= 0) {
        compute = runningCompute[j];
        memory = runningMemory[j];
        if (shares && step.routed[i]) {
          withoutWeights =
              step.sharedWithoutWeights(
                  i,
                  withoutWeights,
                  this.weightBytes[i],
                  this.memoryBytes[i],
                  chunk.weightBytes[i],
                  runningWeights[j],
                  chunksPerStep);
        }
      }
      stage += RidingPrefill.joinedSeconds(this.compute[i], withoutWeights, 0, 0, compute, memory);
    }
    for (int c = 0; c < step.collectives; c++) {
      stage += this.collective[c];
    }
    return stage;
  }
}
