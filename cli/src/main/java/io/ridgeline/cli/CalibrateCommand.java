package io.ridgeline.cli;

import io.ridgeline.serving.Efficiency;
import io.ridgeline.serving.EngineProfile;
import io.ridgeline.validation.Calibration;
import io.ridgeline.validation.CaseFile;
import io.ridgeline.validation.Summary;
import io.ridgeline.validation.ValidationCase;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ridgeline calibrate}: fits engine profiles on a case file ({@link Calibration}), prints
 * the fitted parameters and the median error by metric before (ideal) and after, and writes the
 * profiles as JSON that {@code validate --profile FILE} loads.
 */
@Command(
    name = "calibrate",
    mixinStandardHelpOptions = true,
    description =
        "Fit engine efficiency profiles on a validation case file (Huber loss on ln(predicted/measured)).")
final class CalibrateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--cases",
      description = "Case file (CSV, format in cases.md; default: the shipped cases).")
  Path cases;

  @Option(names = "--out", description = "Write the fitted profiles to this JSON file.")
  Path out;

  @Option(
      names = "--evaluations",
      defaultValue = "" + Calibration.DEFAULT_EVALUATIONS,
      description = "Loss evaluations per engine family (default: ${DEFAULT-VALUE}).")
  int evaluations;

  @Override
  public Integer call() {
    List<ValidationCase> all = cases == null ? CaseFile.shipped() : CaseFile.read(cases);
    String label = cases == null ? "the shipped cases" : cases.getFileName().toString();
    Calibration.Result r = Calibration.fit(all, label, evaluations);
    PrintWriter w = spec.commandLine().getOut();
    w.printf(
        Locale.ROOT,
        "calibrate: %d cases, %d predicted%n",
        all.size(),
        r.before().predictions().size());
    w.printf(
        Locale.ROOT,
        "%-10s %5s %8s %8s %8s %8s %9s %10s %10s %9s %9s %9s%n",
        "engine",
        "rows",
        "compute",
        "memory",
        "network",
        "attn",
        "half tok",
        "layer µs",
        "step µs",
        "coll µs",
        "max run",
        "admit ms");
    for (EngineProfile p : r.profiles().profiles().values()) {
      Efficiency e = p.efficiency();
      w.printf(
          Locale.ROOT,
          "%-10s %5d %8.3f %8.3f %8.3f %8.3f %9.1f %10.2f %10.1f %9.2f %9.1f %9.1f%n",
          p.name(),
          r.rows().get(p.name()),
          e.compute(),
          e.memory(),
          e.network(),
          e.attention(),
          e.gemmHalfTokens(),
          e.layerOverhead().seconds() * 1e6,
          e.stepOverhead().seconds() * 1e6,
          e.collectiveLatency().seconds() * 1e6,
          p.maxRunningRequests(),
          e.admission().seconds() * 1e3);
    }
    w.println();
    w.printf(Locale.ROOT, "%-22s %6s %12s %12s%n", "metric", "count", "ideal APE", "fitted APE");
    Map<String, Summary> before = r.before().byMetric();
    Map<String, Summary> after = r.after().byMetric();
    TreeSet<String> metrics = new TreeSet<>(before.keySet());
    metrics.addAll(after.keySet());
    row(w, "overall", r.before().overall(), r.after().overall());
    for (String m : metrics) {
      row(w, m, before.get(m), after.get(m));
    }
    if (out != null) {
      r.profiles().write(out);
      w.println();
      w.println("wrote " + out);
    }
    return 0;
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
