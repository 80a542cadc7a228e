package io.ridgeline.serving.sweep;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.ridgeline.core.Precision;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.PointBlock;
import io.ridgeline.serving.efficiency.Efficiency;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
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

  // ids without a per-row toLowerCase
  private static final String[] PRECISION_IDS = precisionIds();
  private static final String[] STRATEGY_IDS = strategyIds();
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private SweepWriter() {}

  /**
   * Evaluates every combination of {@code grid} with every pool at {@code efficiency} and writes
   * one line per row to {@code out} in grid order (CSV after its header line). {@code progress} is
   * told the rows written so far after each block, on the calling thread. Nothing is flushed or
   * closed.
   *
   * @param threads workers evaluating blocks (1: all on the calling thread)
   * @return the number of rows written, {@link Sweep.Grid#size()}
   * @throws IllegalArgumentException when {@code threads} is not positive
   * @throws UncheckedIOException when {@code out} fails, which ends the sweep
   */
  @CanIgnoreReturnValue
  public static long write(
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
  public static long write(
      Sweep.Grid grid,
      Efficiency efficiency,
      Format format,
      OutputStream out,
      int threads,
      LongConsumer progress) {
    checkNotNull(out, "out");
    return write(grid, efficiency, format, new Output(null, out), threads, progress);
  }

  private static long write(
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
    if (threads == 1 || blocks == 1) {
      Utf8Text b = new Utf8Text(BLOCK_ROWS * 256);
      for (long i = 0; i < blocks; i++) {
        b.setLength(0);
        o.write(block(grid, efficiency, format, cached, hit, i, b));
        progress.accept(Math.min(size, (i + 1) * BLOCK_ROWS));
      }
      return size;
    }
    ForkJoinPool pool = new ForkJoinPool(threads);
    try {
      ArrayDeque<Future<Utf8Text>> inFlight = new ArrayDeque<>();
      // the buffers of written blocks, reused by the next ones (grown once to a block's text)
      ArrayDeque<Utf8Text> free = new ArrayDeque<>();
      long next = 0;
      for (long i = 0; i < blocks; i++) {
        while (next < blocks && inFlight.size() < 2 * threads) {
          long block = next++;
          Utf8Text buffer = free.isEmpty() ? new Utf8Text(BLOCK_ROWS * 256) : free.pop();
          buffer.setLength(0);
          inFlight.add(
              pool.submit(
                  () -> SweepWriter.block(grid, efficiency, format, cached, hit, block, buffer)));
        }
        Utf8Text written = take(inFlight.remove());
        o.write(written);
        free.push(written);
        progress.accept(Math.min(size, (i + 1) * BLOCK_ROWS));
      }
      return size;
    } finally {
      pool.shutdownNow();
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

  /** The text of block {@code block} of the grid, appended to {@code b}. */
  private static Utf8Text block(
      Sweep.Grid grid,
      Efficiency efficiency,
      Format format,
      boolean cached,
      boolean hit,
      long block,
      Utf8Text b) {
    long from = block * BLOCK_ROWS;
    text(grid, efficiency, format, cached, hit, from, Math.min(grid.size(), from + BLOCK_ROWS), b);
    return b;
  }

  /**
   * Appends the lines of rows {@code from} to {@code to} of {@code grid} to {@code b} as UTF-8
   * bytes: the points the compiled path gives written from their primitive figures ({@link
   * SweepEvaluator#run}), the others (and each run's columns before the batch) built as text from
   * their {@link Sweep.Row} objects and encoded; the text is that of {@link #csv(Sweep.Row,
   * StringBuilder, boolean, boolean)} and {@link #json} for every row.
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
    long[] primitive = {0};
    // the text of an object-path row, and the text every row of a run shares: the columns
    // before the batch
    StringBuilder row = new StringBuilder(256);
    StringBuilder prefix = new StringBuilder(256);
    new SweepEvaluator(grid, efficiency)
        .run(
            from,
            to,
            r -> {
              row.setLength(0);
              b.append(format == Format.CSV ? csv(r, row, cached, hit) : json(r, row)).ascii('\n');
            },
            (first, points, errors) -> {
              prefix.setLength(0);
              if (format == Format.CSV) {
                csvPrefix(first, prefix, cached, hit);
              } else {
                jsonPrefix(first, prefix);
              }
              rows(Utf8Text.encode(prefix.toString()), points, errors, format, b, row);
              primitive[0] += points.size();
            });
    return primitive[0];
  }

  // the text before each figure of a point (PointBlock.TTFT ... TOKENS_PER_JOULE) after its batch,
  // the chips' figure (a constant of the run) before $/Mtok; and the text of an absent figure
  private static final byte[][] CSV_BEFORE = encodeAll(",", ",", ",", ",", ",", ",");
  private static final String[] JSON_BEFORE_TEXT = {
    ",\"ttft_seconds\":",
    ",\"tpot_seconds\":",
    ",\"tokens_per_second_per_user\":",
    ",\"tokens_per_second_per_chip\":",
    ",\"dollars_per_million_tokens\":",
    ",\"tokens_per_joule\":"
  };

  /**
   * The lines of {@code points}, each {@code prefix} (the columns or keys before the batch), the
   * batch, the point's figures as {@link #csv(Sweep.Row, StringBuilder, boolean, boolean)} and
   * {@link #json} write those of its {@link FrontierPoint} (each as its shortest round-trip
   * decimal, {@code ShortestDecimal}), whether it fits and the error of one that does not ({@code
   * errors}), appended to {@code b}.
   */
  private static void rows(
      byte[] prefix,
      PointBlock points,
      SweepEvaluator.RowErrors errors,
      Format format,
      Utf8Text b,
      StringBuilder scratch) {
    boolean csv = format == Format.CSV;
    byte[][] before = (csv ? CSV_BEFORE : JSON_BEFORE).clone();
    byte[] absent = csv ? EMPTY : NULL;
    if (points.points()) {
      String chips = ShortestDecimal.append(new StringBuilder(), points.chipsTotal()).toString();
      before[PointBlock.DOLLARS_PER_MILLION_TOKENS] =
          Utf8Text.encode(
              csv
                  ? "," + chips + ","
                  : ",\"chips_total\":"
                      + chips
                      + JSON_BEFORE_TEXT[PointBlock.DOLLARS_PER_MILLION_TOKENS]);
    }
    byte[] batchKey = csv ? EMPTY : BATCH_JSON;
    byte[] noPoint = csv ? NO_POINT_CSV : NO_POINT_JSON;
    byte[] fit = csv ? FIT_CSV : FIT_JSON;
    byte[] noFit = csv ? NO_FIT_CSV : NO_FIT_JSON;
    // a run's rows that do not fit share one error, or differ only in their batch
    byte[] oneRequest = null;
    if (errors != null && errors.oneRequest() != null) {
      StringBuilder e = new StringBuilder();
      oneRequest =
          Utf8Text.encode(
              (csv ? cell(errors.oneRequest(), e) : string(errors.oneRequest(), e)).toString());
    }
    int n = points.size();
    int r = 0;
    if (points.points()) {
      // the leading rows that fit (most rows): figures and the fit only, a loop whose branches the
      // JIT sees taken from the start (one general loop was compiled by C2 five times in a cold
      // sweep, after deoptimisations at the first rows that do not fit)
      for (; r < n && points.fits(r); r++) {
        b.append(prefix).append(batchKey).append(points.batch(r));
        figures(points, r, before, absent, b).append(fit);
      }
    }
    for (; r < n; r++) {
      b.append(prefix).append(batchKey).append(points.batch(r));
      if (points.points()) {
        figures(points, r, before, absent, b);
      } else {
        b.append(noPoint);
      }
      if (points.fits(r)) {
        b.append(fit);
        continue;
      }
      b.append(noFit);
      if (oneRequest != null) {
        b.append(oneRequest);
      } else {
        if (!csv) {
          b.ascii('"');
        }
        scratch.setLength(0);
        b.append(errors.exceedsMemory(points.batch(r), scratch));
        if (!csv) {
          b.ascii('"');
        }
      }
      b.append(csv ? NEWLINE : BRACE_NEWLINE);
    }
  }

  /** Row {@code r}'s figures, each after its text in {@code before} ({@code absent} for NaN). */
  @CanIgnoreReturnValue
  private static Utf8Text figures(
      PointBlock points, int r, byte[][] before, byte[] absent, Utf8Text b) {
    for (int f = 0; f < PointBlock.FIGURES; f++) {
      b.append(before[f]);
      double v = points.figure(r, f);
      if (Double.isNaN(v)) {
        b.append(absent);
      } else {
        ShortestDecimal.append(b, v);
      }
    }
    return b;
  }

  private static final byte[][] JSON_BEFORE = encodeAll(JSON_BEFORE_TEXT);
  // the text of a row's parts as UTF-8 bytes: an empty cell, JSON null, the batch's key, the
  // figures of a row without a point, a row that fits, one that does not (its error follows),
  // and a row's end
  private static final byte[] EMPTY = new byte[0];
  private static final byte[] NULL = Utf8Text.encode("null");
  private static final byte[] BATCH_JSON = Utf8Text.encode(",\"batch\":");
  private static final byte[] NO_POINT_CSV = Utf8Text.encode(",,,,,,,");
  private static final byte[] NO_POINT_JSON =
      Utf8Text.encode(
          ",\"ttft_seconds\":null,\"tpot_seconds\":null,\"tokens_per_second_per_user\":null"
              + ",\"tokens_per_second_per_chip\":null,\"chips_total\":null"
              + ",\"dollars_per_million_tokens\":null,\"tokens_per_joule\":null");
  private static final byte[] FIT_CSV = Utf8Text.encode(",true,\n");
  private static final byte[] FIT_JSON = Utf8Text.encode(",\"fits\":true,\"error\":null}\n");
  private static final byte[] NO_FIT_CSV = Utf8Text.encode(",false,");
  private static final byte[] NO_FIT_JSON = Utf8Text.encode(",\"fits\":false,\"error\":");
  private static final byte[] NEWLINE = Utf8Text.encode("\n");
  private static final byte[] BRACE_NEWLINE = Utf8Text.encode("}\n");

  private static byte[][] encodeAll(String... texts) {
    byte[][] out = new byte[texts.length][];
    for (int i = 0; i < texts.length; i++) {
      out[i] = Utf8Text.encode(texts[i]);
    }
    return out;
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

  /** Appends one CSV line (without its line break) in {@link #COLUMNS} order to {@code b}. */
  @CanIgnoreReturnValue
  static StringBuilder csv(Sweep.Row r, StringBuilder b) {
    return csv(r, b, false);
  }

  /** Appends one CSV line in {@link #columns(boolean)} order to {@code b}. */
  @CanIgnoreReturnValue
  static StringBuilder csv(Sweep.Row r, StringBuilder b, boolean cached) {
    return csv(r, b, cached, false);
  }

  /** Appends one CSV line in {@link #columns(boolean, boolean)} order to {@code b}. */
  @CanIgnoreReturnValue
  static StringBuilder csv(Sweep.Row r, StringBuilder b, boolean cached, boolean prefixHit) {
    csvPrefix(r, b, cached, prefixHit);
    if (r.point().isPresent()) {
      FrontierPoint p = r.point().get();
      b.append(r.batch()).append(',');
      ShortestDecimal.append(b, p.ttft().seconds()).append(',');
      ShortestDecimal.append(b, p.tpot().seconds()).append(',');
      ShortestDecimal.append(b, p.tokensPerSecondPerUser()).append(',');
      ShortestDecimal.append(b, p.tokensPerSecondPerChip()).append(',');
      ShortestDecimal.append(b, p.chipsTotal()).append(',');
      if (p.dollarsPerMillionTokens().isPresent()) {
        ShortestDecimal.append(b, p.dollarsPerMillionTokens().get().doubleValue());
      }
      b.append(',');
      if (p.tokensPerJoule().isPresent()) {
        ShortestDecimal.append(b, p.tokensPerJoule().get().doubleValue());
      }
      b.append(',');
    } else {
      b.append(r.batch()).append(",,,,,,,,");
    }
    b.append(r.fits()).append(',');
    if (r.error().isPresent()) {
      cell(r.error().get(), b);
    }
    return b;
  }

  /**
   * The CSV columns before the batch, each followed by its comma: model to osl, then cached and
   * prefix_hit when {@code cached} and {@code prefixHit}.
   */
  @CanIgnoreReturnValue
  private static StringBuilder csvPrefix(
      Sweep.Row r, StringBuilder b, boolean cached, boolean prefixHit) {
    cell(r.model().id(), b).append(',');
    cell(r.chip().id(), b).append(',');
    b.append(r.count()).append(',').append(r.tp()).append(',').append(r.ep()).append(',');
    b.append(STRATEGY_IDS[r.strategy().ordinal()]).append(',');
    cell(r.weights(), b).append(',');
    b.append(PRECISION_IDS[r.precisions().kvCache().ordinal()]).append(',');
    b.append(r.isl()).append(',').append(r.osl()).append(',');
    if (cached) {
      b.append(r.cached()).append(',');
    }
    if (prefixHit) {
      ShortestDecimal.append(b, r.prefixHit()).append(',');
    }
    return b;
  }

  /** A CSV cell: quoted, with quotes doubled, when it holds a comma, quote or line break. */
  @CanIgnoreReturnValue
  private static StringBuilder cell(String s, StringBuilder b) {
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
      return b.append(s);
    }
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"') {
        b.append('"');
      }
      b.append(c);
    }
    return b.append('"');
  }

  /**
   * Appends one JSON object (without its line break) with the {@link #COLUMNS} keys to {@code b},
   * as Jackson writes it without indentation and with its shortest double writer ({@code
   * StreamWriteFeature.USE_FAST_DOUBLE_WRITER}).
   */
  @CanIgnoreReturnValue
  static StringBuilder json(Sweep.Row r, StringBuilder b) {
    jsonPrefix(r, b);
    b.append(",\"batch\":").append(r.batch());
    FrontierPoint p = r.point().orElse(null);
    b.append(",\"ttft_seconds\":");
    if (p != null) {
      ShortestDecimal.append(b, p.ttft().seconds()).append(",\"tpot_seconds\":");
      ShortestDecimal.append(b, p.tpot().seconds()).append(",\"tokens_per_second_per_user\":");
      ShortestDecimal.append(b, p.tokensPerSecondPerUser())
          .append(",\"tokens_per_second_per_chip\":");
      ShortestDecimal.append(b, p.tokensPerSecondPerChip()).append(",\"chips_total\":");
      ShortestDecimal.append(b, p.chipsTotal()).append(",\"dollars_per_million_tokens\":");
      if (p.dollarsPerMillionTokens().isPresent()) {
        ShortestDecimal.append(b, p.dollarsPerMillionTokens().get().doubleValue());
      } else {
        b.append("null");
      }
      b.append(",\"tokens_per_joule\":");
      if (p.tokensPerJoule().isPresent()) {
        ShortestDecimal.append(b, p.tokensPerJoule().get().doubleValue());
      } else {
        b.append("null");
      }
    } else {
      b.append("null,\"tpot_seconds\":null,\"tokens_per_second_per_user\":null")
          .append(",\"tokens_per_second_per_chip\":null,\"chips_total\":null")
          .append(",\"dollars_per_million_tokens\":null,\"tokens_per_joule\":null");
    }
    b.append(",\"fits\":").append(r.fits()).append(",\"error\":");
    if (r.error().isPresent()) {
      string(r.error().get(), b);
    } else {
      b.append("null");
    }
    return b.append('}');
  }

  /** The JSON keys before the batch: {@code "model"} to {@code "osl"}, cached and prefix_hit. */
  @CanIgnoreReturnValue
  private static StringBuilder jsonPrefix(Sweep.Row r, StringBuilder b) {
    b.append("{\"model\":");
    string(r.model().id(), b).append(",\"chip\":");
    string(r.chip().id(), b);
    b.append(",\"count\":").append(r.count());
    b.append(",\"tp\":").append(r.tp());
    b.append(",\"ep\":").append(r.ep());
    b.append(",\"strategy\":\"").append(STRATEGY_IDS[r.strategy().ordinal()]);
    b.append("\",\"weights\":");
    string(r.weights(), b);
    b.append(",\"kv\":\"").append(PRECISION_IDS[r.precisions().kvCache().ordinal()]);
    b.append("\",\"isl\":").append(r.isl());
    b.append(",\"osl\":").append(r.osl());
    if (r.cached() != 0) {
      b.append(",\"cached\":").append(r.cached());
    }
    if (r.prefixHit() != 0) {
      ShortestDecimal.append(b.append(",\"prefix_hit\":"), r.prefixHit());
    }
    return b;
  }

  /**
   * A JSON string as Jackson escapes it by default: quote, backslash and control characters (\b \t
   * \n \f \r short, the others as {@code \}{@code u00XX}); everything else as is.
   */
  @CanIgnoreReturnValue
  private static StringBuilder string(String s, StringBuilder b) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          b.append("\\\"");
          break;
        case '\\':
          b.append("\\\\");
          break;
        case '\b':
          b.append("\\b");
          break;
        case '\t':
          b.append("\\t");
          break;
        case '\n':
          b.append("\\n");
          break;
        case '\f':
          b.append("\\f");
          break;
        case '\r':
          b.append("\\r");
          break;
        default:
          if (c < 0x20) {
            b.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
          } else {
            b.append(c);
          }
      }
    }
    return b.append('"');
  }

  private static String[] precisionIds() {
    Precision[] all = Precision.values();
    String[] ids = new String[all.length];
    for (Precision p : all) {
      ids[p.ordinal()] = p.id();
    }
    return ids;
  }

  private static String[] strategyIds() {
    Deployment.Strategy[] all = Deployment.Strategy.values();
    String[] ids = new String[all.length];
    for (Deployment.Strategy s : all) {
      ids[s.ordinal()] = s.id();
    }
    return ids;
  }
}
