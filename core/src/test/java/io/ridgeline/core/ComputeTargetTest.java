package io.ridgeline.core;

import static io.ridgeline.core.CoreFixtures.H100_BF16;
import static io.ridgeline.core.CoreFixtures.H100_FP8;
import static io.ridgeline.core.CoreFixtures.H100_HBM;
import static io.ridgeline.core.CoreFixtures.h100;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Peaks, precision fallback, ridge points, attainable FLOP/s and validation of a target. */
final class ComputeTargetTest {

  private static ComputeTarget only(Precision precision, double teraFlops) {
    return ComputeTarget.builder()
        .name("only-" + precision.id())
        .putPeak(precision, FlopsPerSecond.ofTera(teraFlops))
        .putTierBandwidth("hbm", BytesPerSecond.ofTerabytes(3.35))
        .mainTier("hbm")
        .build();
  }

  // ---- ridge point and attainable --------------------------------------------------------------

  @Test
  void ridgePoint_h100Bf16_isPeakOverBandwidth() {
    // 989.4e12 FLOP/s / 3.35e12 B/s = 295.343 FLOP/B
    FlopsPerByte ridge = h100().ridgePoint(Precision.BF16);
    assertThat(ridge.flopsPerByte()).isCloseTo(295.34, within(0.01));
    assertThat(ridge.flopsPerByte()).isCloseTo(H100_BF16 / H100_HBM, within(1e-9));
    assertThat(ridge).hasToString("295.343 FLOP/B");
  }

  @Test
  void ridgePoint_h100Fp8_isTwiceAsHigh() {
    // 1978.9e12 / 3.35e12 = 590.716 FLOP/B
    assertThat(h100().ridgePoint(Precision.FP8).flopsPerByte()).isCloseTo(590.716, within(1e-3));
  }

  @Test
  void ridgePoint_withEfficiencies_usesEffectivePeakAndBandwidth() {
    // (989.4e12 · 0.5) / (3.35e12 · 0.8) = 494.7e12 / 2.68e12 = 184.590 FLOP/B
    ComputeTarget t = h100().withEfficiency(0.5, 0.8, 1.0);
    assertThat(t.ridgePoint(Precision.BF16).flopsPerByte()).isCloseTo(184.590, within(1e-3));
  }

  @Test
  void attainable_belowRidge_isIntensityTimesBandwidth() {
    // 1 FLOP/B · 3.35e12 B/s = 3.35e12 FLOP/s, below the 989.4e12 roof
    assertThat(h100().attainable(FlopsPerByte.of(1), Precision.BF16).flopsPerSecond())
        .isEqualTo(3.35e12);
  }

  @Test
  void attainable_aboveRidge_isPeak() {
    // 1000 FLOP/B · 3.35e12 = 3.35e15 > 989.4e12, so the roof
    assertThat(h100().attainable(FlopsPerByte.of(1000), Precision.BF16))
        .isEqualTo(FlopsPerSecond.ofTera(989.4));
    assertThat(h100().attainable(FlopsPerByte.of(1000), Precision.FP8))
        .isEqualTo(FlopsPerSecond.ofTera(1978.9));
  }

  @Test
  void attainable_zeroIntensity_isZero() {
    assertThat(h100().attainable(FlopsPerByte.ZERO, Precision.BF16)).isEqualTo(FlopsPerSecond.ZERO);
  }

  @Test
  void attainable_withEfficiencies_scalesRoofAndSlope() {
    ComputeTarget t = h100().withEfficiency(0.5, 0.8, 1.0);
    // slope: 1 FLOP/B · 3.35e12 · 0.8 = 2.68e12 FLOP/s
    assertThat(t.attainable(FlopsPerByte.of(1), Precision.BF16).flopsPerSecond())
        .isCloseTo(2.68e12, within(1.0));
    // roof: 989.4e12 · 0.5 = 494.7e12 FLOP/s
    assertThat(t.attainable(FlopsPerByte.of(1e6), Precision.BF16).flopsPerSecond())
        .isCloseTo(494.7e12, within(1.0));
  }

  // ---- effective precision ---------------------------------------------------------------------

  @Test
  void effectivePrecision_nativePeak_isItself() {
    assertThat(h100().effectivePrecision(Precision.FP8)).isEqualTo(Precision.FP8);
    assertThat(h100().peak(Precision.FP8).flopsPerSecond()).isEqualTo(H100_FP8);
    assertThat(h100().peak(Precision.BF16).flopsPerSecond()).isEqualTo(H100_BF16);
  }

  @Test
  void effectivePrecision_fp8OnBf16OnlyTarget_fallsBackToBf16() {
    ComputeTarget a100 = only(Precision.BF16, 312);
    assertThat(a100.effectivePrecision(Precision.FP8)).isEqualTo(Precision.BF16);
    assertThat(a100.peak(Precision.FP8)).isEqualTo(FlopsPerSecond.ofTera(312));
  }

