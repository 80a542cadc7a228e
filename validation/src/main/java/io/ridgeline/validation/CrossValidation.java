package io.ridgeline.validation;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.EngineProfile;
import io.ridgeline.serving.efficiency.ErrorBands;
import io.ridgeline.serving.efficiency.Profiles;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

/**
 * What the calibrated estimates are worth on data they were not fitted on: the pooled profile
 * ({@link Calibration}) refitted with groups of rows held out, and the held-out rows predicted.
 *
 * <ul>
 *   <li>{@link Scheme#IN_SAMPLE}: one fit on every predictable row, every row predicted (the figure
 *       a fit makes look good; never the headline);
 *   <li>{@link Scheme#POINT_GROUPED}: operating points sorted by id and dealt into {@value
 *       #POINT_FOLDS} folds (every third point held out), each fold's rows predicted by the fit on
 *       the other two, with their source's fitted intercept ({@link FitObjective}: the factor of a
 *       deployment whose other points the fit saw, as a user who anchors on several points has);
 *       every metric of a point is held out together, so a point is counted once;
 *   <li>{@link Scheme#LEAVE_ONE_SOURCE_OUT}: each source's rows predicted by the fit on the other
 *       sources, with no intercept for the held-out source (a new deployment, unanchored): the
 *       headline;
 *   <li>{@link Scheme#ANCHORED}: as leave-one-source-out, but the held-out source's first operating
 *       point (by id) is the user's anchor: the mean ln slowdown of its rows of each quantity (of
 *       all its rows for a quantity it did not measure) sets the deployment's factor for that
 *       quantity ({@link Anchor}), applied to the source's other points, which alone are scored.
 *       Sources of one point have nothing left to score.
 *   <li>{@link Scheme#ANCHORED_PER_DEPLOYMENT}: as leave-one-source-out, but within the held-out
 *       source each deployment ({@link Anchor#deployment}: the same model, chips, layout,
 *       precisions, speculation and engine) is anchored on its own first operating point (by id),
 *       as a user anchors on a benchmark of the deployment they ask about; only deployments of at
 *       least two points are scored, on their other points. It needs no fit of its own: the
 *       leave-one-source-out predictions with each deployment's factor applied.
 * </ul>
 *
 * <pre>{@code
 * CrossValidation.Report r = CrossValidation.run(CaseFile.shipped(), 300, System.err::println);
 * r.summary(CrossValidation.Scheme.LEAVE_ONE_SOURCE_OUT).medianApe();
 * }</pre>
 */
public final class CrossValidation {
  /** Folds of the point-grouped scheme. */
  public static final int POINT_FOLDS = 3;

  /** How rows are held out. */
  public enum Scheme {
    /** No row held out. */
    IN_SAMPLE("in-sample"),
    /**
     * Every third operating point held out, three folds, each point predicted with its source's
     * fitted intercept.
     */
    POINT_GROUPED("point-grouped"),
    /** Each source held out in turn. */
    LEAVE_ONE_SOURCE_OUT("leave-one-source-out"),
    /** Each source held out, anchored on one of its points. */
    ANCHORED("anchored"),
    /**
     * Each source held out, each of its deployments anchored on one of that deployment's points
     * ({@link Anchor#deployment}): derived from the leave-one-source-out predictions, no fold of
     * its own.
     */
    ANCHORED_PER_DEPLOYMENT("anchored-per-deployment");

    private final String id;

    Scheme(String id) {
      this.id = id;
    }

    /** The id used in reports, e.g. {@code leave-one-source-out}. */
    public String id() {
      return id;
    }

    /**
     * The scheme of {@code id}.
     *
     * @throws IllegalArgumentException listing the ids when there is none
     */
    public static Scheme of(String id) {
      for (Scheme s : values()) {
        if (s.id.equals(id)) {
          return s;
        }
      }
      throw new IllegalArgumentException(
          "unknown cross-validation scheme '"
              + id
              + "'; known: "
              + java.util.Arrays.stream(values())
                  .map(Scheme::id)
                  .collect(Collectors.joining(", ")));
    }
  }

