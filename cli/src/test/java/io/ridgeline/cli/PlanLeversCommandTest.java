package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code plan} over the levers beyond tp: p99 objectives, speculation, precisions, sketches. */
final class PlanLeversCommandTest {
  @Test
  void plan_deepSeekP99WithMtp_printsExpertParallelLaunchSketches() {
    CliRun r =
        CliRun.of(
            "plan",
            "--model",
            "deepseek-v3",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--rate",
            "20",
            "--ttft",
            "1",
            "--tpot",
            "0.03",
            "--ttft-p99",
            "3",
            "--tpot-p99",
            "0.03",
            "--chips",
            "b200",
            "--strategies",
            "colocated",
            "--spec-draft",
            "mtp",
            "--spec-length",
            "1",
            "--spec-acceptance",
            "0.8",
            "--top",
            "3");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("TTFT p99 ≤ 3 s, TPOT p99 ≤ 30 ms")
        .contains("with and without speculative mtp")
        .doesNotContain(PlanOutput.AFD_SPECULATION)
        .contains("vllm: vllm serve deepseek-ai/DeepSeek-V3")
        .contains("--enable-expert-parallel")
        .contains("--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'")
        .contains("--ep-size 8")
        .contains("trtllm: trtllm-serve");
  }

  /**
   * plan for llama-3.1-8b on H100 at ISL 1024, OSL 256, 1 request/s, TTFT 1 s, the best
   * configuration only, plus {@code extra}.
   */
  private static String[] plan8b(String... extra) {
    java.util.List<String> args =
        new java.util.ArrayList<>(
            java.util.List.of(
                "plan",
                "--model",
                "llama-3.1-8b",
                "--isl",
                "1024",
                "--osl",
                "256",
                "--rate",
                "1",
                "--ttft",
                "1",
                "--chips",
                "h100-sxm",
                "--top",
                "1"));
    args.addAll(java.util.List.of(extra));
    return args.toArray(String[]::new);
  }

  @Test
  void plan_eagerDecode_sketchesTurnCudaGraphsOff() {
    CliRun graphed = CliRun.of(plan8b("--tpot", "0.1", "--strategies", "colocated"));
    assertThat(graphed.code()).as(graphed.err()).isZero();
    assertThat(graphed.out())
        .contains("vllm serve")
        .doesNotContain("--enforce-eager")
        .doesNotContain("--disable-cuda-graph")
        .doesNotContain("cuda_graph_config");
    CliRun eager =
        CliRun.of(plan8b("--tpot", "0.1", "--strategies", "colocated", "--eager-decode"));
    assertThat(eager.code()).as(eager.err()).isZero();
    assertThat(eager.out())
        .contains("eager decode")
        .contains("--enforce-eager")
        .contains("--disable-cuda-graph")
        .contains("cuda_graph_config: null");
  }

  @Test
  void plan_synchronousScheduler_sketchesTurnTheOverlapOff() {
    CliRun overlap = CliRun.of(plan8b("--tpot", "0.1", "--strategies", "colocated"));
    assertThat(overlap.code()).as(overlap.err()).isZero();
    assertThat(overlap.out())
        .contains("vllm serve")
        .doesNotContain("--no-async-scheduling")
        .doesNotContain("--disable-overlap-schedule")
        .doesNotContain("disable_overlap_scheduler");
    CliRun sync =
        CliRun.of(plan8b("--tpot", "0.1", "--strategies", "colocated", "--synchronous-scheduler"));
    assertThat(sync.code()).as(sync.err()).isZero();
    assertThat(sync.out())
        .contains("synchronous scheduler")
        .contains("--no-async-scheduling")
        .contains("--disable-overlap-schedule")
        .contains("disable_overlap_scheduler: true");
  }

  @Test
  void plan_speculationWithAfd_saysWhyAfdIsTriedWithoutIt() throws Exception {
    String[] args =
        plan8b(
            "--tpot",
            "0.05",
            "--strategies",
            "colocated,afd",
            "--spec-draft",
            "llama-3-8b",
            "--spec-length",
            "2",
            "--spec-acceptance",
            "0.7");
    CliRun text = CliRun.of(args);
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out()).contains(PlanOutput.AFD_SPECULATION);
    String[] json = java.util.Arrays.copyOf(args, args.length + 1);
    json[args.length] = "--json";
    CliRun j = CliRun.of(json);
    assertThat(j.code()).as(j.err()).isZero();
    assertThat(j.json().get("speculation_skipped").asText()).isEqualTo(PlanOutput.AFD_SPECULATION);
  }

  @Test
  void plan_llama70bReadmeCase_findsConfigurations() {
    CliRun r =
        CliRun.of(
            "plan",
            "--model",
            "llama-3.1-70b",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--rate",
            "1",
            "--ttft",
            "0.2",
            "--tpot",
            "0.03",
            "--chips",
            "h100-sxm");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("h100-sxm  colocated").contains("launch sketch 1:");
  }

  @Test
  void plan_weightAndKvLists_searchEachCombination() throws Exception {
    CliRun r =
        CliRun.of(
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
            "1",
            "--tpot",
            "0.05",
            "--chips",
            "h100-sxm",
            "--strategies",
            "colocated",
            "--weights",
            "bf16,fp8",
            "--kv",
            "fp8",
            "--top",
            "50",
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    String launches = r.json().get("configurations").toString();
    // both weight precisions appear among the configurations, each with an FP8 KV cache
    assertThat(launches).contains("--quantization fp8").contains("--kv-cache-dtype fp8");
  }
}
