package io.ridgeline.serving.sweep;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.ridgeline.serving.PointsAt;
import io.ridgeline.serving.efficiency.Efficiency;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.function.LongConsumer;

/**
 * Writes a {@link Sweep} as CSV or JSON lines: rows evaluated in parallel over blocks of the grid,
 * written in grid order, with memory bounded by the blocks in flight (never by the grid's size).
 *
 * <pre>{@code
 * try (Writer w = Files.newBufferedWriter(Path.of("rows.csv"))) {
 *   SweepWriter.write(grid, Efficiency.standard(), SweepWriter.Format.CSV, w, 2, done -> {});
 * }
 * }</pre>
 *
 * <p><b>Order and bounds.</b> The grid is cut into blocks of {@value #BLOCK_ROWS} consecutive rows
 * (odometer order, as {@link Sweep#run} walks it); each block is evaluated by one worker of a
 * fork/join pool into its own text buffer, and the calling thread writes the buffers in block
 * order. At most {@code 2 × threads} blocks are in flight, a few MB of text whatever the grid.
 *
 * <p><b>Format.</b> One row per line in {@link #COLUMNS} order; numbers in SI base units, a double
 * as the shortest decimal that reads back as the same double (the text of Java 19's {@link
 * Double#toString(double)}, written without allocating by {@code ShortestDecimal}; Java 17's is
 * longer for a few doubles) and an integer as {@link Integer#toString(int)} (so a row reads back as
 * the object API's values); CSV has a header line, absent numbers and no error are empty cells, and
 * a cell with a comma, quote or line break is quoted with quotes doubled; JSON lines have absent
 * numbers and no error as {@code null}, strings escaped as JSON requires.
 */
public final class SweepWriter {
  /** Rows per block: the unit of parallel work and of output buffering. */
  public static final int BLOCK_ROWS = 4096;

  /** Output columns (CSV header) and JSON keys, in order. */
  public static final ImmutableList<String> COLUMNS =
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

  /** The output format. */
  public enum Format {
    /** Comma-separated values with a header line. */
    CSV,
    /** One JSON object per line, keys as {@link #COLUMNS}. */
    JSONL
  }

  private SweepWriter() {}

  /**
   * Evaluates every combination of {@code grid} with every pool at {@code efficiency} and writes
   * one line per row to {@code out} in grid order (CSV after its header line). {@code progress} is
   * told the rows written so far after each block, on the calling thread. Nothing is flushed or
   * closed.
   *
   * @param threads workers evaluating blocks (1: all on the calling thread)
   * @return the rows written ({@link Sweep.Grid#size()}) and how many of them the object path gave
   * @throws IllegalArgumentException when {@code threads} is not positive
   * @throws UncheckedIOException when {@code out} fails, which ends the sweep
   */
  @CanIgnoreReturnValue
  public static Summary write(
      Sweep.Grid grid,
      Efficiency efficiency,
      Format format,
      Writer out,
      int threads,
      LongConsumer progress) {
    checkNotNull(out, "out");
    return write(grid, efficiency, format, new Output(out, null), threads, progress);
  }

  /**
   * {@link #write(Sweep.Grid, Efficiency, Format, Writer, int, LongConsumer)} as UTF-8 bytes to
   * {@code out}, each block's text written as it was built (the faster form: no conversion to
   * {@code char}s and back).
   *
   * @throws UncheckedIOException when {@code out} fails, which ends the sweep
   */
  @CanIgnoreReturnValue
  public static Summary write(
      Sweep.Grid grid,
      Efficiency efficiency,
      Format format,
      OutputStream out,
      int threads,
      LongConsumer progress) {
    checkNotNull(out, "out");
    return write(grid, efficiency, format, new Output(null, out), threads, progress);
  }

