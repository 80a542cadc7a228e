package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The typed run columns of a case file: good values, empty cells, bad values, old files. */
final class CaseFileRunColumnsTest {
  /** A static TPOT row of Llama-3.1-8B on one H100, notes {@code notes}. */
  private static String row(String notes) {
    return CaseFileTest.row(
        "P1-tpot",
        "llama-3.1-8b",
        "h100-sxm",
        "1",
        "1",
        "fp8",
        "",
        "128",
        "128",
        "static",
        "4",
        "tpot_ms",
        "5",
        notes);
  }

  @Test
  void parse_oldFormatWithoutRunColumns_statesNothing() {
    // a file written before the run columns existed: its 25 columns only, and notes that say
    // what the run columns now carry, which is not read
    ValidationCase c =
        CaseFile.parse(
                CaseFileTest.HEADER
                    + "\n"
                    + row("\"eager decode; synchronous scheduler; 500 prompts, range ratio 1\"")
                    + "\n",
                "old.csv")
            .get(0);
    assertThat(c.run()).isEqualTo(RunSetup.NOT_STATED);
    assertThat(c.notes())
        .isEqualTo("eager decode; synchronous scheduler; 500 prompts, range ratio 1");
  }

  @Test
  void parse_everyRunColumn_isTyped() {
    ValidationCase c =
        CaseFileTest.withRun(
            row("x"),
            "engine_version=0.4.2.post4",
            "scheduler=synchronous",
            "decode_launch=eager",
            "max_batch_per_rank=384",
            "prompts=500",
            "range_ratio=0.5",
            "slo_ttft_ms=2000",
            "slo_tpot_ms=175",
            "load_per_chip=true");
    RunSetup run = c.run();
    assertThat(run)
        .isEqualTo(
            RunSetup.builder()
                .engineVersion("0.4.2.post4")
                .scheduler(RunSetup.Scheduler.SYNCHRONOUS)
                .decodeLaunch(RunSetup.DecodeLaunch.EAGER)
                .maxBatchPerRank(384)
                .prompts(500)
                .rangeRatio(0.5)
                .slo(2000, 175)
                .loadPerChip(true)
                .build());
    assertThat(run.eagerDecode()).isTrue();
    assertThat(run.synchronousScheduler()).isTrue();
    // 2,000 ms × 1e-3 = 2 s; 175 ms × 1e-3 = 0.175 s
    assertThat(run.slo().orElseThrow().ttftSeconds()).isEqualTo(2.0);
    assertThat(run.slo().orElseThrow().tpotSeconds()).isEqualTo(175 * 1e-3);
    // 500 prompts over 50 clients = 10 rounds each
    assertThat(run.cycles(java.util.OptionalInt.of(50))).isEqualTo(10);
  }

  @Test
  void parse_otherValuesOfTheClosedSets_areTyped() {
    RunSetup run =
        CaseFileTest.withRun(
                row("x"), "scheduler=overlap", "decode_launch=graphs", "load_per_chip=false")
            .run();
    assertThat(run.scheduler()).hasValue(RunSetup.Scheduler.OVERLAP);
    assertThat(run.decodeLaunch()).hasValue(RunSetup.DecodeLaunch.GRAPHS);
    assertThat(run.eagerDecode()).isFalse();
    assertThat(run.synchronousScheduler()).isFalse();
    assertThat(run.loadPerChip()).isFalse();
    // range ratio 0 and 1 are the ends of [0, 1]
    assertThat(CaseFileTest.withRun(row("x"), "range_ratio=0").run().rangeRatio()).hasValue(0.0);
    assertThat(CaseFileTest.withRun(row("x"), "range_ratio=1").run().rangeRatio()).hasValue(1.0);
  }

  @Test
  void parse_emptyRunCells_stateNothing() {
    ValidationCase c =
        CaseFileTest.withRun(
            row("x"),
            "engine_version=",
            "scheduler=",
            "decode_launch=",
            "max_batch_per_rank=",
            "prompts=",
            "range_ratio=",
            "slo_ttft_ms=",
            "slo_tpot_ms=",
            "load_per_chip= ");
    assertThat(c.run()).isEqualTo(RunSetup.NOT_STATED);
    assertThat(c.run().rangeRatioOrDefault()).isEqualTo(RunSetup.DEFAULT_RANGE_RATIO);
    assertThat(c.run().cycles(java.util.OptionalInt.of(64))).isEqualTo(RunSetup.DEFAULT_CYCLES);
  }

  @Test
  void parse_columnsInAnyOrder_readByName() {
    // the header reversed: every cell still lands in its column
    List<String> header = new java.util.ArrayList<>(CaseFile.COLUMNS);
    header.add("prompts");
    List<String> cells = new java.util.ArrayList<>(List.of(row("free text").split(",", -1)));
    cells.add("640");
    java.util.Collections.reverse(header);
    java.util.Collections.reverse(cells);
    ValidationCase c =
        CaseFile.parse(String.join(",", header) + "\n" + String.join(",", cells) + "\n", "t.csv")
            .get(0);
    assertThat(c.caseId()).isEqualTo("P1-tpot");
    assertThat(c.measured()).isEqualTo(5.0);
    assertThat(c.notes()).isEqualTo("free text");
    assertThat(c.run().prompts()).hasValue(640);
  }

