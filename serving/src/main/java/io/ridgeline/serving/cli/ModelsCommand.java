package io.ridgeline.serving.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.Precision;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ridgeline models}: the model catalog with parameter and KV-cache counts. */
@Command(
    name = "models",
    mixinStandardHelpOptions = true,
    description = "List the model catalog: parameters, layers, KV bytes per token (bf16).")
final class ModelsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ArrayNode arr = Json.array();
      for (Model m : Models.all()) {
        ObjectNode o = arr.addObject();
        o.put("id", m.id());
        o.put("total_params", m.totalParameters());
        o.put("active_params", m.activeParameters());
        o.put("layers", m.layers());
        o.put("kv_bytes_per_token", m.kvBytesPerToken(Precision.BF16).bytes());
      }
      out.println(Json.write(arr));
      return 0;
    }
    out.printf(
        Locale.ROOT,
        "%-16s %-8s %10s %10s %7s %12s%n",
        "id",
        "type",
        "params",
        "active",
        "layers",
        "KV/token");
    for (Model m : Models.all()) {
      out.printf(
          Locale.ROOT,
          "%-16s %-8s %9.2fB %9.2fB %7d %12s%n",
          m.id(),
          m.modelType(),
          m.totalParameters() / 1e9,
          m.activeParameters() / 1e9,
          m.layers(),
          m.kvBytesPerToken(Precision.BF16));
    }
    return 0;
  }
}
