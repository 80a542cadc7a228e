package io.ridgeline.serving.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.serving.Charts;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.RooflineModel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ridgeline frontier}: interactivity against throughput across batch sizes. */
@Command(
    name = "frontier",
    mixinStandardHelpOptions = true,
    description = {
      "Sweep batch sizes (1, 2, 4, ... up to the largest that fits, and that largest) and print",
      "TTFT, TPOT, tokens/s per user and tokens/s per chip, marking Pareto-optimal points (*).",
      "The table view also writes a chart (default frontier-<model>-<chip>x<count>.png)."
    })
final class FrontierCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin SystemOptions system;

  @Option(
      names = "--isl",
      defaultValue = "1024",
      description = "Input (prompt) tokens per request (default: ${DEFAULT-VALUE}).")
  int isl;

  @Option(
      names = "--osl",
      defaultValue = "1024",
      description = "Output tokens per request (default: ${DEFAULT-VALUE}).")
  int osl;

  @Option(names = "--max-batch", description = "Largest batch to sweep.")
  Integer maxBatch;

  @Option(names = "--csv", description = "Print CSV.")
  boolean csv;

  @Option(names = "--plot", description = "Write the frontier chart here (.png or .svg).")
  Path plot;

  @Override
  public Integer call() {
    SystemOptions.positive("--isl", isl);
    SystemOptions.positive("--osl", osl);
    if (system.json && csv) {
      throw new IllegalArgumentException("--json and --csv are exclusive");
    }
    RooflineModel rm = system.build();
    ParetoFrontier.Builder b = ParetoFrontier.builder(rm).inputTokens(isl).outputTokens(osl);
    if (maxBatch != null) {
      SystemOptions.positive("--max-batch", maxBatch);
      b.maxBatch(maxBatch);
    }
    ParetoFrontier f = b.build();
    PrintWriter out = spec.commandLine().getOut();
    if (system.json) {
      ObjectNode o = Json.system(rm);
      o.put("isl", isl);
      o.put("osl", osl);
      ArrayNode arr = o.putArray("points");
      for (FrontierPoint p : f.points()) {
        ObjectNode n = arr.addObject();
        n.put("batch", p.batch());
        n.put("ttft_seconds", p.ttft().seconds());
        n.put("tpot_seconds", p.tpot().seconds());
        n.put("tokens_per_second_per_user", p.tokensPerSecondPerUser());
        n.put("tokens_per_second_per_chip", p.tokensPerSecondPerChip());
        n.put("fits", p.fits());
        n.put("pareto", p.pareto());
      }
      out.println(Json.write(o));
    } else if (csv) {
      out.println(
          "batch,ttft_seconds,tpot_seconds,tokens_per_second_per_user,tokens_per_second_per_chip,fits,pareto");
      for (FrontierPoint p : f.points()) {
        out.printf(
            Locale.ROOT,
            "%d,%s,%s,%s,%s,%b,%b%n",
            p.batch(),
            p.ttft().seconds(),
            p.tpot().seconds(),
            p.tokensPerSecondPerUser(),
            p.tokensPerSecondPerChip(),
            p.fits(),
            p.pareto());
      }
    } else {
      out.println(rm);
      out.printf(
          Locale.ROOT,
          "ISL %d, OSL %d; static batching per replica; * = Pareto-optimal%n",
          isl,
          osl);
      out.printf(
          Locale.ROOT,
          "%7s %12s %12s %14s %14s %5s%n",
          "batch",
          "TTFT",
          "TPOT",
          "tok/s/user",
          "tok/s/chip",
          "");
      for (FrontierPoint p : f.points()) {
        out.printf(
            Locale.ROOT,
            "%7d %12s %12s %14.1f %14.1f %5s%n",
            p.batch(),
            p.ttft(),
            p.tpot(),
            p.tokensPerSecondPerUser(),
            p.tokensPerSecondPerChip(),
            (p.pareto() ? "*" : "") + (p.fits() ? "" : " oom"));
      }
    }
    Path target = plot;
    if (target == null && !system.json && !csv) {
      target =
          Path.of(
              String.format(
                  Locale.ROOT,
                  "frontier-%s-%sx%d.png",
                  rm.model().id(),
                  rm.chip().id(),
                  rm.chips()));
    }
    if (target != null) {
      Charts.save(
          Charts.frontier(
              f, rm.toString() + String.format(Locale.ROOT, ", ISL %d / OSL %d", isl, osl)),
          target);
      (system.json || csv ? spec.commandLine().getErr() : out).println("wrote " + target);
    }
    return 0;
  }
}
