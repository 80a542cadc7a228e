package io.ridgeline.cli;

import io.ridgeline.serving.sweep.Sweep;
import io.ridgeline.serving.sweep.SweepWriter;
import java.io.Console;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ridgeline sweep}: the frontier point of every combination of a grid, streamed as CSV or
 * JSON lines; the engine is {@link Sweep}, evaluated in parallel and written in grid order by
 * {@link SweepWriter}.
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
      "validation cases); --efficiency ideal gives the roofline bound. On stderr:",
      "the efficiency, then `sweep: N points: C compiled, S by the object path",
      "(why: count)` (colocated rows compile into blocks; static, pd and afd rows,",
      "and any row that falls back, are evaluated one by one, 18-130x slower; a",
      "fallback is also a `warning:` line), and last `sweep: N points in S s, R",
      "points/s`. --summary writes these figures as JSON. Runs longer than a few",
      "seconds print a progress line on stderr (points done, rate, ETA). Rows are",
      "evaluated on every core (--threads) and written in grid order."
    })
final class SweepCommand implements Callable<Integer> {
  /** Seconds before the first progress line, and between two. */
  private static final double PROGRESS_AFTER_SECONDS = 3;

  private static final double PROGRESS_EVERY_SECONDS = 2;

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
          "Write rows here: .csv (with a header) or .jsonl (one JSON object per line);"
              + " - for standard output (default: CSV on stdout).")
  String out;

  @Option(
      names = "--format",
      paramLabel = "csv|jsonl",
      description = "Row format (default: from the --out extension; CSV on stdout).")
  String format;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Threads evaluating rows (default: the available processors).")
  Integer threads;

  @Option(names = "--no-progress", description = "No progress line on stderr.")
  boolean noProgress;

  @Option(
      names = "--summary",
      paramLabel = "FILE.json",
      description =
          "Also write the run's summary as JSON: rows, compiled rows, rows by the object path"
              + " by reason, fallbacks, seconds, points per second, efficiency.")
  Path summary;

  @Mixin EfficiencyOptions efficiencyOptions;

  @Override
  public Integer call() {
    Path file = out == null || out.equals("-") ? null : Path.of(out);
    SweepWriter.Format f = format(file);
    int n = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    if (n < 1) {
      throw new IllegalArgumentException("--threads must be positive: " + n);
    }
    EfficiencyOptions.Choice efficiency = efficiencyOptions.resolve();
    Sweep.Grid g = Sweep.Grid.fromJson(grid);
    // a config named in the grid warns about keys its model_type does not read, as --model does
    g.models().forEach(m -> SystemOptions.warn(m, spec));
    // the longest sequence of the grid, for each model's context window
    long longest =
        (long) g.cached().stream().mapToInt(Integer::intValue).max().orElse(0)
            + g.isls().stream().mapToInt(Integer::intValue).max().orElse(0)
            + g.osls().stream().mapToInt(Integer::intValue).max().orElse(0);
    g.models().forEach(m -> SystemOptions.warnContext(m, longest, spec));
    PrintWriter err = spec.commandLine().getErr();
    Progress progress = new Progress(err, g.size(), noProgress);
    SweepWriter.Summary rows;
    PrintStream bytes = RidgelineCli.bytesOut(spec);
    if (file == null && bytes != null) {
      // the process's standard output: the rows' UTF-8 bytes straight to it, as to a file (no
      // decoding and re-encoding through the PrintWriter), after what the writer holds
      spec.commandLine().getOut().flush();
      rows = SweepWriter.write(g, efficiency.efficiency(), f, checked(bytes), n, progress::update);
      bytes.flush();
      if (bytes.checkError()) {
        throw stdoutFailed();
      }
    } else if (file == null) {
      PrintWriter stdout = spec.commandLine().getOut();
      rows = SweepWriter.write(g, efficiency.efficiency(), f, checked(stdout), n, progress::update);
      stdout.flush();
      if (stdout.checkError()) {
        throw stdoutFailed();
      }
    } else {
      // whole or absent: a failure or Ctrl-C mid-sweep leaves no truncated file (AtomicFiles)
      rows =
          AtomicFiles.writeStream(
              file,
              out -> SweepWriter.write(g, efficiency.efficiency(), f, out, n, progress::update));
    }
    double seconds = progress.seconds();
    progress.end();
    if (file != null) {
      err.println("wrote " + file);
    }
    if (efficiency.banded()) {
      err.println("sweep: " + io.ridgeline.serving.efficiency.ErrorBands.builtIn());
    }
    err.println("sweep: " + efficiency.line());
    err.println("sweep: " + rows);
    if (rows.fallbackRows() > 0) {
      err.printf(
          Locale.ROOT,
          "warning: %d points fell back from the compiled path to the object path (18-130x"
              + " slower per point): %s%n",
          rows.fallbackRows(),
          rows.fallbackReasons());
    }
    if (summary != null) {
      AtomicFiles.writeString(summary, Json.write(summaryJson(rows, seconds, efficiency)) + "\n");
      err.println("wrote " + summary);
    }
    err.printf(
        Locale.ROOT,
        "sweep: %d points in %.3f s, %.1f points/s%n",
        rows.rows(),
        seconds,
        rows.rows() / seconds);
    err.flush();
    return 0;
  }

  /** The summary of a run as JSON: {@code --summary}'s content. */
  static com.fasterxml.jackson.databind.node.ObjectNode summaryJson(
      SweepWriter.Summary s, double seconds, EfficiencyOptions.Choice efficiency) {
    com.fasterxml.jackson.databind.node.ObjectNode o = Json.object();
    o.put("rows", s.rows());
    o.put("compiled_rows", s.rows() - s.slowPathRows());
    o.put("slow_path_rows", s.slowPathRows());
    com.fasterxml.jackson.databind.node.ObjectNode why = o.putObject("slow_path");
    s.slowPath().forEach((reason, n) -> why.put(reason.name().toLowerCase(Locale.ROOT), n));
    o.put("fallback_rows", s.fallbackRows());
    o.put("seconds", seconds);
    o.put("points_per_second", s.rows() / seconds);
    o.put("efficiency", efficiency.line());
    return o;
  }

  /**
   * The row format: {@code --format} if given, else JSON lines for a .jsonl file and CSV for a .csv
   * file or standard output.
   *
   * @throws IllegalArgumentException for an unknown format or a file of another extension
   */
  private SweepWriter.Format format(Path file) {
    if (format != null) {
      SweepWriter.Format asked;
      switch (format.toLowerCase(Locale.ROOT)) {
        case "csv":
          asked = SweepWriter.Format.CSV;
          break;
        case "jsonl":
          asked = SweepWriter.Format.JSONL;
          break;
        default:
          throw new IllegalArgumentException("--format must be csv or jsonl: " + format);
      }
      // a file's extension and --format must agree: rows.csv holding JSON lines misleads
      // whatever reads it next
      if (file != null && (jsonLines(file) != (asked == SweepWriter.Format.JSONL))) {
        throw new IllegalArgumentException(
            "--format "
                + format
                + " disagrees with --out "
                + file
                + " (its extension asks for "
                + (jsonLines(file) ? "jsonl" : "csv")
                + "); drop --format or change the extension");
      }
      return asked;
    }
    return file != null && jsonLines(file) ? SweepWriter.Format.JSONL : SweepWriter.Format.CSV;
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

  /**
   * Standard output as a sink that stops the sweep once the stream fails (a closed pipe, as in
   * {@code ridgeline sweep ... | head}): a PrintWriter only records its errors, so it is asked
   * after every block of rows.
   */
  private static Writer checked(PrintWriter w) {
    return new Writer() {
      @Override
      public void write(char[] buf, int off, int len) {
        w.write(buf, off, len);
        if (w.checkError()) {
          throw stdoutFailed();
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

  /** The one error of a standard output that failed (a PrintWriter or PrintStream recorded it). */
  private static UncheckedIOException stdoutFailed() {
    return new UncheckedIOException(
        "cannot write to standard output", new IOException("stream error"));
  }

  /**
   * {@link #checked(PrintWriter)} for the process's standard output as bytes: a PrintStream also
   * only records its errors.
   */
  private static OutputStream checked(PrintStream s) {
    return new OutputStream() {
      @Override
      public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] buf, int off, int len) {
        s.write(buf, off, len);
        if (s.checkError()) {
          throw stdoutFailed();
        }
      }

      @Override
      public void flush() {
        s.flush();
      }
    };
  }

  /**
   * The progress line on stderr: from {@value #PROGRESS_AFTER_SECONDS} s into the run, every
   * {@value #PROGRESS_EVERY_SECONDS} s, {@code sweep: D/N points (P%), R points/s, ETA S s};
   * overwritten in place ({@code \r}) on a terminal, one line each otherwise.
   */
  static final class Progress {
    private final PrintWriter err;
    private final long total;
    private final boolean off;
    private final boolean terminal = onTerminal();
    private final long start = System.nanoTime();
    private double nextAt = PROGRESS_AFTER_SECONDS;
    private boolean shown;

    /**
     * Whether the JVM runs on an interactive terminal: JDK 17 to 21 have a console only then, JDK
     * 22 and later always have one and say so with {@code Console.isTerminal()}.
     */
    @SuppressWarnings("SystemConsoleNull") // the null check is for JDK 17 to 21, isTerminal for 22+
    static boolean onTerminal() {
      Console console = System.console();
      if (console == null) {
        return false;
      }
      try {
        return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
      } catch (ReflectiveOperationException e) {
        return true; // before JDK 22: no isTerminal, and a console is a terminal
      }
    }

    Progress(PrintWriter err, long total, boolean off) {
      this.err = err;
      this.total = total;
      this.off = off;
    }

    double seconds() {
      return Math.max(System.nanoTime() - start, 1) / 1e9;
    }

    void update(long done) {
      if (off || done >= total) {
        return;
      }
      double s = seconds();
      if (s < nextAt) {
        return;
      }
      nextAt = s + PROGRESS_EVERY_SECONDS;
      double rate = done / s;
      err.printf(
          Locale.ROOT,
          "sweep: %d/%d points (%.0f%%), %.0f points/s, ETA %.0f s%s",
          done,
          total,
          100.0 * done / total,
          rate,
          (total - done) / Math.max(rate, 1e-9),
          terminal ? "\r" : "\n");
      err.flush();
      shown = true;
    }

    /** Clears an in-place progress line. */
    void end() {
      if (shown && terminal) {
        err.print("\r\033[K");
        err.flush();
      }
    }
  }
}