  /**
   * One fit and what it predicts.
   *
   * @param scheme how its rows were held out
   * @param name the fold's name: {@code all}, {@code points k/3}, or the held-out source
   * @param heldOut the case ids predicted with this fold's profile
   * @param anchorPoint the anchored scheme's anchor point id; empty otherwise
   * @param profile the profile fitted without the held-out rows
   * @param intercepts the point-grouped scheme's fitted intercept (ln slowdown, {@link
   *     FitObjective}) of each source the fit saw, by source name; empty for the other schemes
   */
  public record Fold(
      Scheme scheme,
      String name,
      List<String> heldOut,
      Optional<String> anchorPoint,
      EngineProfile profile,
      Map<String, Double> intercepts) {
    /** Copies the collections. */
    public Fold {
      heldOut = List.copyOf(heldOut);
      intercepts = Collections.unmodifiableMap(new LinkedHashMap<>(intercepts));
    }
  }

  /**
   * Folds and their held-out predictions.
   *
   * @param folds every fold, in scheme order
   * @param predictions held-out predictions by scheme, in case-file order
   */
  public record Report(List<Fold> folds, Map<Scheme, List<Prediction>> predictions) {
    /** Copies the collections. */
    public Report {
      folds = List.copyOf(folds);
      Map<Scheme, List<Prediction>> copy = new EnumMap<>(Scheme.class);
      predictions.forEach((k, v) -> copy.put(k, List.copyOf(v)));
      predictions = Collections.unmodifiableMap(copy);
    }

    /** The summary of a scheme's held-out predictions. */
    public Summary summary(Scheme scheme) {
      return Summary.of(predictions.getOrDefault(scheme, List.of()));
    }

    /** A scheme's summaries grouped by {@code key} of the case, keys sorted. */
    public Map<String, Summary> by(Scheme scheme, Function<ValidationCase, String> key) {
      Map<String, List<Prediction>> groups =
          predictions.getOrDefault(scheme, List.of()).stream()
              .collect(
                  Collectors.groupingBy(
                      p -> key.apply(p.testCase()), TreeMap::new, Collectors.toList()));
      Map<String, Summary> out = new TreeMap<>();
      groups.forEach((k, v) -> out.put(k, Summary.of(v)));
      return out;
    }
  }

  private CrossValidation() {}

  /**
   * Fits every fold of every scheme on {@code cases} with {@code evaluations} loss evaluations per
   * fit, telling {@code progress} about each fit as it starts ({@code "fit 3/22: without dstack"})
   * after each tenth of its evaluations ({@code "fit 3/22, 450/1500 evaluations: without dstack"})
   * and as it ends ({@code "fit 3/22 done: without dstack"}), one line at a time. The held-out fits
   * run side by side, as many as the machine has processors, so their lines interleave; each fit is
   * deterministic, so the report is the same as one fit after the other.
   *
   * @throws IllegalArgumentException when no row is predictable or the budget is below 10
   */
  public static Report run(List<ValidationCase> cases, int evaluations, Consumer<String> progress) {
    return run(cases, evaluations, Optional.empty(), progress);
  }

