package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSortedSet;
import io.ridgeline.core.InputFiles;
import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.efficiency.Anchoring;
import io.ridgeline.serving.efficiency.EngineProfile;
import io.ridgeline.serving.efficiency.Profiles;
import io.ridgeline.validation.Anchor;
import io.ridgeline.validation.BenchmarkResults;
import io.ridgeline.validation.CaseFile;
import io.ridgeline.validation.Outcome;
import io.ridgeline.validation.Prediction;
import io.ridgeline.validation.Predictor;
import io.ridgeline.validation.Skip;
import io.ridgeline.validation.ValidationCase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code --anchor FILE}: one or a few measurements of the user's own deployment (the case-file
 * format) fix how much faster or slower it runs than the model, one factor per quantity (TTFT,
 * decode speed, throughput; {@link Anchor#factors}); every estimate is scaled by its quantity's
 * factor. Cross-validation reports what anchoring buys on sources the profile was not fitted on
 * (the anchored column of {@code ridgeline validate}).
 */
final class AnchorOption {
  private AnchorOption() {}

  /**
   * The factor of {@code file}'s rows predicted at {@code efficiency}.
   *
   * @param file the file, or null for no anchor
   * @param rows predicted rows
   * @param lnSlowdown the mean ln slowdown of the model against the rows
   * @param anchoring the ln slowdown per quantity ({@link Anchor#factors})
   */
  record Factor(
      Path file,
      int rows,
      double lnSlowdown,
      Anchoring anchoring,
      List<String> skipped,
      Set<String> models,
      Set<String> chips) {
    /**
     * The warnings a command prints with this anchor for a system of {@code model} on {@code
     * chipIds}: each row the anchor could not predict (its line and why), and rows measured on
     * another model or chip, whose factor carries another deployment's error (anchoring helps per
     * deployment: same model, chip, precision and engine).
     */
    List<String> warnings(String model, Collection<String> chipIds) {
      List<String> out = new ArrayList<>(skipped);
      Set<String> otherModels = new TreeSet<>(models);
      otherModels.remove(model.toLowerCase(Locale.ROOT));
      Set<String> otherChips = new TreeSet<>(chips);
      chipIds.forEach(c -> otherChips.remove(c.toLowerCase(Locale.ROOT)));
      if (!otherModels.isEmpty() || !otherChips.isEmpty()) {
        out.add(
            String.format(
                Locale.ROOT,
                "--anchor %s measures %s on %s, not only %s on %s: its factor carries another"
                    + " deployment's error",
                file,
                String.join(", ", models),
                String.join(", ", chips),
                model,
                String.join(", ", chipIds)));
      }
      return out;
    }

    /**
     * Every frontier's points anchored, their Pareto flags kept (each axis is scaled by one
     * factor).
     */
    List<ParetoFrontier> apply(List<ParetoFrontier> frontiers) {
      List<ParetoFrontier> out = new ArrayList<>();
      for (ParetoFrontier f : frontiers) {
        List<FrontierPoint> points = new ArrayList<>();
        f.points().forEach(p -> points.add(p.anchored(anchoring)));
        out.add(ParetoFrontier.of(points));
      }
      return out;
    }

    /**
     * Puts {@code anchor: {file, rows, slowdown, slowdowns{ttft, tpot, throughput}}} into {@code
     * o}: the JSON of every command; each slowdown is the model's time over the measured one.
     */
    void put(ObjectNode o) {
      ObjectNode a = o.putObject("anchor");
      a.put("file", file.toString());
      a.put("rows", rows);
      a.put("slowdown", Math.exp(lnSlowdown));
      ObjectNode q = a.putObject("slowdowns");
      q.put("ttft", Math.exp(anchoring.ttft()));
      q.put("tpot", Math.exp(anchoring.decode()));
      q.put("throughput", Math.exp(anchoring.throughput()));
    }

    /**
     * e.g. {@code anchored on my.csv (3 rows): the model is 1.25× slower than measured (TTFT
     * 0.625×, TPOT 1.2×, throughput 1.25×); each estimate is scaled by its quantity's factor}.
     */
    String line() {
      double f = Math.exp(lnSlowdown);
      return String.format(
          Locale.ROOT,
          "anchored on %s (%d rows): the model is %.3f× %s than measured (model/measured: TTFT"
              + " %.3f×, TPOT %.3f×, throughput %.3f×); each estimate is scaled by its quantity's"
              + " factor",
          file,
          rows,
          f >= 1 ? f : 1 / f,
          f >= 1 ? "slower" : "faster",
          Math.exp(anchoring.ttft()),
          Math.exp(anchoring.decode()),
          Math.exp(anchoring.throughput()));
    }
  }

  /**
   * The system a benchmark result file is read as measured on: the first of {@code deployments}
   * when it is one pool (colocated serving), with the precisions the options set; empty for a
   * disaggregated system, whose result files measure two pools.
   */
  static Optional<BenchmarkResults.MeasuredSystem> system(
      Model m, List<Deployment> deployments, SystemOptions options) {
    if (deployments.isEmpty() || deployments.get(0).pools().size() != 1) {
      return Optional.empty();
    }
    RooflineModel pool = deployments.get(0).decodePool();
    return Optional.of(
        new BenchmarkResults.MeasuredSystem(
            m.id(),
            pool.chip().id(),
            pool.chips(),
            pool.tensorParallel(),
            pool.pipelineParallel(),
            pool.expertParallel(),
            Optional.ofNullable(options.weights).map(Precision::id),
            Optional.ofNullable(options.kv).map(Precision::id)));
  }

  /**
   * The anchor of {@code file} predicted with {@code efficiency}, or empty without a file. The file
   * is a case file (CSV, cases.md) or the result file of a serving benchmark ({@link
   * BenchmarkResults}: {@code vllm bench serve --save-result}, SGLang {@code bench_serving},
   * GenAI-Perf/AIPerf, GuideLLM), detected by content; a result file does not say what it measured,
   * so it is read as measured on {@code system}.
   *
   * @param system the command's system (one model on one pool), or empty where the command has none
   *     (plan searches many): a result file is then refused
   * @throws IllegalArgumentException when the file cannot be read or none of its rows can be
   *     predicted, naming the file
   */
  static Optional<Factor> factor(
      Path file,
      EfficiencyOptions.Choice efficiency,
      Optional<BenchmarkResults.MeasuredSystem> system) {
    if (file == null) {
      return Optional.empty();
    }
    String text = InputFiles.readText(file, "case file");
    List<String> skipped = new ArrayList<>();
    List<ValidationCase> cases;
    if (BenchmarkResults.isResultFile(text)) {
      BenchmarkResults.MeasuredSystem s =
          system.orElseThrow(
              () ->
                  new IllegalArgumentException(
                      "--anchor "
                          + file
                          + ": a benchmark result file does not say which system it measured"
                          + " and is read as measured on the command's system: use it with"
                          + " frontier of one colocated system, or give a case file (cases.md)"
                          + " that names the model and chip"));
      if (Models.builtIn().find(s.model()).isEmpty() || Chips.builtIn().find(s.chip()).isEmpty()) {
        throw new IllegalArgumentException(
            "--anchor "
                + file
                + ": a benchmark result file anchors a catalog model on a catalog chip: "
                + s.model()
                + " on "
                + s.chip());
      }
      BenchmarkResults.Read read = BenchmarkResults.read(text, file.toString(), s);
      read.unused().forEach(u -> skipped.add("--anchor " + u + " (not used)"));
      cases = read.cases();
    } else {
      cases = CaseFile.parse(text, file.toString());
    }
    Predictor p = Predictor.of(new EngineProfile(Profiles.DEFAULT, efficiency.efficiency(), ""));
    List<Prediction> predicted = new ArrayList<>();
    Set<String> models = new TreeSet<>();
    Set<String> chips = new TreeSet<>();
    for (ValidationCase c : cases) {
      Outcome o = p.predict(c);
      if (o instanceof Prediction prediction) {
        predicted.add(prediction);
        models.add(c.model().toLowerCase(Locale.ROOT));
        chips.add(c.chip().toLowerCase(Locale.ROOT));
      } else if (o instanceof Skip skip) {
        skipped.add(
            String.format(
                Locale.ROOT,
                "--anchor %s: row %s (line %d) is not used: %s",
                file,
                c.caseId(),
                c.line(),
                skip.reason()));
      }
    }
    if (predicted.isEmpty()) {
      throw new IllegalArgumentException(
          "--anchor "
              + file
              + ": none of its "
              + cases.size()
              + " rows can be predicted"
              + (skipped.isEmpty() ? "" : ": " + skipped.get(0)));
    }
    return Optional.of(
        new Factor(
            file,
            predicted.size(),
            Anchor.lnSlowdown(predicted),
            Anchor.factors(predicted),
            List.copyOf(skipped),
            ImmutableSortedSet.copyOf(models),
            ImmutableSortedSet.copyOf(chips)));
  }
}
