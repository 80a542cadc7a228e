package io.ridgeline.serving;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.serving.PointsAt.SlowPath;
import java.util.Optional;

/**
 * The points of a {@link ColocatedDeployment} at one workload, compiled: what does not depend on
 * the batch (the decode context, the step's fixed overhead, the largest batch that fits, the
 * batches whose bytes all sit on the main tier) is computed once, and each batch's decode step,
 * prefill share and TTFT chunk (each prefill joining the decode step's kernels) are loops over
 * {@link CompiledStep}'s coefficients. The point is composed by {@link
 * ColocatedDeployment#point(int, Workload, double, double, double, double, boolean)}, as the object
 * path composes it, so TTFT, costs and checks are the same code.
 *
 * <p>Not compiled (the object path answers, {@link #of} empty): speculative decoding, offloaded KV
 * ({@link KvOffload}), pipeline parallelism, a MoE all-to-all across scale-up domains, and any step
 * whose coefficients do not reproduce the object path ({@link CompiledStep}). A batch whose weights
 * spill off the main tier (GB200's LPDDR5X as the KV cache grows) reads them from each tier in its
 * share, as the object path places them ({@link MemoryPlan#placed}); {@link WeightSpill} gives the
 * shares batch by batch in primitives.
 */
final class CompiledColocated implements PointsAt {
  private final ColocatedDeployment deployment;
  private final Workload workload;
  private final CompiledDecode decoding;
  private final CompiledStep decode; // decoding's step
  private final CompiledStep prefill;
  private final int[] pairs;
  private final double chunkPrompts;
  private final int isl;
  private final int osl;
  private final int prefillOnMainTier;
  private final RooflineModel pool;
  // where the weights of a prefill share sit batch by batch (null: one tier)
  private final WeightSpill prefillSpill;
  // the TTFT chunk's side of its riding step (one prompt or less, on its tiers): every batch's
  private final RidingSide chunkSide;
  // the TTFT chunk's own prefill pass, its step at batch 1 (ColocatedDeployment.chunkStep)
  private final double chunkAlone;
  // what ColocatedDeployment.point composes a point with, fixed for the workload
  private final PointComposition composition;
  // point()'s working arrays
  private PointBlock scratch;

  private CompiledColocated(
      ColocatedDeployment d,
      Workload w,
      CompiledDecode decoding,
      CompiledStep prefill,
      SharedPrefill shared) {
    RooflineModel pool = d.pool();
    this.pool = pool;
    this.deployment = d;
    // the object path's hoisted part (it throws where the TTFT chunk's prefill fails): the chunk's
    // own prefill pass, its step at batch 1
    if (Double.isNaN(shared.chunkAlone)) {
      shared.chunkAlone = d.chunkAlone(w);
    }
    chunkAlone = shared.chunkAlone;
    this.workload = w;
    this.decoding = decoding;
    this.decode = decoding.step;
    this.prefill = prefill;
    this.isl = w.inputTokens();
    this.osl = w.outputTokens();
    this.pairs = prefill.pairWith(decode);
    this.chunkPrompts = ColocatedDeployment.chunkPrompts(w);
    int prefillContext = w.cachedAtPrefill() + w.newTokens();
    boolean tiered = pool.chip().memory().size() > 1;
    prefillSpill = tiered ? WeightSpill.of(pool, prefillContext) : null;
    if (shared.chunkSide == null) {
      shared.onMainTier = WeightSpill.onMainTier(pool, prefillContext, prefillSpill);
      RidingSide side = new RidingSide();
      side.fill(
          prefill,
          chunkPrompts,
          StepTiers.placed(pool.baseTarget(), prefillSpill, prefillPrompts(chunkPrompts)));
      shared.chunkSide = side;
    }
    prefillOnMainTier = shared.onMainTier;
    chunkSide = shared.chunkSide;
    composition = new PointComposition(d, w);
  }

  /** The prompts a prefill of {@code prompts} (a mean) is placed for: at least one, rounded up. */
  private static int prefillPrompts(double prompts) {
    return (int) Math.max(1, Math.ceil(prompts));
  }

