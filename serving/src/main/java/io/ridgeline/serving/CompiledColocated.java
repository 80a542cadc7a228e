package io.ridgeline.serving;

import io.ridgeline.core.ComputeTarget;
import java.util.Optional;

/**
 * The points of a {@link ColocatedDeployment} at one workload, compiled: what does not depend on
 * the batch (the decode context, the step's fixed overhead, the largest batch that fits, the
 * batches whose bytes all sit on the main tier) is computed once, and each batch's decode step,
 * prefill share and TTFT chunk (each prefill joining the decode step's kernels) are loops over
 * {@link CompiledStep}'s coefficients. The point is composed by {@link
 * ColocatedDeployment#point(int, Workload, double, double, double, boolean)}, as the object path
 * composes it, so TTFT, costs and checks are the same code.
 *
 * <p>Not compiled (the object path answers, {@link #of} empty): speculative decoding, offloaded KV
 * ({@link KvOffload}), pipeline parallelism, a MoE all-to-all across scale-up domains, and any step
 * whose coefficients do not reproduce the object path ({@link CompiledStep}). A batch whose weights
 * spill off the main tier (GB200's LPDDR5X as the KV cache grows) reads them from each tier in its
 * share ({@link CompiledStep.Tiers} of {@link MemoryPlan#placed}, as the object path places them).
 */
final class CompiledColocated implements PointsAt {
  private final ColocatedDeployment deployment;
  private final Workload workload;
  private final CompiledStep decode;
  private final CompiledStep prefill;
  private final int[] pairs;
  private final double chunkPrompts;
  private final int isl;
  private final int osl;
  private final double decodePasses;
  private final double decodeHandOff;
  private final double decodeOverhead;
  private final int largestFit;
  private final int decodeOnMainTier;
  private final int prefillOnMainTier;
  private final RooflineModel pool;
  private final int decodeContext;
  private final int prefillContext;
  // the TTFT chunk's tiers (one prompt or less), null on the main tier
  private final CompiledStep.Tiers chunkTiers;
  // the TTFT chunk's own prefill pass, its step at batch 1 (ColocatedDeployment.chunkStep)
  private final double chunkAlone;

  private CompiledColocated(
      ColocatedDeployment d, Workload w, CompiledStep decode, CompiledStep prefill) {
    RooflineModel pool = d.pool();
    this.pool = pool;
    this.deployment = d;
    // the object path's hoisted part, for its checks: it throws where the TTFT chunk's prefill
    // fails
    d.at(w);
    this.workload = w;
    this.decode = decode;
    this.prefill = prefill;
    this.isl = w.inputTokens();
    this.osl = w.outputTokens();
    this.pairs = prefill.pairWith(decode);
    this.chunkPrompts = ColocatedDeployment.chunkPrompts(w);
    int context = ColocatedDeployment.decodeContext(w);
    this.decodeContext = context;
    this.prefillContext = w.cachedAtPrefill() + w.newTokens();
    StepResult one = pool.decode(1, context);
    decodePasses = one.passes();
    decodeHandOff = one.p2pSeconds().seconds();
    decodeOverhead = one.overheadSeconds().seconds();
    largestFit = pool.maxBatch(w.finalContext());
    decodeOnMainTier = onMainTier(pool, context);
    prefillOnMainTier = onMainTier(pool, prefillContext);
    chunkTiers = tiers(prefillPrompts(chunkPrompts), prefillContext);
    chunkAlone =
        pool.prefill(chunkPrompts, w.newTokens(), w.cachedAtPrefill(), 1).seconds().seconds();
  }

  /** The prompts a prefill of {@code prompts} (a mean) is placed for: at least one, rounded up. */
  private static int prefillPrompts(double prompts) {
    return (int) Math.max(1, Math.ceil(prompts));
  }

  /**
   * The tiers of {@code batch} sequences at {@code context} ({@link MemoryPlan#placed}), or null
   * when every byte is on the main tier.
   */
  private CompiledStep.Tiers tiers(int batch, int context) {
    ComputeTarget t = MemoryPlan.placed(pool, batch, context);
    return t == pool.baseTarget() ? null : CompiledStep.Tiers.of(t);
  }