  /**
   * As {@link #run(List, int, Consumer)}, with the in-sample fit given when the caller has it:
   * {@code inSample} is then the profile {@link Calibration#fitProfile} finds on the predictable
   * rows of {@code cases} with {@code evaluations} evaluations, which is the profile {@link
   * Calibration#fit} fits on {@code cases} with that budget (the same rows from the same start: the
   * same profile to the bit), as {@code calibrate --cross-validate} fits it first. The in-sample
   * fold takes its efficiency and cap instead of fitting the same rows again, and the fits are
   * numbered from the first held-out fold ({@code "in-sample: the given fit"}, then {@code "fit
   * 1/18: without points 1/3"}).
   *
   * @throws IllegalArgumentException when no row is predictable or the budget is below 10
   */
  public static Report run(
      List<ValidationCase> cases,
      int evaluations,
      Optional<EngineProfile> inSample,
      Consumer<String> given) {
    checkArgument(evaluations >= 10, "evaluations must be at least 10: %s", evaluations);
    Consumer<String> progress = FitRuns.serial(given);
    List<ValidationCase> rows = predictable(cases);
    checkArgument(!rows.isEmpty(), "no predictable row to cross-validate on");
    List<Fold> folds = new ArrayList<>();
    List<List<ValidationCase>> heldOut = heldOutGroups(rows);
    int total = heldOut.size() + (inSample.isPresent() ? 0 : 1);
    int done = 0;
    if (inSample.isPresent()) {
      progress.accept("in-sample: the given fit on all rows");
      folds.add(fold(Scheme.IN_SAMPLE, "all", rows, rows, inSample.get()));
    } else {
      progress.accept(String.format(Locale.ROOT, "fit %d/%d: all rows", ++done, total));
      folds.add(
          fold(
              Scheme.IN_SAMPLE,
              "all",
              rows,
              rows,
              evaluations,
              FitRuns.evaluated(progress, done, total, evaluations, "all rows")));
      progress.accept(String.format(Locale.ROOT, "fit %d/%d done: all rows", done, total));
    }
    int first = done;
    List<Fold> fitted =
        FitRuns.sideBySide(
            heldOut.size(),
            g -> {
              List<ValidationCase> out = heldOut.get(g);
              String name = foldName(g, out);
              int fit = first + g + 1;
              progress.accept(
                  String.format(Locale.ROOT, "fit %d/%d: without %s", fit, total, name));
              List<ValidationCase> train = new ArrayList<>(rows);
              train.removeAll(out);
              Fold f =
                  fold(
                      g < POINT_FOLDS ? Scheme.POINT_GROUPED : Scheme.LEAVE_ONE_SOURCE_OUT,
                      name,
                      train,
                      out,
                      evaluations,
                      FitRuns.evaluated(progress, fit, total, evaluations, "without " + name));
              progress.accept(
                  String.format(Locale.ROOT, "fit %d/%d done: without %s", fit, total, name));
              return f;
            });
    for (int g = 0; g < heldOut.size(); g++) {
      Fold f = fitted.get(g);
      folds.add(f);
      if (g >= POINT_FOLDS) { // a held-out source is also predicted anchored on one of its points
        Anchor.firstPoint(heldOut.get(g))
            .ifPresent(
                a ->
                    folds.add(
                        new Fold(
                            Scheme.ANCHORED,
                            f.name(),
                            f.heldOut(),
                            Optional.of(a),
                            f.profile(),
                            Map.of())));
      }
    }
    return replay(cases, folds);
  }

  /**
   * Predicts each fold's held-out rows of {@code cases} with the fold's profile (anchored folds
   * with their anchor's factor): the report of {@link #run} without refitting, for stored folds.
   */
  public static Report replay(List<ValidationCase> cases, List<Fold> folds) {
    Map<String, ValidationCase> byId = new LinkedHashMap<>();
    cases.forEach(c -> byId.put(c.caseId(), c));
    Map<Scheme, Map<String, Prediction>> out = new EnumMap<>(Scheme.class);
    for (Fold f : folds) {
      List<ValidationCase> rows =
          f.heldOut().stream()
              .filter(byId::containsKey)
              .map(byId::get)
              .collect(Collectors.toList());
      Predictor p = Predictor.of(f.profile());
      Map<String, Prediction> mine = out.computeIfAbsent(f.scheme(), k -> new LinkedHashMap<>());
      List<Prediction> predicted = new ArrayList<>();
      for (ValidationCase c : rows) {
        Outcome o = p.predict(c);
        if (o instanceof Prediction prediction) {
          predicted.add(prediction);
        }
      }
      if (f.anchorPoint().isPresent()) {
        predicted = Anchor.apply(f.anchorPoint().get(), predicted);
      }
      if (!f.intercepts().isEmpty()) {
        predicted = withIntercepts(predicted, f.intercepts());
      }
      predicted.forEach(x -> mine.put(x.testCase().caseId(), x));
    }
    Map<String, Prediction> loso = out.get(Scheme.LEAVE_ONE_SOURCE_OUT);
    if (loso != null) {
      out.put(Scheme.ANCHORED_PER_DEPLOYMENT, Anchor.perDeployment(loso.values()));
    }
    Map<Scheme, List<Prediction>> ordered = new EnumMap<>(Scheme.class);
    out.forEach(
        (scheme, m) ->
            ordered.put(
                scheme,
                cases.stream()
                    .map(c -> m.get(c.caseId()))
                    .filter(java.util.Objects::nonNull)
                    .collect(Collectors.toList())));
    return new Report(folds, ordered);
  }

