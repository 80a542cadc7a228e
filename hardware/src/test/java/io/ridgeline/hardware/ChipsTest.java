package io.ridgeline.hardware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.Precision;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.stream.Collectors;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

final class ChipsTest {
  private static final List<String> REQUIRED_IDS =
      List.of(
          "a100-sxm-80gb",
          "a100-sxm-40gb",
          "a100-pcie-80gb",
          "h100-sxm",
          "h100-pcie",
          "h200-sxm",
          "gh200",
          "h800",
          "h20",
          "b200",
          "b300",
          "gb200",
          "gb300",
          "l40s",
          "l4",
          "rtx-4090",
          "rtx-pro-6000-blackwell",
          "mi300x",
          "mi325x",
          "mi355x",
          "tpu-v4",
          "tpu-v5e",
          "tpu-v5p",
          "tpu-v6e",
          "tpu-v7",
          "trainium2",
          "gaudi2",
          "gaudi3",
          "groq-lpu",
          "cerebras-wse3",
          "sambanova-sn40l");

  private static final Offset<Double> EXACT = within(1e-6);

  @Test
  void builtIn_always_holdsEveryRequiredId() {
    assertThat(Chips.ids()).containsAll(REQUIRED_IDS);
  }

  @Test
  void builtIn_always_holdsOneChipPerReferenceRow() {
    List<Map<String, String>> rows = HardwareFixtures.referenceRows();
    List<String> rowIds = rows.stream().map(r -> r.get("chip_id")).collect(Collectors.toList());
    List<String> chipRows =
        Chips.all().stream()
            .map(c -> c.sources().get("reference_row").replace("reference/chips.csv chip_id=", ""))
            .collect(Collectors.toList());

    assertThat(rows).hasSize(39);
    assertThat(Chips.all()).hasSize(39);
    assertThat(chipRows).containsExactlyElementsOf(rowIds);
  }

  @Test
  void builtIn_always_matchesTheReferenceTable() {
    // every published dense peak, main-tier bandwidth and scale-up figure survives the conversion
    Map<String, Precision> peakColumns =
        Map.of(
            "fp32_vector_tflops", Precision.FP32,
            "tf32_tflops", Precision.TF32,
            "bf16_tflops", Precision.BF16,
            "fp16_tflops", Precision.FP16,
            "fp8_tflops", Precision.FP8,
            "fp4_tflops", Precision.FP4,
            "int8_tops", Precision.INT8,
            "int4_tops", Precision.INT4);
    List<Chip> chips = Chips.all();
    List<Map<String, String>> rows = HardwareFixtures.referenceRows();
    for (int i = 0; i < rows.size(); i++) {
      Map<String, String> row = rows.get(i);
      Chip chip = chips.get(i);
      for (Map.Entry<String, Precision> column : peakColumns.entrySet()) {
        String cell = row.get(column.getKey());
        if (!cell.isEmpty()) {
          assertThat(chip.peaks().get(column.getValue()).tera())
              .as("%s %s", chip.id(), column.getValue())
              .isCloseTo(Double.parseDouble(cell), EXACT);
        }
      }
      if (!row.get("mem_bw_gbps").isEmpty()) {
        assertThat(chip.mainMemory().bandwidth().bytesPerSecond() / 1e9)
            .as("%s main bandwidth", chip.id())
            .isCloseTo(Double.parseDouble(row.get("mem_bw_gbps")), EXACT);
        assertThat(chip.mainMemory().capacity().gigabytes())
            .as("%s main capacity", chip.id())
            .isCloseTo(Double.parseDouble(row.get("mem_capacity_gb")), EXACT);
      }
      if (!row.get("scaleup_bw_unidir_gbps").isEmpty()) {
        assertThat(chip.scaleUp().orElseThrow().bandwidthPerDirection().bytesPerSecond() / 1e9)
            .as("%s scale-up", chip.id())
            .isCloseTo(Double.parseDouble(row.get("scaleup_bw_unidir_gbps")), EXACT);
      }
    }
  }

