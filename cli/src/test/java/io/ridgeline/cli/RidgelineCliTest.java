package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class RidgelineCliTest {

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }

  @Test
  void chipsJson_listsCatalogWithContractKeys() throws Exception {
    CliRun r = run("chips", "--json");
    assertThat(r.code()).isZero();
    JsonNode h100 = null;
    for (JsonNode c : r.json()) {
      if (c.get("id").asText().equals("h100-sxm")) {
        h100 = c;
      }
    }
    assertThat(h100).isNotNull();
    assertThat(h100.get("peak_flops").get("bf16").asDouble()).isEqualTo(989.4e12);
    assertThat(h100.get("memory").get(0).get("kind").asText()).isEqualTo("hbm");
    assertThat(h100.get("memory").get(0).get("bandwidth_bytes_per_s").asDouble())
        .isEqualTo(3.35e12);
    // 989.4e12 / 3.35e12 = 295.34 FLOP/B
    assertThat(h100.get("ridge_point").get("bf16").asDouble()).isBetween(295.3, 295.4);
    // the MAMF table's 794.5 of 989 TFLOP/s, with its source; an unmeasured chip the typical 0.781
    assertThat(h100.get("matmul_fraction").asDouble()).isEqualTo(0.803);
    assertThat(h100.get("matmul_fraction_measured").asBoolean()).isTrue();
    assertThat(h100.get("matmul_fraction_source").asText()).contains("ml-engineering");
    // FP8's own share of its peak, 1,402.6 of 1,979 TFLOP/s, from the FP8 table
    assertThat(h100.get("narrow_matmul_fractions").get("fp8").asDouble()).isEqualTo(0.709);
    assertThat(h100.get("narrow_matmul_fractions_source").asText()).contains("FP8");
    for (JsonNode c : r.json()) {
      if (c.get("id").asText().equals("l40s")) {
        assertThat(c.get("matmul_fraction").asDouble()).isEqualTo(0.781);
        assertThat(c.get("matmul_fraction_measured").asBoolean()).isFalse();
        assertThat(c.has("matmul_fraction_source")).isFalse();
      }
    }
  }

  @Test
  void modelsJson_llama70b_hasCounts() throws Exception {
    CliRun r = run("models", "--json");
    assertThat(r.code()).isZero();
    boolean found = false;
    for (JsonNode m : r.json()) {
      if (m.get("id").asText().equals("llama-3.1-70b")) {
        found = true;
        assertThat(m.get("total_params").asDouble()).isBetween(70.5e9, 70.6e9);
        assertThat(m.get("active_params").asDouble()).isBetween(70.5e9, 70.6e9);
        assertThat(m.get("layers").asInt()).isEqualTo(80);
        assertThat(m.get("kv_bytes_per_token").asDouble()).isEqualTo(327_680.0);
      }
    }
    assertThat(found).isTrue();
  }

  @Test
  void rooflineJson_hasContractKeys(@TempDir Path dir) throws Exception {
    Path plot = dir.resolve("roof.svg");
    CliRun r =
        run(
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--context",
            "1024",
            "--efficiency",
            "ideal",
            "--json",
            "--plot",
            plot.toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("model").asText()).isEqualTo("llama-3.1-8b");
    assertThat(j.get("chips").asInt()).isEqualTo(1);
    assertThat(j.get("phases").get(0).get("phase").asText()).isEqualTo("prefill");
    assertThat(j.get("phases").findValuesAsText("phase"))
        .contains("decode_attention", "decode_ffn", "decode_other");
    assertThat(j.get("decode_step_seconds").asDouble()).isBetween(4.4e-3, 4.6e-3);
    assertThat(j.get("memory").get("fits").asBoolean()).isTrue();
    assertThat(j.get("memory").has("weights_bytes_per_chip")).isTrue();
    assertThat(Files.size(plot)).isPositive();
  }

  @Test
  void frontier_table_writesChart(@TempDir Path dir) throws Exception {
    Path plot = dir.resolve("f.png");
    CliRun r =
        run(
            "frontier",
            "--model",
            "llama-3.1-70b",
            "--chip",
            "h100-sxm",
            "--count",
            "8",
            "--isl",
            "512",
            "--osl",
            "256",
            "--plot",
            plot.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("tok/s/chip").contains("*").contains("wrote " + plot);
    assertThat(Files.size(plot)).isPositive();
  }

  @Test
  void frontierJson_pointsHaveContractKeys() throws Exception {
    CliRun r =
        run(
            "frontier",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--isl",
            "256",
            "--osl",
            "64",
            "--max-batch",
            "16",
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode p = r.json().get("points").get(0);
    for (String k :
        new String[] {
          "batch",
          "ttft_seconds",
          "tpot_seconds",
          "tokens_per_second_per_user",
          "tokens_per_second_per_chip",
          "fits",
          "pareto"
        }) {
      assertThat(p.has(k)).as(k).isTrue();
    }
    assertThat(r.json().get("points")).hasSize(5); // 1, 2, 4, 8, 16
  }

  @Test
  void unknownChip_oneLineWithClosestMatch() {
    CliRun r =
        run(
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sx",
            "--batch",
            "1",
            "--context",
            "8");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("ridgeline: unknown chip 'h100-sx'").contains("h100-sxm");
    assertThat(r.err().strip().lines().count()).isEqualTo(1);
  }

  @Test
  void badInput_clearOneLineErrors() {
    CliRun zero =
        run(
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "0",
            "--context",
            "8");
    assertThat(zero.code()).isNotZero();
    assertThat(zero.err().strip()).isEqualTo("ridgeline: --batch must be positive: 0");
    CliRun precision =
        run(
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--context",
            "8",
            "--weights",
            "fp12");
    assertThat(precision.code()).isEqualTo(2);
    assertThat(precision.err())
        .contains("--weights")
        .contains("unknown precision 'fp12'")
        .contains("mxfp4");
    CliRun model = run("frontier", "--model", "llama-9", "--chip", "h100-sxm");
    assertThat(model.err()).contains("unknown model 'llama-9'");
    CliRun notNumber =
        run("frontier", "--model", "llama-3.1-8b", "--chip", "h100-sxm", "--isl", "NaN");
    assertThat(notNumber.code()).isEqualTo(2);
    assertThat(notNumber.err()).contains("--isl");
    CliRun noFit =
        run(
            "frontier",
            "--model",
            "llama-3.1-405b",
            "--chip",
            "h100-sxm",
            "--count",
            "1",
            "--json");
    assertThat(noFit.code()).isEqualTo(1);
    assertThat(noFit.err()).contains("does not fit");
  }

  @Test
  void userFiles_modelConfigAndChipJson(@TempDir Path dir) throws Exception {
    Path cfg = dir.resolve("tiny.json");
    Files.writeString(
        cfg,
        "{\"model_type\":\"llama\",\"hidden_size\":512,\"num_hidden_layers\":4,\"num_attention_heads\":8,\"intermediate_size\":1024,\"vocab_size\":1000}");
    CliRun r =
        run(
            "roofline",
            "--model",
            cfg.toString(),
            "--chip",
            "h100-sxm",
            "--batch",
            "2",
            "--context",
            "64",
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().get("model").asText()).isEqualTo("tiny");
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"model_type\":\"llama\"}");
    CliRun b =
        run(
            "roofline",
            "--model",
            bad.toString(),
            "--chip",
            "h100-sxm",
            "--batch",
            "2",
            "--context",
            "64");
    assertThat(b.err()).contains("bad.json").contains("missing required field 'hidden_size'");
  }

  @Test
  void crossoverJson_llama8b_hasContextOrReason() throws Exception {
    CliRun r =
        run(
            "crossover",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--efficiency",
            "ideal",
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().get("crossover_context").asInt()).isBetween(84_000, 88_000);
    assertThat(r.json().get("reason").isNull()).isTrue();
  }

  @Test
  void intensityJson_rowsPerBatchWithRidge(@TempDir Path dir) throws Exception {
    Path plot = dir.resolve("i.png");
    CliRun r =
        run(
            "intensity",
            "--model",
            "mixtral-8x7b",
            "--chip",
            "h100-sxm",
            "--batches",
            "1,8,64",
            "--efficiency",
            "ideal",
            "--json",
            "--plot",
            plot.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().get("rows")).hasSize(3);
    assertThat(r.json().get("ridge_point").asDouble()).isBetween(295.0, 296.0);
    assertThat(r.json().get("rows").get(0).get("phases").findValuesAsText("phase"))
        .contains("decode_moe");
    assertThat(Files.size(plot)).isPositive();
    CliRun bad =
        run("intensity", "--model", "mixtral-8x7b", "--chip", "h100-sxm", "--batches", "1,0");
    assertThat(bad.err().strip()).isEqualTo("ridgeline: --batches must be positive: 0");
  }

  @Test
  void modelsJson_listsEveryArchitecture() throws Exception {
    CliRun r = run("models", "--json");
    assertThat(r.json().findValuesAsText("id"))
        .contains(
            "mixtral-8x7b",
            "qwen3-30b-a3b",
            "qwen3-235b-a22b",
            "qwen3-next-80b-a3b",
            "deepseek-v2-lite",
            "deepseek-v3",
            "deepseek-v3.2",
            "kimi-k2",
            "gpt-oss-20b",
            "gpt-oss-120b",
            "gemma-2-9b",
            "gemma-3-27b",
            "nemotron-h-56b",
            "nemotron-3-nano-30b-a3b");
  }

  @Test
  void weightOverrides_expertPrecisionChangesMemory() throws Exception {
    CliRun native_ =
        run(
            "roofline",
            "--model",
            "gpt-oss-120b",
            "--chip",
            "h100-sxm",
            "--count",
            "1",
            "--batch",
            "1",
            "--context",
            "1024",
            "--json");
    CliRun bf16 =
        run(
            "roofline",
            "--model",
            "gpt-oss-120b",
            "--chip",
            "h100-sxm",
            "--count",
            "1",
            "--batch",
            "1",
            "--context",
            "1024",
            "--json",
            "--expert-weights",
            "bf16");
    // mxfp4 experts (0.53125 B/element) vs bf16 (2 B): ≈ 3.8× fewer expert bytes
    assertThat(bf16.json().get("memory").get("weights_bytes_per_chip").asDouble())
        .isGreaterThan(3 * native_.json().get("memory").get("weights_bytes_per_chip").asDouble());
  }

  @Test
  void frontier_countOmitted_sizesPoolToFewestChips() throws Exception {
    // 405e9 × 2 B = 811 GB of weights: at least 11 H100s of 80 GB; sized to a tensor- and
    // pipeline-parallel layout that holds one request
    CliRun r =
        run(
            "frontier",
            "--model",
            "llama-3.1-405b",
            "--chip",
            "h100-sxm",
            "--isl",
            "128",
            "--osl",
            "64",
            "--max-batch",
            "4",
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().get("chips").asInt()).isGreaterThanOrEqualTo(11);
    assertThat(r.json().get("points").get(0).get("strategy").asText()).isEqualTo("colocated");
    assertThat(r.json().get("points").get(0).has("dollars_per_million_tokens")).isTrue();
  }

  /** The first line of {@code roofline} for Llama-3.1-70B with FP8 weights on 8 chips. */
  private static String fp8Header(String chip, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "roofline",
                "--model",
                "llama-3.1-70b",
                "--chip",
                chip,
                "--count",
                "8",
                "--batch",
                "1",
                "--context",
                "1024",
                "--weights",
                "fp8",
                "--efficiency",
                "ideal"));
    args.addAll(List.of(extra));
    CliRun r = run(args.toArray(new String[0]));
    assertThat(r.code()).as(r.err()).isZero();
    return r.out().lines().findFirst().orElseThrow();
  }

  @Test
  void roofline_fp8Weights_headerSaysTheComputePrecision() {
    // FP8 units on H100: W8A8; none on A100: weight-only, dequantized to BF16
    assertThat(fp8Header("h100-sxm")).contains("weights fp8, kv bf16, compute fp8 (W8A8); ideal");
    assertThat(fp8Header("a100-sxm-80gb")).contains("compute bf16 (weight-only fp8); ideal");
    // an explicit activation precision keeps weight-only quantization
    assertThat(fp8Header("h100-sxm", "--activations", "bf16"))
        .contains("compute bf16 (weight-only fp8); ideal");
  }
}