  /**
   * {@code d}'s points at workload {@code w}, compiled, or empty when they do not compile (see the
   * class comment and {@link #at}).
   *
   * @throws IllegalArgumentException when a length is out of range, or the TTFT chunk's prefill
   *     fails, as {@link ColocatedDeployment#at} throws
   */
  static Optional<PointsAt> of(ColocatedDeployment d, Workload w) {
    PointsAt at = at(d, w, null);
    return at.slowPath().isPresent() ? Optional.empty() : Optional.of(at);
  }

  /**
   * {@code d}'s points at workload {@code w}: compiled, or the object path's ({@link
   * ColocatedDeployment#at}) with the reason they are not ({@link PointsAt#slowPath}); what
   * workloads of the same pool, new and cached tokens share is taken from {@code shared} when it
   * holds it (and kept there otherwise), null: nothing shared.
   *
   * @throws IllegalArgumentException as {@link #of(ColocatedDeployment, Workload)} throws
   */
  static PointsAt at(ColocatedDeployment d, Workload w, SharedPrefill shared) {
    Deployments.checkPoint(1, w.inputTokens(), w.outputTokens());
    SharedPrefill kept = shared == null ? new SharedPrefill() : shared;
    RooflineModel pool = d.pool();
    // speculation's verify passes and offloaded KV (its fetch, its reads from a slower tier) are
    // not compiled, nor are the steps CompiledSteps refuses: the object path evaluates them
    Optional<SlowPath> obstacle =
        d.speculation().isPresent()
            ? Optional.of(SlowPath.SPECULATIVE_DECODING)
            : pool.kvOffload() != KvOffload.NONE
                ? Optional.of(SlowPath.KV_OFFLOAD)
                : CompiledSteps.obstacle(pool);
    if (obstacle.isPresent()) {
      return Deployments.slowPath(d.at(w), obstacle.get());
    }
    Optional<CompiledDecode> decode = CompiledDecode.of(pool, ColocatedDeployment.decodeContext(w));
    if (decode.isEmpty()) {
      return Deployments.slowPath(d.at(w), SlowPath.NOT_REPRODUCED);
    }
    if (!kept.holds(pool, w)) {
      kept.hold(pool, w, CompiledSteps.prefill(pool, w));
    }
    Optional<CompiledStep> prefill = kept.step;
    if (prefill.isEmpty()) {
      return Deployments.slowPath(d.at(w), SlowPath.NOT_REPRODUCED);
    }
    return new CompiledColocated(d, w, decode.get(), prefill.get(), kept);
  }

  @Override
  public Optional<SlowPath> slowPath() {
    return Optional.empty();
  }

  @Override
  public FrontierPoint point(int batch) {
    Deployments.checkPoint(batch, isl, osl);
    if (scratch == null) {
      scratch = new PointBlock();
    }
    PointBlock s = scratch;
    own(s);
    evaluate(batch, s);
    return deployment.point(
        batch,
        workload,
        s.chunkSeconds,
        s.stepSeconds,
        s.shareSeconds,
        s.othersSeconds,
        composition.fits(batch));
  }

  /**
   * The points of {@code batches[from]} to {@code batches[to − 1]} into {@code out} (emptied
   * first), as {@link #point} gives them, without an object per point: the same step times,
   * composed as {@link ColocatedDeployment#point(int, Workload, double, double, double, double,
   * boolean)} composes them (TTFT parts, tokens per second, costs), in the same order of operations
   * so that every figure is the same double. Consecutive batches share the decode step of {@code
   * batch − 1} sequences (the previous batch's step, which the TTFT chunk rides).
   *
   * @return {@code to}, or the index of the first batch whose point the object path rejects (a
   *     batch out of range, or a figure that is negative or not finite): {@link #point} throws the
   *     object path's exception for it, and the points before it are in {@code out}
   */
  @Override
  public int points(int[] batches, int from, int to, PointBlock out) {
    out.start(to - from, composition.chips());
    own(out);
    int k = from;
    while (k < to) {
      int n = out.utilisation ? 0 : blockRows(batches, k, Math.min(to, k + PointBlock.BLOCK_ROWS));
      if (n > 1 && evaluateBlock(batches, k, n, out)) {
        for (int r = 0; r < n; r++) {
          out.stepSeconds = out.decodeTimes[out.ownStep[r]];
          out.shareSeconds = out.blockShare[r];
          out.othersSeconds = out.blockOthers[r];
          out.chunkSeconds = out.blockChunk[r];
          if (!composition.add(batches[k + r], out)) {
            return k + r;
          }
        }
        k += n;
        continue;
      }
      int batch = batches[k];
      if (batch < 1 || batch > Limits.MAX_BATCH) {
        return k;
      }
      try {
        evaluate(batch, out);
      } catch (IllegalArgumentException e) {
        return k;
      }
      if (!composition.add(batch, out)) {
        return k;
      }
      k++;
    }
    return to;
  }

