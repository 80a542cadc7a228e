package io.ridgeline.cli;

import io.ridgeline.serving.efficiency.EngineOffsets;
import io.ridgeline.validation.EngineOffsetFit;
import io.ridgeline.validation.Prediction;
import io.ridgeline.validation.Summary;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The engine offsets' held-out score ({@link EngineOffsetFit#leaveOneSourceOut}) as a table: the
 * leave-one-source-out median APE without and with each fold's offsets, overall and by engine
 * family, metric, source and the offset applied; then the offsets of every row.
 */
final class EngineOffsetTable {
  private EngineOffsetTable() {}

  /** Prints the score of {@code scored} and the offsets {@code all} estimated on every row. */
  static void print(PrintWriter w, List<EngineOffsetFit.Scored> scored, EngineOffsets all) {
    w.println();
    w.println(
        "engine offsets, estimated in each leave-one-source-out fold on its training sources and"
            + " applied to the held-out source by engine and version (median APE, pooled -> with"
            + " offset):");
    line(w, "overall", scored);
    group(w, "engine", scored, s -> s.pooled().testCase().engine());
    group(w, "metric", scored, s -> s.pooled().testCase().metric().id());
    group(w, "offset", scored, s -> s.offset().map(EngineOffsets.Offset::key).orElse("(none)"));
    group(w, "source", scored, s -> s.pooled().testCase().source());
    w.println("offsets on every predictable row (shipped profile):");
    if (all.offsets().isEmpty()) {
      w.println("  none");
    }
    for (EngineOffsets.Offset o : all.offsets()) {
      w.println("  " + o + ": " + String.join("; ", o.sources()));
    }
  }

  private static void group(
      PrintWriter w,
      String by,
      List<EngineOffsetFit.Scored> scored,
      Function<EngineOffsetFit.Scored, String> key) {
    Map<String, List<EngineOffsetFit.Scored>> groups = new TreeMap<>();
    scored.forEach(s -> groups.computeIfAbsent(key.apply(s), k -> new ArrayList<>()).add(s));
    groups.forEach((k, v) -> line(w, by + " " + k, v));
  }

  private static void line(PrintWriter w, String label, List<EngineOffsetFit.Scored> rows) {
    List<Prediction> before = new ArrayList<>();
    List<Prediction> after = new ArrayList<>();
    long applied = 0;
    for (EngineOffsetFit.Scored s : rows) {
      before.add(s.pooled());
      after.add(s.adjusted());
      applied += s.offset().isPresent() ? 1 : 0;
    }
    Summary b = Summary.of(before);
    Summary a = Summary.of(after);
    w.printf(
        Locale.ROOT,
        "  %-52s %4d rows (%3d with an offset) %6.2f%% -> %6.2f%% (within ±25%%: %3.0f%% -> %3.0f%%)%n",
        label.length() > 52 ? label.substring(0, 52) : label,
        rows.size(),
        applied,
        100 * b.medianApe(),
        100 * a.medianApe(),
        100 * b.within25(),
        100 * a.within25());
  }
}
