package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.common.base.Splitter;
import java.util.List;
import org.junit.jupiter.api.Test;

final class CaseFileTest {
  static final String HEADER = String.join(",", CaseFile.COLUMNS);

  /** A row with the given configuration columns; source, url and notes filled. */
  static String row(
      String id,
      String model,
      String chip,
      String chips,
      String tp,
      String weights,
      String kv,
      String isl,
      String osl,
      String mode,
      String load,
      String metric,
      String measured,
      String notes) {
    return String.join(
        ",",
        id,
        Splitter.on('-').splitToList(id).get(0),
        model,
        chip,
        chips,
        "",
        "",
        tp,
        "",
        "",
        "",
        weights,
        kv,
        isl,
        osl,
        mode,
        load,
        "",
        "trtllm",
        metric,
        measured,
        "high",
        "test",
        "https://example.com",
        notes);
  }

  /**
   * The one case of {@code row} (the columns of {@link #HEADER}) with the run columns {@code run},
   * each {@code "column=value"}, appended to the header and the row.
   */
  static ValidationCase withRun(String row, String... run) {
    StringBuilder header = new StringBuilder(HEADER);
    StringBuilder fields = new StringBuilder(row);
    for (String r : run) {
      int eq = r.indexOf('=');
      header.append(',').append(r, 0, eq);
      fields.append(',').append(r.substring(eq + 1));
    }
    return CaseFile.parse(header + "\n" + fields + "\n", "t.csv").get(0);
  }

  @Test
  void parse_quotedFields_keepCommasAndDoubledQuotes() {
    String text =
        HEADER
            + "\r\n"
            + row(
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
                "5.5",
                "\"engine: a, b and \"\"c\"\"\nsecond line\"")
            + "\n";
    List<ValidationCase> cases = CaseFile.parse(text, "t.csv");
    assertThat(cases).hasSize(1);
    ValidationCase c = cases.get(0);
    assertThat(c.notes()).isEqualTo("engine: a, b and \"c\"\nsecond line");
    assertThat(c.measured()).isEqualTo(5.5);
    assertThat(c.tp()).hasValue(1);
    assertThat(c.pp()).isEmpty();
    assertThat(c.kvCache()).isEmpty();
    assertThat(c.line()).isEqualTo(2);
  }

  @Test
  void parse_wrongFieldCount_namesFileAndLine() {
    String good =
        row(
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
            "x");
    String text = HEADER + "\n" + good + "\n" + good.replace("P1-tpot", "P2-tpot") + ",extra\n";
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CaseFile.parse(text, "t.csv"));
    assertThat(e)
        .hasMessageContaining("t.csv line 3")
        .hasMessageContaining("expected 25 fields, found 26");
  }

  @Test
  void parse_nonNumericMeasured_namesFieldAndLine() {
    String text =
        HEADER
            + "\n"
            + row(
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
                "fast",
                "x");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CaseFile.parse(text, "t.csv"));
    assertThat(e)
        .hasMessageContaining("t.csv line 2")
        .hasMessageContaining("'measured'")
        .hasMessageContaining("'fast'");
  }

  @Test
  void parse_unknownMetric_namesFileLineFieldValueAndKnownOnes() {
    String text =
        HEADER
            + "\n"
            + row(
                "P1-j",
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
                "joules",
                "5",
                "x");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CaseFile.parse(text, "t.csv"));
    assertThat(e)
        .hasMessage(
            "t.csv line 2: field 'metric' must be one of ttft_ms, median_ttft_ms, tpot_ms, e2e_s,"
                + " out_tok_s_per_user, out_tok_s_per_chip, total_tok_s_per_chip,"
                + " input_tok_s_per_chip, found 'joules'");
  }

  @Test
  void parse_unknownMode_namesFileLineFieldValueAndKnownOnes() {
    String text =
        HEADER
            + "\n"
            + row(
                "P1-tpot",
                "llama-3.1-8b",
                "h100-sxm",
                "1",
                "1",
                "fp8",
                "",
                "128",
                "128",
                "batch",
                "4",
                "tpot_ms",
                "5",
                "x");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CaseFile.parse(text, "t.csv"));
    assertThat(e)
        .hasMessageContaining("t.csv line 2: field 'mode' must be one of static, concurrency,")
        .hasMessageContaining("disagg-decode, production, found 'batch'");
  }

  @Test
  void parse_modeAndMetric_areTyped() {
    ValidationCase c =
        CaseFile.parse(
                HEADER
                    + "\n"
                    + row(
                        "P1-tpot",
                        "llama-3.1-8b",
                        "h100-sxm",
                        "1",
                        "1",
                        "fp8",
                        "",
                        "128",
                        "128",
                        "disagg-concurrency",
                        "4",
                        "e2e_s",
                        "5",
                        "x"),
                "t.csv")
            .get(0);
    assertThat(c.mode()).isEqualTo(Mode.DISAGG_CONCURRENCY);
    assertThat(c.metric()).isEqualTo(Metric.E2E_S);
    assertThat(c.metric().unit()).isEqualTo("s");
  }

  @Test
  void parse_wrongHeader_isRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> CaseFile.parse("case_id,model\n", "t.csv"));
    assertThat(e)
        .hasMessageStartingWith("t.csv line 1: wrong header: missing columns 'point_id', 'chip',")
        .hasMessageContaining("; found case_id,model");
  }

  @Test
  void parse_unterminatedQuote_isRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> CaseFile.parse(HEADER + "\n\"open,", "t.csv"));
    assertThat(e).hasMessageContaining("t.csv line 2: unterminated");
  }

  @Test
  void shipped_has223UniqueRows() {
    assertThat(CaseFile.shipped()).hasSize(223);
  }
}
