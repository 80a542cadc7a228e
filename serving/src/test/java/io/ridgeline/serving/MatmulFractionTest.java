package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.OperationResult;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import org.junit.jupiter.api.Test;

/**
 * A calibrated pool computes at its compute fraction × the chip's achievable matmul fraction of
 * each precision.
 */
final class MatmulFractionTest {
  private static final Efficiency HALF = Efficiency.of(0.5, 1, 1);

  private static RooflineModel pool(String chip, Efficiency e) {
    return RooflineModel.builder()
        .model(Models.byId("llama-3.1-8b"))
        .chip(Chips.byId(chip))
        .efficiency(e)
        .build();
  }

  /** The 8b on {@code chip} with every weight at {@code weights} (GEMMs W8A8 / W4A4), at HALF. */
  private static RooflineModel narrowPool(String chip, Precision weights) {
    return RooflineModel.builder()
        .model(Models.byId("llama-3.1-8b"))
        .chip(Chips.byId(chip))
        .precisions(Models.byId("llama-3.1-8b").defaultPrecisions().withAllWeights(weights))
        .efficiency(HALF)
        .build();
  }

  /**
   * The first operation at {@code precision} with FLOPs in a 4,096-token prefill of {@code pool}.
   */
  private static OperationResult firstPrefillGemm(RooflineModel pool, Precision precision) {
    return pool.prefill(1, 4096).phase(PhaseKind.PREFILL).operations().stream()
        .filter(o -> o.operation().precision() == precision)
        .filter(o -> o.operation().flops().flops() > 0)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void kernelEfficiency_scalesComputeByTheChipsMatmulFraction() {
    // compute 0.5 of the achievable matmul: 0.5 × 0.803 = 0.4015 of an H100's peak, 0.5 × 0.514 =
    // 0.257 of an MI300X's, 0.5 × 0.781 (the typical fraction) of an L40S's
    assertThat(pool("h100-sxm", HALF).kernelEfficiency().compute())
        .isCloseTo(0.4015, withPercentage(1e-9));
    assertThat(pool("mi300x", HALF).kernelEfficiency().compute())
        .isCloseTo(0.257, withPercentage(1e-9));
    assertThat(pool("l40s", HALF).kernelEfficiency().compute())
        .isCloseTo(0.3905, withPercentage(1e-9));
    // the other parameters are the efficiency's own
    assertThat(pool("h100-sxm", HALF).kernelEfficiency().memory()).isEqualTo(1);
  }

  @Test
  void prefill_computeBound_takesOneOverTheFractionLonger() {
    // a 4,096-token prefill of the 8b is compute-bound: at compute 0.5 of the H100's achievable
    // matmul its GEMMs take 1 / (0.5 × 0.803) = 2.49× the bound's time, not 2× (the LM head's
    // one row per prompt and the memory-bound operations keep the whole phase a little under)
    double bound =
        pool("h100-sxm", Efficiency.ideal())
            .prefill(1, 4096)
            .phase(PhaseKind.PREFILL)
            .seconds()
            .seconds();
    double half =
        pool("h100-sxm", HALF).prefill(1, 4096).phase(PhaseKind.PREFILL).seconds().seconds();
    assertThat(half / bound).isBetween(2.3, 2.5);
  }

  @Test
  void fp8Gemms_computeAtTheChipsFp8MatmulFraction() {
    // an FP8 checkpoint on an H100 runs its GEMMs W8A8 at the FP8 peak, whose best matmul reaches
    // 0.709 of it (1,402.6 of 1,978.9 TFLOP/s), not the BF16 table's 0.803: at compute 0.5 an FP8
    // GEMM takes FLOPs / (1,978.9 TFLOP/s × 0.5 × 0.803 × (0.709 / 0.803)) = FLOPs / (1,978.9 ×
    // 0.3545 TFLOP/s)
    RooflineModel fp8 = narrowPool("h100-sxm", Precision.FP8);
    assertThat(fp8.baseTarget().computeScale(Precision.FP8))
        .isCloseTo(0.709 / 0.803, withPercentage(1e-9));
    assertThat(fp8.baseTarget().computeScale(Precision.BF16)).isEqualTo(1);
    OperationResult gemm = firstPrefillGemm(fp8, Precision.FP8);
    assertThat(gemm.computeSeconds().seconds())
        .isCloseTo(
            gemm.operation().flops().flops() / (1978.9e12 * 0.5 * 0.709), withPercentage(1e-6));
    // the bound and a chip without an FP8 measurement keep one fraction for every precision
    assertThat(pool("h100-sxm", Efficiency.ideal()).baseTarget().precisionScales()).isEmpty();
    assertThat(pool("l40s", HALF).baseTarget().precisionScales()).isEmpty();
  }

  @Test
  void fp4Gemms_onTheB200_computeAtItsMeasuredFp4Fraction() {
    // an NVFP4 checkpoint on a B200 runs its GEMMs W4A4 at the FP4 peak, 9,000 TFLOP/s, whose
    // share is the FP8 figure 0.763 × 0.767 (NVFP4's over FP8's share on the same GEMM) = 0.585,
    // not FP8's 0.763: at compute 0.5 an FP4 GEMM takes FLOPs / (9,000 TFLOP/s × 0.5 × 0.585) =
    // FLOPs / (2,632.5 TFLOP/s), its scale against the BF16 share 0.585 / 0.776
    RooflineModel fp4 = narrowPool("b200", Precision.FP4);
    assertThat(fp4.baseTarget().computeScale(Precision.FP4))
        .isCloseTo(0.585 / 0.776, withPercentage(1e-9));
    OperationResult gemm = firstPrefillGemm(fp4, Precision.FP4);
    assertThat(gemm.computeSeconds().seconds())
        .isCloseTo(gemm.operation().flops().flops() / 2632.5e12, withPercentage(1e-6));
  }

  @Test
  void roofLineBoundAndSramChips_unscaled() {
    // the bound is the chip's datasheet peak; an SRAM-only chip's floor is the ideal roofline
    assertThat(pool("h100-sxm", Efficiency.ideal()).kernelEfficiency())
        .isEqualTo(Efficiency.ideal());
    RooflineModel groq =
        RooflineModel.builder()
            .model(Models.byId("llama-3.1-8b"))
            .chip(Chips.byId("groq-lpu"))
            .chips(512)
            .pipelineParallel(32)
            .tensorParallel(16)
            .efficiency(Efficiency.sramFloor(Chips.byId("groq-lpu")))
            .build();
    assertThat(groq.kernelEfficiency()).isEqualTo(groq.efficiency());
  }

  @Test
  void attention_defaultsToTheMemoryFraction() {
    // unset, the KV-reading kernels stream at the other kernels' fraction
    assertThat(Efficiency.of(0.6, 0.7, 0.8).attention()).isEqualTo(0.7);
    assertThat(Efficiency.of(0.6, 0.7, 0.8).toString()).doesNotContain("attention");
    assertThat(Efficiency.ideal().attention()).isEqualTo(1);
  }
}
