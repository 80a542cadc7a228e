package io.ridgeline.serving;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chip;
import io.ridgeline.serving.efficiency.Efficiency;

/**
 * The efficiency and roofline target a {@link RooflineModel}'s kernels run at: its {@link
 * RooflineModel#efficiency()} scaled to the chip's achievable matmul rate ({@link
 * Chip#matmulFraction()}), per precision. The pool holds the results lazily ({@link
 * RooflineModel#kernelEfficiency()}, {@link RooflineModel#baseTarget()}).
 */
final class KernelTargets {
  private KernelTargets() {}

  /**
   * The efficiency the pool's kernels run at: {@link RooflineModel#efficiency()} with its compute
   * fraction scaled by the chip's achievable matmul fraction ({@link Chip#matmulFraction()}: the
   * best dense matmul's share of peak measured on the chip, since a profile's compute fraction is a
   * share of what the chip's best GEMM reaches, not of its datasheet peak). Unscaled for the
   * roofline bound ({@link Efficiency#isIdeal()}) and on SRAM-only chips, whose floor is the ideal
   * roofline plus latencies ({@link Efficiency#sramFloor}). For example a compute fraction of 0.5
   * on an H100 (0.803) computes at 0.5 × 0.803 = 0.40 of its 989 TFLOP/s BF16 peak, on an MI300X
   * (0.514) at 0.26 of its 1,307.
   */
  static Efficiency kernelEfficiency(RooflineModel m) {
    Efficiency e = m.efficiency();
    if (!atAchievableMatmul(m)) {
      return e;
    }
    return Efficiency.builder().from(e).compute(e.compute() * m.chip().matmulFraction()).build();
  }

  /**
   * Whether the pool's GEMMs compute at a share of the chip's achievable matmul rate ({@link
   * #kernelEfficiency}, {@link #baseTarget}): every calibrated pool but one on an SRAM-only chip;
   * the roofline bound and an SRAM chip's floor compute at the datasheet peak.
   */
  private static boolean atAchievableMatmul(RooflineModel m) {
    return !m.efficiency().isIdeal() && !Efficiency.sramOnly(m.chip());
  }

  /**
   * The chip's target at the pool's kernel efficiency ({@link RooflineModel#kernelEfficiency()}),
   * with each narrow precision's compute scaled by its achievable matmul fraction over the BF16 one
   * ({@link Chip#matmulFraction(Precision)} / {@link Chip#matmulFraction()}, {@link
   * ComputeTarget#precisionScales()}): an H100's FP8 GEMMs at 0.709 / 0.803 = 0.883 of the BF16
   * share of their own peak. None for the roofline bound and on SRAM-only chips, as {@link
   * #kernelEfficiency}.
   */
  static ComputeTarget baseTarget(RooflineModel m) {
    Efficiency e = m.kernelEfficiency();
    ComputeTarget.Builder b =
        ComputeTarget.builder()
            .from(m.chip().toComputeTarget())
            .computeEfficiency(e.compute())
            .memoryEfficiency(e.memory())
            .networkEfficiency(e.network());
    if (atAchievableMatmul(m)) {
      double bf16 = m.chip().matmulFraction();
      for (Precision p : m.chip().peaks().keySet()) {
        double scale = m.chip().matmulFraction(p) / bf16;
        if (scale != 1) {
          b.putPrecisionScale(p, scale);
        }
      }
    }
    return b.build();
  }
}
