package io.ridgeline.serving.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.PointsAt;
import io.ridgeline.serving.efficiency.Efficiency;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

final class SweepWriterTest {
  /**
   * 2 strategies × 1,024 batches × 3 ISLs = 6,144 rows: two blocks of {@value
   * SweepWriter#BLOCK_ROWS} rows, the second partly filled, so parallel workers and the ordered
   * writer both run; tp 3 on 8b gives invalid rows with an error.
   */
  private static Sweep.Grid grid() {
    return Sweep.Grid.builder()
        .models(Models.byId("llama-3.1-8b"))
        .chips(Chips.byId("h100-sxm"))
        .counts(2)
        .strategies(Deployment.Strategy.COLOCATED, Deployment.Strategy.PD)
        .batches(IntStream.rangeClosed(1, 1024).toArray())
        .isls(128, 1024, 8192)
        .build();
  }

  /** The object path's text: Sweep.run row by row, each formatted on its own. */
  private static String sequential(Sweep.Grid grid, SweepWriter.Format format) {
    StringBuilder b = new StringBuilder();
    if (format == SweepWriter.Format.CSV) {
      b.append(String.join(",", SweepWriter.COLUMNS)).append('\n');
    }
    Sweep.run(
        grid,
        Efficiency.standard(),
        row -> {
          StringBuilder line = new StringBuilder();
          if (format == SweepWriter.Format.CSV) {
            SweepRowText.csv(row, line);
          } else {
            SweepRowText.json(row, line);
          }
          b.append(line).append('\n');
        });
    return b.toString();
  }

  @Test
  void write_colocatedAndPd_countsPdRowsAsTheObjectPathsByReason() {
    SweepWriter.Summary s =
        SweepWriter.write(
            grid(), Efficiency.standard(), SweepWriter.Format.CSV, new StringWriter(), 2, n -> {});
    // 2 strategies × 1,024 batches × 3 ISLs = 6,144 rows: pd's 3,072 have no compiled path, every
    // colocated row compiles
    assertThat(s.rows()).isEqualTo(6144);
    assertThat(s.slowPath())
        .containsExactly(org.assertj.core.api.Assertions.entry(PointsAt.SlowPath.STRATEGY, 3072L));
    assertThat(s.slowPathRows()).isEqualTo(3072);
    assertThat(s.fallbackRows()).isZero();
    assertThat(s.fallbackReasons()).isEmpty();
    assertThat(s)
        .hasToString(
            "6144 points: 3072 compiled, 3072 by the object path (the strategy has no compiled"
                + " path: 3072)");
  }

  @Test
  void summary_strategyAndFallbackRows_describesEachAndTheFallbacksApart() {
    SweepWriter.Summary s =
        new SweepWriter.Summary(
            10,
            java.util.Map.of(
                PointsAt.SlowPath.PIPELINE_PARALLEL, 2L, PointsAt.SlowPath.STRATEGY, 4L));
    // 10 rows: 4 of a strategy without a compiled path, 2 fallen back, 10 − 6 = 4 compiled
    assertThat(s.slowPathRows()).isEqualTo(6);
    assertThat(s.fallbackRows()).isEqualTo(2);
    assertThat(s)
        .hasToString(
            "10 points: 4 compiled, 6 by the object path (the strategy has no compiled path: 4;"
                + " pipeline parallelism is not compiled: 2)");
    assertThat(s.fallbackReasons()).isEqualTo("pipeline parallelism is not compiled: 2");
  }

