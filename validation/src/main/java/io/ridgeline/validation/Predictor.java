package io.ridgeline.validation;

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
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * Predicts one case's metric from the configuration its row states, and nothing else: the model,
 * chip, system size, parallelism, precisions, lengths, mode, load and speculative method. Rows that
 * cannot be predicted become a {@link Skip} with the reason; none is dropped.
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
 *   <li>{@code single-stream}: colocated at batch 1; a speed whose lengths are not stated (a
 *       vendor's headline) at a short chat turn of 128 prompt and 512 output tokens.
 *   <li>{@code disagg-concurrency}: {@link Deployment.Strategy#PD} with the row's decode pool (its
 *       tp, ep, attention_dp) and prefill pool, the decode batch capped like {@code concurrency};
 *       per-chip throughput is the lower of the decode pool's output rate and the prefill pool's
 *       request rate × osl, over all chips of both pools.
 *   <li>{@code disagg-prefill}: prompts per pass of up to 8,192 tokens over the pass time, per chip
 *       of the prefill pool.
 *   <li>{@code disagg-decode}: the decode pool alone at batch = load (× chips when the notes say
 *       the load is per chip; when no load is given, the batch of most tokens/s up to the largest
 *       that fits, as in {@code offline}), context isl.
 *   <li>{@code server} (MLPerf Server): colocated under Poisson arrivals at the highest rate whose
 *       p99 TTFT and TPOT meet the bounds the notes give ("SLO TTFT 2 s / TPOT 200 ms"); each batch
 *       B up to the largest that fits (and the engine cap) is a steady state of rate λ = B / (TTFT₀
 *       + (osl − 1)·TPOT) by Little's law, prompts wait for the prefill server as in an M/D/1 queue
 *       (mean) with an exponential tail (p99); the metrics are those of the best batch, TTFT the
 *       mean with the wait.
 *   <li>{@code production}: skipped (fleet averages are not a controlled operating point).
 * </ul>
 *
 * <p><b>Closed-loop TTFT</b> ({@code concurrency} and {@code disagg-concurrency}): benchmark
 * clients start together and send fixed-length requests, so prompts arrive in rounds: all of a
 * round at once when every request has the same lengths, spread out as the clients drift apart by
 * the spread of their output lengths (InferenceMAX draws lengths uniformly from [r·L, L] with range
 * ratio r = {@value #DEFAULT_RANGE_RATIO} and sends 10 prompts per client; a row's notes may state
 * "range ratio R" and "N prompts"). Round k's arrivals spread over min(1, √k·(1 − r)) of the decode
 * time (a sum of k uniform drifts); the prefill server (the colocated replica, or the decode
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
 * a row's notes state the engine's configured cap per rank ("max_batch 384 per rank", {@link
 * CaseNotes#maxBatchPerRank}), the cap per replica is that × the attention data-parallel groups, in
 * place of the profile's fitted one.
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

  /** {@link CaseNotes#DEFAULT_RANGE_RATIO}. */
  public static final double DEFAULT_RANGE_RATIO = CaseNotes.DEFAULT_RANGE_RATIO;

  /** {@link CaseNotes#DEFAULT_CYCLES}. */
  public static final int DEFAULT_CYCLES = CaseNotes.DEFAULT_CYCLES;

  /** Skip reason of server-mode rows whose notes give no latency bounds. */
  public static final String SERVER_REASON =
      "server mode needs the latency bounds in notes ('SLO TTFT <n> s / TPOT <n> ms')";

  private final Function<ValidationCase, EngineProfile> profile;

  private Predictor(Function<ValidationCase, EngineProfile> profile) {
    this.profile = checkNotNull(profile, "profile");
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
      List<String> notes = new ArrayList<>();
      double value = forMode(open(c, notes)).predict();
      if (!(Double.isFinite(value) && value > 0)) {
        throw new Unpredictable("no positive prediction: " + value);
      }
      return new Prediction(c, value, String.join("; ", notes));
    } catch (Unpredictable e) {
      return new Skip(c, e.getMessage());
    } catch (IllegalArgumentException | NoSuchElementException e) {
      return new Skip(
          c, "invalid configuration: " + String.valueOf(e.getMessage()).replace('\n', ' '));
    }
  }

  /**
   * {@code c}'s model, chip, engine profile and systems, with the assumptions made in {@code
   * notes}.
   */
  private CaseContext open(ValidationCase c, List<String> notes) {
    CaseNotes stated = CaseNotes.parse(c.notes());
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
    if ((stated.eagerDecode() || stated.synchronousScheduler()) && !engine.efficiency().isIdeal()) {
      Efficiency.Builder asRun = Efficiency.builder().from(engine.efficiency());
      if (stated.eagerDecode()) {
        // the row's engine ran decode without CUDA graphs: each decode pass launches its kernels
        // from the host at the profile's eager launch cost (Efficiency#eagerDecode)
        asRun.eagerDecode(true);
        notes.add("eager decode: each decode kernel launched from the host (no CUDA graph)");
      }
      if (stated.synchronousScheduler()) {
        // the row's engine scheduled each step after the previous one (Efficiency#overlapScheduler)
        asRun.overlapScheduler(false);
        notes.add("synchronous scheduler: step work between passes, no scheduling lag");
      }
      engine =
          new EngineProfile(
              engine.name(), asRun.build(), engine.maxRunningRequests(), engine.source());
    }
    if (stated.maxBatchPerRank().isPresent() && !Efficiency.sramOnly(chip)) {
      // the run states its engine's configured cap per rank (TensorRT-LLM's max_batch_size holds
      // per attention data-parallel rank): a replica runs at most that many per rank, in place of
      // the profile's fitted cap per replica
      int perRank = stated.maxBatchPerRank().getAsInt();
      int ranks = Math.max(1, c.attentionDp().orElse(1));
      int cap = Math.multiplyExact(perRank, ranks);
      engine =
          new EngineProfile(
              engine.name(), engine.efficiency(), OptionalInt.of(cap), engine.source());
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
    return new CaseContext(c, stated, notes, engine, systems);
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
      case DISAGG_PREFILL:
      case DISAGG_DECODE:
        return new DisaggPoolPrediction(x);
      default:
        return new ColocatedPrediction(x); // offline, single-stream
    }
  }
}
