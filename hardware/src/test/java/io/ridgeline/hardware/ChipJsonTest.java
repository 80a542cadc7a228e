package io.ridgeline.hardware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ridgeline.core.Precision;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ChipJsonTest {
  @TempDir Path dir;

  private IllegalArgumentException failure(String json) throws IOException {
    Path file = HardwareFixtures.write(dir, "my.json", json);
    return assertThrows(IllegalArgumentException.class, () -> Chips.fromJson(file));
  }

  private String file() {
    return dir.resolve("my.json").toString();
  }

  @Test
  void fromJson_validObject_readsEveryField() throws IOException {
    Path file = HardwareFixtures.write(dir, "my.json", HardwareFixtures.NPU_JSON);

    Chip chip = Chips.fromJson(file).get(0);

    assertThat(chip.id()).isEqualTo("my-npu");
    assertThat(chip.vendor()).isEqualTo("Acme");
    assertThat(chip.peak(Precision.BF16).orElseThrow().flopsPerSecond()).isEqualTo(400e12);
    assertThat(chip.mainMemory().bandwidth().bytesPerSecond()).isEqualTo(2.4e12);
    assertThat(chip.mainMemory().latency().orElseThrow().seconds()).isEqualTo(500e-9);
    assertThat(chip.mainMemory().source()).isEqualTo(file.toString());
    assertThat(chip.scaleUp().orElseThrow().domainSize()).isEqualTo(8);
    assertThat(chip.scaleOut().orElseThrow().bandwidthPerDirection().bytesPerSecond())
        .isEqualTo(50e9);
    assertThat(chip.tdp().orElseThrow().watts()).isEqualTo(600);
    assertThat(chip.pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(2.5);
    assertThat(chip.sources()).containsEntry("peak_tflops", "Acme datasheet 2026");
    assertThat(chip.notes()).isEqualTo("made up");
    // 400e12 FLOP/s / 2.4e12 B/s = 166.67 FLOP/B
    assertThat(chip.ridgePoint(Precision.BF16).flopsPerByte()).isCloseTo(166.667, within());
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(0.001);
  }

  @Test
  void fromJson_validObject_equalsTheBuilderChipOnSharedFields() throws IOException {
    Chip fromFile =
        Chips.fromJson(HardwareFixtures.write(dir, "my.json", HardwareFixtures.NPU_JSON)).get(0);
    Chip built = HardwareFixtures.npu();

    assertThat(fromFile.peaks()).isEqualTo(built.peaks());
    assertThat(fromFile.toComputeTarget().ridgePoint(Precision.FP8))
        .isEqualTo(built.toComputeTarget().ridgePoint(Precision.FP8));
  }

  @Test
  void fromJson_minimalArray_readsChipsInOrderWithDefaults() throws IOException {
    Path file =
        HardwareFixtures.write(
            dir,
            "two.json",
            """
            [ {"id": "a", "name": "A", "peak_tflops": {"bf16": 1},
               "memory": [{"kind": "GDDR", "capacity_gb": 8, "bandwidth_gbps": 500}],
               "scale_out": {"bandwidth_gbps_per_direction": 25, "domain_size": 64}},
              {"id": "b", "name": "B", "peak_tflops": {"fp16": 2},
               "memory": [{"kind": "sram", "capacity_gb": 0.2, "bandwidth_gbps": 9000}]} ]
            """);

    List<Chip> chips = Chips.fromJson(file);

    assertThat(chips).extracting(Chip::id).containsExactly("a", "b");
    assertThat(chips.get(0).mainMemory().name()).isEqualTo("gddr");
    assertThat(chips.get(0).vendor()).isEmpty();
    Interconnect out = chips.get(0).scaleOut().orElseThrow();
    assertThat(out.name()).isEqualTo("scale-out");
    assertThat(out.latency().seconds()).isCloseTo(5e-6, org.assertj.core.data.Offset.offset(1e-15));
    assertThat(out.source()).contains("assumed default 5.0 µs");
  }

  @Test
  void fromJson_exampleResource_parses() throws IOException {
    try (InputStream in = Chips.class.getResourceAsStream("example-chip.json")) {
      List<Chip> chips = ChipJson.parse(in, "example-chip.json");

      assertThat(chips).hasSize(1);
      assertThat(chips.get(0).memory()).hasSize(2);
    }
  }

  @Test
  void fromJson_malformedJson_namesFileLineAndColumn() throws IOException {
    IllegalArgumentException e = failure("{\n  \"id\": \"x\",\n  \"name\": }\n");

    assertThat(e.getMessage()).startsWith(file() + ": malformed JSON at line 3, column");
  }

  @Test
  void fromJson_missingId_namesFileAndField() throws IOException {
    IllegalArgumentException e =
        failure(
            """
            {"name": "X", "peak_tflops": {"bf16": 1},
             "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwidth_gbps": 1}]}
            """);

    assertThat(e.getMessage()).isEqualTo(file() + ": id is required but missing");
  }

  @Test
  void fromJson_negativeBandwidth_namesFileFieldRuleAndValue() throws IOException {
    IllegalArgumentException e =
        failure(
            """
            {"id": "x", "name": "X", "peak_tflops": {"bf16": 1},
             "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwidth_gbps": -3}]}
            """);

    assertThat(e.getMessage())
        .isEqualTo(file() + ": memory[0].bandwidth_gbps must be a positive number: -3");
  }

  @Test
  void fromJson_achievableMatmulFraction_readAndElseTheTypicalOne() throws IOException {
    Path file =
        HardwareFixtures.write(
            dir,
            "my.json",
            """
            [{"id": "x", "name": "X", "peak_tflops": {"bf16": 1}, "achievable_matmul_fraction": 0.6,
              "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwidth_gbps": 1}]},
             {"id": "y", "name": "Y", "peak_tflops": {"bf16": 1},
              "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwidth_gbps": 1}]}]
            """);
    List<Chip> chips = Chips.fromJson(file);
    assertThat(chips.get(0).achievableMatmulFraction()).hasValue(0.6);
    assertThat(chips.get(0).matmulFraction()).isEqualTo(0.6);
    // unmeasured: the median of the MAMF table's twelve accelerators
    assertThat(chips.get(1).achievableMatmulFraction()).isEmpty();
    assertThat(chips.get(1).matmulFraction()).isEqualTo(Chip.TYPICAL_MATMUL_FRACTION);
  }

  @Test
  void fromJson_achievableMatmulFractionAboveOne_namesFieldRuleAndValue() throws IOException {
    IllegalArgumentException e =
        failure(
            """
            {"id": "x", "name": "X", "peak_tflops": {"bf16": 1}, "achievable_matmul_fraction": 1.2,
             "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwidth_gbps": 1}]}
            """);

    assertThat(e.getMessage())
        .isEqualTo(file() + ": achievable_matmul_fraction must be in [0.001, 1]: 1.2");
  }

  @Test
  void builtInCatalog_achievableMatmulFractions_fromTheMamfTable() {
    // MAMF / peak of the BF16 table (stas00/ml-engineering): H100 794.5 / 989 = 0.803, H200 the
    // same silicon, B200 0.776, GB200 0.729, MI300X 668.4 / 1,300 = 0.514; L40S unmeasured
    assertThat(Chips.byId("h100-sxm").achievableMatmulFraction()).hasValue(0.803);
    assertThat(Chips.byId("h200-sxm").achievableMatmulFraction()).hasValue(0.803);
    assertThat(Chips.byId("b200").achievableMatmulFraction()).hasValue(0.776);
    assertThat(Chips.byId("gb200").achievableMatmulFraction()).hasValue(0.729);
    assertThat(Chips.byId("mi300x").achievableMatmulFraction()).hasValue(0.514);
    assertThat(Chips.byId("h100-sxm").sources()).containsKey("achievable_matmul_fraction");
    assertThat(Chips.byId("l40s").achievableMatmulFraction()).isEmpty();
    assertThat(Chips.byId("l40s").matmulFraction()).isEqualTo(0.781);
  }

  @Test
  void fromJson_narrowMatmulFractions_readByPrecision() throws IOException {
    Path file =
        HardwareFixtures.write(
            dir,
            "my.json",
            """
            {"id": "x", "name": "X", "peak_tflops": {"bf16": 1, "fp8": 2},
             "achievable_matmul_fraction": 0.8, "narrow_matmul_fractions": {"fp8": 0.7},
             "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwidth_gbps": 1}]}
            """);
    Chip chip = Chips.fromJson(file).get(0);
    assertThat(chip.narrowMatmulFractions()).containsExactly(Map.entry(Precision.FP8, 0.7));
    assertThat(chip.matmulFraction(Precision.FP8)).isEqualTo(0.7);
  }

  @Test
  void fromJson_narrowMatmulFractionAboveOneOrNotAnObject_namesFieldRuleAndValue()
      throws IOException {
    IllegalArgumentException above =
        failure(
            """
            {"id": "x", "name": "X", "peak_tflops": {"bf16": 1, "fp8": 2},
             "narrow_matmul_fractions": {"fp8": 1.2},
             "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwidth_gbps": 1}]}
            """);
    assertThat(above.getMessage())
        .isEqualTo(file() + ": narrow_matmul_fractions.fp8 must be in [0.001, 1]: 1.2");
    IllegalArgumentException notObject =
        failure(
            """
            {"id": "x", "name": "X", "peak_tflops": {"bf16": 1, "fp8": 2},
             "narrow_matmul_fractions": 0.7,
             "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwidth_gbps": 1}]}
            """);
    assertThat(notObject.getMessage())
        .isEqualTo(
            file()
                + ": narrow_matmul_fractions must be an object of precision id to achievable"
                + " matmul fraction: 0.7");
  }

  @Test
  void builtInCatalog_narrowMatmulFractions_fromTheMamfTableAndTheFp4Ratio() {
    // the FP8 table: H100 1,402.6 / 1,979 = 0.709, H200 0.734, B200 0.763, GB200 0.723; FP4 on
    // the B200 die: FP8's figure x (3,904.3 / 9,000) / (2,544.7 / 4,500) = x 0.767, B200 0.763 x
    // 0.767 = 0.585, GB200 0.723 x 0.767 = 0.555; the B300's FP4, unmeasured, takes its FP8 0.745;
    // MI300X has no FP8 row and keeps its BF16 0.514
    assertThat(Chips.byId("h100-sxm").matmulFraction(Precision.FP8)).isEqualTo(0.709);
    assertThat(Chips.byId("h200-sxm").matmulFraction(Precision.FP8)).isEqualTo(0.734);
    assertThat(Chips.byId("b200").matmulFraction(Precision.FP8)).isEqualTo(0.763);
    assertThat(Chips.byId("b200").matmulFraction(Precision.FP4)).isEqualTo(0.585);
    assertThat(Chips.byId("gb200").matmulFraction(Precision.FP8)).isEqualTo(0.723);
    assertThat(Chips.byId("gb200").matmulFraction(Precision.FP4)).isEqualTo(0.555);
    assertThat(Chips.byId("b300").matmulFraction(Precision.FP4)).isEqualTo(0.745);
    assertThat(Chips.byId("mi300x").matmulFraction(Precision.FP8)).isEqualTo(0.514);
    assertThat(Chips.byId("h100-sxm").sources()).containsKey("narrow_matmul_fractions");
  }

  @Test
  void fromJson_bandwidthAsString_isRejected() throws IOException {
    IllegalArgumentException e =
        failure(
            """
            {"id": "x", "name": "X", "peak_tflops": {"bf16": 1},
             "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwidth_gbps": "3350"}]}
            """);

    assertThat(e.getMessage())
        .isEqualTo(file() + ": memory[0].bandwidth_gbps must be a positive number: \"3350\"");
  }

  @Test
  void fromJson_unknownPrecision_listsKnownIds() throws IOException {
    IllegalArgumentException e =
        failure(
            """
            {"id": "x", "name": "X", "peak_tflops": {"bf17": 1},
             "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwidth_gbps": 1}]}
            """);

    assertThat(e.getMessage())
        .startsWith(file() + ": peak_tflops.bf17 is not a known precision")
        .contains("did you mean 'bf16'")
        .contains(Precision.ids());
  }

  @Test
  void fromJson_mxfp4Peak_asksForFp4() throws IOException {
    IllegalArgumentException e =
        failure(
            """
            {"id": "x", "name": "X", "peak_tflops": {"mxfp4": 1},
             "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwidth_gbps": 1}]}
            """);

    assertThat(e.getMessage())
        .startsWith(file() + ": peak_tflops.mxfp4: give the mxfp4 peak as fp4");
  }

  @Test
  void fromJson_unknownKey_namesKeyAndSuggestsClosest() throws IOException {
    IllegalArgumentException e =
        failure(
            """
            {"id": "x", "name": "X", "peak_tflops": {"bf16": 1},
             "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwith_gbps": 1}]}
            """);

    assertThat(e.getMessage())
        .startsWith(file() + ": memory[0].bandwith_gbps is not a known key")
        .contains("did you mean 'bandwidth_gbps'");
  }

  @Test
  void fromJson_unknownMemoryKind_listsKinds() throws IOException {
    IllegalArgumentException e =
        failure(
            """
            {"id": "x", "name": "X", "peak_tflops": {"bf16": 1},
             "memory": [{"kind": "hbm3e", "capacity_gb": 1, "bandwidth_gbps": 1}]}
            """);

    assertThat(e.getMessage())
        .isEqualTo(
            file()
                + ": memory[0].kind must be one of hbm, gddr, sram, ddr, lpddr, unified:"
                + " \"hbm3e\"");
  }

  @Test
  void fromJson_duplicateTierNames_namesFileAndRule() throws IOException {
    IllegalArgumentException e =
        failure(
            """
            {"id": "x", "name": "X", "peak_tflops": {"bf16": 1},
             "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwidth_gbps": 1},
                        {"kind": "hbm", "capacity_gb": 2, "bandwidth_gbps": 2}]}
            """);

    assertThat(e.getMessage()).startsWith(file() + ": chip x: memory tier names must be unique");
  }

  @Test
  void fromJson_badDomainSizeInArray_namesChipIndex() throws IOException {
    IllegalArgumentException e =
        failure(
            """
            [{"id": "x", "name": "X", "peak_tflops": {"bf16": 1},
              "memory": [{"kind": "hbm", "capacity_gb": 1, "bandwidth_gbps": 1}],
              "scale_up": {"bandwidth_gbps_per_direction": 100, "domain_size": 0.5}}]
            """);

    assertThat(e.getMessage())
        .isEqualTo(
            file() + ": [0].scale_up.domain_size must be a whole number of chips, at least 1: 0.5");
  }

  @Test
  void fromJson_duplicateIds_areRejected() throws IOException {
    String chip =
        "{\"id\": \"x\", \"name\": \"X\", \"peak_tflops\": {\"bf16\": 1}, \"memory\": [{\"kind\":"
            + " \"hbm\", \"capacity_gb\": 1, \"bandwidth_gbps\": 1}]}";
    IllegalArgumentException e = failure("[" + chip + ", " + chip.replace("\"x\"", "\"X\"") + "]");

    assertThat(e.getMessage()).isEqualTo(file() + ": [1].id must be unique in the file: \"X\"");
  }

  @Test
  void fromJson_duplicateKey_isMalformed() throws IOException {
    IllegalArgumentException e = failure("{\"id\": \"a\", \"id\": \"b\"}");

    assertThat(e.getMessage()).startsWith(file() + ": malformed JSON at line 1").contains("id");
  }

  @Test
  void fromJson_emptyFileOrWrongRoot_saysWhatWasExpected() throws IOException {
    assertThat(failure("").getMessage())
        .isEqualTo(file() + ": file is empty; expected a chip object or an array of chip objects");
    assertThat(failure("42").getMessage())
        .isEqualTo(file() + ": expected a chip object or an array of chip objects, found: 42");
    assertThat(failure("[]").getMessage()).contains("the array is empty");
  }

  @Test
  void fromJson_missingFile_saysNotFound() {
    Path missing = dir.resolve("nope.json");

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Chips.fromJson(missing));

    assertThat(e.getMessage()).isEqualTo(missing + ": no such file");
  }
}
