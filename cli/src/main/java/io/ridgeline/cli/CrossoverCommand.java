package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.sweep.Crossover;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ridgeline crossover}: the context at which decode attention overtakes the FFN. */
@Command(
    name = "crossover",
    mixinStandardHelpOptions = true,
    description = {
      "The context at which decode attention overtakes the FFN.",
      "The smallest context at which one decode step's attention time (full, sliding and linear",
      "attention) reaches its FFN/MoE time, for a model, chip, precision and batch.",
      "Calibrated times by default; --efficiency ideal gives the roofline bound."
    })
final class CrossoverCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin SystemOptions system;

  @Option(
      names = "--batch",
      defaultValue = "1",
      description = "Sequences per decode step (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(
      names = "--plot",
      paramLabel = "FILE",
      description =
          "Write a chart (.png or .svg): decode attention and FFN time against the context, the"
              + " crossover and the max context marked.")
  Path plot;

  @Override
  public Integer call() {
    SystemOptions.positive("--batch", batch);
    if (plot != null) {
      ChartRendering.checkPlotFile(plot);
    }
    system.efficiency();
    RooflineModel rm = system.build();
    Crossover c = Crossover.find(rm, batch);
    PrintWriter out = spec.commandLine().getOut();
    if (system.json) {
      ObjectNode o = Json.system(rm, system.efficiency());
      o.put("batch", batch);
      if (c.context().isPresent()) {
        o.put("crossover_context", c.context().get());
        o.putNull("reason");
      } else {
        o.putNull("crossover_context");
        o.put("reason", c.reason().get());
      }
      o.put("attention_seconds", c.attentionSeconds().seconds());
      o.put("ffn_seconds", c.ffnSeconds().seconds());
      if (rm.model().maxContext().isPresent()) {
        o.put("max_context", rm.model().maxContext().get());
      } else {
        o.putNull("max_context");
      }
      o.put("within_max_context", c.withinMaxContext());
      o.put("kv_bytes_per_token", rm.model().kvBytesPerToken(rm.precisions().kvCache()).bytes());
      out.println(Json.write(o));
    } else {
      out.println(c);
      out.println(system.efficiency().line());
      system.efficiency().bandLines(rm).forEach(out::println);
    }
    if (plot != null) {
      Charts.save(CrossoverChart.of(rm, c), plot);
      (system.json ? spec.commandLine().getErr() : out).println("wrote " + plot);
    }
    return 0;
  }
}
