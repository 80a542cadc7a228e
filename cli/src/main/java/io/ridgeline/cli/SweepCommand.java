package io.ridgeline.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.Sweep;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ridgeline sweep}: the frontier point of every combination of a grid, streamed as CSV or
 * JSON lines; the engine is {@link Sweep}.
 */
@Command(
    name = "sweep",
    mixinStandardHelpOptions = true,
    description = {
      "One row per combination of a grid of frontier options, streamed as CSV or JSON lines.",
      "Evaluates every combination of a grid of models, chips, counts, parallelism,",
      "strategies, batch sizes, prompt and output lengths and precisions: one row",
      "per combination, streamed. The grid is a JSON object mapping frontier option",
      "names (model, chip, count, tp, ep, strategy, batch, isl, osl, weights, kv, cached)",
      "to lists of values, e.g.",
      "  {\"model\": [\"llama-3.1-8b\"], \"strategy\": [\"colocated\", \"pd\"],",
      "   \"batch\": [1, 8, 64], \"isl\": [1024, 8192]}",
      "Defaults: model llama-3.1-8b, chip h100-sxm, count = tp (or 1), tp = count,",
      "ep 1, strategy colocated, batch 1, isl 1024, osl 1024, weights and kv the",
      "checkpoint's. Invalid combinations (tp not dividing the heads, a model that",
      "does not fit, ...) get a row with fits=false and the reason in `error`.",
      "Calibrated estimates by default (an engine profile fitted on the shipped",
      "validation cases); --efficiency ideal gives the roofline bound. The line",
      "before the last on stderr names the efficiency; the last line on stderr is",
      "`sweep: N points in S s, R points/s`."
    })
final class SweepCommand implements Callable<Integer> {
  /** Output columns (CSV header) and JSON keys, in order. */
  static final ImmutableList<String> COLUMNS =
      ImmutableList.of(
          "model",
          "chip",
          "count",
          "tp",
          "ep",
          "strategy",
          "weights",
          "kv",
          "isl",
          "osl",
          "batch",
          "ttft_seconds",
          "tpot_seconds",
          "tokens_per_second_per_user",
          "tokens_per_second_per_chip",
          "chips_total",
          "dollars_per_million_tokens",
          "tokens_per_joule",
          "fits",
          "error");

