package io.ridgeline.validation;

import static com.google.common.base.Preconditions.checkNotNull;

import io.ridgeline.core.ImmutablePrecisions;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.TensorClass;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.Efficiency;
import io.ridgeline.serving.EngineProfile;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.ImmutableRooflineModel;
import io.ridgeline.serving.Profiles;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Sizing;
import io.ridgeline.serving.Speculation;
import io.ridgeline.serving.queueing.ClosedLoop;
import io.ridgeline.serving.queueing.PoissonQueue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Optional;
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
 *   <li>{@code offline}: colocated at the largest batch that fits, or at the load if given, capped
 *       in both cases at the engine's max_running_requests.
 *   <li>{@code single-stream}: colocated at batch 1.
 *   <li>{@code disagg-concurrency}: {@link Deployment.Strategy#PD} with the row's decode pool (its
 *       tp, ep, attention_dp) and prefill pool, the decode batch capped like {@code concurrency};
 *       per-chip throughput is the lower of the decode pool's output rate and the prefill pool's
 *       request rate × osl, over all chips of both pools.
 *   <li>{@code disagg-prefill}: prompts per pass of up to 8,192 tokens over the pass time, per chip
 *       of the prefill pool.
 *   <li>{@code disagg-decode}: the decode pool alone at batch = load (× chips when the notes say
 *       the load is per chip; the largest batch that fits when no load is given), context isl.
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
 * its arrival ({@link ClosedLoop#roundsTtft}), averaged over the rounds, plus the engine profile's
 * {@link Efficiency#admission() admission latency}. This TTFT₀ then enters the queueing below.
 *
 * <p><b>Closed-loop queueing</b> ({@code concurrency} and {@code disagg-concurrency}): C clients
 * per replica each send a request as soon as their previous one completes, and the replica runs at
 * most B of them at once: B = min(C, the largest batch that fits, the engine's max_running_requests
 * per replica). When C &gt; B the other C − B wait. The replica completes requests at X = B /
 * (TTFT₀ + (osl − 1)·TPOT) per second, TTFT₀ being the unqueued TTFT; by Little's law a closed
 * system of C clients with throughput X has a mean response time of C / X, so a request's TTFT (its
 * wait plus its prefill) is C / X − (osl − 1)·TPOT, used when it exceeds TTFT₀ (it does exactly
 * when C &gt; B). {@code e2e_s} includes the wait; throughput and TPOT are those of batch B.
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

  /**
   * A colocated point under Poisson arrivals: its request rate per replica, and the mean and p99
   * TTFT with the wait for the prefill server.
   */
  private record ServerPoint(FrontierPoint point, double rate, double meanTtft, double p99Ttft) {}

  /**
   * {@code p} (batch B) as the steady state of Poisson arrivals: by Little's law the rate is λ = B
   * / (TTFT₀ + (osl − 1)·TPOT); prompts queue for prefill, a server of utilisation ρ = λ·τ (τ = one
   * prompt's prefill): mean wait ρτ / (2(1 − ρ)) (M/D/1), p99 wait τ·ln(100ρ) / (1 − ρ) (the
   * exponential tail of an M/M/1 queue, 0 when ρ ≤ 1%); ρ ≥ 1 has no steady state (infinite TTFT).
   */
  private static ServerPoint serverPoint(FrontierPoint p, double prefill, int osl) {
    double ttft0 = p.ttft().seconds(); // admission included
    double rate = ClosedLoop.throughput(p.batch(), ttft0 + (osl - 1) * p.tpot().seconds());
    return new ServerPoint(
        p,
        rate,
        ttft0 + PoissonQueue.meanWait(rate, prefill),
        ttft0 + PoissonQueue.p99Wait(rate, prefill));
  }

  /** The prediction of {@code c}'s metric, or a {@link Skip} saying why there is none. */
  public Outcome predict(ValidationCase c) {
    try {
      return new Run(c).predict();
    } catch (Unpredictable e) {
      return new Skip(c, e.getMessage());
    } catch (IllegalArgumentException | NoSuchElementException e) {
      return new Skip(
          c, "invalid configuration: " + String.valueOf(e.getMessage()).replace('\n', ' '));
    }
  }

  /** A reason not to predict a case. */
  private static final class Unpredictable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unpredictable(String reason) {
      super(reason);
    }
  }

  /** One case's prediction in progress. */
  private final class Run {
    private final ValidationCase c;
    private final CaseNotes stated;
    private final List<String> notes = new ArrayList<>();
    private Model model;
    private Chip chip;
    private RooflineModel template;
    private Optional<Speculation> speculation = Optional.empty();
    private EngineProfile engine;

    Run(ValidationCase c) {
      this.c = c;
      this.stated = CaseNotes.parse(c.notes());
    }

    Outcome predict() {
      if (c.mode() == Mode.PRODUCTION) {
        throw new Unpredictable("production fleet averages: not a controlled operating point");
      }
      model =
          Models.builtIn()
              .find(c.model())
              .orElseThrow(() -> new Unpredictable("unknown model: '" + c.model() + "'"));
      engine = checkNotNull(profile.apply(c), "profile of case");
      chip =
          Chips.builtIn()
              .find(c.chip())
              .orElseThrow(() -> new Unpredictable("unknown chip: '" + c.chip() + "'"));
      if (!engine.efficiency().isIdeal() && engine.efficiency().forChip(chip).isIdeal()) {
        // no engine profile is fitted on SRAM-only chips (Efficiency#forChip): the whole profile,
        // admission and running-request cap included, gives way to the roofline bound
        engine = new EngineProfile("ideal", Efficiency.ideal(), "SRAM-only chip");
        notes.add("SRAM-only chip: no engine profile is fitted on such chips, ideal roofline");
      }
      template =
          RooflineModel.builder()
              .model(model)
              .chip(chip)
              .precisions(precisions())
              .efficiency(engine.efficiency())
              .build();
      c.speculative().ifPresent(this::speculation);
      double value;
      switch (c.mode()) {
        case STATIC:
          value = staticMode();
          break;
        case DISAGG_CONCURRENCY:
          value = disaggConcurrency();
          break;
        case DISAGG_PREFILL:
          value = disaggPrefill();
          break;
        case DISAGG_DECODE:
          value = disaggDecode();
          break;
        case SERVER:
          value = server();
          break;
        default:
          value = colocated();
      }
      if (!(Double.isFinite(value) && value > 0)) {
        throw new Unpredictable("no positive prediction: " + value);
      }
      return new Prediction(c, value, String.join("; ", notes));
    }

    private Precisions precisions() {
      Precisions p = model.defaultPrecisions();
      if (c.weights().isPresent()) {
        p = p.withAllWeights(precision("weights", c.weights().get()));
      }
      if (c.kvCache().isPresent()) {
        p =
            ImmutablePrecisions.builder()
                .from(p)
                .kvCache(precision("kv_cache", c.kvCache().get()))
                .build();
      } else if (quantizedCheckpoint(p)) {
        // FP8/FP4 weights of a 16-bit checkpoint come from a quantization recipe (NVIDIA ModelOpt,
        // whose FP8 and NVFP4 checkpoints set kv_cache_quant_algo FP8): KV in FP8 unless stated
        p = ImmutablePrecisions.builder().from(p).kvCache(Precision.FP8).build();
        notes.add("kv_cache not stated: FP8, as in FP8/FP4 quantized checkpoints of 16-bit models");
      }
      return p;
    }

    /**
     * Whether the row runs FP8 or FP4 weights of a model whose checkpoint is 16-bit: a quantized
     * checkpoint made by a recipe rather than the model's own release.
     */
    private boolean quantizedCheckpoint(Precisions row) {
      Precisions checkpoint = model.defaultPrecisions();
      Precision w = row.weights();
      return c.weights().isPresent()
          && Arrays.stream(TensorClass.values())
              .allMatch(t -> checkpoint.weights(t).bytesPerElement() >= 2)
          && (w == Precision.FP8 || w == Precision.FP4 || w == Precision.MXFP4);
    }

    private Precision precision(String column, String id) {
      return Precision.find(id)
          .orElseThrow(() -> new Unpredictable("unknown precision: " + column + " '" + id + "'"));
    }

    private void speculation(String method) {
      if (!method.equals("mtp") && !method.equals("mtp3")) {
        throw new Unpredictable("unknown speculative method: '" + method + "'");
      }
      speculation = Optional.of(Speculation.mtp(MTP_LENGTH, MTP_ACCEPTANCE));
      notes.add(
          String.format(
              Locale.ROOT,
              "%s as MTP γ=%d with acceptance α=%.2f assumed (not reported by the source)",
              method,
              MTP_LENGTH,
              MTP_ACCEPTANCE));
    }

    private int isl() {
      return c.isl()
          .orElseThrow(
              () ->
                  new Unpredictable(
                      "isl/osl not stated: lengths of a dataset, production traffic or"
                          + " undisclosed"));
    }

    private int osl() {
      return c.osl()
          .orElseThrow(
              () ->
                  new Unpredictable(
                      "isl/osl not stated: lengths of a dataset, production traffic or"
                          + " undisclosed"));
    }

    private int load() {
      return c.load()
          .orElseThrow(() -> new Unpredictable("load not stated: mode " + c.mode() + " needs it"));
    }

    /** {@code load} requests split over the pool's replicas, at least 1. */
    private int perReplica(int load, RooflineModel pool) {
      return Math.max(1, (int) Math.round((double) load / pool.replicas()));
    }

    // ---- layouts ----

    /**
     * The pool of {@code chips} chips (empty: sized to the fewest that hold {@code batch} at {@code
     * context}) with the given stated parallelism.
     */
    private RooflineModel pool(
        OptionalInt chips,
        OptionalInt tpRow,
        OptionalInt ppRow,
        OptionalInt epRow,
        OptionalInt dpRow,
        int batch,
        int context) {
      try {
        int dp = dpRow.orElse(1);
        int pp = ppRow.orElse(1);
        int ep = epRow.orElse(1);
        if (chips.isEmpty() && tpRow.isEmpty() && ppRow.isEmpty() && dpRow.isEmpty()) {
          RooflineModel sized =
              Sizing.fewestChips(template, batch, context)
                  .orElseThrow(
                      () ->
                          new Unpredictable(
                              "does not fit: no layout of "
                                  + chip.id()
                                  + " chips up to one layer per pipeline stage holds "
                                  + model.id()
                                  + " at batch "
                                  + batch
                                  + ", context "
                                  + context));
          notes.add(
              "chips not stated: sized to the fewest that hold batch "
                  + batch
                  + " at context "
                  + context);
          return epRow.isPresent()
              ? ImmutableRooflineModel.copyOf(sized).withExpertParallel(ep)
              : sized;
        }
        int tp;
        if (tpRow.isPresent()) {
          if (tpRow.getAsInt() % dp != 0) {
            throw new Unpredictable(
                "invalid layout: tp "
                    + tpRow.getAsInt()
                    + " is not a multiple of attention_dp "
                    + dp);
          }
          tp = tpRow.getAsInt() / dp;
        } else if (dpRow.isPresent()) {
          tp = 1; // DEP-N: attention data parallel over N chips
        } else if (ppRow.isEmpty() && chips.orElse(1) > 1 && latentAttention()) {
          // MLA models (DeepSeek) are served with data-parallel attention and expert parallelism
          // when the layout is not stated (DEP-N, the layout of SGLang's and TensorRT-LLM's
          // published large-scale runs): tensor parallelism would replicate the shared latent cache
          int n = chips.getAsInt();
          notes.add(
              "tp not stated: MLA served as DEP-" + n + " (attention dp " + n + ", ep " + n + ")");
          return RooflineModel.builder()
              .from(template)
              .chips(n)
              .tensorParallel(1)
              .pipelineParallel(1)
              .expertParallel(epRow.orElse(n))
              .attentionDataParallel(n)
              .build();
        } else {
          int n = chips.orElse(1);
          if (n % pp == 0 && model.tensorParallelProblem(n / pp).isEmpty()) {
            tp = n / pp;
          } else if (ppRow.isEmpty()) {
            RooflineModel laid =
                Sizing.layoutFor(template, n, context)
                    .orElseThrow(
                        () ->
                            new Unpredictable(
                                "invalid layout: no tensor × pipeline layout of "
                                    + n
                                    + " chips for "
                                    + model.id()));
            notes.add(
                "tp not stated: laid out as tp "
                    + laid.tensorParallel()
                    + " × pp "
                    + laid.pipelineParallel());
            return RooflineModel.builder().from(laid).expertParallel(ep).build();
          } else {
            throw new Unpredictable(
                "invalid layout: "
                    + n
                    + " chips over pp "
                    + pp
                    + " give no valid tensor-parallel degree for "
                    + model.id());
          }
        }
        int total = chips.orElse(tp * dp * pp);
        return RooflineModel.builder()
            .from(template)
            .chips(total)
            .tensorParallel(tp)
            .pipelineParallel(pp)
            .expertParallel(ep)
            .attentionDataParallel(dp)
            .build();
      } catch (IllegalArgumentException e) {
        throw new Unpredictable("invalid layout: " + e.getMessage());
      }
    }

    /** Whether the model's attention keeps a latent cache shared by all heads (MLA). */
    private boolean latentAttention() {
      return model.layers().stream()
          .anyMatch(l -> l.attention().map(a -> a.mla().isPresent()).orElse(false));
    }

    /** The measured system: the row's chips and parallelism. */
    private RooflineModel system(int batch, int context) {
      return pool(c.chips(), c.tp(), c.pp(), c.ep(), c.attentionDp(), batch, context);
    }

    private Deployment deployment(Deployment.Strategy strategy, RooflineModel pool) {
      return Deployment.builder().strategy(strategy).primary(pool).speculation(speculation).build();
    }

    private int capped(int batch, int max, int context) {
      if (max <= 0) {
        throw new Unpredictable(
            "does not fit: one request of " + context + " tokens does not fit the system");
      }
      if (batch > max) {
        notes.add("batch " + batch + " capped at " + max + " by memory (the rest queue)");
        return max;
      }
      return batch;
    }

    /** {@code batch} capped at the engine's max_running_requests (at least 1). */
    private int engineCapped(int batch) {
      if (!engine.capsRunningRequests()) {
        return batch;
      }
      int cap = engine.maxRunningRequests().getAsInt();
      if (batch > cap) {
        notes.add(
            "batch "
                + batch
                + " capped at "
                + cap
                + " by the engine's max_running_requests (the rest queue)");
        return cap;
      }
      return batch;
    }

    // ---- modes ----

    private double staticMode() {
      int isl = isl();
      int osl = osl();
      int load = load();
      RooflineModel rm = system(load, isl + osl);
      int batch = perReplica(load, rm);
      if (!rm.memory(batch, isl + osl).fits()) {
        throw new Unpredictable(
            "does not fit: batch " + batch + " at context " + (isl + osl) + " on " + rm);
      }
      FrontierPoint p = deployment(Deployment.Strategy.STATIC, rm).point(batch, isl, osl);
      notes.add(rm + ", static batch " + batch);
      if (c.metric() == Metric.TPOT_MS && speculation.isEmpty()) {
        int context = isl + Math.max(1, osl / 2);
        notes.add("one decode step at context " + context);
        return 1e3 * rm.decode(batch, context).seconds().seconds();
      }
      return metric(p, isl, osl);
    }

    private double colocated() {
      int isl = isl();
      int osl = osl();
      boolean single = c.mode() == Mode.SINGLE_STREAM;
      int wanted =
          single ? 1 : c.mode() == Mode.CONCURRENCY ? load() : c.load().orElse(Integer.MAX_VALUE);
      RooflineModel rm = system(single || wanted == Integer.MAX_VALUE ? 1 : wanted, isl + osl);
      Deployment d = deployment(Deployment.Strategy.COLOCATED, rm);
      int max = d.maxBatch(isl + osl);
      int batch;
      int clients;
      if (wanted == Integer.MAX_VALUE) {
        int top = engineCapped(capped(max, max, isl + osl));
        batch = bestThroughputBatch(d, top, isl, osl);
        clients = batch;
        notes.add(
            batch == top
                ? "offline: largest batch that fits"
                : "offline: batch " + batch + " of at most " + top + " gives the most tokens/s");
      } else {
        clients = perReplica(wanted, rm);
        batch = engineCapped(capped(clients, max, isl + osl));
      }
      notes.add(0, rm + ", colocated batch " + batch + " per replica");
      FrontierPoint p = d.point(batch, isl, osl);
      double ttft = p.ttft().seconds();
      if (c.mode() == Mode.CONCURRENCY) {
        double decodeStep = rm.decode(batch, isl + Math.max(1, osl / 2)).seconds().seconds();
        ttft =
            closedLoopTtft(rm, batch, isl, osl, decodeStep, p.tpot().seconds(), 0)
                + engine.efficiency().admission().seconds();
        ttft = queuedTtft(clients, batch, ttft, p.tpot().seconds(), osl);
      } else if (c.metric() == Metric.TTFT_MS && !single) {
        notes.add("TTFT without queueing");
      }
      return metric(p, p.tokensPerSecondPerChip(), ttft, isl, osl);
    }

    /**
     * The batch in [1, {@code top}] with the highest output tokens/s per chip: the one a scheduler
     * maximising throughput settles on. Throughput grows with batch until the KV cache spills to a
     * slower tier or the per-step prefill share dominates; a grid of ratio 1.25 down from {@code
     * top}, then a grid of ratio 1.02 around the best, finds it.
     */
    private int bestThroughputBatch(Deployment d, int top, int isl, int osl) {
      int best = top;
      double bestRate = d.point(top, isl, osl).tokensPerSecondPerChip();
      for (double b = top / 1.25; b >= 1; b /= 1.25) {
        double rate = d.point((int) b, isl, osl).tokensPerSecondPerChip();
        if (rate > bestRate) {
          best = (int) b;
          bestRate = rate;
        }
      }
      int lo = Math.max(1, (int) (best / 1.25));
      int hi = Math.min(top, (int) Math.ceil(best * 1.25));
      for (double b = lo; b <= hi; b = Math.max(b + 1, b * 1.02)) {
        double rate = d.point((int) b, isl, osl).tokensPerSecondPerChip();
        if (rate > bestRate) {
          best = (int) b;
          bestRate = rate;
        }
      }
      return best;
    }

    /**
     * Closed-loop TTFT ({@link ClosedLoop#roundsTtft}) of {@code prompts} prompts per round on one
     * replica of {@code prefill}, plus {@code transfer} seconds of KV transfer, with a note.
     *
     * @param decodeStep the decode step that prefill steps share (colocated), or 0 (a prefill pool)
     * @param tpot the decode pool's time per output token
     */
    private double closedLoopTtft(
        RooflineModel prefill,
        int prompts,
        int isl,
        int osl,
        double decodeStep,
        double tpot,
        double transfer) {
      int perStep = prefill.promptsPerPrefillPass(isl);
      double ratio = stated.rangeRatioOrDefault();
      int cycles = stated.cycles(c.load());
      double ttft =
          ClosedLoop.roundsTtft(
                  prompts,
                  perStep,
                  m -> prefill.prefill(m, isl).seconds().seconds(),
                  decodeStep,
                  (osl - 1) * tpot,
                  ratio,
                  cycles)
              + transfer;
      if (c.metric() == Metric.TTFT_MS || c.metric() == Metric.E2E_S) {
        notes.add(
            String.format(
                Locale.ROOT,
                "closed loop: %d prompts per round, %d rounds, length range ratio %.2f, up to %d"
                    + " prompts per prefill step: mean TTFT %.4g s",
                prompts,
                cycles,
                ratio,
                perStep,
                ttft));
      }
      return ttft;
    }

    /** {@link ClosedLoop#queuedTtft}, with a note when requests wait. */
    private double queuedTtft(int clients, int batch, double ttft0, double tpot, int osl) {
      double queued = ClosedLoop.queuedTtft(clients, batch, ttft0, tpot, osl);
      if (queued <= ttft0) {
        return ttft0;
      }
      notes.add(
          String.format(
              Locale.ROOT,
              "closed loop: %d clients on batch %d, TTFT %.4g s with queueing (Little's law)",
              clients,
              batch,
              queued));
      return queued;
    }

    /**
     * MLPerf Server: Poisson arrivals at the highest rate whose p99 TTFT and TPOT meet the bounds
     * in the notes (see the class javadoc, <b>Server</b>).
     */
    private double server() {
      int isl = isl();
      int osl = osl();
      CaseNotes.Slo slo = stated.slo().orElseThrow(() -> new Unpredictable(SERVER_REASON));
      double ttftBound = slo.ttftSeconds();
      double tpotBound = slo.tpotSeconds();
      RooflineModel rm = system(1, isl + osl);
      Deployment d = deployment(Deployment.Strategy.COLOCATED, rm);
      int max = d.maxBatch(isl + osl);
      int top = engineCapped(capped(max, max, isl + osl));
      double prefill = rm.prefill(1, isl).seconds().seconds();
      ServerPoint best = null;
      for (double b = 1; b <= top; b = Math.max(b + 1, b * 1.05)) {
        ServerPoint sp = serverPoint(d.point((int) b, isl, osl), prefill, osl);
        if (sp.p99Ttft <= ttftBound
            && sp.point.tpot().seconds() <= tpotBound
            && (best == null || sp.rate > best.rate)) {
          best = sp;
        }
      }
      if (best == null) {
        throw new Unpredictable(
            String.format(
                Locale.ROOT,
                "no rate meets the bounds (p99 TTFT %.4g s, TPOT %.4g s) on %s",
                ttftBound,
                tpotBound,
                rm));
      }
      FrontierPoint p = best.point;
      notes.add(
          String.format(
              Locale.ROOT,
              "%s; server: %.4g requests/s per replica (batch %d) is the highest rate with p99 TTFT"
                  + " %.4g s ≤ %.4g s and TPOT %.4g s ≤ %.4g s",
              rm,
              best.rate,
              p.batch(),
              best.p99Ttft,
              ttftBound,
              p.tpot().seconds(),
              tpotBound));
      return metric(p, p.tokensPerSecondPerChip(), best.meanTtft, isl, osl);
    }

    private double disaggConcurrency() {
      int isl = isl();
      int osl = osl();
      int load = load();
      OptionalInt decodeChips = c.decodeChips();
      if (decodeChips.isEmpty()) {
        throw new Unpredictable("pools not stated: disagg-concurrency needs decode_chips");
      }
      RooflineModel decode =
          ImmutableRooflineModel.copyOf(
                  pool(decodeChips, c.tp(), c.pp(), c.ep(), c.attentionDp(), load, isl + osl))
              .withRunsPrefill(false);
      int promptsPerPass = Math.max(1, RooflineModel.PREFILL_CHUNK_TOKENS / isl);
      RooflineModel prefill;
      if (c.prefillChips().isPresent()) {
        prefill =
            pool(
                c.prefillChips(),
                OptionalInt.empty(),
                OptionalInt.empty(),
                OptionalInt.empty(),
                OptionalInt.empty(),
                promptsPerPass,
                isl);
      } else {
        prefill =
            Sizing.fewestChips(template, promptsPerPass, isl)
                .orElseThrow(
                    () ->
                        new Unpredictable(
                            "does not fit: no prefill pool of "
                                + chip.id()
                                + " holds "
                                + model.id()));
        notes.add(
            "prefill pool not stated: sized to the fewest chips and balanced to the decode demand");
      }
      Deployment d =
          Deployment.builder()
              .strategy(Deployment.Strategy.PD)
              .primary(decode)
              .secondary(prefill)
              .speculation(speculation)
              .build();
      int clients = perReplica(load, decode);
      int batch = engineCapped(capped(clients, d.maxBatch(isl + osl), isl + osl));
      FrontierPoint p = d.point(batch, isl, osl);
      if (!p.fits()) {
        throw new Unpredictable(
            "does not fit: "
                + d.fitProblem(isl, osl)
                    .orElse(
                        "prefill pass of "
                            + promptsPerPass
                            + " prompts of "
                            + isl
                            + " tokens on "
                            + prefill));
      }
      notes.add(0, "decode " + decode + ", batch " + batch + " per replica; prefill " + prefill);
      double perChip = p.tokensPerSecondPerChip();
      if (c.prefillChips().isPresent()) {
        double decodeRate = decode.replicas() * batch / p.tpot().seconds();
        int perPass = prefill.promptsPerPrefillPass(isl);
        double pass = prefill.prefill(perPass, isl).seconds().seconds();
        double prefillRate = prefill.replicas() * perPass / pass * osl;
        if (prefillRate < decodeRate) {
          notes.add(
              "prefill-bound: prefill pool sustains "
                  + String.format(Locale.ROOT, "%.0f", prefillRate)
                  + " of "
                  + String.format(Locale.ROOT, "%.0f", decodeRate)
                  + " output tok/s");
        }
        perChip = Math.min(decodeRate, prefillRate) / (prefill.chips() + decode.chips());
      }
      // a wave of the decode replica's batch is prefilled by its share of the prefill replicas
      double prefillReplicas =
          c.prefillChips().isPresent()
              ? (double) prefill.replicas() / decode.replicas()
              : (p.chipsTotal() - decode.replicaChips()) / prefill.replicaChips();
      int wave = (int) Math.max(1, Math.ceil(batch / Math.max(1e-9, prefillReplicas)));
      double ttft =
          closedLoopTtft(
                  prefill,
                  wave,
                  isl,
                  osl,
                  0,
                  p.tpot().seconds(),
                  d.kvTransferSeconds(isl, prefill, decode))
              + engine.efficiency().admission().seconds();
      ttft = queuedTtft(clients, batch, ttft, p.tpot().seconds(), osl);
      return metric(p, perChip, ttft, isl, osl);
    }

    private double disaggPrefill() {
      if (c.metric() != Metric.INPUT_TOK_S_PER_CHIP) {
        throw new Unpredictable(
            "metric not predicted in this mode: " + c.metric() + " in disagg-prefill");
      }
      int isl = isl();
      OptionalInt chips = c.prefillChips().isPresent() ? c.prefillChips() : c.chips();
      RooflineModel rm =
          pool(
              chips,
              c.tp(),
              c.pp(),
              c.ep(),
              c.attentionDp(),
              Math.max(1, RooflineModel.PREFILL_CHUNK_TOKENS / isl),
              isl);
      // the load is prefill tokens per chip per pass when stated
      int promptsPerPass =
          c.load().isPresent()
              ? (int)
                  Math.max(1, Math.round((double) c.load().getAsInt() * rm.replicaChips() / isl))
              : rm.promptsPerPrefillPass(isl);
      if (!rm.memory(promptsPerPass, isl).fits()) {
        throw new Unpredictable(
            "does not fit: prefill pass of "
                + promptsPerPass
                + " prompts of "
                + isl
                + " tokens on "
                + rm);
      }
      double pass = rm.prefill(promptsPerPass, isl).seconds().seconds();
      notes.add(rm + ", " + promptsPerPass + " prompts of " + isl + " tokens per pass");
      return (double) promptsPerPass * isl / pass / rm.replicaChips();
    }

    private double disaggDecode() {
      Metric m = c.metric();
      if (m != Metric.OUT_TOK_S_PER_CHIP && m != Metric.TPOT_MS && m != Metric.OUT_TOK_S_PER_USER) {
        throw new Unpredictable("metric not predicted in this mode: " + m + " in disagg-decode");
      }
      int context = isl();
      OptionalInt chips = c.decodeChips().isPresent() ? c.decodeChips() : c.chips();
      RooflineModel rm =
          ImmutableRooflineModel.copyOf(
                  pool(chips, c.tp(), c.pp(), c.ep(), c.attentionDp(), c.load().orElse(1), context))
              .withRunsPrefill(false);
      int max = rm.maxBatch(context + 1);
      int batch;
      if (c.load().isPresent()) {
        boolean perChip = stated.loadPerChip();
        int total = perChip ? c.load().getAsInt() * rm.chips() : c.load().getAsInt();
        batch = capped(perReplica(total, rm), max, context);
        notes.add(
            "decode batch "
                + batch
                + " per replica"
                + (perChip ? " (load per chip × " + rm.chips() + " chips)" : ""));
      } else {
        batch = capped(max, max, context);
        notes.add("load not stated: largest decode batch that fits, " + batch + " per replica");
      }
      notes.add(0, rm.toString());
      double tpot;
      if (speculation.isPresent()) {
        Deployment d =
            Deployment.builder()
                .strategy(Deployment.Strategy.PD)
                .primary(rm)
                .secondary(rm)
                .speculation(speculation)
                .build();
        tpot = d.point(batch, context, 1).tpot().seconds();
      } else {
        tpot = rm.decode(batch, context).seconds().seconds();
      }
      switch (m) {
        case TPOT_MS:
          return 1e3 * tpot;
        case OUT_TOK_S_PER_USER:
          return 1 / tpot;
        default:
          return batch / tpot / rm.replicaChips();
      }
    }

    // ---- metrics ----

    private double metric(FrontierPoint p, int isl, int osl) {
      return metric(p, p.tokensPerSecondPerChip(), p.ttft().seconds(), isl, osl);
    }

    private double metric(FrontierPoint p, double outPerChip, double ttft, int isl, int osl) {
      double tpot = p.tpot().seconds();
      switch (c.metric()) {
        case TTFT_MS:
          return 1e3 * ttft;
        case TPOT_MS:
          return 1e3 * tpot;
        case E2E_S:
          return ttft + (osl - 1) * tpot;
        case OUT_TOK_S_PER_USER:
          return p.tokensPerSecondPerUser();
        case OUT_TOK_S_PER_CHIP:
          return outPerChip;
        case TOTAL_TOK_S_PER_CHIP:
          return outPerChip * (isl + osl) / osl;
        case INPUT_TOK_S_PER_CHIP:
          return outPerChip * isl / osl;
        default:
          throw new AssertionError(c.metric());
      }
    }
  }
}