  /**
   * The error bands of {@code report} ({@link ErrorBands}): for each estimate, from the
   * leave-one-source-out held-out rows of its metric (TTFT from {@code ttft_ms} and {@code
   * median_ttft_ms} together, TPOT from {@code tpot_ms}, per user from {@code out_tok_s_per_user},
   * per chip from {@code out_tok_s_per_chip}; where a metric has no row, its counterpart: per user
   * for TPOT and back, inverted, and {@code total_tok_s_per_chip} for per chip), the median APE,
   * the 20th and 80th percentiles of the signed error measured / estimate − 1, and the share of
   * rows inside the percentiles of the other sources' rows; and the vendors, attention and FFN
   * kinds and engines of the rows fitted ({@code cases}' predictable rows).
   */
  public static ErrorBands errorBands(Report report, List<ValidationCase> cases, String source) {
    List<Prediction> loso =
        report.predictions().getOrDefault(Scheme.LEAVE_ONE_SOURCE_OUT, List.of());
    Map<ErrorBands.Estimate, Double> typical = new EnumMap<>(ErrorBands.Estimate.class);
    Map<ErrorBands.Estimate, ErrorBands.Range> ranges = new EnumMap<>(ErrorBands.Estimate.class);
    HeldOutBands.put(
        loso,
        ErrorBands.Estimate.TTFT,
        Set.of(Metric.TTFT_MS, Metric.MEDIAN_TTFT_MS),
        Set.of(Metric.TPOT_MS),
        typical,
        ranges);
    HeldOutBands.put(
        loso,
        ErrorBands.Estimate.TPOT,
        Set.of(Metric.TPOT_MS),
        Set.of(Metric.OUT_TOK_S_PER_USER),
        typical,
        ranges);
    HeldOutBands.put(
        loso,
        ErrorBands.Estimate.TOKENS_PER_SECOND_PER_USER,
        Set.of(Metric.OUT_TOK_S_PER_USER),
        Set.of(Metric.TPOT_MS),
        typical,
        ranges);
    HeldOutBands.put(
        loso,
        ErrorBands.Estimate.TOKENS_PER_SECOND_PER_CHIP,
        Set.of(Metric.OUT_TOK_S_PER_CHIP),
        Set.of(Metric.TOTAL_TOK_S_PER_CHIP),
        typical,
        ranges);
    Map<ErrorBands.Dimension, Set<String>> seen = new EnumMap<>(ErrorBands.Dimension.class);
    for (ErrorBands.Dimension d : ErrorBands.Dimension.values()) {
      seen.put(d, new TreeSet<>());
    }
    for (ValidationCase c : predictable(cases)) {
      Chip chip = Chips.byId(c.chip());
      Model model = Models.byId(c.model());
      if (!chip.vendor().isEmpty()) {
        seen.get(ErrorBands.Dimension.VENDOR).add(chip.vendor().toLowerCase(Locale.ROOT));
      }
      seen.get(ErrorBands.Dimension.ATTENTION).addAll(ErrorBands.attentionKinds(model));
      seen.get(ErrorBands.Dimension.FFN).addAll(ErrorBands.ffnKinds(model));
      seen.get(ErrorBands.Dimension.ENGINE).add(c.engine().toLowerCase(Locale.ROOT));
    }
    return ErrorBands.of(typical, ranges, seen, source);
  }