  @Test
  void builtIn_always_carriesSources() {
    for (Chip chip : Chips.all()) {
      assertThat(chip.sources()).as(chip.id()).containsKeys("reference_row", "peak_tflops");
      assertThat(chip.sources().get("peak_tflops")).as(chip.id()).isNotBlank();
      chip.memory().forEach(t -> assertThat(t.source()).as(chip.id()).isNotBlank());
      chip.scaleUp().ifPresent(l -> assertThat(l.source()).contains("assumption"));
      chip.scaleOut().ifPresent(l -> assertThat(l.source()).contains("assumption"));
      chip.tdp().ifPresent(w -> assertThat(chip.sources()).as(chip.id()).containsKey("tdp_w"));
      chip.pricePerHour()
          .ifPresent(
              p -> assertThat(chip.sources()).as(chip.id()).containsKey("price_per_hour_usd"));
    }
  }

  @Test
  void builtIn_chipsWithoutPublishedPeaks_markTheirEstimate() {
    for (Chip chip : List.of(Chips.CEREBRAS_WSE3, Chips.APPLE_M3_ULTRA, Chips.APPLE_M4_MAX)) {
      assertThat(chip.sources().get("peak_tflops")).as(chip.id()).startsWith("estimate");
    }
    // Cerebras: 125 PFLOP/s sparse FP16 / 2 = 62.5 PFLOP/s dense
    assertThat(Chips.CEREBRAS_WSE3.peak(Precision.FP16).orElseThrow().tera()).isEqualTo(62_500);
  }

  @Test
  void constants_always_pointAtCatalogEntries() {
    assertThat(Chips.H100_SXM).isSameAs(Chips.byId("h100-sxm"));
    assertThat(Chips.A100_SXM_80GB).isSameAs(Chips.byId("a100-sxm-80gb"));
    assertThat(Chips.TPU_V5E).isSameAs(Chips.byId("tpu-v5e"));
    assertThat(Chips.builtIn()).isSameAs(Chips.builtIn());
  }

  @Test
  void ridgePoint_h100SxmBf16_isPeakOverHbmBandwidth() {
    // 989.4e12 FLOP/s / 3.35e12 B/s = 295.343 FLOP/B
    assertThat(Chips.H100_SXM.ridgePoint(Precision.BF16).flopsPerByte())
        .isCloseTo(295.343, within(0.001));
  }

  @Test
  void peak_b200Mxfp4_isItsFp4Peak() {
    // MXFP4 runs on the FP4 tensor cores: 9,000 TFLOP/s dense
    assertThat(Chips.B200.peak(Precision.MXFP4)).isEqualTo(Chips.B200.peak(Precision.FP4));
    assertThat(Chips.B200.peak(Precision.MXFP4).orElseThrow().tera()).isCloseTo(9000, EXACT);
  }

  @Test
  void mainMemory_groqLpu_isSram230MbAt80TBps() {
    MemoryTier main = Chips.GROQ_LPU.mainMemory();

    assertThat(main.kind()).isEqualTo(MemoryKind.SRAM);
    assertThat(main.capacity().bytes()).isCloseTo(230e6, within(1.0));
    assertThat(main.bandwidth().terabytes()).isCloseTo(80, EXACT);
    assertThat(Chips.GROQ_LPU.memory()).hasSize(1);
  }

  @Test
  void memory_sambanovaSn40l_hasHbmSramAndDdrTiers() {
    assertThat(Chips.SAMBANOVA_SN40L.memory())
        .extracting(MemoryTier::kind)
        .containsExactly(MemoryKind.HBM, MemoryKind.SRAM, MemoryKind.DDR);
    assertThat(Chips.SAMBANOVA_SN40L.memory().get(1).source()).startsWith("estimate");
  }

  @Test
  void mainMemory_perChipFamily_isTheDocumentedTier() {
    assertThat(Chips.CEREBRAS_WSE3.mainMemory().kind()).isEqualTo(MemoryKind.SRAM);
    assertThat(Chips.APPLE_M3_ULTRA.mainMemory().kind()).isEqualTo(MemoryKind.UNIFIED);
    assertThat(Chips.L40S.mainMemory().kind()).isEqualTo(MemoryKind.GDDR);
    assertThat(Chips.GB200.memory())
        .extracting(MemoryTier::kind)
        .containsExactly(MemoryKind.HBM, MemoryKind.LPDDR);
  }

