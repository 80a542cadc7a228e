package io.ridgeline.core;

import static io.ridgeline.core.CoreFixtures.assertRelativelyClose;
import static io.ridgeline.core.CoreFixtures.magnitudes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** Roofline invariants over random targets and operations. */
final class RooflinePropertyTest {

  /** Precisions every generated target can run: each falls back to its FP8 or BF16 peak. */
  private static final List<Precision> RUNNABLE =
      List.of(
          Precision.BF16,
          Precision.FP16,
          Precision.FP8,
          Precision.INT8,
          Precision.FP4,
          Precision.MXFP4,
          Precision.INT4);

  /** Efficiency factors in (0, 1]. */
  private static Gen<Double> efficiencies() {
    return doubles().between(0.05, 1.0);
  }

  /**
   * Targets with a BF16 peak of 1e12..1e16 FLOP/s, FP8 at twice that, an "hbm" main tier of
   * 1e10..1e14 B/s, an "sram" tier serving KV reads, a link, and random efficiencies.
   */
  private static Gen<ComputeTarget> targets() {
    return magnitudes(12, 15)
        .zip(
            magnitudes(10, 13),
            magnitudes(11, 14),
            efficiencies(),
            efficiencies(),
            (peak, hbm, sram, compute, memory) ->
                ComputeTarget.builder()
                    .name("random")
                    .putPeak(Precision.BF16, FlopsPerSecond.of(peak))
                    .putPeak(Precision.FP8, FlopsPerSecond.of(2 * peak))
                    .putTierBandwidth("hbm", BytesPerSecond.of(hbm))
                    .putTierBandwidth("sram", BytesPerSecond.of(sram))
                    .mainTier("hbm")
                    .putPlacement(DataKind.KV_READ, "sram")
                    .linkBandwidth(BytesPerSecond.of(hbm / 10))
                    .linkLatency(Seconds.ofMicros(1))
                    .computeEfficiency(compute)
                    .memoryEfficiency(memory)
                    .build());
  }

  /** A non-negative amount over many magnitudes, zero one time in ten. */
  private static Gen<Double> amounts(int minExponent, int maxExponent) {
    return magnitudes(minExponent, maxExponent)
        .zip(doubles().fromZeroToOne(), (x, coin) -> coin < 0.1 ? 0.0 : x);
  }

  /** Local operations (no interconnect) moving weights and activations on the main tier. */
  private static Gen<Operation> mainTierOps() {
    return amounts(0, 15)
        .zip(
            amounts(0, 12),
            amounts(0, 12),
            Generate.pick(RUNNABLE),
            (flops, weights, activations, precision) ->
                Operation.builder()
                    .name("op")
                    .role(OperationRole.DENSE_FFN)
                    .flops(Flops.of(flops))
                    .precision(precision)
                    .putBytes(DataKind.WEIGHTS, Bytes.of(weights))
                    .putBytes(DataKind.ACTIVATIONS, Bytes.of(activations))
                    .build());
  }

  /** Operations that also read KV bytes (from the "sram" tier) and send network bytes. */
  private static Gen<Operation> ops() {
    return mainTierOps()
        .zip(
            amounts(0, 12),
            amounts(0, 9),
            (op, kv, network) ->
                Operation.builder()
                    .from(op)
                    .putBytes(DataKind.KV_READ, Bytes.of(kv))
                    .networkBytes(Bytes.of(network))
                    .build());
  }

  private static double seconds(Operation op, ComputeTarget t) {
    return Roofline.evaluate(op, t).seconds().seconds();
  }

  // ---- attainable ------------------------------------------------------------------------------

  @Test
  void attainable_anyIntensity_neverExceedsPeak() {
    qt().forAll(targets(), amounts(-6, 9), Generate.pick(RUNNABLE))
        .checkAssert(
            (t, intensity, precision) -> {
              double attainable =
                  t.attainable(FlopsPerByte.of(intensity), precision).flopsPerSecond();
              assertThat(attainable).isLessThanOrEqualTo(t.peak(precision).flopsPerSecond());
              assertThat(attainable)
                  .isLessThanOrEqualTo(t.peak(precision).flopsPerSecond() * t.computeEfficiency());
            });
  }

  @Test
  void attainable_higherIntensity_neverLower() {
    qt().forAll(targets(), amounts(-6, 9), amounts(-6, 9), Generate.pick(RUNNABLE))
        .checkAssert(
            (t, a, b, precision) -> {
              double low =
                  t.attainable(FlopsPerByte.of(Math.min(a, b)), precision).flopsPerSecond();
              double high =
                  t.attainable(FlopsPerByte.of(Math.max(a, b)), precision).flopsPerSecond();
              assertThat(low).isLessThanOrEqualTo(high);
            });
  }

