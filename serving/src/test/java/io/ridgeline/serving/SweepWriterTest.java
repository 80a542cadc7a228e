package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
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
            SweepWriter.csv(row, line);
          } else {
            SweepWriter.json(row, line);
          }
          b.append(line).append('\n');
        });
    return b.toString();
  }

  @Test
  void write_twoThreads_sameTextInGridOrderAsTheSequentialSweep() {
    Sweep.Grid grid = grid();
    for (SweepWriter.Format format : SweepWriter.Format.values()) {
      StringWriter w = new StringWriter();
      List<Long> progress = new ArrayList<>();
      long rows = SweepWriter.write(grid, Efficiency.standard(), format, w, 2, progress::add);
      assertThat(rows).isEqualTo(6144);
      assertThat(w.toString()).isEqualTo(sequential(grid, format));
      // one report per block, the last at the grid's size
      assertThat(progress).containsExactly(4096L, 6144L);
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
            SweepWriter.json(
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
