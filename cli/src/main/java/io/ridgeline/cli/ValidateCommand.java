package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.serving.efficiency.ErrorBands;
import io.ridgeline.serving.efficiency.Profiles;
import io.ridgeline.validation.CaseFile;
import io.ridgeline.validation.CrossValidation;
import io.ridgeline.validation.CrossValidationJson;
import io.ridgeline.validation.Metric;
import io.ridgeline.validation.Mode;
import io.ridgeline.validation.Prediction;
import io.ridgeline.validation.Predictor;
import io.ridgeline.validation.Skip;
import io.ridgeline.validation.Summary;
import io.ridgeline.validation.Validation;
import io.ridgeline.validation.ValidationCase;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ridgeline validate}: predicts every row of a case file (the shipped published measurements
 * by default) and reports the errors. JSON: {@code {cases[{case_id, metric, predicted, measured,
 * ratio, note}], skipped[{case_id, reason}], summary{overall, by_metric, by_chip, by_engine,
 * by_mode}}}, each summary {@code {count, median_ape, geo_mean_ratio, within_25, within_50}} with
 * fractions.
 */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    description =
        "Predict every row of a validation case file and report the errors against the"
            + " measurements.")
final class ValidateCommand implements Callable<Integer> {
  private static final int WORST = 20;

  private String described = "";

  @Spec CommandSpec spec;

  @Option(names = "--cases", description = CASES_HELP)
  Path cases;

  /** The help of {@code --cases}, for {@code validate} and {@code calibrate}. */
  static final String CASES_HELP =
      "Case file (CSV, format in cases.md; default: the shipped cases): the columns case_id"
          + " ... notes, and optionally the typed run columns engine_version, scheduler"
          + " (overlap|synchronous), decode_launch (graphs|eager), max_batch_per_rank,"
          + " prompts, range_ratio, slo_ttft_ms, slo_tpot_ms, load_per_chip (true|false);"
          + " a file without them states none. Notes are free text and never change a"
          + " prediction.";

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Option(
      names = "--efficiency",
      description =
          "Efficiency mode: calibrated (the built-in pooled profile, which every engine uses;"
              + " default, as every other command) or ideal (100%% of peak and bandwidth, the"
              + " roofline bound).")
  String efficiency;

  @Option(
      names = "--profile",
      description =
          "Engine profiles fitted by 'ridgeline calibrate' (JSON), by each row's engine; implies"
              + " calibrated.")
  Path profile;

  @Option(
      names = "--rows",
      defaultValue = "worst",
      description = "Rows to list: worst (the 20 largest errors, default) or all.")
  String rows;

  @Override
  public Integer call() {
    String mode = efficiency == null ? "calibrated" : efficiency;
    if (!mode.equals("ideal") && !mode.equals("calibrated")) {
      throw new IllegalArgumentException(
          "--efficiency must be 'ideal' or 'calibrated': '" + mode + "'");
    }
    if (mode.equals("ideal") && profile != null) {
      throw new IllegalArgumentException(
          "--profile needs --efficiency calibrated (or no --efficiency)");
    }
    if (!rows.equals("worst") && !rows.equals("all")) {
      throw new IllegalArgumentException("--rows must be 'worst' or 'all': '" + rows + "'");
    }
    List<ValidationCase> all = cases == null ? CaseFile.shipped() : CaseFile.read(cases);
    Predictor predictor;
    if (mode.equals("ideal")) {
      predictor = Predictor.ideal();
      described = "ideal: 100% of peak and bandwidth";
    } else {
      Profiles p = profile == null ? Profiles.builtIn() : Profiles.read(profile);
      predictor = Predictor.byProfiles(p);
      described =
          "calibrated: "
              + (profile == null
                  ? "the built-in pooled profile (no engine has its own offsets yet)"
                  : "engine profiles of " + profile);
    }
    Validation v = Validation.run(all, predictor);
    if (v.predictions().isEmpty()) {
      // no row to score: a summary of nothing would read NaN%
      throw new IllegalArgumentException(
          (cases == null ? "the shipped cases" : cases.toString())
              + ": none of the "
              + v.caseCount()
              + " cases could be predicted (skipped: "
              + v.skipReasons().entrySet().stream()
                  .map(e -> e.getValue() + " " + e.getKey())
                  .collect(java.util.stream.Collectors.joining(", "))
              + "); nothing to validate");
    }
    PrintWriter out = spec.commandLine().getOut();
    // the cross-validated figures belong to the built-in profile on the shipped cases: the
    // shipped folds' profiles predicting their held-out rows with today's model (as the docs'
    // tables and ShippedCrossValidationTest), not the figures stored when they were fitted
    Optional<CrossValidation.Report> crossValidated =
        mode.equals("calibrated") && profile == null
            ? CrossValidationJson.shipped()
                .map(
                    t ->
                        CrossValidation.replay(
                            CaseFile.shipped(),
                            CrossValidationJson.folds(t, "the shipped cross-validation")))
            : Optional.empty();
    if (json) {
      ObjectNode root = json(v);
      crossValidated.ifPresent(
          r -> {
            root.set("cross_validation", CrossValidationJson.summary(r));
            root.set("error_bands", errorBandsJson());
          });
      out.println(Json.write(root));
    } else {
      text(v, out);
      crossValidated.ifPresent(
          r -> {
            out.println();
            out.println(
                "the built-in profile refitted with rows held out (the shipped folds of ridgeline"
                    + " calibrate --cross-validate, replayed with today's model as calibrate"
                    + " --replay does); in-sample is the figure above:");
            CrossValidationTable.print(out, r);
            // the bands every calibrated estimate prints, with the share of unseen rows each held
            out.println();
            out.println(ErrorBands.builtIn());
          });
    }
    return 0;
  }