  @Test
  void onChip_everyKind_onlySram() {
    // Efficiency.sramOnly: a chip whose every tier is on-chip runs as a dataflow machine
    assertThat(Arrays.stream(MemoryKind.values()).filter(MemoryKind::onChip))
        .containsExactly(MemoryKind.SRAM);
    assertThat(Chips.GROQ_LPU.memory()).allMatch(t -> t.kind().onChip());
    assertThat(Chips.SAMBANOVA_SN40L.memory()).anyMatch(t -> !t.kind().onChip());
  }

  @Test
  void scaleUp_h800_is200GBpsPerDirection() {
    // NVLink capped at 400 GB/s bidirectional = 200 GB/s each way
    Interconnect link = Chips.H800.scaleUp().orElseThrow();

    assertThat(link.bandwidthPerDirection().bytesPerSecond()).isEqualTo(200e9);
    assertThat(link.domainSize()).isEqualTo(8);
  }

  @Test
  void scaleUp_bidirectionalOnly_isHalved() {
    // Groq C2C 480 GB/s bidirectional / 2 = 240 GB/s per direction
    assertThat(Chips.GROQ_LPU.scaleUp().orElseThrow().bandwidthPerDirection().bytesPerSecond())
        .isEqualTo(240e9);
  }

  @Test
  void scaleOut_h100Sxm_isNicGbitOver8() {
    // 400 Gb/s / 8 = 50 GB/s per direction
    assertThat(Chips.H100_SXM.scaleOut().orElseThrow().bandwidthPerDirection().bytesPerSecond())
        .isEqualTo(50e9);
  }

