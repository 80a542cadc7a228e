package io.ridgeline.serving;

import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import io.ridgeline.serving.efficiency.Efficiency;

/**
 * Pools at {@link Efficiency#ideal()}, the roofline bound: the worked examples of these tests are
 * hand-computed at 100% of peak and bandwidth, while the library's default is {@link
 * Efficiency#standard(Chip)}.
 */
public final class IdealPools {
  private IdealPools() {}

  /** {@code model} on one {@code chip} at the roofline bound. */
  public static RooflineModel of(Model model, Chip chip) {
    return RooflineModel.builder().model(model).chip(chip).efficiency(Efficiency.ideal()).build();
  }

  /**
   * {@code chip} with an achievable matmul fraction of 1 ({@link Chip#matmulFraction()}): its best
   * GEMM reaches the peak at every precision, so that an efficiency that is ideal but for one
   * parameter computes at its own compute fraction of the peak, as these tests' worked examples
   * assume.
   */
  public static Chip atPeakMatmul(Chip chip) {
    return Chip.builder()
        .from(chip)
        .achievableMatmulFraction(1.0)
        .narrowMatmulFractions(java.util.Map.of())
        .build();
  }

  /** {@code model} on {@code count} chips in one tensor-parallel group, at the roofline bound. */
  public static RooflineModel of(Model model, Chip chip, int count) {
    return RooflineModel.builder()
        .model(model)
        .chip(chip)
        .chips(count)
        .tensorParallel(count)
        .efficiency(Efficiency.ideal())
        .build();
  }
}
