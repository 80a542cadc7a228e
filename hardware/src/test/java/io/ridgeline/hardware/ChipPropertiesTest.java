package io.ridgeline.hardware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.doubles;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.FlopsPerByte;
import io.ridgeline.core.Precision;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Invariants over every built-in chip (QuickTheories, with shrinking; fixed seed for replay). */
final class ChipPropertiesTest {
  private static final long SEED = 20261130L;

  @Test
  void ridgePoint_everyChipAndPrecision_timesMainBandwidthIsPeak() {
    qt().withFixedSeed(SEED)
        .forAll(arbitrary().pick(Chips.all()))
        .checkAssert(
            chip -> {
              double bandwidth = chip.mainMemory().bandwidth().bytesPerSecond();
              for (Map.Entry<Precision, ?> e : chip.peaks().entrySet()) {
                double peak = chip.peaks().get(e.getKey()).flopsPerSecond();
                // ridge (FLOP/B) × bandwidth (B/s) = peak (FLOP/s)
                double product = chip.ridgePoint(e.getKey()).flopsPerByte() * bandwidth;
                assertThat(Math.abs(product - peak) / peak)
                    .as("%s %s", chip.id(), e.getKey())
                    .isLessThanOrEqualTo(1e-9);
              }
            });
  }

  @Test
  void attainable_everyChip_isAtMostPeakAndNonDecreasingInIntensity() {
    qt().withFixedSeed(SEED)
        .forAll(arbitrary().pick(Chips.all()), doubles().between(0, 1e5), doubles().between(0, 1e5))
        .checkAssert(
            (chip, a, b) -> {
              ComputeTarget target = chip.toComputeTarget();
              FlopsPerByte low = FlopsPerByte.of(Math.min(a, b));
              FlopsPerByte high = FlopsPerByte.of(Math.max(a, b));
              for (Precision p : chip.peaks().keySet()) {
                double peak = chip.peaks().get(p).flopsPerSecond();
                double atLow = target.attainable(low, p).flopsPerSecond();
                double atHigh = target.attainable(high, p).flopsPerSecond();
                assertThat(atHigh).as("%s %s at %s", chip.id(), p, high).isLessThanOrEqualTo(peak);
                assertThat(atLow)
                    .as("%s %s: %s vs %s", chip.id(), p, low, high)
                    .isLessThanOrEqualTo(atHigh);
              }
            });
  }
}