  @Test
  void pricePerHour_h100Sxm_isTheCapacityBlockRate() {
    assertThat(Chips.H100_SXM.pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(4.916);
    assertThat(Chips.H100_SXM.sources().get("price_per_hour_usd")).contains("$4.916/GPU-hr");
  }

  @Test
  void ridgePoint_a100Sxm40gbBf16_isPeakOverHbm2Bandwidth() {
    // 312e12 FLOP/s / 1.555e12 B/s = 200.643 FLOP/B (same compute as the 80 GB part, slower HBM2)
    assertThat(Chips.A100_SXM_40GB.ridgePoint(Precision.BF16).flopsPerByte())
        .isCloseTo(200.643, within(0.001));
    assertThat(Chips.A100_SXM_40GB.mainMemory().capacity().gigabytes()).isEqualTo(40);
    // NVLink 3: 600 GB/s bidirectional / 2 = 300 GB/s per direction, 8-GPU NVSwitch domain
    assertThat(Chips.A100_SXM_40GB.scaleUp().orElseThrow().bandwidthPerDirection().bytesPerSecond())
        .isEqualTo(300e9);
    // Lambda A100 40GB list, verified May 7, 2026 (techbytes.app): $1.48 per GPU-hour
    assertThat(Chips.A100_SXM_40GB.pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(1.48);
  }

  @Test
  void ridgePoint_a100Pcie80gbBf16_isPeakOverHbm2eBandwidth() {
    // 312e12 FLOP/s / 1.935e12 B/s = 161.240 FLOP/B
    assertThat(Chips.A100_PCIE_80GB.ridgePoint(Precision.BF16).flopsPerByte())
        .isCloseTo(161.240, within(0.001));
    // NVLink bridge joins card pairs only
    assertThat(Chips.A100_PCIE_80GB.scaleUp().orElseThrow().domainSize()).isEqualTo(2);
    assertThat(Chips.A100_PCIE_80GB.tdp().orElseThrow().watts()).isEqualTo(300);
    // Spheron on-demand A100 80GB PCIe, 2026-06-03: $1.48 per GPU-hour
    assertThat(Chips.A100_PCIE_80GB.pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(1.48);
  }

  @Test
  void ridgePoint_gh200Bf16_isH100ComputeOverHbm3At4TBps() {
    // dense bf16 = 1,979 sparse / 2 = 989.4 TFLOP/s; 989.4e12 / 4.0e12 B/s = 247.35 FLOP/B
    assertThat(Chips.GH200.ridgePoint(Precision.BF16).flopsPerByte())
        .isCloseTo(247.35, within(0.001));
    // Grace LPDDR5X reached over NVLink-C2C: 480 GB at 900 GB/s bidirectional / 2 = 450 GB/s
    MemoryTier grace = Chips.GH200.memory().get(1);
    assertThat(grace.kind()).isEqualTo(MemoryKind.LPDDR);
    assertThat(grace.capacity().gigabytes()).isEqualTo(480);
    assertThat(grace.bandwidth().bytesPerSecond()).isEqualTo(450e9);
    assertThat(Chips.GH200.pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(1.49);
  }

  @Test
  void ridgePoint_l4_isPeakOverGddr6At300GBps() {
    // bf16 242 sparse / 2 = 121 TFLOP/s; 121e12 / 300e9 B/s = 403.333 FLOP/B
    // fp8 485 sparse / 2 = 242.5 TFLOP/s; 242.5e12 / 300e9 = 808.333 FLOP/B
    assertThat(Chips.L4.ridgePoint(Precision.BF16).flopsPerByte())
        .isCloseTo(403.333, within(0.001));
    assertThat(Chips.L4.ridgePoint(Precision.FP8).flopsPerByte()).isCloseTo(808.333, within(0.001));
    assertThat(Chips.L4.mainMemory().kind()).isEqualTo(MemoryKind.GDDR);
    // Modal L4, verified May 7, 2026 (techbytes.app): $0.7992 per GPU-hour
    assertThat(Chips.L4.pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(0.7992);
  }

  @Test
  void ridgePoint_gaudi2Bf16_isMmePeakOverHbm2e() {
    // Intel Hot Chips 2024: 432 TFLOP/s bf16, 2.46 TB/s HBM2e; 432e12 / 2.46e12 = 175.610 FLOP/B
    assertThat(Chips.GAUDI2.ridgePoint(Precision.BF16).flopsPerByte())
        .isCloseTo(175.610, within(0.001));
    // fp8 865e12 / 2.46e12 = 351.626 FLOP/B
    assertThat(Chips.GAUDI2.ridgePoint(Precision.FP8).flopsPerByte())
        .isCloseTo(351.626, within(0.001));
    assertThat(Chips.GAUDI2.tdp().orElseThrow().watts()).isEqualTo(600);
    // 21 scale-up RoCE ports x 100 Gb/s / 8 = 262.5 GB/s per direction
    assertThat(Chips.GAUDI2.scaleUp().orElseThrow().bandwidthPerDirection().bytesPerSecond())
        .isEqualTo(262.5e9);
    // Intel Developer Cloud: $10.42/h per 8-card node / 8 = $1.3025 per card-hour
    assertThat(Chips.GAUDI2.pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(1.3025);
  }

  @Test
  void ridgePoint_tpuV6eBf16_isPeakOverHbm() {
    // 918e12 FLOP/s / 1.638e12 B/s = 560.440 FLOP/B
    assertThat(Chips.TPU_V6E.ridgePoint(Precision.BF16).flopsPerByte())
        .isCloseTo(560.440, within(0.001));
    assertThat(Chips.TPU_V6E.pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(2.70);
  }

  @Test
  void ridgePoint_h100PcieBf16_isPeakOverHbm2e() {
    // 756.5e12 FLOP/s / 2.0e12 B/s = 378.25 FLOP/B
    assertThat(Chips.H100_PCIE.ridgePoint(Precision.BF16).flopsPerByte())
        .isCloseTo(378.25, within(0.001));
    // Lambda 1x H100 PCIe, verified May 7, 2026 (techbytes.app): $2.86 per GPU-hour
    assertThat(Chips.H100_PCIE.pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(2.86);
  }

  @Test
  void pricePerHour_l40s_isModalOnDemand() {
    // Modal L40S, verified May 7, 2026 (techbytes.app): $1.9512 per GPU-hour
    assertThat(Chips.L40S.pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(1.9512);
    assertThat(Chips.L40S.sources().get("price_per_hour_usd")).contains("[S-MODAL-TB]");
  }

  @Test
  void pricePerHour_blackwellAndInstinct_onDemandListPrices() {
    // Spheron on-demand as of 17 March 2026: B200 $6.03/h; GB200 $9.08/h per Superchip of 2 GPUs
    assertThat(Chips.byId("b200").pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(6.03);
    assertThat(Chips.byId("gb200").pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(4.54);
    // TensorWave, research note of 2026-05-18: MI300X $1.50, MI325X $1.95 per GPU-hour
    assertThat(Chips.byId("mi300x").pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(1.50);
    assertThat(Chips.byId("mi325x").pricePerHour().orElseThrow().dollarsPerHour()).isEqualTo(1.95);
    assertThat(Chips.byId("mi355x").pricePerHour()).isEmpty();
  }

  @Test
  void pricePerHour_onDemandPrices_nameTheirSourceAndDate() {
    for (Chip chip : Chips.all()) {
      String source = chip.sources().get("price_per_hour_usd");
      if (source != null && source.startsWith("on-demand")) {
        assertThat(source).as(chip.id()).containsPattern("\\[S-[A-Z0-9-]+\\]");
        assertThat(source).as(chip.id()).containsPattern("20[0-9][0-9]");
      }
    }
    assertThat(Chips.all().stream().filter(c -> c.pricePerHour().isPresent()).count())
        .isEqualTo(18);
  }

  @Test
  void byId_anyCase_findsTheChip() {
    assertThat(Chips.byId("H100-SXM")).isSameAs(Chips.H100_SXM);
  }

  @Test
  void byId_unknownId_listsIdsAndSuggestsClosest() {
    NoSuchElementException e =
        assertThrows(NoSuchElementException.class, () -> Chips.byId("h100-sx"));

    assertThat(e.getMessage())
        .contains("'h100-sx'")
        .contains("did you mean 'h100-sxm'")
        .contains("a100-sxm-80gb", "mi300x", "tpu-v7");
  }

  @Test
  void toComputeTarget_h100Sxm_carriesPeaksTiersAndNvlink() {
    ComputeTarget target = Chips.H100_SXM.toComputeTarget();

    assertThat(target.name()).isEqualTo("h100-sxm");
    assertThat(target.mainTier()).isEqualTo("hbm");
    assertThat(target.mainBandwidth().bytesPerSecond()).isEqualTo(3.35e12);
    assertThat(target.linkBandwidth().orElseThrow().bytesPerSecond()).isEqualTo(450e9);
    assertThat(target.linkLatency().seconds()).isCloseTo(1e-6, within(1e-15));
    assertThat(target.ridgePoint(Precision.BF16))
        .isEqualTo(Chips.H100_SXM.ridgePoint(Precision.BF16));
  }

  @Test
  void toComputeTarget_everyChip_builds() {
    for (Chip chip : Chips.all()) {
      ComputeTarget target = chip.toComputeTarget();
      assertThat(target.tierNames()).hasSize(chip.memory().size());
    }
  }

  @Test
  void toString_h100Sxm_showsUnits() {
    assertThat(Chips.H100_SXM.toString())
        .startsWith("h100-sxm (NVIDIA H100 SXM5 80GB): bf16 989.4 TFLOP/s")
        .contains("hbm 80 GB @ 3.35 TB/s")
        .contains("450 GB/s per direction")
        .contains("1 µs per hop")
        .contains("700 W")
        .contains("4.916 $/h");
  }

  @Test
  void toString_builtInCatalog_listsCountAndIds() {
    assertThat(Chips.builtIn().toString())
        .startsWith("ChipCatalog[39 chips: a100-sxm-80gb, a100-sxm-40gb, a100-pcie-80gb, h100-sxm");
  }
}