  /** The rows the roofline bound predicts (the others cannot be fitted on). */
  static List<ValidationCase> predictable(List<ValidationCase> cases) {
    return Validation.run(cases, Predictor.ideal()).predictions().stream()
        .map(Prediction::testCase)
        .collect(Collectors.toList());
  }

  /** The point-grouped folds, then one group per source (in first-appearance order). */
  static List<List<ValidationCase>> heldOutGroups(List<ValidationCase> rows) {
    // each point's fold: its rank among the sorted point ids, modulo the folds
    Map<String, Integer> fold = new LinkedHashMap<>();
    rows.stream()
        .map(ValidationCase::pointId)
        .collect(Collectors.toCollection(TreeSet::new))
        .forEach(point -> fold.put(point, fold.size() % POINT_FOLDS));
    List<List<ValidationCase>> groups = new ArrayList<>();
    for (int k = 0; k < POINT_FOLDS; k++) {
      int mine = k;
      groups.add(
          rows.stream().filter(c -> fold.get(c.pointId()) == mine).collect(Collectors.toList()));
    }
    Map<String, List<ValidationCase>> bySource =
        rows.stream()
            .collect(
                Collectors.groupingBy(
                    ValidationCase::source, LinkedHashMap::new, Collectors.toList()));
    groups.addAll(bySource.values());
    return groups;
  }

  /**
   * {@code predicted} each made faster by its source's intercept ({@link Anchor#adjust}): a
   * held-out point of a source the fit saw is predicted as that deployment, whose factor the fit
   * estimated from the source's other points; a source the fit did not see keeps the pooled
   * prediction.
   */
  private static List<Prediction> withIntercepts(
      List<Prediction> predicted, Map<String, Double> intercepts) {
    List<Prediction> out = new ArrayList<>();
    for (Prediction p : predicted) {
      Double b = intercepts.get(p.testCase().source());
      out.add(b == null ? p : Anchor.adjust(p, b, "its source's fitted intercept"));
    }
    return out;
  }

  /** A held-out group's name: {@code "points 2/3"} for a point-grouped fold, else its source. */
  private static String foldName(int g, List<ValidationCase> out) {
    return g < POINT_FOLDS ? "points " + (g + 1) + "/" + POINT_FOLDS : out.get(0).source();
  }

  private static Fold fold(
      Scheme scheme,
      String name,
      List<ValidationCase> train,
      List<ValidationCase> out,
      int evaluations,
      IntConsumer evaluated) {
    return fold(scheme, name, train, out, Calibration.fitProfile(train, evaluations, evaluated));
  }

  /** The fold of {@code fitted}, the profile fitted on {@code train}. */
  private static Fold fold(
      Scheme scheme,
      String name,
      List<ValidationCase> train,
      List<ValidationCase> out,
      EngineProfile fitted) {
    EngineProfile named =
        new EngineProfile(
            Profiles.DEFAULT,
            fitted.efficiency(),
            fitted.maxRunningRequests(),
            "fold " + name + " (" + train.size() + " rows)");
    // point-grouped folds predict each point with its source's fitted intercept
    Map<String, Double> intercepts =
        switch (scheme) {
          case POINT_GROUPED -> new FitObjective(train).interceptsBySource(named);
          case IN_SAMPLE, LEAVE_ONE_SOURCE_OUT, ANCHORED, ANCHORED_PER_DEPLOYMENT -> Map.of();
        };
    return new Fold(
        scheme,
        name,
        out.stream().map(ValidationCase::caseId).collect(Collectors.toList()),
        Optional.empty(),
        named,
        intercepts);
  }
}
