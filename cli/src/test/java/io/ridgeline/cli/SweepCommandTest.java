package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.common.base.Splitter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SweepCommandTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  // Jackson writing doubles as the sweep does: shortest round-trip text (Schubfach, Java 19's
  // Double.toString), not Java 17's Double.toString, which is longer for a few doubles
  private static final ObjectMapper SHORTEST =
      JsonMapper.builder().enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build();

  private static final String HEADER =
      "model,chip,count,tp,ep,strategy,weights,kv,isl,osl,batch,ttft_seconds,tpot_seconds,"
          + "tokens_per_second_per_user,tokens_per_second_per_chip,chips_total,"
          + "dollars_per_million_tokens,tokens_per_joule,fits,error";

  /** `sweep: N points in S s, R points/s`, S and R with a dot as decimal separator. */
  private static final Pattern SUMMARY =
      Pattern.compile("sweep: (\\d+) points in (\\d+\\.\\d+) s, (\\d+\\.\\d+) points/s");

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }

  /** A stream whose every write fails, as a closed pipe's does. */
  private static OutputStream brokenPipe() {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException("broken pipe");
      }
    };
  }

  private static Path grid(Path dir, String json) throws Exception {
    Path p = dir.resolve("grid.json");
    Files.writeString(p, json, StandardCharsets.UTF_8);
    return p;
  }

  @Test
  void sweep_noOut_csvOnStdoutWithHeaderAndOneRowPerCombination(@TempDir Path dir)
      throws Exception {
    Path g =
        grid(
            dir,
            "{\"chip\": [\"h100-sxm\", \"h200-sxm\"], \"strategy\": [\"colocated\", \"pd\"],"
                + " \"batch\": [1, 8, 64]}");
    CliRun r = run("sweep", "--grid", g.toString());
    assertThat(r.code()).as(r.err()).isZero();
    List<String> lines = r.out().strip().lines().toList();
    assertThat(lines.get(0)).isEqualTo(HEADER);
    // 2 chips × 2 strategies × 3 batches
    assertThat(lines).hasSize(1 + 12);
    for (String line : lines.subList(1, lines.size())) {
      assertThat(line.split(",", -1)).hasSize(20);
    }
    assertThat(lines.get(1))
        .startsWith("llama-3.1-8b,h100-sxm,1,1,1,colocated,bf16,bf16,1024,1024,1,");
  }

  @Test
  void sweep_stderr_lastLineIsSummaryWithPointCount(@TempDir Path dir) throws Exception {
    Path g = grid(dir, "{\"batch\": [1, 2, 4, 8], \"isl\": [512, 2048]}");
    CliRun r = run("sweep", "--grid", g.toString(), "--out", dir.resolve("x.csv").toString());
    assertThat(r.code()).as(r.err()).isZero();
    // tests run under hi-IN (see the parent pom): Locale.ROOT keeps a dot as decimal separator
    Matcher m = SUMMARY.matcher(r.lastErrLine());
    assertThat(m.matches()).as(r.lastErrLine()).isTrue();
    assertThat(m.group(1)).isEqualTo("8");
  }

  @Test
  void sweep_colocatedAndPd_stderrAndSummaryCountTheObjectPathsRowsByReason(@TempDir Path dir)
      throws Exception {
    Path g = grid(dir, "{\"strategy\": [\"colocated\", \"pd\"], \"batch\": [1, 2, 4, 8]}");
    Path summary = dir.resolve("summary.json");
    CliRun r =
        run(
            "sweep",
            "--grid",
            g.toString(),
            "--out",
            dir.resolve("x.csv").toString(),
            "--summary",
            summary.toString());
    assertThat(r.code()).as(r.err()).isZero();
    // 2 strategies × 4 batches: colocated's 4 rows compile, pd's 4 have no compiled path
    assertThat(r.err())
        .contains(
            "sweep: 8 points: 4 compiled, 4 by the object path (the strategy has no compiled"
                + " path: 4)")
        .doesNotContain("warning:");
    JsonNode s = MAPPER.readTree(Files.readString(summary, StandardCharsets.UTF_8));
    assertThat(s.get("rows").asLong()).isEqualTo(8);
    assertThat(s.get("compiled_rows").asLong()).isEqualTo(4);
    assertThat(s.get("slow_path_rows").asLong()).isEqualTo(4);
    assertThat(s.get("slow_path").get("strategy").asLong()).isEqualTo(4);
    assertThat(s.get("fallback_rows").asLong()).isZero();
    assertThat(s.get("points_per_second").asDouble()).isPositive();
    assertThat(r.lastErrLine()).matches(SUMMARY);
  }

  @Test
  void sweep_csvFile_headerAndRows(@TempDir Path dir) throws Exception {
    Path g =
        grid(
            dir,
            "{\"model\": [\"llama-3.1-8b\", \"llama-3.1-70b\"], \"count\": 8, \"batch\": [1, 16]}");
    Path out = dir.resolve("rows.csv");
    CliRun r = run("sweep", "--grid", g.toString(), "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains("wrote " + out);
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    assertThat(lines.get(0)).isEqualTo(HEADER);
    assertThat(lines).hasSize(1 + 4);
    assertThat(lines.get(3)).startsWith("llama-3.1-70b,h100-sxm,8,8,1,colocated,");
  }

  @Test
  void sweep_jsonl_eachLineParsesWithEveryKey(@TempDir Path dir) throws Exception {
    Path g =
        grid(dir, "{\"strategy\": [\"colocated\", \"afd\"], \"count\": 2, \"batch\": [1, 32]}");
    Path out = dir.resolve("rows.jsonl");
    CliRun r = run("sweep", "--grid", g.toString(), "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    assertThat(lines).hasSize(4);
    for (String line : lines) {
      JsonNode n = MAPPER.readTree(line);
      assertThat(n.isObject()).isTrue();
      for (String k : Splitter.on(',').split(HEADER)) {
        assertThat(n.has(k)).as(k).isTrue();
      }
      assertThat(n.get("fits").asBoolean()).isTrue();
      assertThat(n.get("error").isNull()).isTrue();
      assertThat(n.get("tokens_per_second_per_chip").asDouble()).isPositive();
    }
    assertThat(MAPPER.readTree(lines.get(3)).get("strategy").asText()).isEqualTo("afd");
  }

  @Test
  void sweep_outDash_csvOnStdout_formatJsonlGivesJacksonIdenticalLines(@TempDir Path dir)
      throws Exception {
    // tp 3 does not divide the 8b's heads: an error row, with its message in the line
    Path g =
        grid(dir, "{\"tp\": [1, 3], \"strategy\": [\"colocated\", \"pd\"], \"batch\": [1, 64]}");
    CliRun csv = run("sweep", "--grid", g.toString(), "--out", "-");
    assertThat(csv.code()).as(csv.err()).isZero();
    assertThat(csv.out().lines().findFirst()).hasValue(HEADER);
    assertThat(csv.out().lines()).hasSize(1 + 8);
    CliRun jsonl = run("sweep", "--grid", g.toString(), "--out", "-", "--format", "jsonl");
    assertThat(jsonl.code()).as(jsonl.err()).isZero();
    List<String> lines = jsonl.out().lines().toList();
    assertThat(lines).hasSize(8);
    for (String line : lines) {
      // the hand-written writer must produce exactly what Jackson writes for the same values
      assertThat(SHORTEST.writeValueAsString(SHORTEST.readTree(line))).isEqualTo(line);
    }
    assertThat(MAPPER.readTree(lines.get(4)).get("error").asText()).isNotEmpty();
  }

  @Test
  void sweep_unknownFormat_oneLineError(@TempDir Path dir) throws Exception {
    Path g = grid(dir, "{\"batch\": 1}");
    CliRun r = run("sweep", "--grid", g.toString(), "--format", "xml");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip()).isEqualTo("ridgeline: --format must be csv or jsonl: xml");
  }

  @Test
  void sweep_outWithOtherExtension_oneLineErrorAndNoFile(@TempDir Path dir) throws Exception {
    Path g = grid(dir, "{\"batch\": 1}");
    Path out = dir.resolve("rows.txt");
    CliRun r = run("sweep", "--grid", g.toString(), "--out", out.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip()).isEqualTo("ridgeline: --out must end in .csv or .jsonl: " + out);
    assertThat(out).doesNotExist();
  }

  @Test
  void sweep_unknownKey_errorNamesKeyAndListsKnown(@TempDir Path dir) throws Exception {
    Path g = grid(dir, "{\"modle\": [\"llama-3.1-8b\"]}");
    CliRun r = run("sweep", "--grid", g.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().strip().lines().count()).isEqualTo(1);
    assertThat(r.err())
        .startsWith("ridgeline: " + g + ": unknown grid key 'modle'; did you mean 'model'?")
        .contains("known: model, chip, count, tp, ep, strategy, batch, isl, osl, weights, kv");
  }

  @Test
  void sweep_unknownModelId_errorNamesKeyAndValue(@TempDir Path dir) throws Exception {
    Path g = grid(dir, "{\"model\": [\"llama-3.1-8b\", \"lama-3.1-70b\"]}");
    CliRun r = run("sweep", "--grid", g.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip().lines().count()).isEqualTo(1);
    assertThat(r.err())
        .startsWith(
            "ridgeline: "
                + g
                + ": key 'model': unknown model 'lama-3.1-70b'; did you mean 'llama-3.1-70b'?");
  }

  @Test
  void sweep_invalidCombination_rowWithFitsFalseAndErrorThenContinues(@TempDir Path dir)
      throws Exception {
    Path g = grid(dir, "{\"tp\": [3, 4], \"batch\": [1, 2]}");
    CliRun r = run("sweep", "--grid", g.toString());
    assertThat(r.code()).as(r.err()).isZero();
    List<String> lines = r.out().strip().lines().toList();
    assertThat(lines).hasSize(1 + 4);
    assertThat(lines.get(1))
        .isEqualTo(
            "llama-3.1-8b,h100-sxm,3,3,1,colocated,bf16,bf16,1024,1024,1,,,,,,,,false,"
                + "tensor parallel degree (3) must divide the 32 attention heads of llama-3.1-8b");
    assertThat(lines.get(3))
        .startsWith("llama-3.1-8b,h100-sxm,4,4,1,colocated,")
        .endsWith(",true,");
    assertThat(SUMMARY.matcher(r.lastErrLine()).matches()).isTrue();
  }

  @Test
  void sweep_modelTooLarge_errorCellQuotedBecauseItHoldsCommas(@TempDir Path dir) throws Exception {
    Path g = grid(dir, "{\"model\": \"llama-3.1-70b\"}");
    CliRun r = run("sweep", "--grid", g.toString());
    assertThat(r.code()).as(r.err()).isZero();
    String row = r.out().strip().lines().toList().get(1);
    assertThat(row)
        .contains(",false,\"llama-3.1-70b does not fit on 1× h100-sxm: one request needs");
  }

  @Test
  void sweep_rowsOfOneCombination_equalFrontierCsv(@TempDir Path dir) throws Exception {
    // at the default (calibrated) efficiency and at the ideal bound
    for (List<String> efficiency : List.of(List.<String>of(), List.of("--efficiency", "ideal"))) {
      for (String strategy : new String[] {"colocated", "pd"}) {
        List<String> frontier =
            new ArrayList<>(
                List.of(
                    "frontier",
                    "--model",
                    "llama-3.1-70b",
                    "--chip",
                    "h100-sxm",
                    "--count",
                    "4",
                    "--isl",
                    "2048",
                    "--osl",
                    "512",
                    "--max-batch",
                    "64",
                    "--strategy",
                    strategy,
                    "--csv"));
        frontier.addAll(efficiency);
        CliRun f = run(frontier.toArray(String[]::new));
        assertThat(f.code()).as(f.err()).isZero();
        Map<String, String> frontierByBatch = new HashMap<>();
        for (String line : f.out().strip().lines().skip(1).toList()) {
          String[] c = line.split(",", -1);
          // tokens_per_second_per_chip and fits
          frontierByBatch.put(c[1], c[5] + "," + c[9]);
        }
        Path g =
            grid(
                dir,
                "{\"model\": \"llama-3.1-70b\", \"count\": 4, \"isl\": 2048, \"osl\": 512,"
                    + " \"strategy\": \""
                    + strategy
                    + "\", \"batch\": [1, 2, 4, 8, 16, 32, 64]}");
        List<String> sweep = new ArrayList<>(List.of("sweep", "--grid", g.toString()));
        sweep.addAll(efficiency);
        CliRun s = run(sweep.toArray(String[]::new));
        assertThat(s.code()).as(s.err()).isZero();
        List<String> rows = s.out().strip().lines().skip(1).toList();
        assertThat(rows).hasSize(7);
        for (String line : rows) {
          String[] c = line.split(",", -1);
          assertThat(c[14] + "," + c[18])
              .as(strategy + " " + efficiency + " batch " + c[10])
              .isEqualTo(frontierByBatch.get(c[10]));
        }
      }
    }
  }

  @Test
  void sweep_stdoutFails_stopsWithOneLineError(@TempDir Path dir) throws Exception {
    StringBuilder batches = new StringBuilder();
    for (int b = 1; b <= 3000; b++) {
      batches.append(b == 1 ? "" : ",").append(b);
    }
    Path g = grid(dir, "{\"batch\": [" + batches + "]}");
    OutputStream broken = brokenPipe();
    StringWriter err = new StringWriter();
    int code =
        RidgelineCli.execute(
            new String[] {"sweep", "--grid", g.toString()},
            new PrintWriter(new OutputStreamWriter(broken, StandardCharsets.UTF_8)),
            new PrintWriter(err));
    assertThat(code).isEqualTo(1);
    assertThat(err.toString().strip()).isEqualTo("ridgeline: cannot write to standard output");
  }

  @Test
  void sweep_processStdout_writesTheWritersTextAsUtf8Bytes(@TempDir Path dir) throws Exception {
    // from main, the rows go to the process's standard output as UTF-8 bytes (after what its
    // PrintWriter holds); the text is the Writer's, rows with errors ("×") included, CSV and JSONL
    Path g =
        grid(
            dir,
            "{\"model\": [\"llama-3.1-8b\", \"deepseek-v3\"], \"count\": [2],"
                + " \"strategy\": [\"colocated\", \"pd\"], \"batch\": [1, 64, 4096]}");
    for (String format : new String[] {"csv", "jsonl"}) {
      String[] args = {"sweep", "--grid", g.toString(), "--format", format, "--no-progress"};
      StringWriter text = new StringWriter();
      assertThat(
              RidgelineCli.execute(
                  args, new PrintWriter(text), new PrintWriter(new StringWriter())))
          .isZero();
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      java.io.PrintStream stdout = new java.io.PrintStream(bytes, true, StandardCharsets.UTF_8);
      PrintWriter out =
          new PrintWriter(new java.io.OutputStreamWriter(stdout, StandardCharsets.UTF_8));
      int code = RidgelineCli.execute(args, out, new PrintWriter(new StringWriter()), stdout);
      out.flush();
      assertThat(code).isZero();
      assertThat(bytes.toByteArray()).isEqualTo(text.toString().getBytes(StandardCharsets.UTF_8));
      assertThat(text.toString()).contains("×").contains("pd");
    }
  }

  @Test
  void sweep_processStdoutFails_stopsWithOneLineError(@TempDir Path dir) throws Exception {
    Path g = grid(dir, "{\"batch\": [1, 2, 3]}");
    java.io.PrintStream broken = new java.io.PrintStream(brokenPipe());
    StringWriter err = new StringWriter();
    int code =
        RidgelineCli.execute(
            new String[] {"sweep", "--grid", g.toString()},
            new PrintWriter(new OutputStreamWriter(broken, StandardCharsets.UTF_8)),
            new PrintWriter(err),
            broken);
    assertThat(code).isEqualTo(1);
    assertThat(err.toString().strip()).isEqualTo("ridgeline: cannot write to standard output");
  }

  @Test
  void sweep_configInTheGrid_warnsAboutKeysItsModelTypeDoesNotRead(@TempDir Path dir)
      throws Exception {
    // a Llama config with an expert count: llama does not read num_local_experts, so the estimate
    // ignores it, and the sweep says so once on stderr as --model would
    ObjectMapper m = new ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode c =
        (com.fasterxml.jackson.databind.node.ObjectNode)
            m.readTree(
                getClass()
                    .getResourceAsStream(
                        "/io/ridgeline/models/configs/meta-llama__Llama-3.1-8B.json"));
    c.put("num_local_experts", 8);
    Path config = dir.resolve("moe-llama.json");
    Files.writeString(config, m.writeValueAsString(c), StandardCharsets.UTF_8);
    Path g =
        grid(
            dir,
            "{\"model\": [" + m.writeValueAsString(config.toString()) + "], \"batch\": [1, 2]}");
    CliRun r = run("sweep", "--grid", g.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err().lines().filter(l -> l.startsWith("warning: ")).toList())
        .containsExactly(
            "warning: "
                + config
                + ": key 'num_local_experts' is not read for model_type 'llama' and has no"
                + " effect on the estimate");
  }

  @Test
  void sweep_formatDisagreeingWithOutExtension_isRefused(@TempDir Path dir) throws Exception {
    Path g = dir.resolve("g.json");
    Files.writeString(g, "{\"model\": [\"llama-3.1-8b\"], \"chip\": [\"h100-sxm\"]}");
    Path out = dir.resolve("rows.csv");
    CliRun r = run("sweep", "--grid", g.toString(), "--out", out.toString(), "--format", "jsonl");
    assertThat(r.code()).isNotZero();
    assertThat(r.err().strip())
        .isEqualTo(
            "ridgeline: --format jsonl disagrees with --out "
                + out
                + " (its extension asks for csv); drop --format or change the extension");
    assertThat(out).doesNotExist();
  }
}
