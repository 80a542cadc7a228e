package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.sweep.IntensitySweep;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ridgeline intensity}: decode-phase intensity as batch grows, against the ridge point. */
@Command(
    name = "intensity",
    mixinStandardHelpOptions = true,
    description = {
      "Each decode phase's arithmetic intensity as batch grows, against the ridge point.",
      "Each decode phase's arithmetic intensity (FLOP/B) for batches 1, 2, 4 ... 1024 at a context,",
      "against the chip's ridge point; phases above it are compute-bound. Calibrated by default",
      "(the ridge point and bounds with an engine profile's efficiency); --efficiency ideal gives",
      "the chip's own ridge point."
    })
final class IntensityCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin SystemOptions system;

  @Option(
      names = "--context",
      defaultValue = "4096",
      description = "Tokens in each sequence's cache (default: ${DEFAULT-VALUE}).")
  int context;

  @Option(
      names = "--batches",
      split = ",",
      description = "Batch sizes, comma-separated (default: 1,2,4,...,1024).")
  List<Integer> batches;

  @Option(names = "--plot", description = "Write the chart (.png or .svg).")
  Path plot;

  /** Phases that move memory bytes (communication-only phases have no intensity). */
  private static List<PhaseResult> memoryPhases(IntensitySweep.Row row) {
    return row.phases().stream().filter(p -> p.bytes().bytes() > 0).toList();
  }

  @Override
  public Integer call() {
    SystemOptions.positive("--context", context);
    system.efficiency();
    List<Integer> sizes = batches == null ? IntensitySweep.defaultBatches() : batches;
    for (int b : sizes) {
      SystemOptions.positive("--batches", b);
    }
    RooflineModel rm = system.build();
    IntensitySweep sweep = IntensitySweep.of(rm, context, sizes);
    PrintWriter out = spec.commandLine().getOut();
    double ridge = sweep.ridgePoint().flopsPerByte();
    if (system.json) {
      out.println(Json.write(json(rm, sweep, ridge)));
    } else {
      printText(out, rm, sweep, ridge);
    }
    if (plot != null) {
      Charts.save(Charts.intensity(sweep), plot);
      (system.json ? spec.commandLine().getErr() : out).println("wrote " + plot);
    }
    return 0;
  }

  /** The JSON report: system, ridge point and each batch's memory phases. */
  private ObjectNode json(RooflineModel rm, IntensitySweep sweep, double ridge) {
    ObjectNode o = Json.system(rm, system.efficiency());
    o.put("context", context);
    o.put("precision", rm.computePrecisions().matmul().id());
    o.put("ridge_point", ridge);
    ArrayNode rows = o.putArray("rows");
    for (IntensitySweep.Row r : sweep.rows()) {
      ObjectNode row = rows.addObject();
      row.put("batch", r.batch());
      row.put("fits", r.fits());
      ArrayNode phases = row.putArray("phases");
      for (PhaseResult p : memoryPhases(r)) {
        ObjectNode ph = phases.addObject();
        ph.put("phase", p.name());
        ph.put("intensity", p.intensity().flopsPerByte());
        ph.put("bound", p.bound().id());
        ph.put("seconds", p.seconds().seconds());
      }
    }
    return o;
  }

  /** The text report: system, then a table of intensity per batch and phase. */
  private void printText(PrintWriter out, RooflineModel rm, IntensitySweep sweep, double ridge) {
    out.println(rm);
    out.println(system.efficiency().line());
    system.efficiency().bandLines(rm).forEach(out::println);
    out.printf(
        Locale.ROOT,
        "context %d; intensity in FLOP/B; ridge point (%s) %.1f FLOP/B; * = compute-bound;"
            + " oom = the batch does not fit in memory%n",
        context,
        rm.computePrecisions().matmul().id(),
        ridge);
    StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%7s", "batch"));
    for (PhaseResult p : memoryPhases(sweep.rows().get(0))) {
      header.append(String.format(Locale.ROOT, " %24s", p.name()));
    }
    out.println(header);
    for (IntensitySweep.Row r : sweep.rows()) {
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%7d", r.batch()));
      for (PhaseResult p : memoryPhases(r)) {
        line.append(
            String.format(
                Locale.ROOT,
                " %23.2f%s",
                p.intensity().flopsPerByte(),
                p.bound() == io.ridgeline.core.Bound.COMPUTE ? "*" : " "));
      }
      if (!r.fits()) {
        line.append(" oom");
      }
      out.println(line);
    }
  }
}
