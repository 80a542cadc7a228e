package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

final class BenchmarkResultsTest {
  private static final BenchmarkResults.MeasuredSystem H100 =
      new BenchmarkResults.MeasuredSystem(
          "llama-3.1-8b", "h100-sxm", 1, 1, 1, 1, Optional.empty(), Optional.empty());
  private static final BenchmarkResults.MeasuredSystem H100_X2 =
      new BenchmarkResults.MeasuredSystem(
          "llama-3.1-8b", "h100-sxm", 2, 1, 1, 1, Optional.of("fp8"), Optional.empty());

  private static String sample(String name) throws IOException {
    try (InputStream in = BenchmarkResultsTest.class.getResourceAsStream("results/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static ValidationCase metric(List<ValidationCase> cases, Metric m) {
    return cases.stream().filter(c -> c.metric() == m).findFirst().orElseThrow();
  }

  @Test
  void vllm_concurrencyRun_isAClosedLoopPointWithItsMeans() throws IOException {
    BenchmarkResults.Read r =
        BenchmarkResults.read(sample("vllm-bench-serve.json"), "vllm.json", H100);
    assertThat(r.format()).isEqualTo(BenchmarkResults.Format.VLLM);
    assertThat(r.unused()).isEmpty();
    assertThat(r.cases()).hasSize(3);
    ValidationCase ttft = metric(r.cases(), Metric.MEDIAN_TTFT_MS);
    // 327,680 input tokens / 320 requests = 1,024; 81,920 / 320 = 256
    assertThat(ttft.isl()).isEqualTo(OptionalInt.of(1024));
    assertThat(ttft.osl()).isEqualTo(OptionalInt.of(256));
    assertThat(ttft.mode()).isEqualTo(Mode.CONCURRENCY);
    assertThat(ttft.load()).isEqualTo(OptionalInt.of(32));
    assertThat(ttft.run().prompts()).isEqualTo(OptionalInt.of(320));
    assertThat(ttft.measured()).isEqualTo(118.4);
    assertThat(ttft.engine()).isEqualTo("vllm");
    assertThat(metric(r.cases(), Metric.TPOT_MS).measured()).isEqualTo(23.1);
    assertThat(metric(r.cases(), Metric.OUT_TOK_S_PER_CHIP).measured()).isEqualTo(1338.6);
  }

  @Test
  void throughputPerChip_isTheSystemsOverItsChips() throws IOException {
    BenchmarkResults.Read r =
        BenchmarkResults.read(sample("vllm-bench-serve.json"), "vllm.json", H100_X2);
    // 1,338.6 output tokens/s over 2 chips = 669.3 per chip
    assertThat(metric(r.cases(), Metric.OUT_TOK_S_PER_CHIP).measured()).isEqualTo(669.3);
    assertThat(r.cases().get(0).weights()).contains("fp8");
  }

  @Test
  void sglang_jsonLines_eachLineAPoint_aPoissonRunNotUsedWithWhy() throws IOException {
    BenchmarkResults.Read r =
        BenchmarkResults.read(sample("sglang-bench-serving.jsonl"), "sg.jsonl", H100);
    assertThat(r.format()).isEqualTo(BenchmarkResults.Format.SGLANG);
    // line 1: 16 clients (request_rate Infinity); line 2: Poisson at 4 requests/s
    assertThat(r.cases()).hasSize(3);
    assertThat(r.cases().get(0).load()).isEqualTo(OptionalInt.of(16));
    assertThat(r.cases().get(0).engine()).isEqualTo("sglang");
    // 245,760 / 160 = 1,536 tokens: the mean, whatever the range ratio (0.5) was
    assertThat(r.cases().get(0).isl()).isEqualTo(OptionalInt.of(1536));
    assertThat(r.cases().get(0).run().rangeRatio().getAsDouble()).isEqualTo(1.0);
    assertThat(r.unused()).singleElement().asString().startsWith("sg.jsonl line 2: a Poisson run");
  }

  @Test
  void aiperf_metricObjects_andTheLoadgenConcurrency() throws IOException {
    BenchmarkResults.Read r =
        BenchmarkResults.read(sample("aiperf-profile-export.json"), "aiperf.json", H100);
    assertThat(r.format()).isEqualTo(BenchmarkResults.Format.AIPERF);
    ValidationCase ttft = metric(r.cases(), Metric.MEDIAN_TTFT_MS);
    assertThat(ttft.measured()).isEqualTo(88.1);
    assertThat(ttft.load()).isEqualTo(OptionalInt.of(8));
    assertThat(ttft.isl()).isEqualTo(OptionalInt.of(1000));
    assertThat(metric(r.cases(), Metric.TPOT_MS).measured()).isEqualTo(11.6);
    assertThat(metric(r.cases(), Metric.OUT_TOK_S_PER_CHIP).measured()).isEqualTo(668.2);
  }

  @Test
  void guidellm_eachBenchmarkAPoint_synchronousIsOneClient_aRateRunNotUsed() throws IOException {
    BenchmarkResults.Read r = BenchmarkResults.read(sample("guidellm-report.json"), "g.json", H100);
    assertThat(r.format()).isEqualTo(BenchmarkResults.Format.GUIDELLM);
    // benchmark 1: synchronous = 1 client; benchmark 2: 16 streams; benchmark 3: constant rate
    assertThat(r.cases()).hasSize(6);
    assertThat(r.cases().get(0).load()).isEqualTo(OptionalInt.of(1));
    assertThat(r.cases().get(0).metric()).isEqualTo(Metric.MEDIAN_TTFT_MS);
    assertThat(r.cases().get(0).measured()).isEqualTo(68.9);
    // the median from percentiles.p50 where the statistic has no median
    assertThat(r.cases().get(3).measured()).isEqualTo(95.5);
    assertThat(r.cases().get(3).load()).isEqualTo(OptionalInt.of(16));
    // 1,024 prompt tokens per request, the mean
    assertThat(r.cases().get(3).isl()).isEqualTo(OptionalInt.of(1024));
    assertThat(metric(r.cases().subList(3, 6), Metric.OUT_TOK_S_PER_CHIP).measured())
        .isEqualTo(1630.0);
    assertThat(r.unused())
        .singleElement()
        .asString()
        .startsWith("g.json benchmark 3: a GuideLLM 'constant' run");
  }

  @Test
  void allPromptsAtOnce_isABurstOfThePrompts() {
    String text =
        "{\"num_prompts\": 500, \"request_rate\": \"inf\", \"max_concurrency\": null,"
            + " \"completed\": 500, \"total_input_tokens\": 1000000, \"total_output_tokens\":"
            + " 500000, \"output_throughput\": 9000, \"median_ttft_ms\": 15000, \"mean_tpot_ms\":"
            + " 40}";
    BenchmarkResults.Read r = BenchmarkResults.read(text, "burst.json", H100);
    assertThat(r.cases().get(0).mode()).isEqualTo(Mode.BURST);
    assertThat(r.cases().get(0).load()).isEmpty();
    assertThat(r.cases().get(0).run().prompts()).isEqualTo(OptionalInt.of(500));
  }

  @Test
  void badValues_areRefusedNamingFileAndKey() {
    String base =
        "{\"request_rate\": \"inf\", \"max_concurrency\": 4, \"completed\": 10,"
            + " \"total_input_tokens\": 1000, \"total_output_tokens\": 100, \"median_ttft_ms\": 5,"
            + " \"mean_tpot_ms\": 2, \"output_throughput\": %s}";
    assertThatThrownBy(() -> BenchmarkResults.read(String.format(base, "-1"), "f.json", H100))
        .hasMessage("f.json: 'output_throughput' must be a positive finite number: -1");
    assertThatThrownBy(() -> BenchmarkResults.read(String.format(base, "NaN"), "f.json", H100))
        .hasMessageStartingWith("f.json: 'output_throughput' must be a positive finite number:")
        .hasMessageContaining("NaN");
    assertThatThrownBy(() -> BenchmarkResults.read(String.format(base, "\"fast\""), "f.json", H100))
        .hasMessageContaining("'output_throughput' must be a positive finite number");
    assertThatThrownBy(() -> BenchmarkResults.read("{\"a\": 1}", "f.json", H100))
        .hasMessageStartingWith("f.json: not a known benchmark result");
    assertThatThrownBy(
            () ->
                BenchmarkResults.read(
                    "{\"completed\": 1, \"total_input_tokens\": 1, \"median_ttft_ms\": 1}",
                    "f.json",
                    H100))
        .hasMessage("f.json: missing 'total_output_tokens'");
    assertThatThrownBy(() -> BenchmarkResults.read("{\"a\": 1} x", "f.json", H100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("f.json");
  }

  @Test
  void detection_byFirstCharacter() {
    assertThat(BenchmarkResults.isResultFile("\uFEFF  {\"a\":1}")).isTrue();
    assertThat(BenchmarkResults.isResultFile("case_id,point_id\n")).isFalse();
    assertThat(BenchmarkResults.isResultFile("")).isFalse();
  }

  @Test
  void measuredSystem_rejectsNonPositiveCounts() {
    assertThatThrownBy(
            () ->
                new BenchmarkResults.MeasuredSystem(
                    "m", "c", 0, 1, 1, 1, Optional.empty(), Optional.empty()))
        .hasMessage("chips must be at least 1: 0");
  }
}
