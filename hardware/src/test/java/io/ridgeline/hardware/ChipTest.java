package io.ridgeline.hardware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.FlopsPerSecond;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Seconds;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

final class ChipTest {
  private static final MemoryTier HBM =
      MemoryTier.of(MemoryKind.HBM, Bytes.ofGigabytes(80), BytesPerSecond.ofTerabytes(3.35));

  @Test
  void builder_userChip_computesRidgePointAndTarget() {
    Chip npu = HardwareFixtures.npu();

    // 800e12 FLOP/s / 2.4e12 B/s = 333.33 FLOP/B
    assertThat(npu.ridgePoint(Precision.FP8).flopsPerByte())
        .isCloseTo(333.333, org.assertj.core.data.Offset.offset(0.001));
    ComputeTarget target = npu.toComputeTarget();
    assertThat(target.name()).isEqualTo("my-npu");
    assertThat(target.linkBandwidth().orElseThrow().bytesPerSecond()).isEqualTo(200e9);
    assertThat(npu.scaleOut()).isEmpty();
  }

  @Test
  void ridgePoint_missingPrecision_namesChipAndPrecision() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> HardwareFixtures.npu().ridgePoint(Precision.FP4));

    assertThat(e.getMessage()).isEqualTo("chip my-npu has no fp4 peak; it has: bf16, fp8");
  }

  @Test
  void toComputeTarget_noScaleUp_usesScaleOut() {
    Interconnect roce =
        Interconnect.builder()
            .name("RoCE")
            .scope(Interconnect.Scope.SCALE_OUT)
            .bandwidthPerDirection(BytesPerSecond.ofGigabytes(50))
            .latency(Seconds.ofMicros(5))
            .domainSize(1024)
            .build();
    Chip chip = chip().scaleOut(roce).build();

    assertThat(chip.toComputeTarget().linkBandwidth()).contains(BytesPerSecond.ofGigabytes(50));
    assertThat(chip().build().toComputeTarget().linkBandwidth()).isEmpty();
  }

  @Test
  void build_noPeaks_isRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Chip.builder().id("x").name("X").addMemory(HBM).build());

    assertThat(e.getMessage()).isEqualTo("chip x: peaks must not be empty");
  }

  @Test
  void build_achievableMatmulFractionOutsideZeroToOne_isRejected() {
    for (double bad : new double[] {0, 1.5, Double.NaN}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> chip().achievableMatmulFraction(bad).build());

      assertThat(e.getMessage())
          .isEqualTo("chip x: achievable matmul fraction must be in (0, 1]: " + bad);
    }
    // 1 is allowed: the best matmul reaches the peak
    assertThat(chip().achievableMatmulFraction(1.0).build().matmulFraction()).isEqualTo(1.0);
  }

  @Test
  void matmulFraction_ofAPrecision_ownElseNarrowestWiderMeasuredElseBf16() {
    // BF16 0.8, FP8 0.7 measured: FP8 math 0.7; FP4, unmeasured and narrower, the FP8 figure (the
    // narrowest measured format wider than 4 bits); INT8 (8 bits, FP8 is not wider) and BF16 0.8
    Chip c =
        chip()
            .putPeak(Precision.FP8, FlopsPerSecond.ofTera(200))
            .putPeak(Precision.FP4, FlopsPerSecond.ofTera(400))
            .putPeak(Precision.INT8, FlopsPerSecond.ofTera(200))
            .achievableMatmulFraction(0.8)
            .putNarrowMatmulFraction(Precision.FP8, 0.7)
            .build();
    assertThat(c.matmulFraction(Precision.FP8)).isEqualTo(0.7);
    assertThat(c.matmulFraction(Precision.FP4)).isEqualTo(0.7);
    assertThat(c.matmulFraction(Precision.MXFP4)).isEqualTo(0.7);
    assertThat(c.matmulFraction(Precision.INT8)).isEqualTo(0.8);
    assertThat(c.matmulFraction(Precision.BF16)).isEqualTo(0.8);
    // nothing measured: the typical fraction for every precision
    assertThat(chip().build().matmulFraction(Precision.FP8))
        .isEqualTo(Chip.TYPICAL_MATMUL_FRACTION);
  }

  @Test
  void build_narrowMatmulFraction_wideKeyNoPeakOrOutOfRange_isRejected() {
    IllegalArgumentException wide =
        assertThrows(
            IllegalArgumentException.class,
            () -> chip().putNarrowMatmulFraction(Precision.BF16, 0.8).build());
    assertThat(wide.getMessage())
        .isEqualTo(
            "chip x: narrow achievable matmul fractions are keyed by a peak precision narrower"
                + " than 16 bits: bf16");
    IllegalArgumentException noPeak =
        assertThrows(
            IllegalArgumentException.class,
            () -> chip().putNarrowMatmulFraction(Precision.FP8, 0.7).build());
    assertThat(noPeak.getMessage())
        .isEqualTo(
            "chip x: achievable matmul fraction of fp8 names a precision without a peak; peaks:"
                + " [bf16]");
    IllegalArgumentException above =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                chip()
                    .putPeak(Precision.FP8, FlopsPerSecond.ofTera(200))
                    .putNarrowMatmulFraction(Precision.FP8, 1.2)
                    .build());
    assertThat(above.getMessage())
        .isEqualTo("chip x: achievable matmul fraction of fp8 must be in (0, 1]: 1.2");
  }

  @Test
  void build_mxfp4Key_isRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> chip().putPeak(Precision.MXFP4, FlopsPerSecond.ofTera(1)).build());

    assertThat(e.getMessage())
        .isEqualTo("chip x: peaks are keyed by peak precision; give the mxfp4 peak as fp4");
  }

  @Test
  void build_zeroPeak_isRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> chip().putPeak(Precision.FP8, FlopsPerSecond.ZERO).build());

    assertThat(e.getMessage()).isEqualTo("chip x: peak for fp8 must be positive: 0 FLOP/s");
  }

  @Test
  void build_duplicateTierNames_isRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> chip().addMemory(HBM).build());

    assertThat(e.getMessage())
        .isEqualTo("chip x: memory tier names must be unique: 'hbm' appears twice");
  }

  @Test
  void build_scaleOutInScaleUpSlot_isRejected() {
    Interconnect out =
        Interconnect.builder()
            .name("IB")
            .scope(Interconnect.Scope.SCALE_OUT)
            .bandwidthPerDirection(BytesPerSecond.ofGigabytes(50))
            .latency(Seconds.ofMicros(5))
            .domainSize(16)
            .build();

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> chip().scaleUp(out).build());

    assertThat(e.getMessage())
        .isEqualTo("chip x: scale-up interconnect IB must have scope scale-up: scale-out");
  }

  @Test
  void memoryTier_zeroBandwidth_namesTierRuleAndValue() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> MemoryTier.of(MemoryKind.HBM, Bytes.ofGigabytes(80), BytesPerSecond.ZERO));

    assertThat(e.getMessage()).isEqualTo("memory tier hbm: bandwidth must be positive: 0 B/s");
  }

  @Test
  void memoryTier_zeroCapacity_namesTierRuleAndValue() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> MemoryTier.of(MemoryKind.SRAM, Bytes.ZERO, BytesPerSecond.ofTerabytes(80)));

    assertThat(e.getMessage()).isEqualTo("memory tier sram: capacity must be positive: 0 B");
  }

  @Test
  void memoryTier_of_defaultsNameAndSource() {
    assertThat(HBM.name()).isEqualTo("hbm");
    assertThat(HBM.source()).isEqualTo("user");
    assertThat(HBM.latency()).isEmpty();
  }

  @Test
  void memoryTier_toString_showsUnits() {
    MemoryTier cache =
        MemoryTier.builder()
            .name("cache")
            .kind(MemoryKind.SRAM)
            .capacity(Bytes.ofMegabytes(96))
            .bandwidth(BytesPerSecond.ofTerabytes(12.8))
            .latency(Seconds.of(20e-9))
            .build();

    assertThat(HBM).hasToString("hbm 80 GB @ 3.35 TB/s");
    assertThat(cache).hasToString("cache (sram) 96 MB @ 12.8 TB/s, 20 ns latency");
  }

  @Test
  void interconnect_zeroDomain_isRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Interconnect.builder()
                    .name("NVLink 4")
                    .scope(Interconnect.Scope.SCALE_UP)
                    .bandwidthPerDirection(BytesPerSecond.ofGigabytes(450))
                    .latency(Seconds.ofMicros(1))
                    .domainSize(0)
                    .build());

    assertThat(e.getMessage())
        .isEqualTo("interconnect NVLink 4: domain size must be at least 1: 0");
  }

  @Test
  void interconnect_toString_showsUnits() {
    Interconnect nvlink =
        Interconnect.builder()
            .name("NVLink 4")
            .scope(Interconnect.Scope.SCALE_UP)
            .bandwidthPerDirection(BytesPerSecond.ofGigabytes(450))
            .latency(Seconds.ofMicros(2))
            .domainSize(8)
            .build();

    assertThat(nvlink).hasToString("NVLink 4: 450 GB/s per direction, 2 µs per hop, 8 chips");
  }

  @Test
  void memoryKind_of_isCaseInsensitiveAndRejectsUnknown() {
    assertThat(MemoryKind.of("HBM")).isEqualTo(MemoryKind.HBM);
    assertThat(MemoryKind.of(" lpddr ")).isEqualTo(MemoryKind.LPDDR);

    NoSuchElementException e =
        assertThrows(NoSuchElementException.class, () -> MemoryKind.of("hmb"));

    assertThat(e.getMessage()).contains("unknown memory kind 'hmb'").contains("hbm, gddr, sram");
  }

  @Test
  void toString_userChip_showsPeaksTiersAndLinks() {
    assertThat(HardwareFixtures.npu().toString())
        .isEqualTo(
            "my-npu (My NPU): bf16 400 TFLOP/s, fp8 800 TFLOP/s, hbm 96 GB @ 2.4 TB/s, 500 ns"
                + " latency; scale-up AcmeLink: 200 GB/s per direction, 1 µs per hop, 8 chips");
  }

  private static Chip.Builder chip() {
    return Chip.builder()
        .id("x")
        .name("X")
        .putPeak(Precision.BF16, FlopsPerSecond.ofTera(100))
        .addMemory(HBM);
  }
}