  /**
   * How many of the batches {@code batches[from..to)}, from the first, can be evaluated as one
   * block ({@link #evaluateBlock}): each in range, its decode step (and its others') and its
   * prefill share reading every byte from the main tier.
   */
  private int blockRows(int[] batches, int from, int to) {
    boolean oneTier =
        decoding.onMainTier == Integer.MAX_VALUE && prefillOnMainTier == Integer.MAX_VALUE;
    int k = from;
    while (k < to) {
      int batch = batches[k];
      if (batch < 1
          || batch > Limits.MAX_BATCH
          || (!oneTier
              && (batch > decoding.onMainTier
                  || prefillPrompts((double) batch / osl) > prefillOnMainTier))) {
        break;
      }
      k++;
    }
    return k - from;
  }

  /**
   * The step times of the {@code n} batches {@code batches[from..from + n)} into {@code s} ({@link
   * PointBlock#decodeTimes} at {@link PointBlock#ownStep}, {@link PointBlock#blockShare}, {@link
   * PointBlock#blockChunk}), each the double {@link #evaluate} gives: the decode steps of the
   * batches and of their others ({@code batch − 1}, shared with the previous row when that is its
   * batch), the prefill shares and the TTFT chunks, evaluated operation by operation over the block
   * ({@link StepBlock#times}). All bytes on the main tier ({@link #blockRows}). False, with {@code
   * s} unusable, when the arithmetic rejects a size; the rows then go point by point.
   */
  private boolean evaluateBlock(int[] batches, int from, int n, PointBlock s) {
    double[] sizes = s.decodeSizes;
    int m = 0;
    for (int r = 0; r < n; r++) {
      int batch = batches[from + r];
      int others = batch - 1;
      if (others < 1) {
        s.othersStep[r] = -1;
      } else if (r > 0 && batches[from + r - 1] == others) {
        s.othersStep[r] = s.ownStep[r - 1];
      } else {
        sizes[m] = others;
        s.othersStep[r] = m++;
      }
      s.othersRiding[r] = Math.max(0, s.othersStep[r]);
      sizes[m] = batch;
      s.ownStep[r] = m++;
      s.prompts[r] = (double) batch / osl;
      // the others' prompts (none at batch 1: its row takes any valid size and 0 below)
      s.othersPrompts[r] = batch > 1 ? ColocatedDeployment.othersPrompts(batch, osl) : s.prompts[r];
    }
    s.lastBatch = -1; // the per-point arrays no longer hold the previous batch's step
    try {
      s.decodeBlock.times(decode, sizes, m, false);
      s.decodeBlock.stageSeconds(decode, sizes, m, s.decodeStage);
      for (int j = 0; j < m; j++) {
        s.decodeTimes[j] = decodeSeconds(s.decodeStage[j]);
      }
      // prefillWithoutWeights at one pass without a pipeline hand-off, joining the decode kernels
      s.shareBlock.times(prefill, s.prompts, n, true);
      StepBlock.ridingSeconds(
          prefill,
          s.shareBlock,
          chunkSide,
          chunkPrompts,
          n,
          s.decodeBlock,
          s.ownStep,
          pairs,
          s.blockShare);
      s.othersBlock.times(prefill, s.othersPrompts, n, true);
      StepBlock.ridingSeconds(
          prefill,
          s.othersBlock,
          chunkSide,
          chunkPrompts,
          n,
          s.decodeBlock,
          s.ownStep,
          pairs,
          s.blockOthers);
      // the TTFT chunk rides the decode of the batch's other batch - 1 sequences
      // (a batch of one has no others: its row rides any size and takes chunkAlone below)
      StepBlock.ridingSeconds(
          prefill,
          null,
          chunkSide,
          chunkPrompts,
          n,
          s.decodeBlock,
          s.othersRiding,
          pairs,
          s.blockChunk);
    } catch (IllegalArgumentException e) {
      return false;
    }
    s.rideDecodeSteps(n, decoding.handOff, decoding.overhead, chunkAlone);
    return true;
  }

