package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class PlanCommandTest {

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }

  /**
   * plan for llama-3.1-8b at ISL 1024, OSL 256, 10 requests/s with the given objectives and extra
   * arguments.
   */
  private static CliRun plan8b(String ttft, String tpot, String... extra) {
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
                ttft,
                "--tpot",
                tpot));
    args.addAll(List.of(extra));
    if (!args.contains("--chips")) {
      args.addAll(List.of("--chips", "h100-sxm"));
    }
    return run(args.toArray(String[]::new));
  }

  @Test
  void plan_generousSlo_printsAlignedTableWithUnits() {
    CliRun r = plan8b("1", "0.05");
    assertThat(r.code()).as(r.err()).isZero();
    String[] lines = r.out().lines().toArray(String[]::new);
    assertThat(lines[0])
        .startsWith("llama-3.1-8b: ISL 1024, OSL 256, 10 requests/s (2560 output tok/s)");
    assertThat(r.out())
        .contains("total chips")
        .contains("tok/s/chip")
        .contains("$/h")
        .contains("failures over ")
        .contains(" ms ");
    // header and rows are the same width: the columns line up
    int header = -1;
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].startsWith("chips ")) {
        header = i;
      }
    }
    assertThat(header).isPositive();
    assertThat(lines[header + 1]).startsWith("h100-sxm").hasSameSizeAs(lines[header]);
  }

  @Test
  void plan_json_hasContractKeysAndSatisfiesTheRate() throws Exception {
    CliRun r = plan8b("1", "0.05", "--json", "--chips", "h100-sxm,b200", "--top", "3");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("configurations")).hasSize(3);
    assertThat(j.get("failures").has("memory")).isTrue();
    assertThat(j.get("failures").has("ttft")).isTrue();
    assertThat(j.get("failures").has("tpot")).isTrue();
    assertThat(j.get("closest").isArray()).isTrue();
    for (JsonNode c : j.get("configurations")) {
      assertThat(c.fieldNames())
          .toIterable()
          .containsExactly(
              "chip",
              "pools",
              "strategy",
              "tp",
              "pp",
              "ep",
              "attention_dp",
              "speculation",
              "batch",
              "weights",
              "kv_cache",
              "chips_per_replica",
              "replicas",
              "prefill_replicas",
              "total_chips",
              "ttft_seconds",
              "ttft_p50_seconds",
              "ttft_p99_seconds",
              "tpot_seconds",
              "tokens_per_second_per_chip",
              "tokens_per_second_per_user",
              "fleet_requests_per_second",
              "fleet_output_tokens_per_second",
              "fleet_tokens_per_second_per_chip",
              "dollars_per_hour",
              "dollars_per_million_tokens",
              "launch");
      assertThat(c.get("ttft_p50_seconds").asDouble()).isLessThanOrEqualTo(1.0);
      assertThat(c.get("launch").get("vllm").get(0).asText()).isNotEmpty();
      assertThat(c.get("tpot_seconds").asDouble()).isLessThanOrEqualTo(0.05);
      // replicas × chips per replica × tok/s per chip ≥ 10 requests/s × 256 tokens = 2,560 tok/s
      double capacity =
          c.get("replicas").asDouble()
              * c.get("chips_per_replica").asDouble()
              * c.get("tokens_per_second_per_chip").asDouble();
      assertThat(capacity).isGreaterThanOrEqualTo(2560.0);
      // B200 at $6.03 and H100 at $4.916 per chip-hour: every pool priced; on H100 alone the
      // fleet's price is its chips × $4.916
      if (c.get("pools").toString().contains("b200")) {
        assertThat(c.get("dollars_per_hour").asDouble()).isPositive();
      } else {
        assertThat(c.get("dollars_per_hour").asDouble())
            .isEqualTo(4.916 * c.get("total_chips").asInt(), within(1e-9));
      }
    }
  }

  @Test
  void plan_objectiveCost_ordersByDollarsPerHour() throws Exception {
    CliRun r =
        plan8b(
            "1",
            "0.05",
            "--json",
            "--chips",
            "b200,h100-sxm,a100-sxm-80gb",
            "--objective",
            "cost",
            "--top",
            "50");
    assertThat(r.code()).as(r.err()).isZero();
    double last = 0;
    boolean nullSeen = false;
    for (JsonNode c : r.json().get("configurations")) {
      JsonNode d = c.get("dollars_per_hour");
      if (d.isNull()) {
        nullSeen = true;
      } else {
        assertThat(nullSeen).as("a priced configuration after an unpriced one").isFalse();
        assertThat(d.asDouble()).isGreaterThanOrEqualTo(last);
        last = d.asDouble();
      }
    }
    assertThat(r.json().get("configurations").get(0).get("dollars_per_hour").isNull()).isFalse();
  }

  @Test
  void plan_impossibleSlo_exitsThreeWithOneLinePerReason() {
    // TTFT ≤ 2 s is met by every layout (the calibrated default adds an admission latency of a few
    // hundred ms); TPOT ≤ 1 µs by none
    CliRun r = plan8b("2", "1e-6");
    assertThat(r.code()).isEqualTo(3);
    assertThat(r.err()).isEmpty();
    String[] lines = r.out().strip().lines().toArray(String[]::new);
    assertThat(lines[0])
        .isEqualTo(
            "no configuration meets TTFT ≤ 2 s and TPOT ≤ 1 µs for llama-3.1-8b (ISL 1024, OSL 256, 10 requests/s) on h100-sxm:");
    assertThat(lines[1]).startsWith("  memory: 0 of ");
    assertThat(lines[2]).startsWith("  ttft: 0 of ");
    assertThat(lines[3]).startsWith("  tpot: ").doesNotStartWith("  tpot: 0 ");
    assertThat(lines[4]).startsWith("  closest: h100-sxm ").contains("TPOT").contains("> 1 µs");
  }

  @Test
  void plan_impossibleSloJson_exitsThreeWithEmptyConfigurations() throws Exception {
    CliRun r = plan8b("2", "1e-6", "--json");
    assertThat(r.code()).isEqualTo(3);
    JsonNode j = r.json();
    assertThat(j.get("configurations")).isEmpty();
    assertThat(j.get("failures").get("tpot").asInt()).isPositive();
    assertThat(j.get("closest").get(0).get("chip").asText()).isEqualTo("h100-sxm");
    assertThat(j.get("closest").get(0).get("reasons").get(0).asText()).isEqualTo("tpot");
    assertThat(j.get("closest").get(0).get("violation_ratio").asDouble()).isGreaterThan(1);
  }

  @Test
  void plan_modelLargerThanOneChip_reportsMemoryFailuresAndPlansOnSeveral() throws Exception {
    CliRun r =
        run(
            "plan",
            "--model",
            "llama-3.1-70b",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--rate",
            "10",
            "--ttft",
            "1",
            "--tpot",
            "0.1",
            "--chips",
            "h100-sxm",
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    // 141.1 GB of bf16 weights > 80 GB: tp 1 fails memory under colocated and pd
    assertThat(r.json().get("failures").get("memory").asInt()).isGreaterThanOrEqualTo(2);
    for (JsonNode c : r.json().get("configurations")) {
      assertThat(c.get("tp").asInt()).isGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void plan_badInputs_printOneLineAndExitNonZero() {
    CliRun rate =
        run(
            "plan",
            "--model",
            "llama-3.1-8b",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--rate",
            "0",
            "--ttft",
            "1",
            "--tpot",
            "0.05",
            "--chips",
            "h100-sxm");
    assertThat(rate.code()).isEqualTo(1);
    assertThat(rate.err())
        .isEqualTo("ridgeline: --rate must be at least 0.000001 requests/s: 0.0\n");
    CliRun ttft = plan8b("0", "0.05");
    assertThat(ttft.code()).isEqualTo(1);
    assertThat(ttft.err()).isEqualTo("ridgeline: --ttft must be at least 0.000001 s: 0.0\n");
    CliRun tpot = plan8b("1", "-0.05");
    // a negative duration is no duration: a malformed option
    assertThat(tpot.code()).isEqualTo(2);
    assertThat(tpot.err())
        .isEqualTo(
            "ridgeline: Invalid value for option '--tpot': '-0.05' is not a non-negative finite"
                + " duration\n");
    CliRun chips = plan8b("1", "0.05", "--chips", ",");
    assertThat(chips.code()).isEqualTo(1);
    assertThat(chips.err()).startsWith("ridgeline: --chips must name at least one chip");
    CliRun chip = plan8b("1", "0.05", "--chips", "h100-sxm,h100-sx");
    assertThat(chip.code()).isEqualTo(1);
    assertThat(chip.err())
        .startsWith(
            "ridgeline: unknown chip 'h100-sx'; did you mean 'h100-sxm'? known: a100-sxm-80gb,"
                + " a100-sxm-40gb, a100-pcie-80gb, h100-sxm");
    CliRun strategy = plan8b("1", "0.05", "--strategies", "colocate");
    assertThat(strategy.code()).isEqualTo(1);
    assertThat(strategy.err())
        .isEqualTo(
            "ridgeline: unknown strategy 'colocate'; did you mean 'colocated'? known: static, colocated, pd, afd\n");
    assertThat(plan8b("1", "0.05", "--ttft-p99", "0").err())
        .isEqualTo("ridgeline: --ttft-p99 must be at least 0.000001 s: 0.0\n");
    assertThat(plan8b("1", "0.05", "--tpot-p99", "-1").err())
        .isEqualTo(
            "ridgeline: Invalid value for option '--tpot-p99': '-1' is not a non-negative finite"
                + " duration\n");
    assertThat(plan8b("1", "0.05", "--spec-draft", "mtp").err())
        .isEqualTo("ridgeline: --spec-draft mtp needs --spec-acceptance α in [0, 1)\n");
    assertThat(plan8b("1", "0.05", "--spec-acceptance", "0.7").err())
        .isEqualTo("ridgeline: --spec-acceptance 0.7 needs --spec-draft MODEL|mtp\n");
    assertThat(plan8b("1", "0.05", "--spec-draft", "mtp", "--spec-acceptance", "1").err())
        .isEqualTo("ridgeline: --spec-acceptance must be at most 0.999: 1.0\n");
    assertThat(
            plan8b(
                    "1",
                    "0.05",
                    "--spec-draft",
                    "mtp",
                    "--spec-acceptance",
                    "0.5",
                    "--spec-length",
                    "0")
                .err())
        .isEqualTo("ridgeline: --spec-length must be positive: 0\n");
    assertThat(plan8b("1", "0.05", "--weights", "fp9").code()).isEqualTo(2);
    CliRun objective = plan8b("1", "0.05", "--objective", "money");
    assertThat(objective.code()).isEqualTo(1);
    assertThat(objective.err())
        .isEqualTo("ridgeline: unknown objective 'money'; known: chips, cost, throughput\n");
  }

  @Test
  void plan_missingOption_exitsTwo() {
    CliRun r =
        run(
            "plan",
            "--model",
            "llama-3.1-8b",
            "--osl",
            "256",
            "--rate",
            "10",
            "--ttft",
            "1",
            "--tpot",
            "0.05");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("ridgeline: Missing required option: '--isl");
  }

  @Test
  void plan_help_documentsExitStatusThree() {
    CliRun r = run("plan", "--help");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains("Exit status:")
        .contains("3   no configuration meets the objectives");
  }

  @Test
  void kvOffload_namesThePolicyAndItsChips_andFailsInOneLineWithoutASlowerTier() throws Exception {
    CliRun text = plan8b("2", "0.1", "--chips", "h100-sxm,gh200", "--kv-offload", "history");
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("kv offload history on gh200 (lpddr")
        .contains("the other chips keep KV in their main tier");
    CliRun json = plan8b("2", "0.1", "--chips", "gh200", "--kv-offload", "history", "--json");
    assertThat(json.json().path("kv_offload").asText()).isEqualTo("history");
    CliRun none = plan8b("2", "0.1", "--chips", "h100-sxm", "--json");
    assertThat(none.json().has("kv_offload")).isFalse();
    CliRun bad = plan8b("2", "0.1", "--chips", "h100-sxm", "--kv-offload", "spill");
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err().trim())
        .startsWith("ridgeline: --kv-offload spill needs a chip with a memory tier slower")
        .doesNotContain("\n");
  }

  /** plan for llama-3.1-70b at ISL 1024, OSL 256 on at most 16 chips: TTFT 200 ms, TPOT 30 ms. */
  private static CliRun budget70b(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "plan",
                "--model",
                "llama-3.1-70b",
                "--total-chips",
                "16",
                "--isl",
                "1024",
                "--osl",
                "256",
                "--ttft",
                "0.2",
                "--tpot",
                "0.03",
                "--chip",
                "h100-sxm,b200"));
    args.addAll(List.of(extra));
    return run(args.toArray(String[]::new));
  }

  @Test
  void plan_totalChips_listsConfigurationsOnTheBudgetByThroughputPerChip() throws Exception {
    CliRun r = budget70b("--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("total_chips_budget").asInt()).isEqualTo(16);
    assertThat(j.get("rate_requests_per_second").isNull()).isTrue();
    assertThat(j.get("objective").asText()).isEqualTo("throughput");
    double previous = Double.MAX_VALUE;
    for (JsonNode c : j.get("configurations")) {
      assertThat(c.get("total_chips").asLong()).isLessThanOrEqualTo(16);
      // fleet tokens per second = rate × OSL; per chip over the fleet's chips; ranked by it
      double perChip = c.get("fleet_tokens_per_second_per_chip").asDouble();
      assertThat(c.get("fleet_output_tokens_per_second").asDouble())
          .isCloseTo(c.get("fleet_requests_per_second").asDouble() * 256, within(1e-6));
      assertThat(perChip).isLessThanOrEqualTo(previous);
      previous = perChip;
      assertThat(c.get("weights").asText()).isEqualTo("bf16");
      assertThat(c.get("kv_cache").asText()).isEqualTo("bf16");
      assertThat(c.get("tokens_per_second_per_user").asDouble())
          .isCloseTo(1 / c.get("tpot_seconds").asDouble(), within(1e-6));
    }
    assertThat(j.get("failures").has("chips")).isTrue();
    for (JsonNode m : j.get("closest")) {
      assertThat(m.get("chips").asText()).contains(m.get("chip").asText());
    }
    CliRun text = budget70b();
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out())
        .startsWith("llama-3.1-70b: ISL 1024, OSL 256, on at most 16 chips")
        .contains("best 5 by most tokens/s per chip")
        .contains("w/kv")
        .contains("bf16/bf16")
        .contains("total tok/s")
        .contains(", chips ");
  }

  @Test
  void plan_rateAndTotalChips_exactlyOne() {
    CliRun both = budget70b("--rate", "10");
    assertThat(both.code()).isEqualTo(1);
    assertThat(both.err()).contains("give exactly one of --rate R").doesNotContain("Exception");
    CliRun neither =
        run(
            "plan",
            "--model",
            "llama-3.1-8b",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--ttft",
            "1",
            "--tpot",
            "0.05",
            "--chips",
            "h100-sxm");
    assertThat(neither.code()).isEqualTo(1);
    assertThat(neither.err()).contains("give exactly one of --rate R");
    CliRun zero =
        run(
            "plan",
            "--model",
            "llama-3.1-8b",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--ttft",
            "1",
            "--tpot",
            "0.05",
            "--chips",
            "h100-sxm",
            "--total-chips",
            "0");
    assertThat(zero.code()).isEqualTo(1);
    assertThat(zero.err()).contains("--total-chips");
  }

  @Test
  void launchSketch_perVendor_onlyEnginesThatRunOnTheChip() throws Exception {
    // TensorRT-LLM runs on NVIDIA only, SGLang on NVIDIA and AMD, vLLM also on TPU
    assertThat(LaunchSketch.runsOn("trtllm", "AMD")).isFalse();
    assertThat(LaunchSketch.runsOn("sglang", "AMD")).isTrue();
    assertThat(LaunchSketch.runsOn("vllm", "Google")).isTrue();
    assertThat(LaunchSketch.runsOn("sglang", "Google")).isFalse();
    assertThat(LaunchSketch.runsOn("vllm", "Cerebras")).isFalse();
    CliRun r = plan8b("1", "0.05", "--json", "--chips", "mi300x", "--strategies", "colocated");
    assertThat(r.code()).as(r.err()).isZero();
    for (JsonNode c : r.json().get("configurations")) {
      assertThat(c.get("launch").fieldNames()).toIterable().containsExactly("vllm", "sglang");
    }
  }

  @Test
  void plan_totalChipsWithoutChips_searchesTheDefaultChips() throws Exception {
    // the issue's question in one command: the best configurations on 16 chips under the SLOs,
    // over the default chips (H100, H200, B200, MI300X), every one within the budget
    CliRun r =
        run(
            "plan",
            "--model",
            "llama-3.1-70b",
            "--total-chips",
            "16",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--ttft",
            "200ms",
            "--tpot",
            "30ms",
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode configurations = r.json().get("configurations");
    assertThat(configurations).isNotEmpty();
    for (JsonNode c : configurations) {
      assertThat(c.get("chip").asText()).isIn("h100-sxm", "h200-sxm", "b200", "mi300x");
      assertThat(c.get("total_chips").asInt()).isBetween(1, 16);
    }
  }
}