  @Test
  void attainable_atAndAboveRidge_isEffectivePeak() {
    qt().forAll(targets(), doubles().between(1.0, 1000.0), Generate.pick(RUNNABLE))
        .checkAssert(
            (t, factor, precision) -> {
              FlopsPerByte above = t.ridgePoint(precision).times(factor);
              assertRelativelyClose(
                  t.attainable(above, precision).flopsPerSecond(),
                  t.peak(precision).flopsPerSecond() * t.computeEfficiency(),
                  1e-12);
            });
  }

  // ---- operation time --------------------------------------------------------------------------

  @Test
  void evaluate_anyOp_isAtLeastComputeAndMemoryTimeAndEqualsTheirMax() {
    qt().forAll(targets(), mainTierOps())
        .checkAssert(
            (t, op) -> {
              double peak = t.peak(op.precision()).flopsPerSecond();
              double bandwidth = t.mainBandwidth().bytesPerSecond();
              double atPeak = op.flops().flops() / peak;
              double atBandwidth = op.memoryBytes().bytes() / bandwidth;
              double time = seconds(op, t);
              // never faster than the datasheet roofs
              assertThat(time).isGreaterThanOrEqualTo(atPeak * (1 - 1e-12));
              assertThat(time).isGreaterThanOrEqualTo(atBandwidth * (1 - 1e-12));
              // with efficiencies: exactly the larger of the two derated times
              double compute = atPeak / t.computeEfficiency();
              double memory = atBandwidth / t.memoryEfficiency();
              assertRelativelyClose(time, Math.max(compute, memory), 1e-12);
            });
  }

  @Test
  void evaluate_anyOp_boundAgreesWithRidgePoint() {
    qt().forAll(targets(), mainTierOps())
        .assuming((t, op) -> op.memoryBytes().bytes() > 0 && op.flops().flops() > 0)
        .checkAssert(
            (t, op) -> {
              double intensity = op.intensity().flopsPerByte();
              double ridge = t.ridgePoint(op.precision()).flopsPerByte();
              Bound bound = Roofline.evaluate(op, t).bound();
              if (intensity > ridge * (1 + 1e-9)) {
                assertThat(bound).isEqualTo(Bound.COMPUTE);
              } else if (intensity < ridge * (1 - 1e-9)) {
                assertThat(bound).isEqualTo(Bound.MEMORY);
              }
            });
  }

  @Test
  void evaluate_anyOp_isMaxOfItsThreeTimes() {
    qt().forAll(targets(), ops())
        .checkAssert(
            (t, op) -> {
              OperationResult r = Roofline.evaluate(op, t);
              double c = r.computeSeconds().seconds();
              double m = r.memorySeconds().seconds();
              double n = r.networkSeconds().seconds();
              assertThat(r.seconds().seconds()).isEqualTo(Math.max(c, Math.max(m, n)));
              assertThat(r.bytesByTier().values().stream().mapToDouble(Bytes::bytes).sum())
                  .isCloseTo(op.memoryBytes().bytes(), within(op.memoryBytes().bytes() * 1e-12));
            });
  }

  @Test
  void scaled_positiveFactor_scalesTimeLinearly() {
    // network steps do not scale, so the ops here pay no hop latency (steps = 0)
    qt().forAll(targets(), ops(), magnitudes(-3, 2))
        .checkAssert(
            (t, op, k) ->
                assertRelativelyClose(seconds(op.scaled(k), t), k * seconds(op, t), 1e-9));
  }

  // ---- phases ----------------------------------------------------------------------------------

  @Test
  void phase_anyOps_timeIsSumOfOperationTimes() {
    qt().forAll(targets(), lists().of(ops()).ofSizeBetween(0, 8))
        .checkAssert(
            (t, ops) -> {
              PhaseResult p = Roofline.phase(PhaseKind.PREFILL, ops, t);
              double sum = 0;
              double flops = 0;
              double bytes = 0;
              for (Operation op : ops) {
                sum += seconds(op, t);
                flops += op.flops().flops();
                bytes += op.memoryBytes().bytes();
              }
              assertRelativelyClose(p.seconds().seconds(), sum, 1e-12);
              assertRelativelyClose(p.flops().flops(), flops, 1e-12);
              assertRelativelyClose(
                  p.intensity().flopsPerByte(), bytes == 0 ? 0 : flops / bytes, 1e-12);
              double byBound =
                  p.secondsByBound().values().stream().mapToDouble(Seconds::seconds).sum();
              assertRelativelyClose(byBound, sum, 1e-12);
            });
  }
}