  /** Makes {@code s} this workload's working arrays, emptied when they were another's. */
  private void own(PointBlock s) {
    if (s.owner != this) {
      s.owner = this;
      s.lastBatch = -1;
      s.operations(decode.operations());
      ComputeTarget base = pool.baseTarget();
      s.decodeTiers = decoding.spill == null ? null : StepTiers.view(base, decoding.spill);
      s.shareTiers = prefillSpill == null ? null : StepTiers.view(base, prefillSpill);
    }
  }

  /**
   * The tiers of a decode step of {@code batch} sequences (null: all on the main tier), in {@code
   * s}'s view, valid until the next call.
   */
  private StepTiers decodeTiers(int batch, PointBlock s) {
    return batch <= decoding.onMainTier ? null : s.decodeTiers.at(decoding.spill, batch);
  }

  /**
   * The tiers of a prefill share of {@code prompts} prompts (null: all on the main tier), in {@code
   * s}'s view, valid until the next call.
   */
  private StepTiers shareTiers(int prompts, PointBlock s) {
    return prompts <= prefillOnMainTier ? null : s.shareTiers.at(prefillSpill, prompts);
  }

  /**
   * The step times of {@code batch} into {@code s}: its decode step, the prefill share riding it
   * and one step of the TTFT chunk, which rides the decode of the batch's other {@code batch − 1}
   * sequences (taken from {@code s} when it holds that step, the previous batch's).
   */
  private void evaluate(int batch, PointBlock s) {
    double prompts = (double) batch / osl;
    // each step's bytes from the tiers the object path places them on (null: all on the main
    // tier): the decode step at its sequences, a prefill at its prompts
    if (s.utilisation) {
      decode.operationTimes(
          batch, decodeTiers(batch, s), s.compute, s.memory, s.weights, s.memoryBytes, s.flops);
    } else {
      decode.operationTimes(batch, decodeTiers(batch, s), s.compute, s.memory, s.weights);
    }
    double stage = decode.stageSeconds(batch, s.compute, s.memory);
    double step = decodeSeconds(stage);
    if (s.utilisation) {
      s.stepUtilisation = decode.utilisation(batch, s.memoryBytes, s.flops, step);
    }
    // prefillWithoutWeights at one pass without a pipeline hand-off, joining the decode kernels
    double share = riding(s.share, prompts, chunkSide, chunkPrompts, batch, step, stage, s);
    // the others' prefill share of a request's own decode steps, none at batch 1
    double othersShare = 0;
    if (batch > 1) {
      double others = ColocatedDeployment.othersPrompts(batch, osl);
      othersShare = riding(s.othersShare, others, chunkSide, chunkPrompts, batch, step, stage, s);
    }
    // the TTFT chunk rides the decode of the batch's other batch - 1 sequences
    int others = batch - 1;
    double chunk = chunkAlone;
    if (others > 0) {
      if (s.lastBatch != others) {
        s.lastBatch = -1; // until the arrays hold the others' step
        decode.operationTimes(
            others, decodeTiers(others, s), s.lastCompute, s.lastMemory, s.lastWeights);
        double othersStage = decode.stageSeconds(others, s.lastCompute, s.lastMemory);
        s.lastDecodeSeconds = decodeSeconds(othersStage);
        s.lastDecodeDevice = decodeDevice(othersStage);
        s.lastBatch = others;
      }
      chunk =
          s.lastDecodeSeconds
              + StepResult.ridingExtraSeconds(
                  s.lastDecodeSeconds,
                  s.lastDecodeDevice,
                  chunkSide.ridingSeconds(
                      prefill,
                      chunkSide,
                      chunkPrompts,
                      s.lastCompute,
                      s.lastMemory,
                      s.lastWeights,
                      others <= decoding.onMainTier,
                      pairs));
    }
    s.keep(batch, step, decodeDevice(stage));
    s.stepSeconds = step;
    s.shareSeconds = share;
    s.othersSeconds = othersShare;
    s.chunkSeconds = chunk;
  }

