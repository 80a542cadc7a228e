package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ChipSetOptionTest {

  private static CliRun roofline8b(String chip, String... chipSet) {
    String[] base = {
      "roofline",
      "--model",
      "llama-3.1-8b",
      "--chip",
      chip,
      "--batch",
      "1",
      "--context",
      "1024",
      "--json"
    };
    String[] args = java.util.Arrays.copyOf(base, base.length + chipSet.length);
    System.arraycopy(chipSet, 0, args, base.length, chipSet.length);
    return CliRun.of(args);
  }

  @Test
  void chipSet_twiceTheBandwidth_namesTheChipAndHalvesTheMemoryBoundStep() throws Exception {
    CliRun base = roofline8b("h100-sxm");
    CliRun twice = roofline8b("h100-sxm", "--chip-set", "h100-sxm:bandwidth_gbps=2x");
    assertThat(twice.code()).as(twice.err()).isZero();
    assertThat(twice.json().get("chip").asText()).isEqualTo("h100-sxm*");
    assertThat(twice.err())
        .isEqualTo("what-if: h100-sxm* is h100-sxm with memory[0].bandwidth_gbps 3350 -> 6700\n");
    // the decode FFN of one sequence is memory-bound: its time halves with 2x the bandwidth
    JsonNode ffn = phase(base.json(), "decode_ffn");
    JsonNode ffn2 = phase(twice.json(), "decode_ffn");
    assertThat(ffn2.get("seconds").asDouble())
        .isCloseTo(ffn.get("seconds").asDouble() / 2, within(1e-9));
  }

  @Test
  void chipSet_quantityAndTierName_equalTheNumberInTheFileUnit() throws Exception {
    // 4.8 TB/s = 4800 GB/s, the hbm tier is memory[0]
    CliRun quantity = roofline8b("h100-sxm", "--chip-set", "h100-sxm:hbm.bandwidth_gbps=4.8TB/s");
    CliRun number = roofline8b("h100-sxm", "--chip-set", "h100-sxm:memory[0].bandwidth_gbps=4800");
    assertThat(quantity.code()).as(quantity.err()).isZero();
    assertThat(quantity.out()).isEqualTo(number.out());
  }

  @Test
  void chipSet_badField_andBadValue_failInOneLine() {
    CliRun field = roofline8b("h100-sxm", "--chip-set", "h100-sxm:hbm_bw=4800");
    assertThat(field.code()).isEqualTo(1);
    // the chip file's own message: the key, the closest known one and every known key
    assertThat(field.err())
        .startsWith("ridgeline: --chip-set h100-sxm: hbm_bw is not a known key; did you mean");
    CliRun negative = roofline8b("h100-sxm", "--chip-set", "h100-sxm:bandwidth_gbps=-1");
    assertThat(negative.err())
        .isEqualTo(
            "ridgeline: --chip-set h100-sxm: memory[0].bandwidth_gbps must be a positive number:"
                + " -1.0\n");
    CliRun starred = roofline8b("h100-sxm*");
    assertThat(starred.err())
        .isEqualTo(
            "ridgeline: chip 'h100-sxm*' is a what-if: give --chip-set h100-sxm:FIELD=VALUE\n");
  }

  @Test
  void frontier_chipAndItsWhatIf_areComparedOnOneTable() throws Exception {
    String[] args = {
      "frontier",
      "--model",
      "llama-3.1-70b",
      "--chip",
      "h100-sxm,h100-sxm*",
      "--chip-set",
      "h100-sxm:bandwidth_gbps=2x",
      "--count",
      "8",
      "--max-batch",
      "1"
    };
    CliRun r = CliRun.of(args);
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).containsPattern("(?m)^h100-sxm x8 +1 ");
    assertThat(r.out()).containsPattern("(?m)^h100-sxm\\* x8 +1 ");
    // the catalog's chip decodes as it does alone; twice its HBM bandwidth decodes faster
    List<String> json = new ArrayList<>(List.of(args));
    json.add("--json");
    JsonNode both = CliRun.of(json.toArray(String[]::new)).json();
    JsonNode alone =
        CliRun.of(
                "frontier",
                "--model",
                "llama-3.1-70b",
                "--chip",
                "h100-sxm",
                "--count",
                "8",
                "--max-batch",
                "1",
                "--json")
            .json();
    double catalog = both.get("systems").get(0).get("points").get(0).get("tpot_seconds").asDouble();
    double whatIf = both.get("systems").get(1).get("points").get(0).get("tpot_seconds").asDouble();
    assertThat(catalog).isEqualTo(alone.get("points").get(0).get("tpot_seconds").asDouble());
    assertThat(whatIf).isLessThan(catalog);
  }

  @Test
  void export_readsBackThroughAdd(@TempDir Path dir) throws Exception {
    CliRun export = CliRun.of("chips", "--export", "h100-sxm");
    assertThat(export.code()).as(export.err()).isZero();
    Path file = dir.resolve("mine.json");
    Files.writeString(file, export.out().replace("\"h100-sxm\"", "\"my-h100\""));
    CliRun listed = CliRun.of("chips", "--add", file.toString());
    assertThat(listed.code()).as(listed.err()).isZero();
    assertThat(listed.out()).containsPattern("(?m)^my-h100 +NVIDIA H100 SXM5 80GB +989 +1979 ");
    // the exported what-if carries its change
    CliRun whatIf =
        CliRun.of("chips", "--export", "h100-sxm*", "--chip-set", "h100-sxm:capacity_gb=141");
    assertThat(whatIf.out()).contains("\"id\" : \"h100-sxm*\"").contains("\"capacity_gb\" : 141.0");
  }

  @Test
  void chipSet_wholeNumberField_staysWhole_andUnitsRoundTo12Digits() {
    // 8 chips × 2 = 16, read back as a whole number; 500 ns written 500, not 500.00000000000006
    CliRun r =
        CliRun.of(
            "chips",
            "--export",
            "h100-sxm*",
            "--chip-set",
            "h100-sxm:scale_up.domain_size=2x,latency_ns=500ns");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("\"domain_size\" : 16,").contains("\"latency_ns\" : 500.0,");
    assertThat(r.err())
        .isEqualTo(
            "what-if: h100-sxm* is h100-sxm with scale_up.domain_size 8 -> 16,"
                + " memory[0].latency_ns (unset) -> 500\n");
  }

  private static JsonNode phase(JsonNode report, String name) {
    for (JsonNode p : report.get("phases")) {
      if (p.get("phase").asText().equals(name)) {
        return p;
      }
    }
    throw new AssertionError(name);
  }
}
