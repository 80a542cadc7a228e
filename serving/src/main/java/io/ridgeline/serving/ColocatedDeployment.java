package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkNotNull;

import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.Seconds;
import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.queueing.Burst;
import java.util.HashMap;
import java.util.List;
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
    Deployments.checkOptions(pool, speculation, price);
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
    return point(batch, w, RidingPrefill.of(pool, chunkPrompts(w), w));
  }

  /**
   * {@link #point} of every batch of workload {@code w}, with the TTFT chunk's prefill operations,
   * which do not depend on the batch, built once: the same arithmetic, so the same points.
   */
  PointsAt at(Workload w) {
    Deployments.checkPoint(1, w.inputTokens(), w.outputTokens());
    RidingPrefill chunk = RidingPrefill.of(pool, chunkPrompts(w), w);
    return batch -> {
      Deployments.checkPoint(batch, w.inputTokens(), w.outputTokens());
      return point(batch, w, chunk);
    };
  }

  /**
   * The TTFT chunk's own prefill pass of workload {@code w} (its step at batch 1, {@link
   * #chunkStep}), seconds, with the checks of {@link #at}.
   *
   * @throws IllegalArgumentException as {@link #at} throws
   */
  double chunkAlone(Workload w) {
    Deployments.checkPoint(1, w.inputTokens(), w.outputTokens());
    return RidingPrefill.of(pool, chunkPrompts(w), w).alone();
  }

  /**
   * {@link #point} of {@code batch} with the TTFT chunk's prefill {@code chunk}, riding the batch's
   * decode step.
   */
  FrontierPoint point(int batch, Workload w, RidingPrefill chunk) {
    int osl = w.outputTokens();
    Optional<StepResult> running = running(batch, w);
    double decode = decodeSeconds(batch, w, running);
    // prefill shares of a step, riding the decode part's weight reads and collectives and sharing
    // each of its kernels (prefillWithoutWeights): all batch/osl prompts that join per step (the
    // server's mean step) and the (batch − 1)/osl of the others that join while a request decodes
    // (its TPOT; othersPrompts)
    RidingPrefill.Kernels kernels = RidingPrefill.kernels(pool, running);
    double stepShare =
        onDevice(
            running,
            decode,
            RidingPrefill.of(pool, (double) batch / osl, w).seconds(kernels, chunk));
    return point(
        batch,
        w,
        chunkStep(batch, w, chunk),
        decode,
        stepShare,
        othersShare(batch, w, running, decode, kernels, chunk),
        pool.memory(batch, w.finalContext()).fits()
            && SpeculativeDecoding.fitsWithDraft(speculation, pool, batch, w.finalContext()));
  }

  /**
   * A burst of {@code requests} that arrive at once ({@link Burst}: continuous batching, admission
   * by the running-request limit and the KV cache, chunked prefill), dealt round-robin over the
   * pool's replicas, each simulated with this deployment's own step: a step of {@code d} decoding
   * sequences and {@code p} prompt tokens takes the decode step of {@code d} sequences ({@link
   * RooflineModel#decode}) plus the {@code p} tokens' prefill riding its kernels ({@link
   * #prefillWithoutWeights}, first in the device's idle time of a host-bound step), and with nobody
   * decoding the prefill pass of the {@code p} tokens alone; the same functions as a {@link
   * #point}'s TTFT chunk and prefill share. Every step is costed at the mean request: decode at the
   * mean decode context ({@link #decodeContext}), {@code p} tokens as {@code p / isl} mean prompts
   * (each carrying its share of the prompt's attention). Prompt tokens per step: {@link
   * RooflineModel#PREFILL_CHUNK_TOKENS}. A replica's KV capacity is {@code maxBatch(c) · c} tokens
   * at the mean final context {@code c} ({@link RooflineModel#maxBatch}); every TTFT carries the
   * engine's {@link Efficiency#admission() admission latency}.
   *
   * <p>A burst of one request has the TTFT and TPOT of {@link #point} at batch 1: its prompt's own
   * prefill pass(es), then decode steps of one sequence.
   *
   * @param requests the requests in arrival order, at least one
   * @param maxRunning the most requests a replica runs at once (the engine's cap), positive
   * @throws IllegalArgumentException with speculative decoding (a burst's verify passes are not
   *     modelled), when a request does not fit a replica's KV cache, or as {@link Burst#simulate}
   */
  public Burst burst(List<Burst.Request> requests, int maxRunning) {
    checkNotNull(requests, "requests");
    if (requests.isEmpty()) {
      throw new IllegalArgumentException("a burst needs at least one request");
    }
    return closedLoop(requests.size(), 1, 0, requests, maxRunning);
  }

  /**
   * {@code clients} closed-loop clients ({@link Burst#closedLoop}: each sends its next request when
   * its previous one finishes, offsets carried from round to round, {@code warmupRounds} requests
   * per client left out of the figures), dealt round-robin over the pool's replicas and costed as
   * {@link #burst}.
   *
   * @param requests the lengths in sending order, round by round ({@link Burst#closedLoop})
   * @throws IllegalArgumentException as {@link #burst} and {@link Burst#closedLoop}
   */
  public Burst closedLoop(
      int clients, int rounds, int warmupRounds, List<Burst.Request> requests, int maxRunning) {
    checkNotNull(requests, "requests");
    if (speculation.isPresent()) {
      throw new IllegalArgumentException("a burst is not modelled with speculative decoding");
    }
    return ColocatedBurst.closedLoop(
        pool, clients, rounds, warmupRounds, requests, maxRunning, new RunSteps());
  }

  /**
   * Seconds of a step of {@code decoding} sequences at workload {@code w}'s decode context with
   * {@code prefillTokens} prompt tokens of {@code w} riding it ({@link #burst}): from the compiled
   * path where the workload's steps compile ({@link CompiledColocated#runStep}, equal to the object
   * path's to the last digit or two), else the object path's, each decode step and each chunk of
   * prompt tokens timed once per run (a run meets the same decoding counts and chunk sizes in many
   * combinations, and a step's time is the same function of the two). A step without decoding
   * sequences is the chunk's own prefill pass, on the object path.
   */
  private final class RunSteps implements ColocatedBurst.StepSeconds {
    /** A decode step of a number of sequences: the running step, its seconds and kernels. */
    private record Decoding(
        Optional<StepResult> running, double seconds, RidingPrefill.Kernels kernels) {}

    private final Map<Integer, Decoding> decodes = new HashMap<>();
    private final Map<Integer, RidingPrefill> chunks = new HashMap<>();
    private Optional<CompiledColocated> compiled; // null until the first step

    @Override
    public double seconds(int decoding, int prefillTokens, Workload w) {
      if (decoding == 0) {
        return chunk(prefillTokens, w).alone();
      }
      if (compiled == null) {
        compiled = compiled(w);
      }
      if (compiled.isPresent()) {
        return compiled.get().runStep(decoding, (double) prefillTokens / w.newTokens());
      }
      return objectPath(decoding, prefillTokens, w);
    }

    /** The object path's step ({@link #seconds}). */
    double objectPath(int decoding, int prefillTokens, Workload w) {
      Decoding d =
          decodes.computeIfAbsent(
              decoding,
              n -> {
                Optional<StepResult> running = running(n, w);
                return new Decoding(
                    running, decodeSeconds(n, w, running), RidingPrefill.kernels(pool, running));
              });
      if (prefillTokens == 0) {
        return d.seconds();
      }
      // the step's prompt tokens are one chunk riding the decode step
      RidingPrefill riding = chunk(prefillTokens, w);
      return d.seconds() + onDevice(d.running(), d.seconds(), riding.seconds(d.kernels(), riding));
    }

    private Optional<CompiledColocated> compiled(Workload w) {
      try {
        return CompiledColocated.of(ColocatedDeployment.this, w).map(CompiledColocated.class::cast);
      } catch (IllegalArgumentException e) {
        return Optional.empty(); // the object path's steps say what fails
      }
    }

    private RidingPrefill chunk(int prefillTokens, Workload w) {
      return chunks.computeIfAbsent(
          prefillTokens, t -> RidingPrefill.of(pool, (double) t / w.newTokens(), w));
    }
  }

  /**
   * The step of {@link #burst} of {@code decoding} sequences with {@code prefillTokens} prompt
   * tokens of {@code w} riding it, compiled (empty where {@code w}'s steps do not compile) and on
   * the object path: {@code {compiled or NaN, object}}, for tests.
   */
  double[] runStepBothPaths(int decoding, int prefillTokens, Workload w) {
    RunSteps steps = new RunSteps();
    double object = steps.objectPath(decoding, prefillTokens, w);
    Optional<CompiledColocated> c = steps.compiled(w);
    return new double[] {
      c.isPresent()
          ? c.get().runStep(decoding, (double) prefillTokens / w.newTokens())
          : Double.NaN,
      object
    };
  }

  /**
   * The prompts of the other requests that join a running batch of {@code batch} per decode step of
   * one request, a mean: {@code (batch − 1) / osl}. In steady state each of the batch's slots turns
   * over once per request lifetime of {@code osl} decode steps, so while one request decodes its
   * {@code osl} tokens each of the other {@code batch − 1} slots admits one new request (its own
   * slot's next request joins after it leaves, and its own prefill was its TTFT): {@code batch − 1}
   * prefills over {@code osl} steps, none at batch 1. The server's mean step carries all {@code
   * batch / osl} (throughput); a request's TPOT only the others'.
   *
   * <p>Worked example: osl 92 at batch 1: 0 (a request decoding alone shares its steps with
   * nobody's prefill); at batch 2: 1/92 ≈ 0.0109 prompts per step; at batch 64: 63/92 ≈ 0.685.
   */
  static double othersPrompts(int batch, int osl) {
    return (double) (batch - 1) / osl;
  }

  /**
   * The prefill share of a request's decode steps ({@link #othersPrompts} riding the decode step's
   * kernels, first in the device's idle time: {@link #onDevice}), 0 at batch 1; {@code chunk}: the
   * TTFT chunk, whose unshared weight reads the prompts' shares carry ({@link
   * RidingPrefill#sharedWeightBytes}).
   */
  private double othersShare(
      int batch,
      Workload w,
      Optional<StepResult> running,
      double decode,
      RidingPrefill.Kernels kernels,
      RidingPrefill chunk) {
    return batch == 1
        ? 0
        : onDevice(
            running,
            decode,
            RidingPrefill.of(pool, othersPrompts(batch, w.outputTokens()), w)
                .seconds(kernels, chunk));
  }

  /**
   * One step of a new request's TTFT chunk {@code chunk} at batch {@code batch}: the request joins
   * the batch's other {@code batch − 1} sequences, so the step is their decode ({@code E ×} their
   * decode TPOT, {@link #decodeSeconds}) with the chunk riding its kernels ({@link
   * #prefillWithoutWeights}); at batch 1 no other sequence runs, and the step is the chunk's own
   * prefill pass (its weight reads, collectives and fixed costs included).
   */
  private double chunkStep(int batch, Workload w, RidingPrefill chunk) {
    if (batch == 1) {
      return chunk.alone();
    }
    double perStep = speculation.map(Speculation::expectedTokensPerStep).orElse(1.0);
    Optional<StepResult> others = running(batch - 1, w);
    double decode = perStep * decodeSeconds(batch - 1, w, others);
    return decode
        + onDevice(others, decode, chunk.seconds(RidingPrefill.kernels(pool, others), chunk));
  }

  /**
   * What a prefill of {@code riding} seconds adds to the decode step it rides ({@link
   * StepResult#ridingExtraSeconds}: first the device's idle time under a host-bound {@code running}
   * step); all of it when the prefill rides no step's kernels.
   */
  private static double onDevice(Optional<StepResult> running, double decode, double riding) {
    return running.isPresent()
        ? StepResult.ridingExtraSeconds(decode, running.get().deviceSeconds(), riding)
        : riding;
  }

  /**
   * The decode part of a step of {@code batch} sequences: {@code running}'s time when given, else
   * the speculative or plain decode TPOT ({@link SpeculativeDecoding#decodeTpot}).
   */
  private double decodeSeconds(int batch, Workload w, Optional<StepResult> running) {
    return running.isPresent()
        ? running.get().seconds().seconds()
        : SpeculativeDecoding.decodeTpot(speculation, pool, batch, decodeContext(w));
  }

  /**
   * The decode step of {@code batch} sequences that a step's prefill tokens join ({@link
   * #prefillWithoutWeights}): the pool's decode step at the workload's decode context, when it is
   * one pass of one micro-batch without speculation; empty otherwise (a speculative verify pass or
   * a pipeline's micro-batches: the prefill then rides the weight reads and collectives only).
   */
  Optional<StepResult> running(int batch, Workload w) {
    if (speculation.isPresent()) {
      return Optional.empty();
    }
    StepResult step = pool.decode(batch, decodeContext(w));
    return step.passes() == 1 && step.microBatches() == 1 ? Optional.of(step) : Optional.empty();
  }

  /** The context a decode step is costed at: the prompt's plus half the output (at least 1). */
  static int decodeContext(Workload w) {
    return w.promptContext() + Math.max(1, w.outputTokens() / 2);
  }

  /**
   * The point of {@code batch} from its parts: the decode TPOT ({@link SpeculativeDecoding}), the
   * prefill share of the server's mean step ({@link #prefillWithoutWeights}, at {@code batch / osl}
   * prompts: the step a new request waits on, and the throughput {@code batch / (decode +
   * stepShare)}), the prefill share of a request's own decode steps (at {@link #othersPrompts}: its
   * TPOT {@code decode + othersShare}), one step of the TTFT chunk ({@link #chunkStep}) and whether
   * the batch fits; {@link CompiledColocated} composes its points here too.
   */
  FrontierPoint point(
      int batch,
      Workload w,
      double chunkStep,
      double decode,
      double stepShare,
      double othersShare,
      boolean fits) {
    double step = decode + stepShare;
    double tpot = decode + othersShare;
    double ttft = ttftParts(batch, step, w, chunkStep).total().seconds();
    double perChip = batch / step / pool.replicaChips();
    return ServingCosts.onePool(
        FrontierPoint.builder()
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
   *       for a request arriving at a random time, plus one whole step under an overlap scheduler
   *       ({@link Efficiency#schedulingLagSteps}), and none at batch 1, where the request finds the
   *       server idle ({@link TtftParts#stepWait}); a step is {@code E ×} the server's mean step
   *       per token, its decode plus the prefill share of all {@code batch / osl} prompts that join
   *       per step (E output tokens per sequence per step: 1, or the expected tokens of a
   *       speculative verify pass);
   *   <li>prefill: {@code ⌈isl / c⌉} chunks of {@code c = min(isl, 8192)} tokens ({@link
   *       RooflineModel#PREFILL_CHUNK_TOKENS}), each a step of the decode of the batch's other
   *       {@code batch − 1} sequences ({@code E ×} their decode tpot) plus the chunk's prefill
   *       riding that step's weight reads and collectives (as the prefill share of {@link #point});
   *       at batch 1 each chunk is its own prefill pass ({@link #chunkStep});
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
    Optional<StepResult> running = running(batch, w);
    double decode = decodeSeconds(batch, w, running);
    RidingPrefill chunk = RidingPrefill.of(pool, chunkPrompts(w), w);
    // the server's mean step, all batch / osl prompts' prefill riding it (point)
    double step =
        decode
            + onDevice(
                running,
                decode,
                RidingPrefill.of(pool, (double) batch / osl, w)
                    .seconds(RidingPrefill.kernels(pool, running), chunk));
    return ttftParts(batch, step, w, chunkStep(batch, w, chunk));
  }

  /** The prompts of one TTFT chunk: {@code min(new tokens, 8192) / new tokens}. */
  static double chunkPrompts(Workload w) {
    int isl = w.newTokens();
    int chunk = Math.min(isl, RooflineModel.PREFILL_CHUNK_TOKENS);
    return (double) chunk / isl;
  }

  /**
   * The TTFT chunks of a prompt: {@code ⌈new tokens / c⌉} of {@code c = min(new tokens, 8192)}
   * tokens ({@link RooflineModel#PREFILL_CHUNK_TOKENS}).
   */
  static int chunks(Workload w) {
    int isl = w.newTokens();
    int chunk = Math.min(isl, RooflineModel.PREFILL_CHUNK_TOKENS);
    return (isl + chunk - 1) / chunk;
  }

  private TtftParts ttftParts(int batch, double step, Workload w, double chunkStep) {
    double perStep = speculation.map(Speculation::expectedTokensPerStep).orElse(1.0);
    return TtftParts.of(
        pool.efficiency().admission().seconds(),
        TtftParts.stepWait(batch, perStep * step, pool.efficiency().schedulingLagSteps()),
        chunks(w) * chunkStep,
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
    return prefillWithoutWeights(rm, prompts, Workload.of(isl, 1), Optional.empty());
  }

  /**
   * As {@link #prefillWithoutWeights(RooflineModel, double, int)} for a workload's new tokens,
   * joining the kernels of {@code running}, the decode step the prefill tokens ride, when given:
   * continuous batching runs one forward pass over the decode and the prefill tokens together, so
   * each operation is one kernel whose time is the roofline of the two together, {@code max(c_d +
   * c_p, m_d + m_p)}, and the prefill adds that less the decode kernel's own {@code max(c_d, m_d)}
   * ({@link RidingPrefill#ridingSeconds}; operations matched by name and order: the k-th operation
   * of a name in the prefill is the k-th of that name in the decode step). The compute-bound
   * prefill of a chunk then hides the memory-bound decode kernel's weight reads instead of adding
   * to them; summing each side's compute at its own GEMM rows' efficiency keeps the decode rows'
   * small-M loss, an upper bound on the merged GEMM's time. A joined routed-expert operation is
   * credited only the weight bytes its decode kernel reads ({@link
   * RidingPrefill#sharedWeightBytes}: a few experts at small batch); every other operation (a dense
   * kernel reads the prefill's weights too; the embedding's rows that a chunk reads apart are a
   * rounding error), an operation with no decode kernel to join, and every operation when {@code
   * running} is empty (a speculative or pipelined step) is credited all of its weights, read by the
   * decode step's own pass.
   */
  static double prefillWithoutWeights(
      RooflineModel rm, double prompts, Workload w, Optional<StepResult> running) {
    return RidingPrefill.of(rm, prompts, w)
        .seconds(RidingPrefill.kernels(rm, running), RidingPrefill.of(rm, chunkPrompts(w), w));
  }

  @Override
  public String toString() {
    return Deployments.describe(strategy(), pool.toString(), speculation);
  }
}
