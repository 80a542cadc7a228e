package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ValidateCommandTest {
  private static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RidgelineCli.execute(args, new PrintWriter(out), new PrintWriter(err));
    return new String[] {Integer.toString(code), out.toString(), err.toString()};
  }

  @Test
  void validate_json_hasCasesSkippedAndSummaryKeys() throws Exception {
    String[] r = run("validate", "--json");
    assertThat(r[0]).isEqualTo("0");
    JsonNode root = new ObjectMapper().readTree(r[1]);
    assertThat(root.has("cases")).isTrue();
    assertThat(root.get("cases").size() + root.get("skipped").size()).isEqualTo(223);
    JsonNode c = root.get("cases").get(0);
    for (String k : new String[] {"case_id", "metric", "predicted", "measured", "ratio"}) {
      assertThat(c.has(k)).as(k).isTrue();
    }
    JsonNode s = root.get("skipped").get(0);
    assertThat(s.has("case_id") && s.has("reason")).isTrue();
    JsonNode summary = root.get("summary");
    for (String k : new String[] {"overall", "by_metric", "by_chip", "by_engine", "by_mode"}) {
      assertThat(summary.has(k)).as(k).isTrue();
    }
    JsonNode overall = summary.get("overall");
    for (String k :
        new String[] {"count", "median_ape", "geo_mean_ratio", "within_25", "within_50"}) {
      assertThat(overall.has(k)).as(k).isTrue();
    }
    assertThat(overall.get("count").asInt()).isEqualTo(root.get("cases").size());
    assertThat(summary.get("by_metric").has("tpot_ms")).isTrue();
  }

  @Test
  void validate_json_crossValidationIsTheShippedFoldsReplayedToday() throws Exception {
    // the figures of the shipped folds' profiles predicting their held-out rows with this model
    // (calibrate --replay, the docs' tables), not the figures stored when the folds were fitted;
    // in-sample is the shipped profile on every row: the summary's own median APE
    JsonNode root = new ObjectMapper().readTree(run("validate", "--json")[1]);
    io.ridgeline.validation.CrossValidation.Report replay =
        io.ridgeline.validation.CrossValidation.replay(
            io.ridgeline.validation.CaseFile.shipped(),
            io.ridgeline.validation.CrossValidationJson.folds(
                io.ridgeline.validation.CrossValidationJson.shipped().orElseThrow(), "shipped"));
    JsonNode cv = root.get("cross_validation");
    for (io.ridgeline.validation.CrossValidation.Scheme scheme :
        io.ridgeline.validation.CrossValidation.Scheme.values()) {
      assertThat(cv.path(scheme.id()).path("overall").asDouble())
          .as(scheme.id())
          .isEqualTo(replay.summary(scheme).medianApe());
    }
    assertThat(cv.path("in-sample").path("overall").asDouble())
        .isEqualTo(root.path("summary").path("overall").path("median_ape").asDouble());
  }

  @Test
  void validate_text_printsSummaryAndSkipReasons() {
    String[] r = run("validate");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1])
        .contains("overall")
        .contains("tpot_ms")
        .contains("skipped, by reason")
        .contains("isl/osl not stated");
  }

  @Test
  void validate_otherEfficiency_isRejected() {
    String[] r = run("validate", "--efficiency", "bogus");
    assertThat(r[0]).isEqualTo("1");
    assertThat(r[2]).startsWith("ridgeline: --efficiency must be 'ideal'");
  }

  @Test
  void validate_malformedFile_namesFileAndLine(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("bad.csv");
    Files.writeString(f, "case_id,model\n", StandardCharsets.UTF_8);
    String[] r = run("validate", "--cases", f.toString());
    assertThat(r[0]).isEqualTo("1");
    assertThat(r[2]).contains("bad.csv line 1: wrong header");
  }

  /** A closed-loop TPOT row of Llama-3.1-8B on one H100 under vLLM, 16 clients, 1024 / 128. */
  private static final String ROW =
      "V1-tpot,V1,llama-3.1-8b,h100-sxm,1,,,1,,,,bf16,,1024,128,concurrency,16,,vllm,tpot_ms,"
          + "12,high,test,https://example.com";

  private static double predicted(Path file) throws Exception {
    String[] r = run("validate", "--cases", file.toString(), "--json", "--rows", "all");
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    return new ObjectMapper().readTree(r[1]).get("cases").get(0).get("predicted").asDouble();
  }

  @Test
  void validate_oldFormatWithoutRunColumns_loadsAndNotesChangeNothing(@TempDir Path dir)
      throws Exception {
    // a file of the 25 columns every case file has (the format before the run columns): it
    // loads, and its notes, whatever they say, predict as an empty run would
    String header = String.join(",", io.ridgeline.validation.CaseFile.COLUMNS);
    Path old = Files.writeString(dir.resolve("old.csv"), header + "\n" + ROW + ",\n");
    Path noted =
        Files.writeString(
            dir.resolve("noted.csv"),
            header + "\n" + ROW + ",synchronous scheduler; eager decode; max_batch 1 per rank\n");
    Path stated =
        Files.writeString(
            dir.resolve("stated.csv"),
            header + ",scheduler,decode_launch\n" + ROW + ",,synchronous,eager\n");
    double plain = predicted(old);
    assertThat(predicted(noted)).isEqualTo(plain);
    // the columns do: a synchronous scheduler and eager decode launches slow each decode step
    assertThat(predicted(stated)).isGreaterThan(plain);
  }

  @Test
  void validate_badRunCell_namesFileLineColumnAndValue(@TempDir Path dir) throws Exception {
    String header = String.join(",", io.ridgeline.validation.CaseFile.COLUMNS);
    Path f =
        Files.writeString(dir.resolve("bad.csv"), header + ",scheduler\n" + ROW + ",x,async\n");
    String[] r = run("validate", "--cases", f.toString());
    assertThat(r[0]).isEqualTo("1");
    assertThat(r[2])
        .isEqualTo(
            "ridgeline: "
                + f
                + " line 2: field 'scheduler' must be one of overlap, synchronous or nothing,"
                + " found 'async'\n");
  }
}