  @Test
  void summary_badCounts_areRejectedNamingTheRule() {
    assertThatThrownBy(
            () -> new SweepWriter.Summary(2, java.util.Map.of(PointsAt.SlowPath.STRATEGY, 3L)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("slow-path rows must be in [1, rows]: 3");
  }

  @Test
  void write_twoThreads_sameTextInGridOrderAsTheSequentialSweep() {
    Sweep.Grid grid = grid();
    for (SweepWriter.Format format : SweepWriter.Format.values()) {
      StringWriter w = new StringWriter();
      List<Long> progress = new ArrayList<>();
      long rows =
          SweepWriter.write(grid, Efficiency.standard(), format, w, 2, progress::add).rows();
      assertThat(rows).isEqualTo(6144);
      assertThat(w.toString()).isEqualTo(sequential(grid, format));
      // one report per block, the last at the grid's size
      assertThat(progress).containsExactly(4096L, 6144L);
    }
  }

  /**
   * A sample of systems for the primitive rows: dense and MoE models, one- and two-tier chips
   * (GB200 spills weights into LPDDR5X as the batch grows), chips with and without a catalog price,
   * one chip (DeepSeek-V3 does not hold one request, Llama-3.1-70B's large batches exceed memory),
   * tp 3 (invalid rows), pd (the object path), a cached history and a prefix hit, batches in and
   * out of order (the step of the previous batch reused or not).
   */
  private static Sweep.Grid primitiveGrid(boolean history) {
    SweepGridBuilder b =
        Sweep.Grid.builder()
            .models(
                Models.byId("llama-3.1-8b"),
                Models.byId("llama-3.1-70b"),
                Models.byId("mixtral-8x7b"),
                Models.byId("deepseek-v3"))
            .chips(Chips.byId("h100-sxm"), Chips.byId("gb200"), Chips.byId("mi300x"))
            .counts(1, 3, 8)
            .strategies(Deployment.Strategy.COLOCATED, Deployment.Strategy.PD)
            .batches(1, 2, 3, 4, 64, 65, 63, 500, 1024, 2000, 4096)
            .isls(128, 8192)
            .osls(128, 1024);
    return history ? b.cached(0, 2048).prefixHit(0.0, 0.5).build() : b.build();
  }

  /** The object path's lines of {@code grid}: Sweep.run, each row formatted from its objects. */
  private static List<String> objectLines(
      Sweep.Grid grid, Efficiency e, SweepWriter.Format format, boolean cached, boolean hit) {
    List<String> lines = new ArrayList<>();
    Sweep.run(
        grid,
        e,
        row -> {
          StringBuilder line = new StringBuilder();
          if (format == SweepWriter.Format.CSV) {
            SweepRowText.csv(row, line, cached, hit);
          } else {
            SweepRowText.json(row, line);
          }
          lines.add(line.toString());
        });
    return lines;
  }

  @Test
  void text_compiledPoints_primitiveRowsEqualTheObjectRowsText() {
    for (boolean history : List.of(false, true)) {
      Sweep.Grid grid = primitiveGrid(history);
      for (Efficiency e : List.of(Efficiency.standard(), Efficiency.ideal())) {
        for (SweepWriter.Format format : SweepWriter.Format.values()) {
          Utf8Text b = new Utf8Text(256);
          long primitive = SweepWriter.text(grid, e, format, history, history, 0, grid.size(), b);
          List<String> lines = b.toString().lines().toList();
          assertThat(lines).isEqualTo(objectLines(grid, e, format, history, history));
          // most rows came from primitives (not the object path against itself): colocated's,
          // and the invalid tp 3 rows (no point); pd's did not
          assertThat(primitive).isGreaterThan(grid.size() / 4).isLessThan(grid.size());
          // the sample holds rows with and without a price, and errors of both kinds
          String text = b.toString();
          assertThat(text).contains("exceeds memory at").contains("true").contains("false");
        }
      }
    }
  }

  @Test
  void text_sliceStartingMidCombination_sameLinesAsTheWholeGrid() {
    Sweep.Grid grid = primitiveGrid(false);
    Utf8Text whole = new Utf8Text(256);
    SweepWriter.text(
        grid, Efficiency.standard(), SweepWriter.Format.CSV, false, false, 0, grid.size(), whole);
    Utf8Text slice = new Utf8Text(256);
    long from = 5 * 11 + 4; // inside a run of batches, at batch 64
    long primitive =
        SweepWriter.text(
            grid, Efficiency.standard(), SweepWriter.Format.CSV, false, false, from, 700, slice);
    assertThat(primitive).isPositive();
    assertThat(slice.toString().lines().toList())
        .isEqualTo(whole.toString().lines().toList().subList((int) from, 700));
  }

  @Test
  void write_toAByteStream_theUtf8OfTheWritersText() {
    // the byte form (the command line's --out FILE) writes each block's UTF-8 bytes as built: the
    // same text as the Writer form, CSV and JSON lines, rows with errors (DeepSeek-V3 does not fit
    // on "2× h100-sxm", beyond ASCII; batches beyond memory) and object-path (pd) rows included,
    // one and two threads
    Sweep.Grid grid =
        Sweep.Grid.builder()
            .models(Models.byId("llama-3.1-8b"), Models.byId("deepseek-v3"))
            .chips(Chips.byId("h100-sxm"))
            .counts(2)
            .strategies(Deployment.Strategy.COLOCATED, Deployment.Strategy.PD)
            .batches(IntStream.rangeClosed(1, 1024).filter(b -> b % 3 == 1).toArray())
            .isls(128, 8192)
            .build();
    for (SweepWriter.Format format : SweepWriter.Format.values()) {
      for (int threads : new int[] {1, 2}) {
        StringWriter text = new StringWriter();
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        SweepWriter.write(grid, Efficiency.standard(), format, text, threads, done -> {});
        long rows =
            SweepWriter.write(grid, Efficiency.standard(), format, bytes, threads, done -> {})
                .rows();
        assertThat(rows).isEqualTo(grid.size());
        assertThat(bytes.toByteArray())
            .isEqualTo(text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(text.toString()).contains("×");
      }
    }
  }

  @Test
  void write_oneThread_sameTextAsTwo() {
    Sweep.Grid grid = grid();
    StringWriter one = new StringWriter();
    StringWriter two = new StringWriter();
    SweepWriter.write(grid, Efficiency.ideal(), SweepWriter.Format.CSV, one, 1, done -> {});
    SweepWriter.write(grid, Efficiency.ideal(), SweepWriter.Format.CSV, two, 2, done -> {});
    assertThat(one.toString()).isEqualTo(two.toString());
    assertThat(one.toString().lines()).hasSize(1 + 6144);
  }

  @Test
  void run_slice_sameRowsAsTheWholeSweepAtThoseIndices() {
    Sweep.Grid grid = grid();
    List<String> all = new ArrayList<>();
    Sweep.run(grid, Efficiency.ideal(), r -> all.add(r.toString()));
    List<String> slice = new ArrayList<>();
    // from the middle of one ISL's batches into the next strategy's
    long n = Sweep.run(grid, Efficiency.ideal(), 3000, 3200, r -> slice.add(r.toString()));
    assertThat(n).isEqualTo(200);
    assertThat(slice).isEqualTo(all.subList(3000, 3200));
  }

  @Test
  void run_sliceOutOfRange_namesTheBounds() {
    assertThatThrownBy(() -> Sweep.run(grid(), Efficiency.ideal(), 10, 7000, r -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rows must satisfy 0 <= from <= to <= 6144: from 10, to 7000");
  }

  @Test
  void json_stringWithQuoteBackslashAndControl_escapedAsJson() {
    StringBuilder b = new StringBuilder();
    Sweep.run(
        Sweep.Grid.builder().batches(1).build(),
        Efficiency.ideal(),
        r ->
            SweepRowText.json(
                new Sweep.Row(
                    r.model(),
                    r.chip(),
                    r.count(),
                    r.tp(),
                    r.ep(),
                    r.strategy(),
                    r.batch(),
                    r.isl(),
                    r.osl(),
                    r.cached(),
                    r.prefixHit(),
                    r.precisions(),
                    r.weights(),
                    java.util.Optional.empty(),
                    java.util.Optional.of("a \"b\" \\ c\td\u0001")),
                b));
    assertThat(b.toString())
        .endsWith(
            "\"tokens_per_joule\":null,\"fits\":false,\"error\":\"a \\\"b\\\" \\\\ c\\td\\u0001\"}");
  }
}
