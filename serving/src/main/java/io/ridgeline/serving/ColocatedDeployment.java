package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkNotNull;

import io.ridgeline.core.DataKind;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Seconds;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Colocated serving on one pool: continuous batching with chunked prefill (see {@link Deployment}).
 *
 * @param pool the pool that prefills and decodes
 * @param speculation speculative decoding, if on
 * @param price a price per chip-hour overriding the catalog's
 */
public record ColocatedDeployment(
    RooflineModel pool, Optional<Speculation> speculation, Optional<DollarsPerHour> price)
    implements SinglePoolDeployment {
  /**
   * Validates the components.
   *
   * @throws NullPointerException when one is null
   */
  public ColocatedDeployment {
    checkNotNull(pool, "pool");
    Deployments.checkOptions(speculation, price);
  }

  /** Colocated serving on {@code pool}, without speculation or a price override. */
  public ColocatedDeployment(RooflineModel pool) {
    this(pool, Optional.empty(), Optional.empty());
  }

  @Override
  public Strategy strategy() {
    return Strategy.COLOCATED;
  }

  @Override
  public ColocatedDeployment withSpeculation(Speculation value) {
    return new ColocatedDeployment(pool, Optional.of(value), price);
  }

  @Override
  public ColocatedDeployment withPrice(DollarsPerHour value) {
    return new ColocatedDeployment(pool, speculation, Optional.of(value));
  }

  @Override
  public FrontierPoint point(int batch, Workload w) {
    Deployments.checkPoint(batch, w.inputTokens(), w.outputTokens());
    return point(batch, w, chunkPrefill(w));
  }

  /**
   * {@link #point} of every batch of workload {@code w}, with the TTFT chunk's prefill, which does
   * not depend on the batch, computed once: the same arithmetic, so the same points.
   */
  PointsAt at(Workload w) {
    Deployments.checkPoint(1, w.inputTokens(), w.outputTokens());
    double chunkPrefill = chunkPrefill(w);
    return batch -> {
      Deployments.checkPoint(batch, w.inputTokens(), w.outputTokens());
      return point(batch, w, chunkPrefill);
    };
  }

  FrontierPoint point(int batch, Workload w, double chunkPrefill) {
    int osl = w.outputTokens();
    double decode = SpeculativeDecoding.decodeTpot(speculation, pool, batch, decodeContext(w));
    // prefill share of a step: batch/osl prompts on average, riding the decode part's weight reads
    // and collectives (prefillWithoutWeights)
    double prefillShare = prefillWithoutWeights(pool, (double) batch / osl, w);
    return point(
        batch,
        w,
        chunkPrefill,
        decode,
        prefillShare,
        pool.memory(batch, w.finalContext()).fits()
            && SpeculativeDecoding.fitsWithDraft(speculation, pool, batch, w.finalContext()));
  }

  /** The context a decode step is costed at: the prompt's plus half the output (at least 1). */
  static int decodeContext(Workload w) {
    return w.promptContext() + Math.max(1, w.outputTokens() / 2);
  }

  /**
   * The point of {@code batch} from its parts: the decode TPOT ({@link SpeculativeDecoding}), the
   * prefill share of a step ({@link #prefillWithoutWeights}, at {@code batch / osl} prompts), the
   * TTFT chunk's prefill and whether the batch fits; {@link CompiledColocated} composes its points
   * here too.
   */
  FrontierPoint point(
      int batch,
      Workload w,
      double chunkPrefill,
      double decode,
      double prefillShare,
      boolean fits) {
    double tpot = decode + prefillShare;
    double ttft = ttftParts(batch, decode, tpot, w, chunkPrefill).total().seconds();
    double perChip = batch / tpot / pool.replicaChips();
    return ServingCosts.onePool(
        ImmutableFrontierPoint.builder()
            .batch(batch)
            .ttft(Seconds.of(ttft))
            .tpot(Seconds.of(tpot))
            .tokensPerSecondPerUser(1 / tpot)
            .tokensPerSecondPerChip(perChip)
            .fits(fits),
        strategy(),
        pool,
        price,
        perChip,
        pool.replicaChips(),
        speculation.map(Speculation::toString).orElse(""));
  }

  /**
   * The TTFT of a request of {@code isl} prompt tokens joining a running batch of {@code batch}
   * sequences that produce {@code osl} tokens each, in its parts ({@link TtftParts}):
   *
   * <ul>
   *   <li>admission: {@link Efficiency#admission()};
   *   <li>wait: half a running step, {@code s / 2}, the mean residual of a step of length {@code s}
   *       for a request arriving at a random time, and none at batch 1, where the request finds the
   *       server idle ({@link TtftParts#stepWait}); a step is {@code E × tpot} (E output tokens per
   *       sequence per step: 1, or the expected tokens of a speculative verify pass);
   *   <li>prefill: {@code ⌈isl / c⌉} chunks of {@code c = min(isl, 8192)} tokens ({@link
   *       RooflineModel#PREFILL_CHUNK_TOKENS}), each a step of the running batch's decode ({@code E
   *       × decode tpot}) plus the chunk's prefill riding that step's weight reads and collectives
   *       (as the prefill share of {@link #point});
   *   <li>transfer: zero (one pool).
   * </ul>
   *
   * @throws IllegalArgumentException when an argument is not positive
   */
  public TtftParts ttftParts(int batch, int isl, int osl) {
    return ttftParts(batch, Workload.of(isl, osl));
  }

  /**
   * As {@link #ttftParts(int, int, int)} for a workload: the chunks cover its new tokens, each
   * carrying an equal share of their attention over the cached ones.
   */
  public TtftParts ttftParts(int batch, Workload w) {
    int osl = w.outputTokens();
    Deployments.checkPoint(batch, w.inputTokens(), osl);
    double decode = SpeculativeDecoding.decodeTpot(speculation, pool, batch, decodeContext(w));
    double tpot = decode + prefillWithoutWeights(pool, (double) batch / osl, w);
    return ttftParts(batch, decode, tpot, w, chunkPrefill(w));
  }

  /** The prefill of one TTFT chunk riding a decode step: {@code chunk / new tokens} of a prompt. */
  double chunkPrefill(Workload w) {
    int isl = w.newTokens();
    int chunk = Math.min(isl, RooflineModel.PREFILL_CHUNK_TOKENS);
    return prefillWithoutWeights(pool, (double) chunk / isl, w);
  }

  private TtftParts ttftParts(
      int batch, double decode, double tpot, Workload w, double chunkPrefill) {
    double perStep = speculation.map(Speculation::expectedTokensPerStep).orElse(1.0);
    int isl = w.newTokens();
    int chunk = Math.min(isl, RooflineModel.PREFILL_CHUNK_TOKENS);
    int chunks = (isl + chunk - 1) / chunk;
    double chunkStep = perStep * decode + chunkPrefill;
    return TtftParts.of(
        pool.efficiency().admission().seconds(),
        TtftParts.stepWait(batch, perStep * tpot),
        chunks * chunkStep,
        0);
  }

  /**
   * Time of {@code prompts} prompts' prefill (a mean, fractional) of {@code isl} tokens riding a
   * decode step: per operation, the largest of its compute time, its memory time without the weight
   * reads (the decode step streams the weights once for both) and, for a collective, its bandwidth
   * time without the per-hop latency: in continuous batching the step's prefill tokens join the
   * decode tokens' all-reduces (and all-to-alls, and pipeline hand-offs), one message per
   * collective, so an α-β collective {@code hops × α + bytes / β} grows by the prefill tokens'
   * {@code bytes / β} only. The α term of each collective is its time with no bytes ({@link
   * Collectives#of} and {@link Collectives#handOff} at zero tokens). Summed over the stage and
   * multiplied by the pipeline passes; the per-step overhead is the decode step's.
   */
  static double prefillWithoutWeights(RooflineModel rm, double prompts, int isl) {
    return prefillWithoutWeights(rm, prompts, Workload.of(isl, 1));
  }

  /** As {@link #prefillWithoutWeights(RooflineModel, double, int)}: a workload's new tokens. */
  static double prefillWithoutWeights(RooflineModel rm, double prompts, Workload w) {
    StepResult full = rm.prefill(prompts, w.newTokens(), w.cachedAtPrefill(), 1);
    Map<String, Double> latency = new HashMap<>();
    Collectives.of(rm, PhaseKind.PREFILL, 0)
        .ifPresent(
            c ->
                c.operations()
                    .forEach(o -> latency.put(o.operation().name(), o.networkSeconds().seconds())));
    double stage = 0;
    for (PhaseResult p : full.phases()) {
      for (OperationResult o : p.operations()) {
        stage +=
            ridingSeconds(
                o.computeSeconds().seconds(),
                o.memorySeconds().seconds(),
                o.operation().bytes(DataKind.WEIGHTS).bytes(),
                o.operation().memoryBytes().bytes(),
                o.networkSeconds().seconds(),
                o.operation().networkSteps() > 0
                    ? latency.getOrDefault(o.operation().name(), 0.0)
                    : 0.0);
      }
    }
    double handOff =
        full.p2pSeconds().seconds() - Collectives.handOff(rm, 0).seconds(); // bandwidth only
    return full.passes() * (stage + Math.max(0, handOff));
  }

  /**
   * One operation's time riding a decode step ({@link #prefillWithoutWeights}): the largest of its
   * compute time, its memory time less the weights' share ({@code weightBytes / memoryBytes}) and
   * its network time less {@code latency} (the collective's time with no bytes; 0 for local work).
   */
  static double ridingSeconds(
      double compute,
      double memory,
      double weightBytes,
      double memoryBytes,
      double network,
      double latency) {
    double weightShare = weightBytes / Math.max(1e-300, memoryBytes);
    double withoutWeights = memory * (1 - weightShare);
    return Math.max(compute, Math.max(withoutWeights, Math.max(0, network - latency)));
  }

  @Override
  public String toString() {
    return Deployments.describe(strategy(), pool.toString(), speculation);
  }
}