  private static final ObjectWriter JSON_LINE =
      Json.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT);

  @Spec CommandSpec spec;

  @Option(
      names = "--grid",
      required = true,
      paramLabel = "FILE.json",
      description = "The grid: a JSON object of option names mapped to lists of values.")
  Path grid;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description =
          "Write rows here: .csv (with a header) or .jsonl (one JSON object per line)"
              + " (default: CSV on stdout).")
  Path out;

  @Mixin EfficiencyOptions efficiencyOptions;

  @Override
  public Integer call() {
    boolean jsonl = out != null && jsonLines(out);
    EfficiencyOptions.Choice efficiency = efficiencyOptions.resolve();
    Sweep.Grid g = Sweep.Grid.fromJson(grid);
    PrintWriter err = spec.commandLine().getErr();
    long start = System.nanoTime();
    long rows;
    if (out == null) {
      PrintWriter stdout = spec.commandLine().getOut();
      rows = write(g, efficiency, checked(stdout), false);
      if (stdout.checkError()) {
        throw new UncheckedIOException(
            "cannot write to standard output", new IOException("stream error"));
      }
    } else {
      // whole or absent: a failure or Ctrl-C mid-sweep leaves no truncated file (AtomicFiles)
      rows = AtomicFiles.writeText(out, w -> write(g, efficiency, w, jsonl));
    }
    double seconds = Math.max(System.nanoTime() - start, 1) / 1e9;
    if (out != null) {
      err.println("wrote " + out);
    }
    if (efficiency.banded()) {
      err.println("sweep: " + io.ridgeline.serving.ErrorBands.builtIn());
    }
    err.println("sweep: " + efficiency.line());
    err.printf(
        Locale.ROOT, "sweep: %d points in %.3f s, %.1f points/s%n", rows, seconds, rows / seconds);
    err.flush();
    return 0;
  }

  /**
   * Whether {@code file} asks for JSON lines (.jsonl) rather than CSV (.csv).
   *
   * @throws IllegalArgumentException for any other extension
   */
  static boolean jsonLines(Path file) {
    String name =
        file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".jsonl")) {
      return true;
    }
    if (name.endsWith(".csv")) {
      return false;
    }
    throw new IllegalArgumentException("--out must end in .csv or .jsonl: " + file);
  }

  /** Streams the sweep's rows to {@code w}; returns the row count. */
  private static long write(
      Sweep.Grid g, EfficiencyOptions.Choice efficiency, Writer w, boolean jsonl) {
    try {
      if (jsonl) {
        return Sweep.run(g, efficiency.efficiency(), row -> line(w, jsonLine(row)));
      }
      // a cached column only when the grid sets one, so plain grids keep their columns
      boolean cached = !g.cached().equals(List.of(0));
      w.write(String.join(",", columns(cached)));
      w.write('\n');
      StringBuilder b = new StringBuilder(256);
      return Sweep.run(
          g,
          efficiency.efficiency(),
          row -> {
            b.setLength(0);
            line(w, csv(row, b, cached).toString());
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the sweep: " + e.getMessage(), e);
    }
  }

  private static void line(Writer w, String text) {
    try {
      w.write(text);
      w.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the sweep: " + e.getMessage(), e);
    }
  }

  /**
   * Standard output as a sink that stops the sweep once the stream fails (a closed pipe, as in
   * {@code ridgeline sweep ... | head}): a PrintWriter only records its errors, so it is asked
   * every 1,024 rows.
   */
  private static Writer checked(PrintWriter w) {
    return new Writer() {
      private long lines;

      @Override
      public void write(char[] buf, int off, int len) {
        w.write(buf, off, len);
      }

      @Override
      public void write(String text) {
        w.write(text);
      }

      @Override
      public void write(int c) {
        w.write(c);
        if (c == '\n' && (++lines & 1023) == 0 && w.checkError()) {
          throw new UncheckedIOException(
              "cannot write to standard output", new IOException("stream error"));
        }
      }

      @Override
      public void flush() {
        w.flush();
      }

      @Override
      public void close() {
        w.flush();
      }
    };
  }

  /** {@link #COLUMNS}, with {@code cached} after {@code osl} when {@code cached}. */
  static List<String> columns(boolean cached) {
    if (!cached) {
      return COLUMNS;
    }
    List<String> out = new ArrayList<>(COLUMNS);
    out.add(out.indexOf("osl") + 1, "cached");
    return out;
  }

  /** One CSV line in {@link #COLUMNS} order; absent numbers are empty cells. */
  static StringBuilder csv(Sweep.Row r, StringBuilder b) {
    return csv(r, b, false);
  }

  /** One CSV line in {@link #columns(boolean)} order. */
  static StringBuilder csv(Sweep.Row r, StringBuilder b, boolean cached) {
    b.append(cell(r.model().id()))
        .append(',')
        .append(cell(r.chip().id()))
        .append(',')
        .append(r.count())
        .append(',')
        .append(r.tp())
        .append(',')
        .append(r.ep())
        .append(',')
        .append(r.strategy().id())
        .append(',')
        .append(cell(r.weights()))
        .append(',')
        .append(r.kv())
        .append(',')
        .append(r.isl())
        .append(',')
        .append(r.osl())
        .append(',');
    if (cached) {
      b.append(r.cached()).append(',');
    }
    b.append(r.batch()).append(',');
    FrontierPoint p = r.point().orElse(null);
    if (p != null) {
      b.append(p.ttft().seconds())
          .append(',')
          .append(p.tpot().seconds())
          .append(',')
          .append(p.tokensPerSecondPerUser())
          .append(',')
          .append(p.tokensPerSecondPerChip())
          .append(',')
          .append(p.chipsTotal())
          .append(',');
      p.dollarsPerMillionTokens().ifPresent(d -> b.append(d.doubleValue()));
      b.append(',');
      p.tokensPerJoule().ifPresent(t -> b.append(t.doubleValue()));
      b.append(',');
    } else {
      b.append(",,,,,,,");
    }
    b.append(r.fits()).append(',');
    r.error().ifPresent(e -> b.append(cell(e)));
    return b;
  }

  private static String jsonLine(Sweep.Row r) {
    try {
      return JSON_LINE.writeValueAsString(json(r));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One JSON object with the {@link #COLUMNS} keys; absent numbers and no error are null. */
  static ObjectNode json(Sweep.Row r) {
    ObjectNode n = Json.object();
    n.put("model", r.model().id());
    n.put("chip", r.chip().id());
    n.put("count", r.count());
    n.put("tp", r.tp());
    n.put("ep", r.ep());
    n.put("strategy", r.strategy().id());
    n.put("weights", r.weights());
    n.put("kv", r.kv());
    n.put("isl", r.isl());
    n.put("osl", r.osl());
    if (r.cached() != 0) {
      n.put("cached", r.cached());
    }
    n.put("batch", r.batch());
    FrontierPoint p = r.point().orElse(null);
    if (p != null) {
      n.put("ttft_seconds", p.ttft().seconds());
      n.put("tpot_seconds", p.tpot().seconds());
      n.put("tokens_per_second_per_user", p.tokensPerSecondPerUser());
      n.put("tokens_per_second_per_chip", p.tokensPerSecondPerChip());
      n.put("chips_total", p.chipsTotal());
      n.put("dollars_per_million_tokens", p.dollarsPerMillionTokens().orElse(null));
      n.put("tokens_per_joule", p.tokensPerJoule().orElse(null));
    } else {
      for (String k :
          List.of(
              "ttft_seconds",
              "tpot_seconds",
              "tokens_per_second_per_user",
              "tokens_per_second_per_chip",
              "chips_total",
              "dollars_per_million_tokens",
              "tokens_per_joule")) {
        n.putNull(k);
      }
    }
    n.put("fits", r.fits());
    n.put("error", r.error().orElse(null));
    return n;
  }

  /** A CSV cell: quoted, with quotes doubled, when it holds a comma, quote or line break. */
  private static String cell(String s) {
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
      return s;
    }
    return '"' + s.replace("\"", "\"\"") + '"';
  }
}