  /** The built-in error bands as JSON ({@link ErrorBands#toJson}'s form). */
  private static com.fasterxml.jackson.databind.JsonNode errorBandsJson() {
    try {
      return Json.MAPPER.readTree(ErrorBands.builtIn().toJson());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ObjectNode json(Validation v) {
    ObjectNode root = Json.object();
    ArrayNode rows = root.putArray("cases");
    for (Prediction p : v.predictions()) {
      ObjectNode o = rows.addObject();
      o.put("case_id", p.testCase().caseId());
      o.put("metric", p.testCase().metric().id());
      o.put("predicted", p.predicted());
      o.put("measured", p.testCase().measured());
      o.put("ratio", p.ratio());
      o.put("note", p.note());
    }
    ArrayNode skipped = root.putArray("skipped");
    for (Skip s : v.skipped()) {
      ObjectNode o = skipped.addObject();
      o.put("case_id", s.testCase().caseId());
      o.put("reason", s.reason());
    }
    ObjectNode summary = root.putObject("summary");
    summary.set("overall", summary(v.overall()));
    summary.set("by_metric", summaries(v.byMetric(), Metric::id));
    summary.set("by_chip", summaries(v.byChip(), String::valueOf));
    summary.set("by_engine", summaries(v.byEngine(), String::valueOf));
    summary.set("by_mode", summaries(v.byMode(), Mode::id));
    return root;
  }

  private static <K> ObjectNode summaries(Map<K, Summary> groups, Function<K, String> name) {
    ObjectNode o = Json.object();
    groups.forEach((k, s) -> o.set(name.apply(k), summary(s)));
    return o;
  }

  private static ObjectNode summary(Summary s) {
    ObjectNode o = Json.object();
    o.put("count", s.count());
    putNumber(o, "median_ape", s.medianApe());
    putNumber(o, "geo_mean_ratio", s.geoMeanRatio());
    putNumber(o, "within_25", s.within25());
    putNumber(o, "within_50", s.within50());
    return o;
  }

  private static void putNumber(ObjectNode o, String key, double value) {
    if (Double.isFinite(value)) {
      o.put(key, value);
    } else {
      o.putNull(key);
    }
  }

  private void text(Validation v, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "validate: %d cases, %d predicted, %d skipped (%s)%n",
        v.caseCount(),
        v.predictions().size(),
        v.skipped().size(),
        described);
    out.printf(
        Locale.ROOT,
        "%-8s %-22s %6s %10s %10s %8s %8s%n",
        "group",
        "value",
        "count",
        "median APE",
        "geo-mean",
        "±25%",
        "±50%");
    row(out, "overall", "all", v.overall());
    v.byMetric().forEach((k, s) -> row(out, "metric", k.id(), s));
    v.byMode().forEach((k, s) -> row(out, "mode", k.id(), s));
    out.println();
    List<Prediction> listed = new ArrayList<>(v.predictions());
    if (rows.equals("worst")) {
      listed.sort(
          Comparator.comparingDouble((Prediction p) -> Math.abs(Math.log(p.ratio()))).reversed());
      listed = listed.subList(0, Math.min(WORST, listed.size()));
      out.printf(
          Locale.ROOT, "worst %d by |ln ratio| (--rows all lists every row):%n", listed.size());
    }
    out.printf(
        Locale.ROOT,
        "%-22s %-22s %14s %14s %9s%n",
        "case_id",
        "metric",
        "predicted",
        "measured",
        "ratio");
    for (Prediction p : listed) {
      out.printf(
          Locale.ROOT,
          "%-22s %-22s %14.6g %14.6g %9.3f%n",
          p.testCase().caseId(),
          p.testCase().metric().id(),
          p.predicted(),
          p.testCase().measured(),
          p.ratio());
    }
    out.println();
    out.println("skipped, by reason:");
    v.skipReasons().forEach((reason, n) -> out.printf(Locale.ROOT, "%4d  %s%n", n, reason));
    for (Skip s : v.skipped()) {
      out.printf(Locale.ROOT, "  %-22s %s%n", s.testCase().caseId(), s.reason());
    }
  }

  private static void row(PrintWriter out, String group, String value, Summary s) {
    out.printf(
        Locale.ROOT,
        "%-8s %-22s %6d %9.1f%% %10.3f %7.0f%% %7.0f%%%n",
        group,
        value,
        s.count(),
        100 * s.medianApe(),
        s.geoMeanRatio(),
        100 * s.within25(),
        100 * s.within50());
  }
}