  @ParameterizedTest(name = "{0} = ''{1}''")
  @CsvSource(
      delimiter = '|',
      value = {
        "engine_version | v0.7.3 | a version that starts with a digit followed by letters, digits,"
            + " '.', '-', '+' or '_' (e.g. 0.7.3), or nothing",
        "engine_version | 0.7 3 | a version that starts with a digit followed by letters, digits,"
            + " '.', '-', '+' or '_' (e.g. 0.7.3), or nothing",
        "scheduler | async | one of overlap, synchronous or nothing",
        "scheduler | Synchronous | one of overlap, synchronous or nothing",
        "decode_launch | cuda-graphs | one of graphs, eager or nothing",
        "max_batch_per_rank | 0 | an integer from 1 to 1048576 or nothing",
        "max_batch_per_rank | 1048577 | an integer from 1 to 1048576 or nothing",
        "prompts | 1.5 | an integer from 1 to 1000000 or nothing",
        "prompts | 1000001 | an integer from 1 to 1000000 or nothing",
        "prompts | 2147483648 | an integer from 1 to 1000000 or nothing",
        "range_ratio | 1.5 | a decimal number from 0 to 1 or nothing",
        "range_ratio | -0.5 | a decimal number from 0 to 1 or nothing",
        "range_ratio | NaN | a decimal number from 0 to 1 or nothing",
        "slo_ttft_ms | 2 s | a positive decimal number of ms or nothing",
        "slo_ttft_ms | 0 | a positive decimal number of ms or nothing",
        "slo_tpot_ms | 1e3 | a positive decimal number of ms or nothing",
        "load_per_chip | yes | true, false or nothing"
      })
  void parse_badRunCell_namesFileLineColumnRuleAndValue(String column, String value, String rule) {
    // both SLO bounds given, so that a bad one is judged on its own
    String other = column.equals("slo_ttft_ms") ? "slo_tpot_ms=40" : "slo_ttft_ms=450";
    String[] run =
        column.startsWith("slo_")
            ? new String[] {column + "=" + value, other}
            : new String[] {column + "=" + value};
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CaseFileTest.withRun(row("x"), run));
    assertThat(e)
        .hasMessage(
            "t.csv line 2: field '" + column + "' must be " + rule + ", found '" + value + "'");
  }

  @Test
  void parse_oneSloBoundWithoutTheOther_isRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> CaseFileTest.withRun(row("x"), "slo_ttft_ms=2000", "slo_tpot_ms="));
    assertThat(e)
        .hasMessage(
            "t.csv line 2: field 'slo_tpot_ms' must be given with 'slo_ttft_ms' (both bounds or"
                + " neither), found ''");
  }

  @Test
  void parse_unknownOrRepeatedColumn_isAWrongHeader() {
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> CaseFileTest.withRun(row("x"), "cuda_graphs=true"));
    assertThat(unknown)
        .hasMessageStartingWith("t.csv line 1: wrong header: unknown column 'cuda_graphs'; a case")
        .hasMessageContaining(
            "may add engine_version,scheduler,decode_launch,max_batch_per_rank,prompts,"
                + "range_ratio,slo_ttft_ms,slo_tpot_ms,load_per_chip;");
    IllegalArgumentException twice =
        assertThrows(
            IllegalArgumentException.class,
            () -> CaseFileTest.withRun(row("x"), "prompts=1", "prompts=2"));
    assertThat(twice)
        .hasMessageStartingWith("t.csv line 1: wrong header: column 'prompts' appears twice");
  }

  @Test
  void parse_recordShorterThanItsHeader_namesTheCounts() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                CaseFile.parse(
                    CaseFileTest.HEADER + ",prompts,range_ratio\n" + row("x") + ",500\n", "t.csv"));
    assertThat(e).hasMessage("t.csv line 2: expected 27 fields, found 26");
  }

  @Test
  void shipped_runColumns_holdWhatTheNotesState() {
    Map<String, ValidationCase> byId =
        CaseFile.shipped().stream()
            .collect(Collectors.toMap(ValidationCase::caseId, Function.identity()));
    // dstack's TensorRT-LLM 0.17 run: eager decode, synchronous scheduler, 500 prompts, ratio 1
    RunSetup p100 = byId.get("P100-tpot").run();
    assertThat(p100)
        .isEqualTo(
            RunSetup.builder()
                .engineVersion("0.17")
                .scheduler(RunSetup.Scheduler.SYNCHRONOUS)
                .decodeLaunch(RunSetup.DecodeLaunch.EAGER)
                .prompts(500)
                .rangeRatio(1)
                .build());
    // the notes keep their text
    assertThat(byId.get("P100-tpot").notes()).contains("eager decode: trtllm-serve");
    // MLPerf Server bounds: "SLO TTFT 2 s / TPOT 200 ms" is 2,000 and 200 ms
    assertThat(byId.get("P060-ttft").run().slo()).hasValue(new RunSetup.Slo(2000, 200));
    assertThat(byId.get("P065-ttft").run().slo()).hasValue(new RunSetup.Slo(450, 40));
    // SGLang's decode pool: CUDA graphs, load = batch per chip
    assertThat(byId.get("P077-out_tps_chip").run().decodeLaunch())
        .hasValue(RunSetup.DecodeLaunch.GRAPHS);
    assertThat(byId.get("P077-out_tps_chip").run().loadPerChip()).isTrue();
    // "= per chip" about a throughput is not a load per chip
    assertThat(byId.get("P001-out_tps_chip").run().loadPerChip()).isFalse();
    // LLMPerf's "150 requests, 5 concurrent": 150 prompts, 150 / 5 = 30 rounds per client
    assertThat(byId.get("P154-ttft").run().prompts()).hasValue(150);
    assertThat(byId.get("P154-ttft").run().cycles(byId.get("P154-ttft").load())).isEqualTo(30);
    assertThat(byId.get("P086-tps_user").run().maxBatchPerRank()).hasValue(384);
    assertThat(byId.get("P114-ttft_median").run().engineVersion()).hasValue("1.1.0rc2.post2");
    // InferenceX records no range ratio: not stated, InferenceMAX's 0.8
    assertThat(byId.get("P114-ttft_median").run().rangeRatio()).isEmpty();
  }
}
