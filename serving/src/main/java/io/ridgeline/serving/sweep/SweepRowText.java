package io.ridgeline.serving.sweep;

import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.ridgeline.core.Precision;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.PointBlock;

/**
 * The text of sweep rows as {@link SweepWriter} writes them: a run of compiled points written from
 * their primitive figures ({@link #rows}) and one {@link Sweep.Row} as a CSV line in {@link
 * SweepWriter#columns(boolean, boolean)} order or a JSON object with those keys (neither with its
 * line break), numbers in SI base units as the shortest decimal that reads back as the same double
 * ({@link ShortestDecimal}); also the parts every row of a run shares (the columns before the
 * batch) and the escaping of a CSV cell and a JSON string.
 */
final class SweepRowText {
  // ids without a per-row toLowerCase
  private static final String[] PRECISION_IDS = precisionIds();
  private static final String[] STRATEGY_IDS = strategyIds();
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private SweepRowText() {}

  /**
   * Appends one CSV line (without its line break) in {@link SweepWriter#COLUMNS} order to {@code
   * b}.
   */
  @CanIgnoreReturnValue
  static StringBuilder csv(Sweep.Row r, StringBuilder b) {
    return csv(r, b, false);
  }

  /** Appends one CSV line in {@link SweepWriter#columns(boolean)} order to {@code b}. */
  @CanIgnoreReturnValue
  static StringBuilder csv(Sweep.Row r, StringBuilder b, boolean cached) {
    return csv(r, b, cached, false);
  }

  /** Appends one CSV line in {@link SweepWriter#columns(boolean, boolean)} order to {@code b}. */
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
  static StringBuilder csvPrefix(Sweep.Row r, StringBuilder b, boolean cached, boolean prefixHit) {
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
  static StringBuilder cell(String s, StringBuilder b) {
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
   * Appends one JSON object (without its line break) with the {@link SweepWriter#COLUMNS} keys to
   * {@code b}, as Jackson writes it without indentation and with its shortest double writer ({@code
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
  static StringBuilder jsonPrefix(Sweep.Row r, StringBuilder b) {
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
  static StringBuilder string(String s, StringBuilder b) {
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
  static void rows(
      byte[] prefix,
      PointBlock points,
      SweepEvaluator.RowErrors errors,
      SweepWriter.Format format,
      Utf8Text b,
      StringBuilder scratch) {
    boolean csv = format == SweepWriter.Format.CSV;
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
              (csv
                      ? SweepRowText.cell(errors.oneRequest(), e)
                      : SweepRowText.string(errors.oneRequest(), e))
                  .toString());
    }
    int n = points.size();
    int r = 0;
    if (points.points()) {
      // the leading rows that fit (most rows): figures and the fit only, a loop whose branches the
      // JIT sees taken from the start (a general loop is deoptimised and recompiled at the first
      // rows that do not fit)
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
}
