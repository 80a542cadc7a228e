package io.ridgeline.cli;

import io.ridgeline.serving.efficiency.EfficiencyParameter;
import io.ridgeline.serving.efficiency.EngineProfile;
import io.ridgeline.serving.efficiency.Profiles;
import io.ridgeline.validation.Calibration;
import io.ridgeline.validation.CaseFile;
import io.ridgeline.validation.CrossValidation;
import io.ridgeline.validation.CrossValidationJson;
import io.ridgeline.validation.EngineOffsetFit;
import io.ridgeline.validation.Metric;
import io.ridgeline.validation.Summary;
import io.ridgeline.validation.ValidationCase;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ridgeline calibrate}: fits the pooled profile on a case file ({@link Calibration}), prints
 * the fitted parameters and the median error by metric before (ideal) and after, and writes the
 * profile file (one profile, {@value Profiles#DEFAULT}, which every engine family uses) as JSON
 * that {@code --profile FILE} loads.
 */
@Command(
    name = "calibrate",
    mixinStandardHelpOptions = true,
    description =
        "Fit the pooled engine efficiency profile on a validation case file (Huber loss on"
            + " ln(predicted/measured)).")
final class CalibrateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--cases", description = ValidateCommand.CASES_HELP)
  Path cases;

  @Option(names = "--out", description = "Write the fitted profile to this JSON file.")
  Path out;

  @Option(
      names = "--evaluations",
      defaultValue = "" + Calibration.DEFAULT_EVALUATIONS,
      description = "Loss evaluations per fit, at least 10 (default: ${DEFAULT-VALUE}).")
  int evaluations;

  @Option(
      names = "--cross-validate",
      description =
          "Also refit with rows held out (every third operating point, predicted with its"
              + " source's fitted intercept; each source in turn, with and without an anchor"
              + " point) and print the held-out errors. Takes a fit per fold: one on every row,"
              + " three point-grouped and one per source, the held-out ones side by side on"
              + " the machine's processors (about 2.5 minutes on 2 cores); progress and the"
              + " overall ETA go to stderr.")
  boolean crossValidate;

  @Option(
      names = "--report",
      paramLabel = "FILE",
      description = "With --cross-validate: write the folds and their figures to this JSON file.")
  Path report;

  @Option(
      names = "--bands",
      paramLabel = "FILE",
      description =
          "With --cross-validate or --replay: write the error bands (per estimate: the"
              + " leave-one-source-out median APE, the 20th-80th percentile band of measured /"
              + " estimate - 1 and its realised coverage; what the fitted rows covered) to this"
              + " JSON file.")
  Path bands;

  @Option(
      names = "--replay",
      arity = "0..1",
      fallbackValue = "",
      paramLabel = "REPORT",
      description =
          "Fit nothing: replay a stored cross-validation report (default: the shipped one) with"
              + " today's model, each fold's stored profile predicting its held-out rows (seconds,"
              + " not minutes), and print the held-out errors; with --bands, write the bands"
              + " from the replay.")
  Path replay;

  @Option(
      names = "--engine-offsets",
      description =
          "With --replay: also score engine offsets (per engine family and version series, from"
              + " at least two independent sources' intercepts) estimated in each"
              + " leave-one-source-out fold on its training sources and applied to the held-out"
              + " source: the median APE without and with them, by engine, metric, offset and"
              + " source. Reported, not applied to any estimate.")
  boolean engineOffsets;

  @Override
  public Integer call() throws java.io.IOException {
    List<ValidationCase> all = cases == null ? CaseFile.shipped() : CaseFile.read(cases);
    String label = cases == null ? "the shipped cases" : cases.getFileName().toString();
    if (replay != null) {
      return replay(all, label);
    }
    if (engineOffsets) {
      throw new IllegalArgumentException(
          "--engine-offsets needs --replay: offsets are scored on the stored folds");
    }
    if ((report != null || bands != null) && !crossValidate) {
      throw new IllegalArgumentException(
          "--report needs --cross-validate, --bands --cross-validate or --replay: '"
              + (report != null ? report : bands)
              + "'");
    }
    // the files are checked before the fit, which takes minutes, not after it
    if (out != null) {
      AtomicFiles.checkWritable(out, "--out");
    }
    if (report != null) {
      AtomicFiles.checkWritable(report, "--report");
    }
    if (bands != null) {
      AtomicFiles.checkWritable(bands, "--bands");
    }
    PrintWriter err = spec.commandLine().getErr();
    err.println("calibrate: fitting the pooled profile on " + label + "...");
    err.flush();
    long fitStart = System.nanoTime();
    Calibration.Result r =
        Calibration.fit(
            all,
            label,
            evaluations,
            done -> {
              if (done % Math.max(1, evaluations / 10) == 0 && done < evaluations) {
                err.println(
                    "calibrate: "
                        + fitProgress(done, evaluations, (System.nanoTime() - fitStart) / 1e9));
                err.flush();
              }
            });
    PrintWriter w = spec.commandLine().getOut();
    w.printf(
        Locale.ROOT,
        "calibrate: %d cases, %d predicted%n",
        all.size(),
        r.before().predictions().size());
    List<Column> columns = columns();
    StringBuilder header =
        new StringBuilder(String.format(Locale.ROOT, "%-10s %5s", "profile", "rows"));
    columns.forEach(
        c -> header.append(String.format(Locale.ROOT, " %" + c.width() + "s", c.label())));
    w.println(header);
    for (EngineProfile p : r.profiles().profiles().values()) {
      StringBuilder line =
          new StringBuilder(
              String.format(Locale.ROOT, "%-10s %5d", p.name(), r.rows().get(p.name())));
      for (Column c : columns) {
        line.append(
            String.format(
                Locale.ROOT,
                " %" + c.width() + "." + c.decimals() + "f",
                c.value().applyAsDouble(p)));
      }
      w.println(line);
    }
    w.println();
    w.printf(Locale.ROOT, "%-22s %6s %12s %12s%n", "metric", "count", "ideal APE", "fitted APE");
    Map<Metric, Summary> before = r.before().byMetric();
    Map<Metric, Summary> after = r.after().byMetric();
    TreeSet<Metric> metrics = new TreeSet<>(Comparator.comparing(Metric::id));
    metrics.addAll(before.keySet());
    metrics.addAll(after.keySet());
    row(w, "overall", r.before().overall(), r.after().overall());
    for (Metric m : metrics) {
      row(w, m.id(), before.get(m), after.get(m));
    }
    onBounds(w, r.profiles().forEngine(Profiles.DEFAULT));
    if (out != null) {
      AtomicFiles.writeString(out, r.profiles().toJson());
      w.println();
      w.println("wrote " + out);
    }
    if (crossValidate) {
      long start = System.nanoTime();
      Progress progress = new Progress();
      CrossValidation.Report cv =
          CrossValidation.run(
              all,
              evaluations,
              // the pooled fit above is the in-sample fold's fit: the same rows, start and budget
              Optional.of(r.profiles().forEngine(Profiles.DEFAULT)),
              line -> {
                err.println(
                    "calibrate: " + line + progress.after(line, (System.nanoTime() - start) / 1e9));
                err.flush();
              });
      w.println();
      CrossValidationTable.print(w, cv);
      if (report != null) {
        AtomicFiles.writeString(report, CrossValidationJson.toJson(cv, label, evaluations));
        w.println("wrote " + report);
      }
      if (bands != null) {
        String date = java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString();
        String source =
            "leave-one-source-out held-out rows of calibrate --cross-validate on "
                + label
                + ", "
                + evaluations
                + " evaluations per fit, "
                + date;
        AtomicFiles.writeString(bands, CrossValidation.errorBands(cv, all, source).toJson());
        w.println("wrote " + bands);
      }
    }
    return 0;
  }

  /**
   * {@code --replay}: the stored report's folds predict their held-out rows with today's model;
   * prints the table, with {@code --engine-offsets} the engine offsets' held-out score ({@link
   * EngineOffsetTable}), and writes the bands of the replay.
   */
  private Integer replay(List<ValidationCase> all, String label) {
    if (crossValidate || out != null || report != null) {
      throw new IllegalArgumentException(
          "--replay fits nothing: it takes --cases and --bands, not --cross-validate, --out or"
              + " --report");
    }
    if (bands != null) {
      AtomicFiles.checkWritable(bands, "--bands");
    }
    String name = replay.toString().isEmpty() ? "crossval.json" : replay.toString();
    String text =
        replay.toString().isEmpty()
            ? CrossValidationJson.shipped()
                .orElseThrow(() -> new IllegalStateException("no shipped cross-validation report"))
            : io.ridgeline.core.InputFiles.readText(replay, "cross-validation report");
    List<CrossValidation.Fold> folds = CrossValidationJson.folds(text, name);
    CrossValidation.Report cv = CrossValidation.replay(all, folds);
    PrintWriter w = spec.commandLine().getOut();
    w.println(
        "calibrate: replayed "
            + folds.size()
            + " folds of "
            + name
            + " on "
            + label
            + " with today's model (no refit)");
    CrossValidationTable.print(w, cv);
    if (engineOffsets) {
      EngineOffsetTable.print(
          w,
          EngineOffsetFit.leaveOneSourceOut(all, cv),
          EngineOffsetFit.ofCases(all, Profiles.builtIn().forEngine(Profiles.DEFAULT)));
    }
    if (bands != null) {
      String date = java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString();
      String source =
          "leave-one-source-out held-out rows of "
              + name
              + " replayed on "
              + label
              + " (calibrate --replay), "
              + date;
      AtomicFiles.writeString(bands, CrossValidation.errorBands(cv, all, source).toJson());
      w.println("wrote " + bands);
    }
    return 0;
  }

  private static final java.util.regex.Pattern FIT =
      java.util.regex.Pattern.compile(
          "fit (\\d+)/(\\d+)(?:(, (\\d+)/(\\d+) evaluations)|( done))?:.*");

  /**
   * The cross-validation's progress: each line's elapsed time, and once work is done the rate and
   * the overall ETA. The fits run side by side, so the work done is the sum over fits of each one's
   * share: {@code fit K/N: …} starts fit K of N (0 of it done), {@code fit K/N, E/B evaluations: …}
   * reports E of its B evaluations (E/B of it), {@code fit K/N done: …} ends it (all of it, also
   * when its search converged before its budget); the ETA is the fits left at the rate so far:
   * {@code " (S s, R fits/min, ETA E s)"}; just {@code " (S s)"} before any work is done or for
   * another line. Not for sharing between threads (the cross-validation tells its lines one at a
   * time).
   */
  static final class Progress {
    private final Map<Integer, Double> shares = new HashMap<>();

    /** The suffix of {@code line}, told {@code seconds} after the cross-validation started. */
    String after(String line, double seconds) {
      java.util.regex.Matcher m = FIT.matcher(line);
      if (!m.matches()) {
        return String.format(Locale.ROOT, " (%.0f s)", seconds);
      }
      int fit = Integer.parseInt(m.group(1));
      double share =
          m.group(6) != null
              ? 1
              : m.group(3) != null
                  ? Double.parseDouble(m.group(4)) / Double.parseDouble(m.group(5))
                  : 0;
      shares.merge(fit, share, Math::max);
      double done = shares.values().stream().mapToDouble(Double::doubleValue).sum();
      if (done <= 0 || seconds <= 0) {
        return String.format(Locale.ROOT, " (%.0f s)", seconds);
      }
      int total = Integer.parseInt(m.group(2));
      double perFit = seconds / done;
      return String.format(
          Locale.ROOT,
          " (%.0f s, %.1f fits/min, ETA %.0f s)",
          seconds,
          60 / perFit,
          Math.max(0, total - done) * perFit);
    }
  }

  /**
   * The main fit's progress after {@code done} of at most {@code max} loss evaluations in {@code
   * seconds}: {@code "pooled fit: 150/1500 evaluations (12 s, ETA at most 108 s)"} (the search may
   * converge before its budget).
   */
  static String fitProgress(int done, int max, double seconds) {
    return String.format(
        Locale.ROOT,
        "pooled fit: %d/%d evaluations (%.0f s, ETA at most %.0f s)",
        done,
        max,
        seconds,
        seconds / done * (max - done));
  }

  /** Lists the fitted parameters that ended within 1% of a bound of their plausible range. */
  private static void onBounds(PrintWriter w, EngineProfile p) {
    List<String> at = new ArrayList<>();
    for (EfficiencyParameter q : EfficiencyParameter.values()) {
      if (!q.fitted()) {
        continue; // held at its sourced value, not searched
      }
      double v = q.get(p.efficiency());
      double span = q.upper() - q.lower();
      if (v <= q.lower() + 0.01 * span) {
        at.add(q.jsonKey() + " at its lower bound " + q.lower());
      } else if (v >= q.upper() - 0.01 * span) {
        at.add(q.jsonKey() + " at its upper bound " + q.upper());
      }
    }
    w.println();
    w.println(
        at.isEmpty()
            ? "no fitted parameter ends on a bound of its plausible range"
            : "on a bound of the plausible range: " + String.join("; ", at));
  }

  /** A column of the table of fitted values. */
  private record Column(
      String label, int width, int decimals, ToDoubleFunction<EngineProfile> value) {}

  /** Every efficiency parameter, and the running-request cap before the admission latency. */
  private static List<Column> columns() {
    List<Column> columns = new ArrayList<>();
    for (EfficiencyParameter q : EfficiencyParameter.values()) {
      if (q == EfficiencyParameter.ADMISSION) {
        columns.add(
            new Column(
                "max run",
                9,
                1,
                p ->
                    p.maxRunningRequests().isPresent()
                        ? p.maxRunningRequests().getAsInt()
                        : Double.POSITIVE_INFINITY));
      }
      columns.add(column(q));
    }
    return columns;
  }

  /** The column of {@code q}: its label, width and decimals, its value in its unit. */
  private static Column column(EfficiencyParameter q) {
    ToDoubleFunction<EngineProfile> value = p -> q.get(p.efficiency());
    return switch (q) {
      case COMPUTE -> new Column("compute", 8, 3, value);
      case MEMORY -> new Column("memory", 8, 3, value);
      case NETWORK -> new Column("network", 8, 3, value);
      case ATTENTION -> new Column("attn", 8, 3, value);
      case GEMM_HALF_TOKENS -> new Column("half tok", 9, 1, value);
      case GEMM_HALF_DEPTH -> new Column("half K", 7, 0, value);
      case KERNEL_OVERHEAD -> new Column("kernel µs", 10, 2, value);
      case STEP_OVERHEAD -> new Column("step µs", 10, 1, value);
      case COLLECTIVE_LATENCY -> new Column("coll µs", 9, 2, value);
      case ADMISSION -> new Column("admit ms", 9, 1, value);
      case PREFILL_KERNEL_OVERHEAD -> new Column("pf k µs", 8, 2, value);
      case MOE_OVERLAP -> new Column("moe ovl", 8, 3, value);
      case PD_HANDOVER -> new Column("pd ms", 8, 1, value);
    };
  }

  private static void row(PrintWriter w, String name, Summary before, Summary after) {
    w.printf(
        Locale.ROOT,
        "%-22s %6d %11.1f%% %11.1f%%%n",
        name,
        after == null ? 0 : after.count(),
        before == null ? Double.NaN : 100 * before.medianApe(),
        after == null ? Double.NaN : 100 * after.medianApe());
  }
}
