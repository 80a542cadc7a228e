package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code roofline --json} lists the roofs its chart draws, and every point it draws lies on or
 * under its own roof: {@code achieved ≤ min(peak, intensity × bandwidth)}.
 */
final class RooflineRoofsTest {
  /** Systems with one precision, with FP8 GEMMs beside BF16 attention, and the roofline bound. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "--model llama-3.1-8b --chip h100-sxm --batch 1 --context 1024",
        "--model llama-3.1-8b --chip h100-sxm --batch 1 --context 1024 --efficiency ideal",
        "--model deepseek-v3 --chip h200-sxm --count 8 --batch 64 --context 4096",
        "--model llama-3.1-70b --chip h100-sxm --count 8 --weights fp8 --batch 256 --context 2048",
        "--model gpt-oss-120b --chip b200 --batch 32 --context 8192"
      })
  void json_everyPoint_liesOnOrUnderItsOwnRoof(String options) throws Exception {
    List<String> args = new ArrayList<>(List.of("roofline", "--json"));
    args.addAll(List.of(options.split(" ")));
    CliRun run = CliRun.of(args.toArray(String[]::new));
    assertThat(run.code()).as(run.err()).isZero();
    JsonNode o = run.json();
    JsonNode roofs = o.get("roofs");
    assertThat(roofs).isNotEmpty();
    for (JsonNode r : roofs) {
      // ridge = peak / bandwidth
      assertThat(r.get("ridge_flops_per_byte").asDouble())
          .isCloseTo(
              r.get("peak_flops_per_second_per_chip").asDouble()
                  / r.get("bandwidth_bytes_per_second_per_chip").asDouble(),
              org.assertj.core.data.Percentage.withPercentage(1e-9));
    }
    assertThat(o.get("roof_points")).isNotEmpty();
    for (JsonNode p : o.get("roof_points")) {
      JsonNode roof = roofs.get(p.get("roof").asInt());
      double attainable =
          Math.min(
              roof.get("peak_flops_per_second_per_chip").asDouble(),
              p.get("intensity").asDouble()
                  * roof.get("bandwidth_bytes_per_second_per_chip").asDouble());
      assertThat(p.get("achieved_flops_per_second_per_chip").asDouble())
          .as("%s under %s", p.get("label"), roof)
          .isLessThanOrEqualTo(attainable * (1 + 1e-12));
      // the datasheet roof of the same precision is above the calibrated one
      for (JsonNode r : roofs) {
        if (r.get("precision").equals(roof.get("precision"))
            && r.get("kind").asText().equals("datasheet")) {
          assertThat(r.get("peak_flops_per_second_per_chip").asDouble())
              .isGreaterThanOrEqualTo(roof.get("peak_flops_per_second_per_chip").asDouble());
        }
      }
    }
  }

  /**
   * H100 SXM, BF16: the datasheet ridge 989.4 TFLOP/s / 3.35 TB/s = 295.3 FLOP/B is listed; the
   * calibrated BF16 roof runs at 67% × 0.803 of the peak and 70% of the bandwidth (ridge 228.6
   * FLOP/B, the text report's ridge point); decode attention's memory fraction (77%) is its own
   * calibrated roof (ridge 207 FLOP/B).
   */
  @org.junit.jupiter.api.Test
  void json_h100_listsDatasheetAndCalibratedRidges() throws Exception {
    CliRun run = CliRun.roofline8b(new String[] {"--context", "1024"}, "--json");
    JsonNode roofs = run.json().get("roofs");
    List<String> kinds = new ArrayList<>();
    for (JsonNode r : roofs) {
      kinds.add(
          r.get("precision").asText()
              + " "
              + r.get("kind").asText()
              + " "
              + r.get("kernels").asText()
              + " "
              + Math.round(r.get("ridge_flops_per_byte").asDouble()));
    }
    // 989.4e12 / 3.35e12 = 295.3; calibrated 228.6 (GEMMs and others) and, at attention's 77% of
    // the bandwidth, 536.1 TFLOP/s / (3.35 TB/s × 0.773) = 207 (attention)
    assertThat(kinds)
        .containsExactly(
            "bf16 datasheet all 295",
            "bf16 calibrated elementwise+gemm 229",
            "bf16 calibrated attention 207");
    assertThat(run.json().get("roof_points").findValuesAsText("label"))
        .contains("decode_attention", "decode_ffn", "prefill: bf16 elementwise+gemm");
  }
}