  @Test
  void effectivePrecision_mxfp4_usesFp4Peak() {
    ComputeTarget b200 =
        ComputeTarget.builder()
            .from(h100())
            .name("b200-like")
            .putPeak(Precision.FP4, FlopsPerSecond.ofTera(9000))
            .build();
    assertThat(b200.effectivePrecision(Precision.MXFP4)).isEqualTo(Precision.FP4);
    assertThat(b200.peak(Precision.MXFP4)).isEqualTo(FlopsPerSecond.ofTera(9000));
  }

  @Test
  void effectivePrecision_mxfp4WithoutFp4_fallsBackToFp8() {
    assertThat(h100().effectivePrecision(Precision.MXFP4)).isEqualTo(Precision.FP8);
  }

  @ParameterizedTest(name = "{0} on h100-like runs at {1}")
  @CsvSource({
    "BF16, BF16",
    "FP16, BF16",
    "FP8, FP8",
    "INT8, FP8",
    "FP4, FP8",
    "MXFP4, FP8",
    "INT4, FP8"
  })
  void effectivePrecision_h100_followsFallbackOrder(Precision asked, Precision expected) {
    assertThat(h100().effectivePrecision(asked)).isEqualTo(expected);
  }

  @Test
  void effectivePrecision_fp32OnFp8OnlyTarget_throwsListingWhatItHas() {
    ComputeTarget t = only(Precision.FP8, 1978.9);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> t.effectivePrecision(Precision.FP32));
    assertThat(e)
        .hasMessageContaining("only-fp8")
        .hasMessageContaining("fp32")
        .hasMessageContaining("it has: fp8");
    assertThrows(IllegalArgumentException.class, () -> t.peak(Precision.BF16));
  }

  // ---- tiers -----------------------------------------------------------------------------------

  @Test
  void tierFor_placedKind_usesPlacementElseMainTier() {
    ComputeTarget t = CoreFixtures.h100WithSram();
    assertThat(t.tierFor(DataKind.WEIGHTS)).isEqualTo("sram");
    assertThat(t.tierFor(DataKind.KV_READ)).isEqualTo("hbm");
    assertThat(t.tierFor(DataKind.ACTIVATIONS)).isEqualTo("hbm");
    assertThat(t.mainBandwidth()).isEqualTo(BytesPerSecond.ofTerabytes(3.35));
    assertThat(t.tierNames()).containsExactly("hbm", "sram");
  }

  @Test
  void defaults_efficienciesOneAndNoLink() {
    ComputeTarget t = h100();
    assertThat(t.computeEfficiency()).isEqualTo(1.0);
    assertThat(t.memoryEfficiency()).isEqualTo(1.0);
    assertThat(t.networkEfficiency()).isEqualTo(1.0);
    assertThat(t.linkBandwidth()).isEmpty();
    assertThat(t.linkLatency()).isEqualTo(Seconds.ZERO);
  }

  @Test
  void withEfficiency_setsAllThree() {
    ComputeTarget t = h100().withEfficiency(0.7, 0.8, 0.9);
    assertThat(t.computeEfficiency()).isEqualTo(0.7);
    assertThat(t.memoryEfficiency()).isEqualTo(0.8);
    assertThat(t.networkEfficiency()).isEqualTo(0.9);
    assertThat(t.peaks()).isEqualTo(h100().peaks());
  }

  // ---- precision scales ------------------------------------------------------------------------

  @Test
  void computeScale_ofThePeakKeyMathRunsAt_elseOne() {
    // FP8 at 0.883 of the BF16 share: INT8 on a target without an INT8 peak runs at the FP8 peak,
    // so its scale too; BF16 is unlisted
    ComputeTarget t =
        ComputeTarget.builder().from(h100()).putPrecisionScale(Precision.FP8, 0.883).build();
    assertThat(t.computeScale(Precision.FP8)).isEqualTo(0.883);
    assertThat(t.computeScale(Precision.INT8)).isEqualTo(0.883);
    assertThat(t.computeScale(Precision.BF16)).isEqualTo(1);
    assertThat(h100().computeScale(Precision.FP8)).isEqualTo(1);
  }

  @Test
  void precisionScale_appliesToAttainableRidgeAndEvaluate() {
    // compute 0.8 × scale 0.5 on the FP8 key: the roof is 1,978.9e12 × 0.4 = 791.56e12 FLOP/s,
    // the ridge 791.56e12 / 3.35e12 = 236.287 FLOP/B, an 8192³ FP8 GEMM 2·8192³ / 791.56e12 =
    // 1.38904 ms; BF16 keeps 0.8 of its peak
    ComputeTarget t =
        ComputeTarget.builder()
            .from(h100())
            .computeEfficiency(0.8)
            .putPrecisionScale(Precision.FP8, 0.5)
            .build();
    assertThat(t.attainable(FlopsPerByte.of(1e6), Precision.FP8).flopsPerSecond())
        .isCloseTo(791.56e12, within(1e6));
    assertThat(t.ridgePoint(Precision.FP8).flopsPerByte()).isCloseTo(236.287, within(1e-3));
    assertThat(Roofline.evaluate(CoreFixtures.gemm(Precision.FP8), t).computeSeconds().seconds())
        .isCloseTo(1.38904e-3, within(1e-8));
    assertThat(Roofline.evaluate(CoreFixtures.gemm(), t).computeSeconds().seconds())
        .isEqualTo(2 * Math.pow(8192, 3) / (H100_BF16 * 0.8));
    assertThat(t.toString()).contains("fp8 compute x0.500");
  }

  @Test
  void precisionScale_productAboveOneOrWithoutPeak_rejectedNamingField() {
    IllegalArgumentException above =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ComputeTarget.builder()
                    .from(h100())
                    .computeEfficiency(0.8)
                    .putPrecisionScale(Precision.FP8, 1.5)
                    .build());
    assertThat(above)
        .hasMessage(
            "target h100-like: compute efficiency x precision scale of fp8 must be in (0, 1]:"
                + " 1.2000000000000002");
    IllegalArgumentException noPeak =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ComputeTarget.builder().from(h100()).putPrecisionScale(Precision.FP4, 0.9).build());
    assertThat(noPeak)
        .hasMessage(
            "target h100-like: precision scale of fp4 names a precision without a peak; peaks:"
                + " [bf16, fp8]");
  }

  // ---- validation ------------------------------------------------------------------------------

  @ParameterizedTest(name = "compute efficiency {0} is rejected")
  @ValueSource(doubles = {0.0, -0.1, 1.5, Double.NaN, Double.POSITIVE_INFINITY})
  void computeEfficiency_outOfRange_rejectedNamingField(double e) {
    IllegalArgumentException ex =
        assertThrows(IllegalArgumentException.class, () -> h100().withEfficiency(e, 1, 1));
    assertThat(ex)
        .hasMessageContaining("h100-like")
        .hasMessageContaining("compute efficiency")
        .hasMessageContaining(String.valueOf(e));
  }

  @ParameterizedTest(name = "memory efficiency {0} is rejected")
  @ValueSource(doubles = {0.0, 1.5, Double.NaN})
  void memoryEfficiency_outOfRange_rejectedNamingField(double e) {
    IllegalArgumentException ex =
        assertThrows(
            IllegalArgumentException.class,
            () -> ComputeTarget.builder().from(h100()).memoryEfficiency(e).build());
    assertThat(ex)
        .hasMessageContaining("memory efficiency")
        .hasMessageContaining(String.valueOf(e));
  }

  @ParameterizedTest(name = "network efficiency {0} is rejected")
  @ValueSource(doubles = {0.0, 1.5, Double.NaN})
  void networkEfficiency_outOfRange_rejectedNamingField(double e) {
    IllegalArgumentException ex =
        assertThrows(IllegalArgumentException.class, () -> h100().withEfficiency(1, 1, e));
    assertThat(ex)
        .hasMessageContaining("network efficiency")
        .hasMessageContaining(String.valueOf(e));
  }

  @Test
  void efficiency_exactlyOne_accepted() {
    assertThat(h100().withEfficiency(1.0, 1.0, 1.0)).isEqualTo(h100());
  }

  @Test
  void build_noPeaks_rejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ComputeTarget.builder()
                    .name("empty")
                    .putTierBandwidth("hbm", BytesPerSecond.ofTerabytes(1))
                    .mainTier("hbm")
                    .build());
    assertThat(e).hasMessageContaining("empty").hasMessageContaining("peaks");
  }

  @Test
  void build_mainTierNotATier_rejectedListingTiers() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ComputeTarget.builder().from(h100()).mainTier("dram").build());
    assertThat(e).hasMessageContaining("'dram'").hasMessageContaining("hbm");
  }

  @Test
  void build_placementOnUnknownTier_rejectedNamingKindAndTier() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ComputeTarget.builder()
                    .from(h100())
                    .putPlacement(DataKind.KV_READ, "sram")
                    .build());
    assertThat(e)
        .hasMessageContaining("kv_read")
        .hasMessageContaining("'sram'")
        .hasMessageContaining("hbm");
  }

  @Test
  void build_zeroBandwidth_rejectedNamingTier() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ComputeTarget.builder()
                    .from(h100())
                    .putTierBandwidth("sram", BytesPerSecond.ZERO)
                    .build());
    assertThat(e)
        .hasMessageContaining("sram")
        .hasMessageContaining("positive")
        .hasMessageContaining("0 B/s");
  }

  @Test
  void build_zeroPeak_rejectedNamingPrecision() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ComputeTarget.builder()
                    .from(h100())
                    .putPeak(Precision.FP4, FlopsPerSecond.ZERO)
                    .build());
    assertThat(e).hasMessageContaining("fp4").hasMessageContaining("positive");
  }

  @Test
  void build_zeroLinkBandwidth_rejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ComputeTarget.builder().from(h100()).linkBandwidth(BytesPerSecond.ZERO).build());
    assertThat(e).hasMessageContaining("link bandwidth");
  }
}
