package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.FlopsPerSecond;
import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.ChipCatalog;
import io.ridgeline.hardware.Chips;
import io.ridgeline.hardware.MemoryTier;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ridgeline chips}: the chip catalog with peaks, memory tiers and ridge points. */
@Command(
    name = "chips",
    mixinStandardHelpOptions = true,
    description = "List the chip catalog: dense peaks, memory tiers, ridge points.")
final class ChipsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Option(names = "--add", description = "Also list the chips of this JSON file (repeatable).")
  List<Path> add = List.of();

  @Option(
      names = "--export",
      paramLabel = "ID",
      description =
          "Print chip ID in the chip-file format that --add and --chip FILE.json read (edit it,"
              + " then feed it back); ID* exports its --chip-set what-if.")
  String export;

  @picocli.CommandLine.Mixin ChipSetOption chipSet;

  @Override
  public Integer call() {
    ChipCatalog catalog = Chips.builtIn();
    for (Path p : add) {
      catalog = catalog.withFile(p);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (export != null) {
      boolean starred = export.endsWith("*");
      Chip c = catalog.byId(starred ? export.substring(0, export.length() - 1) : export);
      Chip exported = chipSet.apply(c);
      if (starred && exported == c) {
        throw new IllegalArgumentException(
            "chip '" + export + "' is a what-if: give --chip-set " + c.id() + ":FIELD=VALUE");
      }
      out.print(Chips.toJson(exported));
      return 0;
    }
    // each what-if chip listed after the catalog's
    for (Chip c : List.copyOf(catalog.all())) {
      Chip modified = chipSet.apply(c);
      if (modified != c) {
        catalog = catalog.with(modified);
      }
    }
    if (json) {
      ArrayNode arr = Json.array();
      for (Chip c : catalog.all()) {
        ObjectNode o = arr.addObject();
        o.put("id", c.id());
        o.put("name", c.name());
        ObjectNode peaks = o.putObject("peak_flops");
        ObjectNode ridge = o.putObject("ridge_point");
        for (Map.Entry<Precision, FlopsPerSecond> e : c.peaks().entrySet()) {
          peaks.put(e.getKey().id(), e.getValue().flopsPerSecond());
          ridge.put(e.getKey().id(), c.ridgePoint(e.getKey()).flopsPerByte());
        }
        ArrayNode mem = o.putArray("memory");
        for (MemoryTier t : c.memory()) {
          ObjectNode m = mem.addObject();
          m.put("kind", t.kind().id());
          m.put("capacity_bytes", t.capacity().bytes());
          m.put("bandwidth_bytes_per_s", t.bandwidth().bytesPerSecond());
        }
        // the share of the bf16 peak the chip's best matmul reaches, measured or the typical one
        // that calibrated estimates assume where it is not
        o.put("matmul_fraction", c.matmulFraction());
        o.put("matmul_fraction_measured", c.achievableMatmulFraction().isPresent());
        c.achievableMatmulFraction()
            .ifPresent(
                f ->
                    o.put(
                        "matmul_fraction_source",
                        c.sources().getOrDefault("achievable_matmul_fraction", "")));
        // each narrower precision's share of its own peak (FP8 on Hopper reaches less of its
        // doubled peak), where measured
        if (!c.narrowMatmulFractions().isEmpty()) {
          ObjectNode narrow = o.putObject("narrow_matmul_fractions");
          c.narrowMatmulFractions().forEach((p, f) -> narrow.put(p.id(), f));
          o.put(
              "narrow_matmul_fractions_source",
              c.sources().getOrDefault("narrow_matmul_fractions", ""));
        }
        // the rental price and where it comes from (provider, date), where a public one exists
        if (c.pricePerHour().isPresent()) {
          o.put("dollars_per_hour", c.pricePerHour().get().dollarsPerHour());
          o.put("price_source", c.sources().getOrDefault("price_per_hour_usd", ""));
        }
      }
      out.println(Json.write(arr));
      return 0;
    }
    out.printf(
        Locale.ROOT,
        "%-24s %-44s %9s %9s %9s  %-28s %9s%n",
        "id",
        "name",
        "bf16 TF/s",
        "fp8 TF/s",
        "fp4 TF/s",
        "main memory",
        "ridge bf16");
    for (Chip c : catalog.all()) {
      MemoryTier main = c.mainMemory();
      String ridge =
          c.peak(Precision.BF16).isPresent()
              ? String.format(Locale.ROOT, "%.0f", c.ridgePoint(Precision.BF16).flopsPerByte())
              : "-";
      out.printf(
          Locale.ROOT,
          "%-24s %-44s %9s %9s %9s  %-28s %9s%n",
          c.id(),
          abbreviate(c.name(), 44),
          tera(c, Precision.BF16),
          tera(c, Precision.FP8),
          tera(c, Precision.FP4),
          main.kind().id() + " " + main.capacity() + " @ " + main.bandwidth(),
          ridge);
    }
    out.println(
        "Dense peaks (no 2:4 sparsity); ridge point = bf16 peak / main-memory bandwidth, FLOP/B. Sources: `ridgeline chips --json` and the catalog's chips.md.");
    return 0;
  }

  private static String tera(Chip c, Precision p) {
    return c.peak(p).map(f -> String.format(Locale.ROOT, "%.0f", f.tera())).orElse("-");
  }

  private static String abbreviate(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n - 1) + "…";
  }
}