  private static Summary write(
      Sweep.Grid grid,
      Efficiency efficiency,
      Format format,
      Output o,
      int threads,
      LongConsumer progress) {
    checkNotNull(grid, "grid");
    checkNotNull(efficiency, "efficiency");
    checkNotNull(format, "format");
    checkNotNull(progress, "progress");
    checkArgument(threads > 0, "threads must be positive: %s", threads);
    // cached and prefix_hit columns only when the grid sets them, so plain grids keep their columns
    boolean cached = !grid.cached().equals(List.of(0));
    boolean hit = !grid.prefixHit().equals(List.of(0.0));
    if (format == Format.CSV) {
      o.write(new Utf8Text(256).append(String.join(",", columns(cached, hit))).ascii('\n'));
    }
    long size = grid.size();
    long blocks = (size + BLOCK_ROWS - 1) / BLOCK_ROWS;
    long[] slowPath = new long[PointsAt.SlowPath.values().length];
    if (threads == 1 || blocks == 1) {
      BlockText b = new BlockText();
      for (long i = 0; i < blocks; i++) {
        o.write(block(grid, efficiency, format, cached, hit, i, b).add(slowPath));
        progress.accept(Math.min(size, (i + 1) * BLOCK_ROWS));
      }
      return Summary.of(size, slowPath);
    }
    ForkJoinPool pool = new ForkJoinPool(threads);
    try {
      ArrayDeque<Future<BlockText>> inFlight = new ArrayDeque<>();
      // the buffers of written blocks, reused by the next ones (grown once to a block's text)
      ArrayDeque<BlockText> free = new ArrayDeque<>();
      long next = 0;
      for (long i = 0; i < blocks; i++) {
        while (next < blocks && inFlight.size() < 2 * threads) {
          long block = next++;
          BlockText buffer = free.isEmpty() ? new BlockText() : free.pop();
          inFlight.add(
              pool.submit(
                  () -> SweepWriter.block(grid, efficiency, format, cached, hit, block, buffer)));
        }
        BlockText written = take(inFlight.remove());
        o.write(written.add(slowPath));
        free.push(written);
        progress.accept(Math.min(size, (i + 1) * BLOCK_ROWS));
      }
      return Summary.of(size, slowPath);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * What a sweep wrote: its rows, and how many of them the object path gave one by one rather than
   * the compiled path as blocks, by why ({@link PointsAt.SlowPath}: a strategy without a compiled
   * path, or a fallback); the object path is 18–130× slower per point.
   *
   * @param rows the rows written, {@link Sweep.Grid#size()}
   * @param slowPath the object path's rows by reason, only the reasons with rows, in the enum's
   *     order
   */
  public record Summary(long rows, Map<PointsAt.SlowPath, Long> slowPath) {
    /** Checks the counts and keeps an unmodifiable copy of {@code slowPath}. */
    public Summary {
      checkArgument(rows >= 0, "rows must not be negative: %s", rows);
      slowPath = Collections.unmodifiableMap(new EnumMap<>(slowPath));
      for (long n : slowPath.values()) {
        checkArgument(n > 0 && n <= rows, "slow-path rows must be in [1, rows]: %s", n);
      }
    }

    private static Summary of(long rows, long[] byReason) {
      Map<PointsAt.SlowPath, Long> m = new EnumMap<>(PointsAt.SlowPath.class);
      for (PointsAt.SlowPath p : PointsAt.SlowPath.values()) {
        if (byReason[p.ordinal()] > 0) {
          m.put(p, byReason[p.ordinal()]);
        }
      }
      return new Summary(rows, m);
    }

    /** The rows the object path gave, for any reason. */
    public long slowPathRows() {
      return slowPath.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The rows that fell back from a compiled path ({@link PointsAt.SlowPath#fallback()}). */
    public long fallbackRows() {
      return slowPath.entrySet().stream()
          .filter(e -> e.getKey().fallback())
          .mapToLong(Map.Entry::getValue)
          .sum();
    }

    /**
     * For example {@code 2304 points: 1152 compiled, 1152 by the object path (the strategy has no
     * compiled path: 1152)}.
     */
    @Override
    public String toString() {
      long slow = slowPathRows();
      StringBuilder b =
          new StringBuilder()
              .append(rows)
              .append(" points: ")
              .append(rows - slow)
              .append(" compiled");
      if (slow > 0) {
        b.append(", ")
            .append(slow)
            .append(" by the object path (")
            .append(reasons(false))
            .append(')');
      }
      return b.toString();
    }

    /**
     * The reasons of the rows that fell back from a compiled path ({@link #fallbackRows()}), each
     * with its rows, for example {@code pipeline parallelism is not compiled: 12}; empty when none
     * did.
     */
    public String fallbackReasons() {
      return reasons(true);
    }

    /** {@code description: rows} of each reason (of the fallbacks only), separated by "; ". */
    private String reasons(boolean fallbacksOnly) {
      StringBuilder b = new StringBuilder();
      slowPath.forEach(
          (why, n) -> {
            if (!fallbacksOnly || why.fallback()) {
              b.append(b.length() == 0 ? "" : "; ")
                  .append(why.description())
                  .append(": ")
                  .append(n);
            }
          });
      return b.toString();
    }
  }

  /** One block's text and its object-path rows by reason; reused, not shared between threads. */
  private static final class BlockText {
    private final Utf8Text text = new Utf8Text(BLOCK_ROWS * 256);
    private final long[] slowPath = new long[PointsAt.SlowPath.values().length];

    /** Adds this block's object-path rows to {@code total} and answers its text. */
    Utf8Text add(long[] total) {
      for (int i = 0; i < total.length; i++) {
        total[i] += slowPath[i];
      }
      return text;
    }
  }

  private static <T> T take(Future<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("sweep interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Block {@code block} of the grid: its text and its object-path rows into {@code b}. */
  private static BlockText block(
      Sweep.Grid grid,
      Efficiency efficiency,
      Format format,
      boolean cached,
      boolean hit,
      long block,
      BlockText b) {
    long from = block * BLOCK_ROWS;
    b.text.setLength(0);
    Arrays.fill(b.slowPath, 0);
    long to = Math.min(grid.size(), from + BLOCK_ROWS);
    text(grid, efficiency, format, cached, hit, from, to, b.text, b.slowPath);
    return b;
  }

  /**
   * Appends the lines of rows {@code from} to {@code to} of {@code grid} to {@code b} as UTF-8
   * bytes: the points the compiled path gives written from their primitive figures ({@link
   * SweepEvaluator#run}), the others (and each run's columns before the batch) built as text from
   * their {@link Sweep.Row} objects and encoded; the text is that of {@link
   * SweepRowText#csv(Sweep.Row, StringBuilder, boolean, boolean)} and {@link SweepRowText#json} for
   * every row.
   *
   * @return the rows written from primitive figures
   */
  @CanIgnoreReturnValue
  static long text(
      Sweep.Grid grid,
      Efficiency efficiency,
      Format format,
      boolean cached,
      boolean hit,
      long from,
      long to,
      Utf8Text b) {
    return text(
        grid,
        efficiency,
        format,
        cached,
        hit,
        from,
        to,
        b,
        new long[PointsAt.SlowPath.values().length]);
  }

  /**
   * {@link #text(Sweep.Grid, Efficiency, Format, boolean, boolean, long, long, Utf8Text)}, adding
   * the rows the object path gave to {@code slowPath} by reason ({@link PointsAt.SlowPath}
   * ordinals).
   */
  @CanIgnoreReturnValue
  static long text(
      Sweep.Grid grid,
      Efficiency efficiency,
      Format format,
      boolean cached,
      boolean hit,
      long from,
      long to,
      Utf8Text b,
      long[] slowPath) {
    long[] primitive = {0};
    // the text of an object-path row, and the text every row of a run shares: the columns
    // before the batch
    StringBuilder row = new StringBuilder(256);
    StringBuilder prefix = new StringBuilder(256);
    SweepEvaluator evaluator = new SweepEvaluator(grid, efficiency);
    evaluator.run(
        from,
        to,
        r -> {
          row.setLength(0);
          b.append(
                  format == Format.CSV
                      ? SweepRowText.csv(r, row, cached, hit)
                      : SweepRowText.json(r, row))
              .ascii('\n');
        },
        (first, points, errors) -> {
          prefix.setLength(0);
          if (format == Format.CSV) {
            SweepRowText.csvPrefix(first, prefix, cached, hit);
          } else {
            SweepRowText.jsonPrefix(first, prefix);
          }
          SweepRowText.rows(Utf8Text.encode(prefix.toString()), points, errors, format, b, row);
          primitive[0] += points.size();
        });
    evaluator.addSlowPathRows(slowPath);
    return primitive[0];
  }

  /**
   * Writes block buffers to a byte stream as they are, or to a {@code Writer} as their decoded text
   * (one of the two is null).
   */
  private static final class Output {
    private final Writer writer;
    private final OutputStream stream;

    Output(Writer writer, OutputStream stream) {
      this.writer = writer;
      this.stream = stream;
    }

    void write(Utf8Text b) {
      try {
        if (stream != null) {
          b.writeTo(stream);
        } else {
          writer.write(b.toString());
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the sweep: " + e.getMessage(), e);
      }
    }
  }

  // ---- rows ----

  /** {@link #COLUMNS}, with {@code cached} after {@code osl} when {@code cached}. */
  public static List<String> columns(boolean cached) {
    return columns(cached, false);
  }

  /**
   * {@link #COLUMNS}, with {@code cached} after {@code osl} when {@code cached} and {@code
   * prefix_hit} after those when {@code prefixHit}.
   */
  public static List<String> columns(boolean cached, boolean prefixHit) {
    if (!cached && !prefixHit) {
      return COLUMNS;
    }
    List<String> out = new ArrayList<>(COLUMNS);
    int at = out.indexOf("osl") + 1;
    if (cached) {
      out.add(at++, "cached");
    }
    if (prefixHit) {
      out.add(at, "prefix_hit");
    }
    return ImmutableList.copyOf(out);
  }
}
