package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class AnchorOptionTest {
  private static final String HEADER =
      "case_id,point_id,model,chip,chips,prefill_chips,decode_chips,tp,pp,ep,attention_dp,weights,"
          + "kv_cache,isl,osl,mode,load,speculative,engine,metric,measured,confidence,source,url,"
          + "notes\n";

  private static JsonNode frontier(String... extra) throws Exception {
    String[] base = {
      "frontier",
      "--model",
      "llama-3.1-8b",
      "--chip",
      "h100-sxm",
      "--max-batch",
      "4",
      "--efficiency",
      "ideal",
      "--json"
    };
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    CliRun r = CliRun.of(args);
    assertThat(r.code()).as(r.err()).isZero();
    return r.json();
  }

  @Test
  void anchor_deploymentTwiceAsSlowAsTheBound_doublesEveryTime(@TempDir Path dir) throws Exception {
    // the bound's static TPOT of one Llama-3.1-8B sequence on one H100, then a "measurement" of
    // twice that: the model is 2× too fast, ln slowdown −ln 2, so every TPOT doubles
    JsonNode plain = frontier();
    Path file = twiceTheBound(dir);
    JsonNode anchored = frontier("--anchor", file.toString());
    double f = anchored.path("anchor").path("slowdown").asDouble();
    assertThat(anchored.path("anchor").path("rows").asInt()).isEqualTo(1);
    for (int i = 0; i < plain.path("points").size(); i++) {
      double before = plain.path("points").get(i).path("tpot_seconds").asDouble();
      double after = anchored.path("points").get(i).path("tpot_seconds").asDouble();
      assertThat(after / before).isCloseTo(1 / f, within(1e-9));
    }
    assertThat(1 / f).isCloseTo(2, within(0.02));
    // the anchor measured TPOT only: TPOT has its own factor, TTFT and throughput the mean of its
    // rows, here the same
    JsonNode q = anchored.path("anchor").path("slowdowns");
    assertThat(q.path("tpot").asDouble()).isCloseTo(f, within(1e-12));
    assertThat(q.path("ttft").asDouble()).isCloseTo(f, within(1e-12));
    assertThat(q.path("throughput").asDouble()).isCloseTo(f, within(1e-12));
  }

  @Test
  void anchor_fileWithoutPredictableRows_failsNamingIt(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("empty.csv");
    Files.writeString(
        file,
        HEADER
            + "M1-tpot,M1,llama-3.1-8b,h100-sxm,1,,,1,,,,,,,,static,1,,trtllm,tpot_ms,10,high,x,,\n");
    CliRun r =
        CliRun.of(
            "frontier",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--anchor",
            file.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("--anchor " + file + ": none of its 1 rows can be predicted");
  }

  @Test
  void plan_anchor_isReportedAndScalesTheCandidates(@TempDir Path dir) throws Exception {
    // a "measurement" of twice the bound's static TPOT (as above): plan's configurations then
    // carry doubled TPOTs, and the JSON and text name the anchor
    Path file = twiceTheBound(dir);
    String[] plan = {
      "plan",
      "--model",
      "llama-3.1-8b",
      "--isl",
      "1024",
      "--osl",
      "128",
      "--rate",
      "1",
      "--ttft",
      "1",
      "--tpot",
      "0.05",
      "--chips",
      "h100-sxm",
      "--strategies",
      "colocated",
      "--efficiency",
      "ideal"
    };
    CliRun plain = CliRun.of(concat(plan, "--json"));
    CliRun anchored = CliRun.of(concat(plan, "--json", "--anchor", file.toString()));
    assertThat(anchored.code()).as(anchored.err()).isZero();
    assertThat(anchored.json().path("anchor").path("rows").asInt()).isEqualTo(1);
    double f = anchored.json().path("anchor").path("slowdown").asDouble();
    assertThat(1 / f).isCloseTo(2, within(0.02));
    JsonNode first = plain.json().path("configurations").get(0);
    for (JsonNode c : anchored.json().path("configurations")) {
      if (c.path("batch").asInt() == first.path("batch").asInt()
          && c.path("tp").asInt() == first.path("tp").asInt()) {
        assertThat(c.path("tpot_seconds").asDouble() / first.path("tpot_seconds").asDouble())
            .isCloseTo(1 / f, within(1e-9));
      }
    }
    CliRun text = CliRun.of(concat(plan, "--anchor", file.toString()));
    assertThat(text.out()).contains("anchored on " + file + " (1 rows)");
  }

  /**
   * A case file of one "measurement" of twice the bound's static TPOT of one Llama-3.1-8B sequence
   * on one H100 at context 1,088: the model is 2× too fast, ln slowdown −ln 2.
   */
  @Test
  void anchor_otherChipAndUnpredictableRow_areWarnedAbout(@TempDir Path dir) throws Exception {
    Path file = twiceTheBound(dir);
    // the same deployment: no warning
    CliRun same =
        CliRun.of(
            "frontier",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--max-batch",
            "2",
            "--anchor",
            file.toString());
    assertThat(same.code()).as(same.err()).isZero();
    assertThat(same.err()).doesNotContain("warning:");
    // a row without lengths cannot be predicted, and the system runs on another chip
    Files.writeString(
        file,
        Files.readString(file)
            + "M2-tpot,M2,llama-3.1-8b,h100-sxm,1,,,1,,,,,,,,static,1,,trtllm,tpot_ms,10,high,x,,\n");
    CliRun other =
        CliRun.of(
            "frontier",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "b200",
            "--max-batch",
            "2",
            "--anchor",
            file.toString());
    assertThat(other.code()).as(other.err()).isZero();
    assertThat(other.err())
        .contains("warning: --anchor " + file + ": row M2-tpot (line 3) is not used: ")
        .contains(
            "warning: --anchor "
                + file
                + " measures llama-3.1-8b on h100-sxm, not only llama-3.1-8b on b200: its factor"
                + " carries another deployment's error");
  }

  private static Path twiceTheBound(Path dir) throws Exception {
    CliRun probe =
        CliRun.of(
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--context",
            "1088",
            "--efficiency",
            "ideal",
            "--json");
    double step = probe.json().path("decode_step_seconds").asDouble();
    Path file = dir.resolve("mine.csv");
    Files.writeString(
        file,
        HEADER
            + "M1-tpot,M1,llama-3.1-8b,h100-sxm,1,,,1,,,,,,1024,128,static,1,,trtllm,tpot_ms,"
            + (2 * 1e3 * step)
            + ",high,my lab,,\n");
    return file;
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** A vllm bench serve --save-result file: 32 clients, 1,024 + 256 tokens, on one H100. */
  private static Path vllmResult(Path dir) throws Exception {
    Path file = dir.resolve("result.json");
    Files.writeString(
        file,
        "{\"backend\": \"vllm\", \"model_id\": \"meta-llama/Llama-3.1-8B-Instruct\","
            + " \"num_prompts\": 320, \"request_rate\": \"inf\", \"max_concurrency\": 32,"
            + " \"duration\": 61.2, \"completed\": 320, \"total_input_tokens\": 327680,"
            + " \"total_output_tokens\": 81920, \"output_throughput\": 1338.6,"
            + " \"mean_ttft_ms\": 131.0, \"median_ttft_ms\": 118.4, \"mean_tpot_ms\": 23.1,"
            + " \"median_tpot_ms\": 22.8}");
    return file;
  }

  @Test
  void vllmResultFile_movesTheEstimateOntoItsMeasurementAtItsOperatingPoint(@TempDir Path dir)
      throws Exception {
    // the result is read as measured on the command's system (1 H100, tp 1) at 32 clients: the
    // anchored frontier at batch 32 gives its TPOT (23.1 ms) and output tokens/s per chip
    // (1,338.6) within 5%
    CliRun r =
        CliRun.of(
            "frontier",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--json",
            "--anchor",
            vllmResult(dir).toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode at32 = null;
    for (JsonNode p : r.json().path("points")) {
      if (p.path("batch").asInt() == 32) {
        at32 = p;
      }
    }
    assertThat(at32).as("a point at batch 32").isNotNull();
    assertThat(r.json().path("anchor").path("rows").asInt()).isEqualTo(3);
    assertThat(at32.path("tpot_seconds").asDouble() * 1e3).isCloseTo(23.1, within(23.1 * 0.05));
    assertThat(at32.path("tokens_per_second_per_chip").asDouble())
        .isCloseTo(1338.6, within(1338.6 * 0.05));
  }

  @Test
  void vllmResultFile_withPlan_isRefusedSayingWhy(@TempDir Path dir) throws Exception {
    CliRun r =
        CliRun.of(
            "plan",
            "--model",
            "llama-3.1-8b",
            "--chips",
            "h100-sxm",
            "--total-chips",
            "8",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--ttft",
            "1s",
            "--tpot",
            "50ms",
            "--anchor",
            vllmResult(dir).toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("a benchmark result file does not say which system it measured");
  }
}
