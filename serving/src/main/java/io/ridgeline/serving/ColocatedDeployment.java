package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkNotNull;

import io.ridgeline.core.DataKind;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Seconds;
import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.queueing.Burst;
import java.util.ArrayList;
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
    return point(batch, w, Riding.of(pool, chunkPrompts(w), w));
  }

  /**
   * {@link #point} of every batch of workload {@code w}, with the TTFT chunk's prefill operations,
   * which do not depend on the batch, built once: the same arithmetic, so the same points.
   */
  PointsAt at(Workload w) {
    Deployments.checkPoint(1, w.inputTokens(), w.outputTokens());
    Riding chunk = Riding.of(pool, chunkPrompts(w), w);
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
    return Riding.of(pool, chunkPrompts(w), w).alone();
  }

  /**
   * {@link #point} of {@code batch} with the TTFT chunk's prefill {@code chunk}, riding the batch's
   * decode step.
   */
  FrontierPoint point(int batch, Workload w, Riding chunk) {
    int osl = w.outputTokens();
    Optional<StepResult> running = running(batch, w);
    double decode = decodeSeconds(batch, w, running);
    // prefill shares of a step, riding the decode part's weight reads and collectives and sharing
    // each of its kernels (prefillWithoutWeights): all batch/osl prompts that join per step (the
    // server's mean step) and the (batch − 1)/osl of the others that join while a request decodes
    // (its TPOT; othersPrompts)
    Kernels kernels = kernels(pool, running);
    double stepShare =
        onDevice(running, decode, Riding.of(pool, (double) batch / osl, w).seconds(kernels, chunk));
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
    if (requests.isEmpty() || clients <= 0) {
      throw new IllegalArgumentException(
          "a run needs at least one client and one request length: " + clients + " clients");
    }
    double isl = requests.stream().mapToInt(Burst.Request::inputTokens).average().orElseThrow();
    double osl = requests.stream().mapToInt(Burst.Request::outputTokens).average().orElseThrow();
    Workload w =
        Workload.of((int) Math.max(1, Math.round(isl)), (int) Math.max(1, Math.round(osl)));
    int context = w.finalContext();
    int fit = pool.maxBatch(context);
    if (fit == 0) {
      throw new IllegalArgumentException(
          "a burst needs one request of " + context + " tokens to fit: it does not on " + pool);
    }
    // KV tokens of one replica: the largest batch that fits at the mean final context, × context
    long kvTokens = (long) fit * context;
    Map<Long, Double> memo = new HashMap<>();
    Burst.StepTime step =
        (decoding, prefillTokens) ->
            memo.computeIfAbsent(
                ((long) decoding << 32) | prefillTokens,
                k -> stepSeconds(decoding, prefillTokens, w));
    int replicas = pool.replicas();
    int perClient = Math.addExact(rounds, warmupRounds);
    List<Burst> runs = new ArrayList<>();
    for (int r = 0; r < Math.min(replicas, clients); r++) {
      // the replica's clients k = r, r + replicas, ...; their requests round by round
      List<Integer> mine = new ArrayList<>();
      for (int k = r; k < clients; k += replicas) {
        mine.add(k);
      }
      List<Burst.Request> lengths = new ArrayList<>();
      for (int j = 0; j < perClient; j++) {
        for (int k : mine) {
          lengths.add(requests.get((int) (((long) j * clients + k) % requests.size())));
        }
      }
      runs.add(
          Burst.closedLoop(
              mine.size(),
              rounds,
              warmupRounds,
              lengths,
              maxRunning,
              kvTokens,
              RooflineModel.PREFILL_CHUNK_TOKENS,
              pool.efficiency().admission().seconds(),
              step));
    }
    return Burst.ofReplicas(runs);
  }

  /**
   * Seconds of a step of {@code decoding} sequences at workload {@code w}'s decode context with
   * {@code prefillTokens} prompt tokens of {@code w} riding it ({@link #burst}).
   */
  private double stepSeconds(int decoding, int prefillTokens, Workload w) {
    double prompts = (double) prefillTokens / w.newTokens();
    if (decoding == 0) {
      return Riding.of(pool, prompts, w).alone();
    }
    Optional<StepResult> running = running(decoding, w);
    double decode = decodeSeconds(decoding, w, running);
    if (prefillTokens == 0) {
      return decode;
    }
    // the step's prompt tokens are one chunk riding the decode step
    Riding riding = Riding.of(pool, prompts, w);
    return decode + onDevice(running, decode, riding.seconds(kernels(pool, running), riding));
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
   * TTFT chunk, whose unshared weight reads the prompts' shares carry ({@link #sharedWeightBytes}).
   */
  private double othersShare(
      int batch,
      Workload w,
      Optional<StepResult> running,
      double decode,
      Kernels kernels,
      Riding chunk) {
    return batch == 1
        ? 0
        : onDevice(
            running,
            decode,
            Riding.of(pool, othersPrompts(batch, w.outputTokens()), w).seconds(kernels, chunk));
  }

  /**
   * One step of a new request's TTFT chunk {@code chunk} at batch {@code batch}: the request joins
   * the batch's other {@code batch − 1} sequences, so the step is their decode ({@code E ×} their
   * decode TPOT, {@link #decodeSeconds}) with the chunk riding its kernels ({@link
   * #prefillWithoutWeights}); at batch 1 no other sequence runs, and the step is the chunk's own
   * prefill pass (its weight reads, collectives and fixed costs included).
   */
  private double chunkStep(int batch, Workload w, Riding chunk) {
    if (batch == 1) {
      return chunk.alone();
    }
    double perStep = speculation.map(Speculation::expectedTokensPerStep).orElse(1.0);
    Optional<StepResult> others = running(batch - 1, w);
    double decode = perStep * decodeSeconds(batch - 1, w, others);
    return decode + onDevice(others, decode, chunk.seconds(kernels(pool, others), chunk));
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
    Riding chunk = Riding.of(pool, chunkPrompts(w), w);
    // the server's mean step, all batch / osl prompts' prefill riding it (point)
    double step =
        decode
            + onDevice(
                running,
                decode,
                Riding.of(pool, (double) batch / osl, w).seconds(kernels(pool, running), chunk));
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
   * ({@link #ridingSeconds}; operations matched by name and order: the k-th operation of a name in
   * the prefill is the k-th of that name in the decode step). The compute-bound prefill of a chunk
   * then hides the memory-bound decode kernel's weight reads instead of adding to them; summing
   * each side's compute at its own GEMM rows' efficiency keeps the decode rows' small-M loss, an
   * upper bound on the merged GEMM's time. A joined routed-expert operation is credited only the
   * weight bytes its decode kernel reads ({@link #sharedWeightBytes}: a few experts at small
   * batch); every other operation (a dense kernel reads the prefill's weights too; the embedding's
   * rows that a chunk reads apart are a rounding error), an operation with no decode kernel to
   * join, and every operation when {@code running} is empty (a speculative or pipelined step) is
   * credited all of its weights, read by the decode step's own pass.
   */
  static double prefillWithoutWeights(
      RooflineModel rm, double prompts, Workload w, Optional<StepResult> running) {
    return Riding.of(rm, prompts, w)
        .seconds(kernels(rm, running), Riding.of(rm, chunkPrompts(w), w));
  }

  /**
   * The operations of {@code running} that a prefill's operations join, by {@link Occurrence#next}
   * ("experts#1": the second operation named "experts"), collectives left out; empty without a
   * running step. Built once per step, for its prefill share and its TTFT chunk alike.
   */
  private static Kernels kernels(RooflineModel pool, Optional<StepResult> running) {
    Map<Occurrence, OperationResult> kernels = new HashMap<>();
    running.ifPresent(
        d -> {
          Map<String, Integer> seen = new HashMap<>();
          for (PhaseResult p : d.phases()) {
            for (OperationResult o : p.operations()) {
              if (o.operation().networkSteps() == 0) {
                kernels.put(Occurrence.next(o.operation().name(), seen), o);
              }
            }
          }
        });
    String main = pool.baseTarget().mainTier();
    return new Kernels(kernels, running.map(d -> onMainTier(d, main)).orElse(true));
  }

  /**
   * The running decode step's kernels by {@link Occurrence#next} ({@link #kernels}), and whether
   * the step reads every byte from the main tier ({@link #onMainTier}).
   */
  private record Kernels(Map<Occurrence, OperationResult> ops, boolean mainTier) {}

  /**
   * Whether every byte {@code step} reads comes from the tier {@code main} (its pool's main tier):
   * the step's target is the pool's base target ({@link MemoryPlan#placed}), as {@link
   * CompiledColocated} decides it for its steps. Where weights spill off the main tier, a riding
   * prefill keeps all of its weights credited ({@link #sharedWeightBytes} is not applied): the
   * shared bytes' tier is not separated from the operation's mean rate.
   */
  static boolean onMainTier(StepResult step, String main) {
    for (PhaseResult p : step.phases()) {
      for (OperationResult o : p.operations()) {
        for (Map.Entry<String, io.ridgeline.core.Bytes> e : o.bytesByTier().entrySet()) {
          if (!e.getKey().equals(main) && e.getValue().bytes() > 0) {
            return false;
          }
        }
      }
    }
    return true;
  }

  /**
   * A prefill's operations and its collectives' α terms, taken once, and its time riding a decode
   * step ({@link #prefillWithoutWeights}): the TTFT chunk, the same prompts at every batch, is
   * built once for a workload's points ({@link #at}).
   */
  private static final class Riding {
    private final double prompts;
    private final StepResult full;
    private final Map<String, Double> latency;
    private final double handOffLatency;
    private final double[] weights; // each operation's weight bytes per chip, in order
    private final boolean mainTier; // every byte read from the pool's main tier

    private Riding(
        double prompts,
        StepResult full,
        Map<String, Double> latency,
        double handOffLatency,
        boolean mainTier) {
      this.prompts = prompts;
      this.mainTier = mainTier;
      this.full = full;
      this.latency = latency;
      this.handOffLatency = handOffLatency;
      this.weights =
          full.phases().stream()
              .flatMap(p -> p.operations().stream())
              .mapToDouble(o -> o.operation().bytes(DataKind.WEIGHTS).bytes())
              .toArray();
    }

    static Riding of(RooflineModel rm, double prompts, Workload w) {
      StepResult full = rm.prefill(prompts, w.newTokens(), w.cachedAtPrefill(), 1);
      Map<String, Double> latency = new HashMap<>();
      Collectives.of(rm, PhaseKind.PREFILL, 0)
          .ifPresent(
              c ->
                  c.operations()
                      .forEach(
                          o -> latency.put(o.operation().name(), o.networkSeconds().seconds())));
      return new Riding(
          prompts,
          full,
          latency,
          Collectives.handOff(rm, 0).seconds(),
          onMainTier(full, rm.baseTarget().mainTier()));
    }

    /** The prefill's own pass, with nothing to ride: its {@link StepResult#seconds()}. */
    double alone() {
      return full.seconds().seconds();
    }

    /**
     * The time riding a decode step whose operations are {@code running} ({@link #kernels}; see
     * {@link #prefillWithoutWeights}); {@code chunk}: the workload's TTFT chunk (this prefill's
     * prompts are {@code prompts / chunk.prompts} such chunks, each reading the weights the running
     * kernels do not, {@link #sharedWeightBytes}).
     */
    double seconds(Kernels running, Riding chunk) {
      Map<Occurrence, OperationResult> decodeOps = running.ops();
      // off the main tier the credit stays whole (onMainTier)
      boolean shares = mainTier && running.mainTier();
      Map<String, Integer> seen = new HashMap<>();
      double chunksPerStep = prompts / chunk.prompts;
      double stage = 0;
      int n = 0;
      for (PhaseResult p : full.phases()) {
        for (OperationResult o : p.operations()) {
          boolean collective = o.operation().networkSteps() > 0;
          OperationResult d =
              collective ? null : decodeOps.get(Occurrence.next(o.operation().name(), seen));
          double weights = weights(n);
          double chunkWeights = chunk.weights(n);
          n++;
          stage +=
              ridingSeconds(
                  o.computeSeconds().seconds(),
                  o.memorySeconds().seconds(),
                  d == null || !shares || o.operation().role() != OperationRole.ROUTED_EXPERTS
                      ? weights
                      : sharedWeightBytes(
                          weights,
                          chunkWeights,
                          d.operation().bytes(DataKind.WEIGHTS).bytes(),
                          chunksPerStep),
                  o.operation().memoryBytes().bytes(),
                  o.networkSeconds().seconds(),
                  collective ? latency.getOrDefault(o.operation().name(), 0.0) : 0.0,
                  d == null ? 0 : d.computeSeconds().seconds(),
                  d == null ? 0 : d.memorySeconds().seconds());
        }
      }
      double handOff = full.p2pSeconds().seconds() - handOffLatency; // bandwidth only
      return full.passes() * (stage + Math.max(0, handOff));
    }

    /** Operation n's weight bytes per chip (the prefill's operations in order). */
    private double weights(int n) {
      return weights[n];
    }
  }

  /**
   * One operation's time riding a decode step ({@link #prefillWithoutWeights}): the roofline of the
   * operation's kernel with the running decode kernel's compute ({@code runningCompute}) and memory
   * ({@code runningMemory}) time, less that kernel's own time, {@code max(runningCompute + compute,
   * runningMemory + memory × (1 − weightBytes / memoryBytes)) − max(runningCompute, runningMemory)}
   * ({@code weightBytes}: the weights the decode kernel reads for both, {@link #sharedWeightBytes};
   * their share of its memory time is read once, by the decode kernel), or its network time less
   * {@code latency} (the collective's time with no bytes; 0 for local work) when that is larger.
   * With no running kernel (both 0) it is the largest of the operation's compute time, its memory
   * time less the weights' share and its network time less the latency.
   *
   * <p>Worked example: a decode GEMM streaming its weights in 10 µs with 1 µs of compute, joined by
   * a chunk's 30 µs of compute and 2 µs of non-weight memory: {@code max(1 + 30, 10 + 2) − max(1,
   * 10) = 21} µs, where riding the weights alone it added 30 µs.
   */
  static double ridingSeconds(
      double compute,
      double memory,
      double weightBytes,
      double memoryBytes,
      double network,
      double latency,
      double runningCompute,
      double runningMemory) {
    return joinedSeconds(
        compute,
        withoutWeights(memory, weightBytes, memoryBytes),
        network,
        latency,
        runningCompute,
        runningMemory);
  }

  /**
   * The weight bytes of a riding prefill's operation that the running decode kernel's read serves,
   * the prefill being {@code chunksPerStep} TTFT chunks (a mean: a step's share of the prompts that
   * join, or one chunk): with {@code prefillWeights} the operation's weight bytes at the prefill's
   * tokens, {@code chunkWeights} at one chunk's and {@code runningWeights} the decode kernel's,
   * {@code prefillWeights − chunksPerStep × max(0, chunkWeights − runningWeights)} below one chunk
   * per step, and {@code min(prefillWeights, runningWeights)} from one on (the chunks that join a
   * step read the union of their weights once, of which the decode kernel's read serves its own). A
   * chunk joins one step whole and reads, once, the weights the decode kernel does not: a dense
   * layer's kernels read the same weights (all shared: the prefill's own weights are credited); a
   * routed-expert kernel reads the experts its tokens touch ({@link
   * io.ridgeline.models.Routing#expectedDistinctExperts}, {@code E × (1 − (1 − k/E)^T)} of E
   * experts for T tokens choosing k each under uniform routing, per expert-parallel rank), so a
   * chunk, which touches nearly all of them, shares only the few a small decode batch reads and
   * streams the rest itself. For one chunk ({@code chunksPerStep} 1, {@code prefillWeights =
   * chunkWeights}) this is {@code min(chunkWeights, runningWeights)}; a step's mean share of the
   * prompts carries its fraction of the chunks' unshared reads, not the experts its fraction of
   * tokens would touch if they arrived spread over the steps (they arrive as whole chunks).
   *
   * <p>Worked example: Qwen3-30B-A3B (128 experts, top 8) at batch 2, ISL = OSL = 1024: the chunk
   * joins the decode of the one other sequence, whose 1 token touches 8 experts: 8 of the chunk's
   * 128 experts' weights are shared, 120 it reads itself (before, all 128 were credited). A step's
   * share, 2/1024 prompts (2 tokens, ≈ 15.5 experts at the fractional count), reads 2/1024 × 120 ≈
   * 0.23 experts beyond the decode kernel's; its credit is 15.5 − 0.23 ≈ 15.3 experts. At 2 chunks
   * per step (batch 256, OSL 128), the share's 2,048 tokens touch all 128 experts and the decode
   * kernel's 256 tokens all but 128 × (15/16)^256 ≈ 0: its credit is all 128.
   *
   * <p>Applied to routed-expert operations ({@link OperationRole#ROUTED_EXPERTS}), where steps
   * reading from the main tier join ({@link #onMainTier}).
   */
  static double sharedWeightBytes(
      double prefillWeights, double chunkWeights, double runningWeights, double chunksPerStep) {
    double unshared = chunkWeights - runningWeights;
    if (!(unshared > 0)) {
      return prefillWeights;
    }
    if (chunksPerStep >= 1) {
      return runningWeights < prefillWeights ? runningWeights : prefillWeights;
    }
    return prefillWeights - chunksPerStep * unshared;
  }

  /**
   * An operation's memory time less the weights' share, {@code memory × (1 − weightBytes /
   * memoryBytes)}: what it adds to a running decode kernel that reads the weights ({@link
   * #ridingSeconds}).
   */
  static double withoutWeights(double memory, double weightBytes, double memoryBytes) {
    double weightShare = weightBytes / Math.max(1e-300, memoryBytes);
    return memory * (1 - weightShare);
  }

  /**
   * {@link #ridingSeconds} of an operation whose memory time less the weights' share is {@code
   * withoutWeights} ({@link #withoutWeights}).
   */
  static double joinedSeconds(
      double compute,
      double withoutWeights,
      double network,
      double latency,
      double runningCompute,
      double runningMemory) {
    // the maxima as comparisons, not Math.max: the times are finite (never NaN), and the last
    // comparison returns +0.0 where Math.max would (a -0.0 inside cannot reach the result); a
    // compare and a branch the processor predicts, where Math.max's NaN and signed-zero handling
    // costs a sequence of blends (the compiled sweep's evaluation 211 -> 185 ns per point)
    double own = runningCompute >= runningMemory ? runningCompute : runningMemory;
    double withCompute = runningCompute + compute;
    double withMemory = runningMemory + withoutWeights;
    double joined = (withCompute >= withMemory ? withCompute : withMemory) - own;
    double transfer = network - latency;
    double floor = transfer > 0 ? transfer : 0;
    return joined > floor ? joined : floor;
  }

  @Override
  public String toString() {
    return Deployments.describe(strategy(), pool.toString(), speculation);
  }
}
