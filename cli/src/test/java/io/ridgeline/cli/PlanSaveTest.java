package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code plan --save DIR [--force]}: a launch and benchmark script per configuration. */
final class PlanSaveTest {

  private static CliRun plan(String chips, String strategies, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "plan",
                "--model",
                "llama-3.1-8b",
                "--isl",
                "1024",
                "--osl",
                "256",
                "--rate",
                "10",
                "--ttft",
                "1s",
                "--tpot",
                "50ms",
                "--chips",
                chips,
                "--strategies",
                strategies,
                "--top",
                "1"));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void save_writesOneScriptPerConfiguration_withLaunchBenchmarkAndAnchor(@TempDir Path tmp)
      throws Exception {
    Path dir = tmp.resolve("out");
    CliRun r = plan("h100-sxm", "colocated", "--save", dir.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("wrote " + dir.resolve("config-1.sh"));
    String script = Files.readString(dir.resolve("config-1.sh"));
    assertThat(script)
        .startsWith("#!/usr/bin/env bash\n# ridgeline plan, configuration 1: ")
        .contains("# vllm serve meta-llama/Meta-Llama-3.1-8B")
        .contains("# python -m sglang.launch_server --model-path meta-llama/Meta-Llama-3.1-8B")
        .contains(
            "vllm bench serve --model meta-llama/Meta-Llama-3.1-8B --dataset-name random"
                + " --random-input-len 1024 --random-output-len 256")
        .contains("--save-result --result-filename result-vllm.json")
        .contains("python -m sglang.bench_serving --backend sglang")
        .contains("--output-file result-sglang.json")
        .contains("anchor-vllm.csv")
        // the anchor line repeats the plan without --save
        .contains("./ridgeline plan --model llama-3.1-8b --isl 1024 --osl 256 --rate 10")
        .doesNotContain("--save " + dir);
    // the configuration's batch per replica is the benchmark's concurrency and the anchor's load
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("--max-concurrency (\\d+) --request-rate inf")
            .matcher(script);
    assertThat(m.find()).isTrue();
    int clients = Integer.parseInt(m.group(1));
    assertThat(script).contains("--num-prompts " + 10 * clients);
    assertThat(script).contains(",concurrency," + clients + ",,vllm,");
  }

  @Test
  void save_anchorStep_writesACaseFileThatAnchorReads(@TempDir Path tmp) throws Exception {
    // run the script's Python step on a made-up result, then read the case file back through
    // --anchor: it must load and give a factor
    Path dir = tmp.resolve("out");
    CliRun r = plan("h100-sxm", "colocated", "--save", dir.toString());
    assertThat(r.code()).as(r.err()).isZero();
    String script = Files.readString(dir.resolve("config-1.sh"));
    int start = script.indexOf("python3 - <<'EOF'\n");
    int end = script.indexOf("\nEOF\n", start);
    String python = script.substring(start + "python3 - <<'EOF'\n".length(), end);
    Files.writeString(
        dir.resolve("result-vllm.json"),
        "{\"mean_ttft_ms\": 80.5, \"mean_tpot_ms\": 9.25, \"output_throughput\": 2000.0}\n");
    Process p =
        new ProcessBuilder("python3", "-c", python)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    String said =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(said).isZero();
    Path anchor = dir.resolve("anchor-vllm.csv");
    assertThat(Files.readAllLines(anchor)).hasSize(4);
    CliRun anchored = plan("h100-sxm", "colocated", "--anchor", anchor.toString());
    assertThat(anchored.code()).as(anchored.err()).isZero();
    assertThat(anchored.err()).doesNotContain("cannot");
    assertThat(anchored.out()).contains("anchor");
  }

  @Test
  void save_pd_hasSglangRouterAndDynamo_onNvidiaOnly(@TempDir Path tmp) throws Exception {
    Path nvidia = tmp.resolve("nvidia");
    CliRun r = plan("h100-sxm", "pd", "--save", nvidia.toString());
    assertThat(r.code()).as(r.err()).isZero();
    String script = Files.readString(nvidia.resolve("config-1.sh"));
    assertThat(script)
        .contains("--disaggregation-mode prefill")
        .contains("--disaggregation-mode decode")
        .contains("sglang_router.launch_router --pd-disaggregation")
        .contains("# ---- dynamo ----")
        .contains("python -m dynamo.vllm --model meta-llama/Meta-Llama-3.1-8B")
        .contains("--is-prefill-worker")
        .contains(",disagg-concurrency,");
    Path amd = tmp.resolve("amd");
    CliRun a = plan("mi300x", "pd", "--save", amd.toString());
    assertThat(a.code()).as(a.err()).isZero();
    assertThat(Files.readString(amd.resolve("config-1.sh")))
        .contains("--disaggregation-mode prefill")
        .doesNotContain("dynamo")
        .doesNotContain("trtllm");
  }

  @Test
  void save_nonEmptyFolder_isRefusedWithoutForce(@TempDir Path tmp) throws Exception {
    Files.writeString(tmp.resolve("keep.txt"), "mine");
    CliRun r = plan("h100-sxm", "colocated", "--save", tmp.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            "ridgeline: --save "
                + tmp
                + ": the folder is not empty (give --force to write into it)"
                + System.lineSeparator());
    assertThat(tmp.resolve("config-1.sh")).doesNotExist();
    CliRun forced = plan("h100-sxm", "colocated", "--save", tmp.toString(), "--force");
    assertThat(forced.code()).as(forced.err()).isZero();
    assertThat(tmp.resolve("config-1.sh")).isNotEmptyFile();
    assertThat(tmp.resolve("keep.txt")).hasContent("mine");
    CliRun forceAlone = plan("h100-sxm", "colocated", "--force");
    assertThat(forceAlone.err())
        .isEqualTo("ridgeline: --force applies to --save DIR" + System.lineSeparator());
  }
}