  /**
   * A step of a burst or closed-loop run ({@link ColocatedDeployment#closedLoop}): the decode step
   * of {@code decoding} sequences (at least 1) with {@code prompts} prompts' new tokens riding it
   * as one chunk, the chunk its own ({@code prompts} 0: the decode step alone), as the object path
   * times it: {@code decode + ridingExtraSeconds(decode, device, riding)}, the riding time that of
   * {@link #evaluate}'s prefill share with the chunk in the TTFT chunk's place.
   *
   * @throws IllegalArgumentException as the object path for a size it rejects
   */
  double runStep(int decoding, double prompts) {
    if (scratch == null) {
      scratch = new PointBlock();
    }
    PointBlock s = scratch;
    own(s);
    s.lastBatch = -1; // the working arrays no longer hold a point's others' step
    decode.operationTimes(decoding, decodeTiers(decoding, s), s.compute, s.memory, s.weights);
    double stage = decode.stageSeconds(decoding, s.compute, s.memory);
    double step = decodeSeconds(stage);
    if (prompts == 0) {
      return step;
    }
    return step + riding(s.share, prompts, s.share, prompts, decoding, step, stage, s);
  }

  /**
   * The extra seconds of a prefill of {@code prompts} prompts riding the decode step of {@code
   * batch} sequences whose operation times {@code s} holds ({@code step} seconds, a stage of {@code
   * stage}): {@code side} filled with the prefill on its tiers, its riding time with {@code chunk}
   * ({@code chunkPrompts} prompts; the side itself for a chunk of its own) carrying the unshared
   * weight reads ({@link RidingSide#ridingSeconds}), on the device's idle time first ({@link
   * StepResult#ridingExtraSeconds}).
   */
  private double riding(
      RidingSide side,
      double prompts,
      RidingSide chunk,
      double chunkPrompts,
      int batch,
      double step,
      double stage,
      PointBlock s) {
    side.fill(prefill, prompts, shareTiers(prefillPrompts(prompts), s));
    return StepResult.ridingExtraSeconds(
        step,
        decodeDevice(stage),
        side.ridingSeconds(
            prefill,
            chunk,
            chunkPrompts,
            s.compute,
            s.memory,
            s.weights,
            batch <= decoding.onMainTier,
            pairs));
  }

  /** The decode step's time from a stage that takes {@code stage} ({@link CompiledDecode}). */
  private double decodeSeconds(double stage) {
    return decoding.seconds(stage);
  }

  /** The device's pass of a decode stage that takes {@code stage} ({@link CompiledDecode}). */
  private double decodeDevice(double stage) {
    return decoding.device(stage);
  }

  /**
   * The decode step's utilisation at {@code batch} ({@link Deployment#decodeUtilisation} at the
   * workload's prompt context).
   */
  Utilisation decodeUtilisation(int batch) {
    Deployments.checkPoint(batch, isl, osl);
    // one pass over the operations gives the step's time (on its tiers) and its FLOPs and bytes
    int n = decode.operations();
    double[] compute = new double[n];
    double[] memory = new double[n];
    double[] memoryBytes = new double[n];
    double[] flops = new double[n];
    decode.operationTimes(batch, decoding.tiers(batch), compute, memory, null, memoryBytes, flops);
    return decode.utilisation(
        batch, memoryBytes, flops, decodeSeconds(decode.stageSeconds(batch, compute, memory)));
  }
}