  /**
   * {@code d}'s points at workload {@code w}, compiled, or empty when they do not compile (see the
   * class comment).
   *
   * @throws IllegalArgumentException when a length is out of range, or the TTFT chunk's prefill
   *     fails, as {@link ColocatedDeployment#at} throws
   */
  static Optional<PointsAt> of(ColocatedDeployment d, Workload w) {
    Deployments.checkPoint(1, w.inputTokens(), w.outputTokens());
    RooflineModel pool = d.pool();
    if (d.speculation().isPresent() || pool.kvOffload() != KvOffload.NONE) {
      // speculation's verify passes and offloaded KV (its fetch, its reads from a slower tier) are
      // not compiled: the object path evaluates them
      return Optional.empty();
    }
    Optional<CompiledStep> decode =
        CompiledSteps.decode(pool, ColocatedDeployment.decodeContext(w), 1);
    if (decode.isEmpty()) {
      return Optional.empty();
    }
    Optional<CompiledStep> prefill = CompiledSteps.prefill(pool, w);
    if (prefill.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new CompiledColocated(d, w, decode.get(), prefill.get()));
  }

  /**
   * The largest batch whose step reads every byte from the main tier at {@code context} (the target
   * {@link MemoryPlan#placed} gives is the pool's base target): all of them on a one-tier chip; on
   * a tiered chip the weights spill as the KV cache grows with the batch.
   */
  private static int onMainTier(RooflineModel pool, int context) {
    if (pool.chip().memory().size() == 1) {
      return Integer.MAX_VALUE;
    }
    ComputeTarget base = pool.baseTarget();
    return BatchSearch.largest(b -> MemoryPlan.placed(pool, b, context) == base);
  }

  @Override
  public FrontierPoint point(int batch) {
    Deployments.checkPoint(batch, isl, osl);
    double prompts = (double) batch / osl;
    int sharePrompts = prefillPrompts(prompts);
    // each step's bytes from the tiers the object path places them on (null: all on the main
    // tier): the decode step at its sequences, a prefill at its prompts
    CompiledStep.Tiers decodeTiers = decodeTiers(batch);
    CompiledStep.Tiers shareTiers =
        sharePrompts <= prefillOnMainTier ? null : tiers(sharePrompts, prefillContext);
    double step = decodeSeconds(batch, decodeTiers);
    // prefillWithoutWeights at one pass without a pipeline hand-off, joining the decode kernels
    double share = prefill.ridingSeconds(prompts, shareTiers, decode, batch, decodeTiers, pairs);
    // the TTFT chunk rides the decode of the batch's other batch - 1 sequences
    int others = batch - 1;
    double chunk = chunkAlone;
    if (others > 0) {
      CompiledStep.Tiers othersTiers = decodeTiers(others);
      chunk =
          decodeSeconds(others, othersTiers)
              + prefill.ridingSeconds(chunkPrompts, chunkTiers, decode, others, othersTiers, pairs);
    }
    return deployment.point(batch, workload, chunk, step, share, batch <= largestFit);
  }

  /** The tiers of a decode step of {@code batch} sequences; null when all are on the main tier. */
  private CompiledStep.Tiers decodeTiers(int batch) {
    return batch <= decodeOnMainTier ? null : tiers(batch, decodeContext);
  }

  /**
   * RooflineModel.decode's time: passes × (stage + hand-off + overhead), the stage's bytes on
   * {@code tiers} (null: the main tier).
   */
  private double decodeSeconds(int batch, CompiledStep.Tiers tiers) {
    return decodePasses * (decode.stageSeconds(batch, tiers) + decodeHandOff + decodeOverhead);
  }

  /**
   * The decode step's utilisation at {@code batch} ({@link Deployment#decodeUtilisation} at the
   * workload's prompt context).
   */
  Utilisation decodeUtilisation(int batch) {
    Deployments.checkPoint(batch, isl, osl);
    // a step's FLOPs and bytes do not depend on their tiers, its time does
    return decode.utilisation(batch, decodeSeconds(batch, decodeTiers(batch)));
  }
}
