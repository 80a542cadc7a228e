package io.ridgeline.validation;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.EfficiencyParameter;
import io.ridgeline.serving.efficiency.EngineProfile;
import io.ridgeline.serving.efficiency.Profiles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * Fits engine {@link EngineProfile profiles} to a case file: the physically meaningful parameters
 * of {@link EfficiencyParameter}, of one pooled profile, not per-case factors. Every prediction
 * still comes from the row's stated configuration only; the fit chooses the {@link Efficiency} an
 * engine family reaches and the number of requests its scheduler runs at once.
 *
 * <p><b>Parameters and starting values.</b>
 *
 * <ul>
 *   <li>compute fraction, start 0.75, a share of the chip's achievable matmul rate (MAMF, {@link
 *       io.ridgeline.hardware.Chip#matmulFraction()}: 80% of the peak on an H100, 51% on an MI300X;
 *       an FP8 GEMM that of its own peak, 71% on an H100): large dense BF16/FP8 GEMMs reach 60–80%
 *       of the tensor-core peak (cuBLAS and CUTLASS profiles on H100; MLPerf submissions sit near
 *       60% of peak FLOP/s once attention and non-GEMM work are counted).
 *   <li>memory fraction, start 0.8: streaming kernels reach 80–90% of HBM bandwidth (STREAM-like
 *       copies on H100 and MI300X), decode kernels somewhat less.
 *   <li>network fraction, held at 0.8 (not searched, {@link EfficiencyParameter#NETWORK}): NCCL
 *       all-reduce bus bandwidth on NVLink reaches 80–87% of the link's per-direction bandwidth at
 *       large messages (nccl-tests).
 *   <li>attention fraction, start 0.8 (the KV-reading kernels' own fraction of bandwidth, {@link
 *       Efficiency#attention()}): FlashMLA reaches 0.90 of an H800's bandwidth memory-bound,
 *       split-KV decode kernels less at short contexts where the reduction and launch dominate.
 *   <li>GEMM half tokens, start 16: a GEMM with M rows reaches {@code compute × M / (M + half)};
 *       tensor-core tiles are 64–128 rows, so a decode GEMM of a few tokens uses a small share of
 *       each tile, and published small-M GEMM sweeps reach half their large-M throughput at M of
 *       about 8–64 (see {@link EfficiencyParameter#GEMM_HALF_TOKENS}).
 *   <li>GEMM half depth, held at 360 BF16 elements (not searched, {@link
 *       EfficiencyParameter#GEMM_HALF_DEPTH}): a weight GEMM's compute time grows by {@code 1 +
 *       depth / K} with K its reduction per chip, DeepGEMM's FP8 tables' per-tile fixed cost.
 *   <li>per-kernel overhead, start 4 µs ({@link Efficiency#kernelOverhead()}), charged per kernel
 *       counted from the architecture ({@code io.ridgeline.models.Kernels}: 9 per Llama layer, 22
 *       per DeepSeek-V3 MoE layer): a CUDA-graph kernel's launch and tail, a few microseconds (see
 *       {@link EfficiencyParameter#KERNEL_OVERHEAD} for the sources).
 *   <li>per-step overhead, start 1000 µs: scheduling, sampling and host-device synchronisation per
 *       engine step, of the order of a millisecond in vLLM and SGLang profiles (see {@link
 *       EfficiencyParameter#STEP_OVERHEAD}).
 *   <li>collective latency per hop, start 2 µs ({@link Efficiency#collectiveLatency()}):
 *       small-message NCCL all-reduce on NVLink takes 10–30 µs over 8 GPUs (nccl-tests), a few hops
 *       of a few microseconds each beyond the wire latency; expert-parallel dispatch kernels
 *       (DeepEP low-latency mode) are of the same order per hop.
 *   <li>admission latency, start 20 ms ({@link Efficiency#admission()}): an OpenAI-compatible
 *       server's HTTP handling, tokenisation, hand-over to the scheduler and streaming of the first
 *       token, from about five milliseconds per request when idle to tens when a Python frontend
 *       serves hundreds of streams (see {@link EfficiencyParameter#ADMISSION}). Held at 20 ms
 *       instead of searched, the 19-fit cross-validation got worse (leave-one-source-out 26.8%
 *       against 25.0%, point-grouped 19.1% against 17.6%, median TTFT held out 49.7% against
 *       47.3%), so it is searched.
 *   <li>MoE all-to-all overlap, start 0.5 ({@link Efficiency#moeOverlap()}): the share of the
 *       expert-parallel dispatch and combine hidden under compute by two-batch overlap, from 0
 *       (none) to 0.9 (DeepSeek's V3/R1 inference system overview, 2025: dual micro-batch overlap
 *       hides the all-to-all in prefill and decode; SGLang's large-scale EP blog, May 2025:
 *       two-batch overlap adds 27–35% throughput, most but not all of the communication hidden).
 *   <li>pd hand-over, start 50 ms ({@link Efficiency#pdHandover()}): the orchestration between a
 *       prefill and a decode pool beyond moving the KV bytes (router dispatch, the decode engine's
 *       step alignment, the first token's re-emission), 10–260 ms (see {@link
 *       EfficiencyParameter#PD_HANDOVER}). Refitted with it, the point-grouped error went from
 *       26.3% to 22.7% and leave-one-source-out from 32.0% to 31.7% (TTFT 53.5% to 47.6%); it ends
 *       on its upper bound, where the disaggregated served TTFTs of the shipped cases put it.
 *   <li>max running requests per replica ({@link EngineProfile#maxRunningRequests()}), start
 *       {@value #START_MAX_RUNNING}: vLLM's default {@code max_num_seqs} and TensorRT-LLM's former
 *       default {@code max_batch_size}; engines also stop admitting requests below their KV limit
 *       (CUDA-graph capture sizes, KV-utilisation watermarks, block allocation).
 * </ul>
 *
 * <p>The efficiency parameters, their starts and ranges are defined once in {@link
 * EfficiencyParameter}; the running-request cap, a scheduler property rather than an efficiency, is
 * defined here ({@link #START_MAX_RUNNING}, {@link #MIN_MAX_RUNNING} to {@link #MAX_MAX_RUNNING}).
 *
 * <p><b>Ranges.</b> Each parameter's plausible range, with its source, is in {@link
 * EfficiencyParameter}'s javadoc (compute 0.45–1.0 of the chip's achievable matmul rate, memory
 * 0.5–0.92, attention 0.5–0.92, collective bus bandwidth 0.3–0.9, GEMM half point 4–64 rows, 1–10
 * µs per kernel, 0.05–3 ms per step, 0.5–5 µs per collective hop, 5–50 ms of admission, 0–0.9 of
 * the MoE all-to-all hidden, 10–260 ms of pd hand-over); the search stays inside them (see
 * <b>Search</b>), and {@code ridgeline calibrate} lists the parameters that end on a bound. Running
 * requests per replica from 8 (a latency-tuned deployment) to 4,096 (beyond every engine's default;
 * in effect no cap). Without ranges the fit trades parameters against each other into corners no
 * engine occupies.
 *
 * <p><b>Loss.</b> {@link FitObjective}: the sum over the predicted rows of the Huber loss (δ =
 * {@value #HUBER_DELTA}) of each row's ln slowdown (ln(predicted / measured) for times, its
 * negative for rates) after a random intercept per source, plus the intercepts' prior. The Huber
 * loss is quadratic for errors within about ±30% and linear beyond, so that a few rows the model
 * cannot describe (queueing, unstated engine settings) do not dominate the fit; the intercepts keep
 * one source's deployment being uniformly slower or faster from pulling the shared physical
 * parameters, which then describe what holds within sources. A row that the profile leaves
 * unpredictable costs the loss of a factor of {@code e^3}.
 *
 * <p><b>Search.</b> Nelder–Mead in transformed coordinates (logit of the four fractions and of the
 * MoE overlap, log of the half-tokens, of the two overheads, of the collective latency, of the
 * running-request cap and of the admission latency, each logit scaled to the parameter's plausible
 * range (see <b>Ranges</b>), so every point is valid and physical), from the starts above with a
 * unit step per coordinate, restarted from its best point while the evaluation budget lasts, with
 * the dimension-adaptive coefficients of Gao and Han (see {@link #minimize}): with the standard
 * ones the 13-coordinate search stopped short (the pooled fit at a loss of 9.784 where the adaptive
 * search reaches 9.654 in the same 1,500 evaluations).
 *
 * <p><b>A prior on each parameter.</b> The search minimises the loss plus {@value
 * #PARAMETER_PRIOR}{@code · Σ z²/2}, {@code z} each coordinate's distance from its start: a
 * Gaussian prior of two logit units on each parameter's place in its sourced range (95% of its mass
 * between 2% and 98% of the range, about the start), centred on the physical start. In the loss's
 * units (the Huber loss is {@code r²/2}, a unit variance) a prior of standard deviation σ_z weighs
 * {@code σ_r² / σ_z²}, with σ_r² = 0.153 the measured within-source variance of the rows' ln
 * slowdowns ({@link FitObjective}): 0.153 / 4. A parameter the rows do not pin stays near its
 * physical value instead of wandering to a corner of its range from one fold to the next. (One
 * logit unit, a weight of 0.153, was tried: leave-one-source-out 24.4%, TPOT held out 32.6%.)
 *
 * <p><b>One pooled profile.</b> Every engine family gets the same pooled profile, fitted on all
 * predicted rows: the shipped cases cannot separate an engine from the sources that measured it
 * (most engines appear in one or two sources, and within a source the engine does not vary), so an
 * engine adjustment would be a source effect under another name. Each family's profile says so in
 * its source. Cross-validation ({@link CrossValidation}) reports what this costs on sources the fit
 * has not seen.
 *
 * <pre>{@code
 * Calibration.Result r = Calibration.fit(CaseFile.shipped(), "the shipped cases", 400);
 * r.profiles().write(Path.of("profile.json"));
 * }</pre>
 */
public final class Calibration {
  /** Huber threshold on |ln(predicted / measured)|. */
  public static final double HUBER_DELTA = 0.3;

  /** Engine families always listed in a fitted profile file. */
  public static final List<String> FAMILIES =
      List.of("trtllm", "sglang", "vllm", "nim", "jetstream");

  /** Default evaluation budget per family. */
  public static final int DEFAULT_EVALUATIONS = 1500;

  /** Start of the running-request cap per replica (see the class javadoc). */
  public static final int START_MAX_RUNNING = 256;

  /** Lower end of the running-request cap's plausible range (see the class javadoc). */
  public static final double MIN_MAX_RUNNING = 8;

  /** Upper end of the running-request cap's plausible range (see the class javadoc). */
  public static final double MAX_MAX_RUNNING = 4096;

  /** The loss charged for a row the candidate leaves unpredictable. */
  static final double UNPREDICTABLE_LOSS = huber(3);

  /**
   * Weight of the parameters' prior: σ_r² / σ_z² with σ_r² = 0.153 (the rows' within-source
   * variance of ln slowdown) and σ_z = 2 logit units (see the class comment).
   */
  static final double PARAMETER_PRIOR = 0.03825;

  private Calibration() {}

  /**
   * The fitted profiles and what they achieve.
   *
   * @param profiles one profile per fitted family, the known {@link #FAMILIES} and {@value
   *     Profiles#DEFAULT}
   * @param rows predicted rows per fitted profile name
   * @param before the validation with {@link Efficiency#ideal()}
   * @param after the validation with {@code profiles}
   */
  public record Result(
      Profiles profiles, Map<String, Integer> rows, Validation before, Validation after) {}

  /**
   * The starting efficiency of every fit: each {@link EfficiencyParameter#start()} (see the class
   * javadoc for each value's source).
   */
  public static Efficiency start() {
    return EfficiencyParameter.efficiency(EfficiencyParameter::start);
  }

  /**
   * The starting profile of every fit: {@link #start()} and {@value #START_MAX_RUNNING} running
   * requests per replica.
   */
  public static EngineProfile startProfile() {
    return new EngineProfile(Profiles.DEFAULT, start(), START_MAX_RUNNING, "the starting values");
  }

  /**
   * Fits profiles on {@code cases}; {@code label} names the case file in each profile's source
   * ("fitted on {label} (N rows) on DATE").
   *
   * @param maxEvaluations loss evaluations per family, at least 10
   * @throws IllegalArgumentException when no row is predictable or the budget is below 10
   */
  public static Result fit(List<ValidationCase> cases, String label, int maxEvaluations) {
    return fit(cases, label, maxEvaluations, done -> {});
  }

  /**
   * As {@link #fit(List, String, int)}, telling {@code evaluated} the number of loss evaluations
   * spent after each one (at most {@code maxEvaluations}; fewer when the search converges first):
   * the progress of a fit that takes minutes.
   */
  public static Result fit(
      List<ValidationCase> cases, String label, int maxEvaluations, IntConsumer evaluated) {
    checkArgument(maxEvaluations >= 10, "evaluations must be at least 10: %s", maxEvaluations);
    Validation before = Validation.run(cases, Predictor.ideal());
    List<ValidationCase> rows =
        before.predictions().stream().map(Prediction::testCase).collect(Collectors.toList());
    checkArgument(!rows.isEmpty(), "no predictable row in %s to fit on", label);
    String date = java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString();
    EngineProfile pooled = fitProfile(rows, maxEvaluations, evaluated);
    long sources = rows.stream().map(ValidationCase::source).distinct().count();
    String pooledSource =
        "fitted on "
            + label
            + " ("
            + rows.size()
            + " rows from "
            + sources
            + " sources, all engines pooled, a random intercept per source) on "
            + date;
    Map<String, Integer> counts = new LinkedHashMap<>();
    List<EngineProfile> out = new ArrayList<>();
    for (String family : FAMILIES) {
      out.add(
          renamed(
              pooled,
              family,
              "the pooled profile (engine adjustments are not fitted: see Calibration), "
                  + pooledSource));
      counts.put(family, rows.size());
    }
    out.add(renamed(pooled, Profiles.DEFAULT, pooledSource));
    counts.put(Profiles.DEFAULT, rows.size());
    Profiles profiles = Profiles.of(out);
    return new Result(
        profiles, counts, before, Validation.run(cases, Predictor.byProfiles(profiles)));
  }

  /** {@code fit}'s efficiency and running-request cap under {@code name}, from {@code source}. */
  private static EngineProfile renamed(EngineProfile fit, String name, String source) {
    return new EngineProfile(name, fit.efficiency(), fit.maxRunningRequests(), source);
  }

  /**
   * The profile (efficiency and running-request cap) that minimises {@link #loss} on {@code rows},
   * from {@link #startProfile()}, within {@code maxEvaluations} evaluations of the loss; named
   * {@value Profiles#DEFAULT} with an empty source, for the caller to rename.
   */
  public static EngineProfile fitProfile(List<ValidationCase> rows, int maxEvaluations) {
    return fitProfile(rows, maxEvaluations, done -> {});
  }

  /** As {@link #fitProfile(List, int)}, telling {@code evaluated} the evaluations spent so far. */
  static EngineProfile fitProfile(
      List<ValidationCase> rows, int maxEvaluations, IntConsumer evaluated) {
    FitObjective objective = new FitObjective(rows);
    int[] done = {0};
    double[] start = toCoordinates(startProfile());
    double[] best =
        minimize(
            x -> {
              double loss = objective.loss(fromCoordinates(x)) + prior(x, start);
              evaluated.accept(++done[0]);
              return loss;
            },
            start,
            1.0,
            maxEvaluations);
    return fromCoordinates(best);
  }

  /**
   * The parameters' prior at coordinates {@code x}: {@value #PARAMETER_PRIOR} × Σ (x − start)² / 2.
   */
  static double prior(double[] x, double[] start) {
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      double z = x[i] - start[i];
      sum += z * z;
    }
    return PARAMETER_PRIOR * sum / 2;
  }

  /** {@link #loss(List, EngineProfile)} with no cap on running requests beyond memory. */
  public static double loss(List<ValidationCase> rows, Efficiency efficiency) {
    return loss(rows, new EngineProfile(Profiles.DEFAULT, efficiency, ""));
  }

  /**
   * Sum over {@code rows} of the Huber loss of ln(predicted / measured) with {@code profile} for
   * every row; rows it cannot predict cost the loss of a factor of e³. Rows are predicted in
   * parallel.
   */
  public static double loss(List<ValidationCase> rows, EngineProfile profile) {
    Predictor p = Predictor.of(profile);
    return rows.parallelStream()
        .mapToDouble(
            c -> {
              Outcome o = p.predict(c);
              return o instanceof Prediction prediction
                  ? huber(Math.log(prediction.ratio()))
                  : UNPREDICTABLE_LOSS;
            })
        .sum();
  }

  /** Huber loss with δ = {@value #HUBER_DELTA}: x²/2 within ±δ, δ(|x| − δ/2) beyond. */
  static double huber(double x) {
    double a = Math.abs(x);
    return a <= HUBER_DELTA ? a * a / 2 : HUBER_DELTA * (a - HUBER_DELTA / 2);
  }

  // ---- coordinates ----

  /**
   * The searched parameters ({@link EfficiencyParameter#fitted()}) in their order; the others keep
   * their {@link EfficiencyParameter#start()}.
   */
  private static final List<EfficiencyParameter> SEARCHED =
      Arrays.stream(EfficiencyParameter.values())
          .filter(EfficiencyParameter::fitted)
          .collect(Collectors.toUnmodifiableList());

  /**
   * Index of the running-request cap among the coordinates: just before admission, the other
   * coordinates being the {@link #SEARCHED} parameters in order. The order sets the search's path,
   * and so the fitted profiles.
   */
  private static final int CAP = SEARCHED.indexOf(EfficiencyParameter.ADMISSION);

  /** The coordinates: every searched efficiency parameter and the running-request cap. */
  static final int DIMENSIONS = SEARCHED.size() + 1;

  /** The coordinate of searched parameter {@code p}. */
  private static int index(EfficiencyParameter p) {
    int i = SEARCHED.indexOf(p);
    return i < CAP ? i : i + 1;
  }

  /**
   * Coordinates of {@code p}: a logit scaled to each searched parameter's plausible range, of the
   * log for the positive scales ({@link EfficiencyParameter#logScale()}, the cap); values outside a
   * range (an infinite cap included) are clamped just inside it.
   */
  static double[] toCoordinates(EngineProfile p) {
    double[] x = new double[DIMENSIONS];
    for (EfficiencyParameter q : SEARCHED) {
      x[index(q)] = toCoordinate(q.get(p.efficiency()), q.lower(), q.upper(), q.logScale());
    }
    x[CAP] =
        toCoordinate(
            p.maxRunningRequests().isPresent()
                ? p.maxRunningRequests().getAsInt()
                : Double.MAX_VALUE,
            MIN_MAX_RUNNING,
            MAX_MAX_RUNNING,
            true);
    return x;
  }

  /**
   * The profile at transformed coordinates {@code x} (inverse of {@link #toCoordinates}; the
   * parameters that are not searched at their start), named {@value Profiles#DEFAULT} with an empty
   * source.
   */
  static EngineProfile fromCoordinates(double[] x) {
    Efficiency e =
        EfficiencyParameter.efficiency(
            q -> {
              if (!q.fitted()) {
                return q.start();
              }
              double v = fromCoordinate(x[index(q)], q.lower(), q.upper(), q.logScale());
              return q.unit() == EfficiencyParameter.Unit.FRACTION ? Math.min(1, v) : v;
            });
    double cap = fromCoordinate(x[CAP], MIN_MAX_RUNNING, MAX_MAX_RUNNING, true);
    // the predictor runs whole requests: the searched real number rounded down
    return new EngineProfile(Profiles.DEFAULT, e, (int) Math.max(1, Math.floor(cap)), "");
  }

  /**
   * The logit of {@code v}'s place in [lo, hi] (of their logs when {@code log}), clamped inside.
   */
  private static double toCoordinate(double v, double lower, double upper, boolean log) {
    double lo = log ? Math.log(lower) : lower;
    double hi = log ? Math.log(upper) : upper;
    double y = log ? Math.log(Math.max(v, 1e-12)) : v;
    double u = Math.min(Math.max((y - lo) / (hi - lo), 1e-6), 1 - 1e-6);
    return Math.log(u / (1 - u));
  }

  /** The inverse of {@link #toCoordinate}. */
  private static double fromCoordinate(double x, double lower, double upper, boolean log) {
    double lo = log ? Math.log(lower) : lower;
    double hi = log ? Math.log(upper) : upper;
    double y = lo + (hi - lo) / (1 + Math.exp(-x));
    return log ? Math.exp(y) : y;
  }

  // ---- Nelder–Mead ----

  /**
   * A minimum of {@code f} found by Nelder–Mead with the dimension-adaptive coefficients of Gao and
   * Han (Computational Optimization and Applications 51, 2012, "Implementing the Nelder–Mead
   * simplex algorithm with adaptive parameters"; SciPy's {@code adaptive=True}): in n dimensions
   * reflection 1, expansion 1 + 2/n, contraction ¾ − 1/(2n), shrink 1 − 1/n, which reduce to the
   * standard 1, 2, ½, ½ at n = 2. The standard coefficients make the simplex collapse along a few
   * directions in higher dimensions: on the shipped cases (13 coordinates, 1,500 evaluations) they
   * ended at a loss of 9.784, the adaptive ones at 9.654 (3,000 evaluations: 9.654). From {@code
   * x0} with an initial simplex of {@code step} along each axis, restarted from the best point
   * after convergence (simplex spread in f below 1e-9 relative) while fewer than {@code
   * maxEvaluations} evaluations are spent. Non-finite values of f count as +∞.
   */
  static double[] minimize(
      ToDoubleFunction<double[]> f, double[] x0, double step, int maxEvaluations) {
    int n = x0.length;
    double[] best = x0.clone();
    double bestF = eval(f, best);
    int[] used = {1};
    while (used[0] < maxEvaluations) {
      double[][] s = new double[n + 1][];
      double[] v = new double[n + 1];
      s[0] = best.clone();
      v[0] = bestF;
      for (int i = 0; i < n && used[0] < maxEvaluations; i++) {
        s[i + 1] = best.clone();
        s[i + 1][i] += step;
        v[i + 1] = eval(f, s[i + 1]);
        used[0]++;
      }
      if (used[0] >= maxEvaluations) {
        break;
      }
      double before = bestF;
      nelderMead(f, s, v, used, maxEvaluations);
      int b = argMin(v);
      if (v[b] < bestF) {
        bestF = v[b];
        best = s[b].clone();
      }
      if (before - bestF <= 1e-9 * Math.max(1, Math.abs(bestF))) {
        break; // a restart gained nothing: converged
      }
    }
    return best;
  }

  private static void nelderMead(
      ToDoubleFunction<double[]> f, double[][] s, double[] v, int[] used, int max) {
    int n = s.length - 1;
    // Gao and Han's coefficients (see minimize); reflection is 1
    double expansion = 1 + 2.0 / n;
    double contraction = 0.75 - 1 / (2.0 * n);
    double shrink = 1 - 1.0 / n;
    while (used[0] < max) {
      Integer[] order = new Integer[n + 1];
      for (int i = 0; i <= n; i++) {
        order[i] = i;
      }
      Arrays.sort(order, Comparator.comparingDouble(i -> v[i]));
      int lo = order[0];
      int hi = order[n];
      int second = order[n - 1];
      if (Math.abs(v[hi] - v[lo]) <= 1e-9 * Math.max(1, Math.abs(v[lo]))) {
        return;
      }
      double[] centroid = new double[n];
      for (int i = 0; i <= n; i++) {
        if (i != hi) {
          for (int j = 0; j < n; j++) {
            centroid[j] += s[i][j] / n;
          }
        }
      }
      double[] r = along(centroid, s[hi], -1);
      double fr = eval(f, r);
      used[0]++;
      if (fr < v[lo]) {
        double[] e = along(centroid, s[hi], -expansion);
        double fe = used[0] < max ? eval(f, e) : Double.POSITIVE_INFINITY;
        used[0]++;
        if (fe < fr) {
          s[hi] = e;
          v[hi] = fe;
        } else {
          s[hi] = r;
          v[hi] = fr;
        }
      } else if (fr < v[second]) {
        s[hi] = r;
        v[hi] = fr;
      } else {
        boolean outside = fr < v[hi];
        double[] c = along(centroid, s[hi], outside ? -contraction : contraction);
        double fc = eval(f, c);
        used[0]++;
        if (fc < (outside ? fr : v[hi])) {
          s[hi] = c;
          v[hi] = fc;
        } else {
          for (int i = 0; i <= n && used[0] < max; i++) {
            if (i != lo) {
              s[i] = along(s[lo], s[i], shrink);
              v[i] = eval(f, s[i]);
              used[0]++;
            }
          }
        }
      }
    }
  }

  /** {@code from + t × (to − from)}. */
  private static double[] along(double[] from, double[] to, double t) {
    double[] x = new double[from.length];
    for (int i = 0; i < x.length; i++) {
      x[i] = from[i] + t * (to[i] - from[i]);
    }
    return x;
  }

  private static double eval(ToDoubleFunction<double[]> f, double[] x) {
    double y = f.applyAsDouble(x);
    return Double.isFinite(y) ? y : Double.POSITIVE_INFINITY;
  }

  private static int argMin(double[] v) {
    int b = 0;
    for (int i = 1; i < v.length; i++) {
      if (v[i] < v[b]) {
        b = i;
      }
    }
    return b;
  }
}
