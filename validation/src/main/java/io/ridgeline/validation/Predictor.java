package io.ridgeline.validation;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Sizing;
import io.ridgeline.serving.Speculation;
import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.EngineProfile;
import io.ridgeline.serving.efficiency.Profiles;
import io.ridgeline.serving.queueing.ClosedLoop;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * Predicts one case's metric from the configuration its row states, and nothing else: the model,
 * chip, system size, parallelism, precisions, lengths, mode, load and speculative method, and how
 * the run was set up ({@link ValidationCase#run()}, the typed run columns). The free-text {@code
 * notes} never change a prediction. Rows that cannot be predicted become a {@link Skip} with the
 * reason; none is dropped.
 *
 * <p><b>Layout.</b> An empty {@code tp} is derived: {@code chips / (pp · attention_dp)} when the
 * model's heads allow it, else {@link Sizing#layoutFor} (tensor × pipeline). With attention data
 * parallelism the row's {@code tp} is the stage (cases.md: "TP-N EP-M with attention DP" is {@code
 * tp = N, attention_dp = N}), so the model's tensor-parallel degree is {@code tp / attention_dp};
 * DEP-N ({@code tp} empty) is tensor parallelism 1 over N attention groups. An empty {@code chips}
 * is sized with {@link Sizing#fewestChips}. Empty {@code weights} and {@code kv_cache} are the
 * checkpoint's precisions; {@code fp4} is NVFP4 ({@link Precision#FP4}) for every weight. Loads are
 * per system and split evenly over the model replicas.
 *
 * <p><b>Modes.</b>
 *
 * <ul>
 *   <li>{@code static}: {@link Deployment.Strategy#STATIC} at batch = load; {@code ttft_ms} is the
 *       prefill of the batch's prompts, {@code tpot_ms} one decode step of the batch at the
 *       mid-generation context {@code isl + osl/2}.
 *   <li>{@code concurrency}: {@link Deployment.Strategy#COLOCATED} at batch = load (closed loop:
 *       steady-state batch = concurrency), capped at the largest batch that fits and at the engine
 *       profile's {@link EngineProfile#maxRunningRequests() max_running_requests}; when the load
 *       exceeds that batch the extra requests queue (see <b>Closed-loop queueing</b>).
 *   <li>{@code offline}: colocated at the batch of most tokens/s per chip up to the largest that
 *       fits, or at the load if given, capped in both cases at the engine's max_running_requests.
 *   <li>{@code burst}: the run's {@code prompts} requests sent at once to a colocated system and
 *       simulated until the last finishes ({@link io.ridgeline.serving.ColocatedDeployment#burst}):
 *       at most {@code load} running per replica when stated, else the engine's
 *       max_running_requests, and what the KV cache holds; fixed lengths unless {@code range_ratio}
 *       r is stated (then uniform over [r·L, L]); throughput over the makespan, ramp and tail
 *       included, TTFT from each request's place in the draining queue ({@code ttft_ms} the mean,
 *       {@code median_ttft_ms} the median), {@code tpot_ms} the mean TPOT.
 *   <li>{@code clients}: {@code load} closed-loop clients on a colocated system, simulated as
 *       {@code burst} is ({@link io.ridgeline.serving.ColocatedDeployment#closedLoop}), each client
 *       sending its next request when its previous one finishes, {@code prompts / load} rounds, at
 *       most the engine's max_running_requests per replica, lengths as {@code concurrency}'s.
 *   <li>{@code single-stream}: colocated at batch 1; a speed whose lengths are not stated (a
 *       vendor's headline) at a short chat turn of 128 prompt and 512 output tokens.
 *   <li>{@code disagg-concurrency}: {@link Deployment.Strategy#PD} with the row's decode pool (its
 *       tp, ep, attention_dp) and prefill pool, the decode batch capped like {@code concurrency};
 *       per-chip throughput is the lower of the decode pool's output rate and the prefill pool's
 *       request rate × osl, over all chips of both pools.
 *   <li>{@code disagg-prefill}: prompts per pass of up to 8,192 tokens over the pass time, per chip
 *       of the prefill pool.
 *   <li>{@code disagg-decode}: the decode pool alone at batch = load (× chips when {@code
 *       load_per_chip} is {@code true}; when no load is given, the batch of most tokens/s up to the
 *       largest that fits, as in {@code offline}), context isl.
 *   <li>{@code server} (MLPerf Server): colocated under Poisson arrivals at the highest rate whose
 *       p99 TTFT and TPOT meet the row's bounds ({@code slo_ttft_ms}, {@code slo_tpot_ms}); each
 *       batch B up to the largest that fits (and the engine cap) is a steady state of rate λ = B /
 *       (TTFT₀ + (osl − 1)·TPOT) by Little's law, prompts wait for the prefill server as in an
 *       M/D/1 queue (mean) with an exponential tail (p99); the metrics are those of the best batch,
 *       TTFT the mean with the wait.
 *   <li>{@code production}: skipped (fleet averages are not a controlled operating point).
 * </ul>
 *
 * <p><b>Closed-loop TTFT</b> ({@code concurrency} and {@code disagg-concurrency}): benchmark
 * clients start together and send fixed-length requests, so prompts arrive in rounds: all of a
 * round at once when every request has the same lengths, spread out as the clients drift apart by
 * the spread of their output lengths (InferenceMAX draws lengths uniformly from [r·L, L] with range
 * ratio r = {@value #DEFAULT_RANGE_RATIO} and sends 10 prompts per client; a row may state {@code
 * range_ratio} and {@code prompts}). Round k's arrivals spread over min(1, √k·(1 − r)) of the
 * decode time (a sum of k uniform drifts); the prefill server (the colocated replica, or the decode
 * replica's share of the prefill pool plus the KV transfer) takes them in passes of at most {@link
 * RooflineModel#promptsPerPrefillPass} prompts, and a prompt's TTFT is the end of its pass minus
 * its arrival ({@link ClosedLoop#roundsTtft}), averaged over the rounds ({@code ttft_ms}) or the
 * median prompt's ({@code median_ttft_ms}, {@link ClosedLoop#roundsMedianTtft}: a later round's
 * typical request, where the mean carries the first round's burst), plus the engine profile's
 * {@link Efficiency#admission() admission latency}. This TTFT₀ then enters the queueing below.
 *
 * <p><b>Closed-loop queueing</b> ({@code concurrency} and {@code disagg-concurrency}): C clients
 * per replica each send a request as soon as their previous one completes, and the replica runs at
 * most B of them at once: B = min(C, the largest batch that fits, the engine's max_running_requests
 * per replica). When C &gt; B the other C − B wait. The replica completes requests at X = B /
 * (TTFT₀ + (osl − 1)·TPOT) per second, TTFT₀ being the unqueued TTFT; by Little's law a closed
 * system of C clients with throughput X has a mean response time of C / X, so a request's TTFT (its
 * wait plus its prefill) is C / X − (osl − 1)·TPOT, used when it exceeds TTFT₀ (it does exactly
 * when C &gt; B). {@code e2e_s} includes the wait; throughput and TPOT are those of batch B. Where
 * a row states the engine's configured cap per rank ({@code max_batch_per_rank}, {@link
 * RunSetup#maxBatchPerRank}), the cap per replica is that × the attention data-parallel groups, in
 * place of the profile's fitted one.
 *
 * <p><b>Scheduler and decode launch.</b> A row whose {@code scheduler} is {@code synchronous} is
 * predicted with {@link Efficiency#overlapScheduler} false, one whose {@code decode_launch} is
 * {@code eager} with {@link Efficiency#eagerDecode} true; {@code overlap} and {@code graphs} set
 * them the other way; an empty cell keeps the profile's own, and the ideal bound, which has no host
 * work, is left as it is.
 *
 * <p><b>Speculative decoding</b> ({@code mtp}, {@code mtp3}): {@link Speculation#mtp} with γ =
 * {@value #MTP_LENGTH} draft tokens and acceptance α = {@value #MTP_ACCEPTANCE}, an assumption (the
 * sources do not report acceptance for these runs; DeepSeek-V3's technical report gives 85–90% for
 * its single second-token MTP module, which does not carry over to three draft tokens).
 *
 * <p><b>Metrics</b> (units as in cases.md): {@code out_tok_s_per_user} is 1 / TPOT; {@code e2e_s}
 * is TTFT + (osl − 1) × TPOT; {@code total_tok_s_per_chip} and {@code input_tok_s_per_chip} scale
 * output throughput by {@code (isl + osl) / osl} and {@code isl / osl}.
 *
 * <p>The efficiency and the cap on running requests are a function of the case (the engine profile
 * of its {@code engine} column, see {@link #byProfiles(Profiles)}); {@link #of(Efficiency)} and
 * {@link #ideal()} put no cap beyond memory.
 */
public final class Predictor {
  /** Draft tokens assumed for {@code mtp} and {@code mtp3}. */
  public static final int MTP_LENGTH = 3;

  /** Per-token acceptance assumed for MTP draft tokens (an assumption, see the class javadoc). */
  public static final double MTP_ACCEPTANCE = 0.7;

  /** {@link RunSetup#DEFAULT_RANGE_RATIO}. */
  public static final double DEFAULT_RANGE_RATIO = RunSetup.DEFAULT_RANGE_RATIO;

  /** {@link RunSetup#DEFAULT_CYCLES}. */
  public static final int DEFAULT_CYCLES = RunSetup.DEFAULT_CYCLES;

  /** Skip reason of server-mode rows that state no latency bounds. */
  public static final String SERVER_REASON =
      "server mode needs the latency bounds in columns slo_ttft_ms and slo_tpot_ms";

  private final Function<ValidationCase, EngineProfile> profile;

  /** Whether predictions carry their notes ({@link #withoutNotes}). */
  private final boolean noting;

  private Predictor(Function<ValidationCase, EngineProfile> profile) {
    this(profile, true);
  }

  private Predictor(Function<ValidationCase, EngineProfile> profile, boolean noting) {
    this.profile = checkNotNull(profile, "profile");
    this.noting = noting;
  }

  /**
   * This predictor with every prediction's note empty: the same values, without building the notes'
   * text (a system's description is most of a cheap row's cost), for a fit's loss evaluations,
   * which read only the values.
   */
  Predictor withoutNotes() {
    return new Predictor(profile, false);
  }

  /** 100% of peak FLOP/s and bandwidth for every case: the roofline bound. */
  public static Predictor ideal() {
    return of(Efficiency.ideal());
  }

  /** The same {@code efficiency} for every case. */
  public static Predictor of(Efficiency efficiency) {
    checkNotNull(efficiency, "efficiency");
    return of(new EngineProfile("fixed", efficiency, "fixed efficiency"));
  }

  /**
   * An efficiency chosen per case (for example by chip and engine), with no running-request cap.
   */
  public static Predictor of(Function<ValidationCase, Efficiency> efficiency) {
    checkNotNull(efficiency, "efficiency");
    return new Predictor(c -> new EngineProfile("per-case", efficiency.apply(c), "per case"));
  }

  /** The same engine profile (efficiency and running-request cap) for every case. */
  public static Predictor of(EngineProfile profile) {
    checkNotNull(profile, "profile");
    return new Predictor(c -> profile);
  }

  /** An engine profile chosen per case, by each row's engine family. */
  public static Predictor byProfiles(Profiles profiles) {
    return byProfile(c -> profiles.forEngine(c.engine()));
  }

  /** A predictor that uses, for each row, the profile {@code profile} gives it. */
  public static Predictor byProfile(Function<ValidationCase, EngineProfile> profile) {
    return new Predictor(profile);
  }

  /** The prediction of {@code c}'s metric, or a {@link Skip} saying why there is none. */
  public Outcome predict(ValidationCase c) {
    try {
      List<String> notes = notes();
      double value = forMode(open(c, notes)).predict();
      if (!(Double.isFinite(value) && value > 0)) {
        throw new Unpredictable("no positive prediction: " + value);
      }
      return new Prediction(c, value, String.join("; ", notes));
    } catch (Unpredictable | IllegalArgumentException | NoSuchElementException e) {
      return skip(c, e);
    }
  }

  /**
   * The rows of one computation: what {@link #predictShared} computes once for rows that map to the
   * same key. A closed-loop row ({@code concurrency}, {@code disagg-concurrency}) computes every
   * metric of its operating point ({@link ClosedLoopPrediction#values}) and differs from the
   * point's other rows only in its metric, which enters the computation through its TTFT statistic
   * alone (the rounds' median for {@code median_ttft_ms}, their mean otherwise): its key is the row
   * without its id, metric (but for that statistic), measured value, confidence, url, notes and
   * line. A row of another mode is its own key.
   */
  static ValidationCase sharedKey(ValidationCase c) {
    if (!closedLoop(c.mode())) {
      return c;
    }
    Metric statistic = c.metric() == Metric.MEDIAN_TTFT_MS ? Metric.MEDIAN_TTFT_MS : Metric.TTFT_MS;
    return new ValidationCase(
        "",
        c.pointId(),
        c.model(),
        c.chip(),
        c.chips(),
        c.prefillChips(),
        c.decodeChips(),
        c.tp(),
        c.pp(),
        c.ep(),
        c.attentionDp(),
        c.weights(),
        c.kvCache(),
        c.isl(),
        c.osl(),
        c.mode(),
        c.load(),
        c.speculative(),
        c.engine(),
        statistic,
        1,
        "",
        c.source(),
        "",
        c.run(),
        "",
        0);
  }

  /**
   * The predictions of {@code rows}, which share one {@link #sharedKey}, computed once: each row's
   * value is exactly what {@link #predict} gives it, its note the first row's (a closed-loop note
   * on the TTFT statistic appears only where that row reports a TTFT). Rows of other modes are
   * predicted one by one.
   *
   * @throws IllegalArgumentException when {@code rows} is empty or the rows' keys differ
   */
  List<Outcome> predictShared(List<ValidationCase> rows) {
    checkArgument(!rows.isEmpty(), "no rows to predict");
    ValidationCase first = rows.get(0);
    ValidationCase key = sharedKey(first);
    for (ValidationCase c : rows) {
      checkArgument(sharedKey(c).equals(key), "rows of different computations: %s, %s", first, c);
    }
    List<Outcome> out = new ArrayList<>(rows.size());
    if (!closedLoop(first.mode())) { // its own computation
      rows.forEach(c -> out.add(predict(c)));
      return out;
    }
    try {
      List<String> notes = notes();
      ClosedLoopPrediction x = new ClosedLoopPrediction(open(first, notes));
      ClosedLoopPrediction.Values v = x.values();
      String note = String.join("; ", notes);
      for (ValidationCase c : rows) {
        double value = x.metric(c.metric(), v);
        out.add(
            Double.isFinite(value) && value > 0
                ? new Prediction(c, value, note)
                : new Skip(c, "no positive prediction: " + value));
      }
    } catch (Unpredictable | IllegalArgumentException | NoSuchElementException e) {
      out.clear();
      rows.forEach(c -> out.add(skip(c, e)));
    }
    return out;
  }

  /** Whether {@code m} is predicted by {@link ClosedLoopPrediction}. */
  private static boolean closedLoop(Mode m) {
    return m == Mode.CONCURRENCY || m == Mode.DISAGG_CONCURRENCY;
  }

  /** The skip of {@code c} for what its prediction threw ({@link #predict}'s reasons). */
  private static Skip skip(ValidationCase c, RuntimeException e) {
    return e instanceof Unpredictable
        ? new Skip(c, e.getMessage())
        : new Skip(
            c, "invalid configuration: " + String.valueOf(e.getMessage()).replace('\n', ' '));
  }

  /**
   * {@code c}'s model, chip, engine profile and systems, with the assumptions made in {@code
   * notes}.
   */
  private CaseContext open(ValidationCase c, List<String> notes) {
    RunSetup run = c.run();
    if (c.mode() == Mode.PRODUCTION) {
      throw new Unpredictable("production fleet averages: not a controlled operating point");
    }
    Model model =
        Models.builtIn()
            .find(c.model())
            .orElseThrow(() -> new Unpredictable("unknown model: '" + c.model() + "'"));
    EngineProfile engine = checkNotNull(profile.apply(c), "profile of case");
    Chip chip =
        Chips.builtIn()
            .find(c.chip())
            .orElseThrow(() -> new Unpredictable("unknown chip: '" + c.chip() + "'"));
    if (!engine.efficiency().isIdeal() && Efficiency.sramOnly(chip)) {
      // no engine profile is fitted on SRAM-only chips (Efficiency#forChip): the whole profile,
      // admission and running-request cap included, gives way to the roofline with a pipeline
      // latency floor (Efficiency#sramFloor)
      Efficiency floor = Efficiency.sramFloor(chip);
      engine = new EngineProfile("sram-only", floor, "SRAM-only chip");
      notes.add(
          "SRAM-only chip: roofline + pipeline latency floor ("
              + floor.kernelOverhead()
              + " per dependent operation), no engine profile is fitted on such chips");
    }
    Efficiency asRun = asRun(run, engine.efficiency(), notes);
    if (asRun != engine.efficiency()) {
      engine =
          new EngineProfile(engine.name(), asRun, engine.maxRunningRequests(), engine.source());
    }
    if (run.maxBatchPerRank().isPresent() && !Efficiency.sramOnly(chip)) {
      // the run states its engine's configured cap per rank (TensorRT-LLM's max_batch_size holds
      // per attention data-parallel rank): a replica runs at most that many per rank, in place of
      // the profile's fitted cap per replica
      int perRank = run.maxBatchPerRank().getAsInt();
      int ranks = Math.max(1, c.attentionDp().orElse(1));
      long cap = (long) perRank * ranks;
      if (cap > Integer.MAX_VALUE) {
        throw new Unpredictable(
            "engine cap as run: max_batch "
                + perRank
                + " per rank × "
                + ranks
                + " attention groups is more running requests than an int holds");
      }
      engine =
          new EngineProfile(
              engine.name(), engine.efficiency(), OptionalInt.of((int) cap), engine.source());
      notes.add(
          "engine cap as run: max_batch "
              + perRank
              + " per rank × "
              + ranks
              + " attention groups = "
              + cap
              + " running requests per replica");
    }
    CaseSystems systems = new CaseSystems(c, model, chip, engine.efficiency(), notes);
    return new CaseContext(c, notes, engine, systems, noting);
  }

  /** A prediction's notes: a list, or one that keeps nothing when this predictor does not note. */
  private List<String> notes() {
    return noting ? new ArrayList<>() : new Discarded();
  }

  /** A list that keeps nothing added to it: the notes of a prediction without notes. */
  private static final class Discarded extends AbstractList<String> {
    @Override
    public String get(int index) {
      throw new IndexOutOfBoundsException("no notes are kept: " + index);
    }

    @Override
    public int size() {
      return 0;
    }

    @Override
    public void add(int index, String note) {
      // kept nowhere: nobody reads the note
    }
  }

  /**
   * {@code e} as the row's run was set up: its stated decode launch and scheduler in place of the
   * profile's, with a note for each that differs; {@code e} itself when none differs, and for the
   * ideal bound, which has no host work to change.
   */
  private static Efficiency asRun(RunSetup run, Efficiency e, List<String> notes) {
    if (e.isIdeal()) {
      return e;
    }
    boolean eager =
        run.decodeLaunch().map(d -> d == RunSetup.DecodeLaunch.EAGER).orElse(e.eagerDecode());
    boolean overlap =
        run.scheduler().map(s -> s == RunSetup.Scheduler.OVERLAP).orElse(e.overlapScheduler());
    if (eager != e.eagerDecode()) {
      // eager: each decode pass launches its kernels from the host at the profile's eager launch
      // cost; graphs: it replays a captured graph (Efficiency#eagerDecode)
      notes.add(
          eager
              ? "eager decode: each decode kernel launched from the host (no CUDA graph)"
              : "graphed decode: each decode pass replays a captured graph");
    }
    if (overlap != e.overlapScheduler()) {
      // synchronous: each step scheduled after the previous one (Efficiency#overlapScheduler)
      notes.add(
          overlap
              ? "overlap scheduler: the next step scheduled while the device runs this one"
              : "synchronous scheduler: step work between passes, no scheduling lag");
    }
    if (eager == e.eagerDecode() && overlap == e.overlapScheduler()) {
      return e;
    }
    return Efficiency.builder().from(e).eagerDecode(eager).overlapScheduler(overlap).build();
  }

  /** The prediction of {@code x}'s mode family. */
  private static ModePrediction forMode(CaseContext x) {
    switch (x.testCase().mode()) {
      case STATIC:
        return new StaticPrediction(x);
      case CONCURRENCY:
      case DISAGG_CONCURRENCY:
        return new ClosedLoopPrediction(x);
      case SERVER:
        return new ServerPrediction(x);
      case BURST:
      case CLIENTS:
        return new BurstPrediction(x);
      case DISAGG_PREFILL:
      case DISAGG_DECODE:
        return new DisaggPoolPrediction(x);
      default:
        return new ColocatedPrediction(x); // offline, single-stream
    }
  }
}
