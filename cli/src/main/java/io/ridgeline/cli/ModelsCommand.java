package io.ridgeline.cli;

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
        o.put("layers", m.layerCount());
        o.put("model_type", m.modelType());
        o.put(
            "bounded_cache_bytes_per_sequence",
            m.boundedCacheBytesPerSequence(Precision.BF16).bytes());
        o.put("kv_bytes_per_token", m.kvBytesPerToken(Precision.BF16).bytes());
      }
      out.println(Json.write(arr));
      return 0;
    }
    out.printf(
        Locale.ROOT,
        "%-24s %-12s %10s %10s %7s %12s %16s%n",
        "id",
        "type",
        "params",
        "active",
        "layers",
        "KV/token",
        "bounded/seq");
    for (Model m : Models.all()) {
      out.printf(
          Locale.ROOT,
          "%-24s %-12s %9.2fB %9.2fB %7d %12s %16s%n",
          m.id(),
          m.modelType(),
          m.totalParameters() / 1e9,
          m.activeParameters() / 1e9,
          m.layerCount(),
          m.kvBytesPerToken(Precision.BF16),
          m.boundedCacheBytesPerSequence(Precision.BF16));
    }
    out.println(
        "KV/token: the cache that grows with context (full-attention layers) at bf16; bounded/seq: sliding-window caches when full and linear-layer state, per sequence at bf16.");
    return 0;
  }
}
