package io.ridgeline.validation;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.EfficiencyParameter;
import io.ridgeline.serving.efficiency.EngineProfile;
import io.ridgeline.serving.efficiency.Profiles;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

/**
 * Fits engine {@link EngineProfile profiles} to a case file: the physically meaningful parameters
 * of {@link EfficiencyParameter}, of one pooled profile, not per-case factors. Every prediction
 * still comes from the row's stated configuration only; the fit chooses the {@link Efficiency} an
 * engine reaches and the number of requests its scheduler runs at once. What the fit gives (the
 * values in the built-in {@code profiles.json}) and how well it predicts rows it has not seen (the
 * cross-validated errors in {@code crossval.json}, tabled in docs/validation.md) are written by
 * {@code ridgeline calibrate}, not here.
 *
 * <p><b>Parameters, starts and ranges.</b> Each efficiency parameter's start and plausible range,
 * with their sources, are defined once in {@link EfficiencyParameter}; {@link
 * EfficiencyParameter#NETWORK} and {@link EfficiencyParameter#GEMM_HALF_DEPTH} are held at their
 * sourced starts ({@link EfficiencyParameter#fitted()}). The running-request cap per replica
 * ({@link EngineProfile#maxRunningRequests()}), a scheduler property rather than an efficiency, is
 * defined here: start {@value #START_MAX_RUNNING}, vLLM's default {@code max_num_seqs} and
 * TensorRT-LLM's earlier default {@code max_batch_size}; range 8 (a latency-tuned deployment) to
 * 4,096 (beyond every engine's default; in effect no cap), since engines also stop admitting
 * requests below their KV limit (CUDA-graph capture sizes, KV-utilisation watermarks, block
 * allocation). The search stays inside the ranges (see <b>Search</b>), and {@code ridgeline
 * calibrate} lists the parameters that end on a bound. Without ranges the fit trades parameters
 * against each other into corners no engine occupies.
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
 * <p><b>Search.</b> Nelder–Mead ({@link NelderMead}, with Gao and Han's dimension-adaptive
 * coefficients) in the coordinates of {@link FitCoordinates}: the logit of each searched
 * parameter's place in its plausible range, of its log for the positive scales (tokens, times, the
 * running-request cap), so every point is valid and physical; from the starts with a unit step per
 * coordinate, restarted from its best point while the evaluation budget lasts.
 *
 * <p><b>A prior on each parameter.</b> The search minimises the loss plus {@code w · Σ z²/2}, with
 * {@code z} each coordinate's distance from its start and {@code w} = {@link
 * FitCoordinates#PARAMETER_PRIOR}: a Gaussian prior of two logit units on each parameter's place in
 * its sourced range (95% of its mass between 2% and 98% of the range, about the start), centred on
 * the physical start. In the loss's units (the Huber loss is {@code r²/2}, a unit variance) a prior
 * of standard deviation σ_z weighs {@code σ_r² / σ_z²}, σ_r² the within-source variance of the
 * rows' ln slowdowns ({@link FitObjective}): {@code w = σ_r² / 4}. A parameter the rows do not pin
 * stays near its physical value instead of wandering to a corner of its range from one fold to the
 * next.
 *
 * <p><b>One pooled profile.</b> The fit writes one profile, {@value Profiles#DEFAULT}, fitted on
 * all predicted rows with every engine family pooled, and every family uses it ({@link
 * Profiles#forEngine}): the shipped cases cannot separate an engine from the sources that measured
 * it (most engines appear in one or two sources, and within a source the engine does not vary), so
 * an engine offset would be a source effect under another name. Cross-validation ({@link
 * CrossValidation}) reports what this costs on sources the fit has not seen, and {@link
 * EngineOffsetFit} what engine offsets estimated on the other sources would change there.
 *
 * <pre>{@code
 * Calibration.Result r = Calibration.fit(CaseFile.shipped(), "the shipped cases", 400);
 * r.profiles().write(Path.of("profile.json"));
 * }</pre>
 */
public final class Calibration {
  /** Huber threshold on |ln(predicted / measured)|. */
  public static final double HUBER_DELTA = 0.3;

  /** Default evaluation budget of a fit. */
  public static final int DEFAULT_EVALUATIONS = 1500;

  /** Start of the running-request cap per replica (see the class javadoc). */
  public static final int START_MAX_RUNNING = 256;

  /** Lower end of the running-request cap's plausible range (see the class javadoc). */
  public static final double MIN_MAX_RUNNING = 8;

  /** Upper end of the running-request cap's plausible range (see the class javadoc). */
  public static final double MAX_MAX_RUNNING = 4096;

  /** The loss charged for a row the candidate leaves unpredictable. */
  static final double UNPREDICTABLE_LOSS = huber(3);

  private Calibration() {}

  /**
   * The fitted profiles and what they achieve.
   *
   * @param profiles the pooled profile, named {@value Profiles#DEFAULT}: the one every engine
   *     family uses ({@link Profiles#forEngine})
   * @param rows predicted rows the fit saw, by profile name
   * @param before the validation with {@link Efficiency#ideal()}
   * @param after the validation with {@code profiles}
   */
  public record Result(
      Profiles profiles, Map<String, Integer> rows, Validation before, Validation after) {}

  /**
   * The starting efficiency of every fit: each {@link EfficiencyParameter#start()} (the javadoc of
   * each {@link EfficiencyParameter} constant gives its source).
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
   * Fits the pooled profile on {@code cases}; {@code label} names the case file in its source
   * ("fitted on {label} (N rows from S sources, all engines pooled, a random intercept per source)
   * on DATE").
   *
   * @param maxEvaluations loss evaluations, at least 10
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
    Profiles profiles = Profiles.of(List.of(renamed(pooled, Profiles.DEFAULT, pooledSource)));
    return new Result(
        profiles,
        Map.of(Profiles.DEFAULT, rows.size()),
        before,
        Validation.run(cases, Predictor.byProfiles(profiles)));
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
    double[] start = FitCoordinates.toCoordinates(startProfile());
    double[] best =
        NelderMead.minimize(
            x -> {
              double loss =
                  objective.loss(FitCoordinates.fromCoordinates(x))
                      + FitCoordinates.prior(x, start);
              evaluated.accept(++done[0]);
              return loss;
            },
            start,
            1.0,
            maxEvaluations);
    return FitCoordinates.fromCoordinates(best);
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
}
