package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Flops;
import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class OperationCostTest {
  private static final Chip H100 = IdealPools.atPeakMatmul(Chips.H100_SXM);

  private static final Efficiency CURVED =
      Efficiency.builder()
          .compute(0.5)
          .memory(0.7)
          .network(1)
          .gemmHalfTokens(64)
          .attention(0.6)
          .build();

  private static RooflineModel pool(Efficiency e) {
    return RooflineModel.builder()
        .model(Models.byId("llama-3.1-8b"))
        .chip(H100)
        .efficiency(e)
        .build();
  }

  /** A BF16 operation of {@code role} over 1e6 weight elements (2e6 B) and {@code rows} rows. */
  private static Operation op(OperationRole role, double rows) {
    return Operation.builder()
        .name("op")
        .role(role)
        .precision(Precision.BF16)
        // 1 multiply-add = 2 FLOPs per weight element and row
        .flops(Flops.of(2 * rows * 1e6))
        .putBytes(DataKind.WEIGHTS, Bytes.of(2e6))
        .putBytes(DataKind.ACTIVATIONS, Bytes.of(1e4))
        .build();
  }

  @Test
  void computeSeconds_gemmOnTheSmallMCurve_isFlopsOverPeakTimesComputeAtRows() {
    RooflineModel rm = pool(CURVED);
    ComputeTarget t = rm.baseTarget();
    Operation gemm = op(OperationRole.DENSE_FFN, 64);
    OperationCost cost = OperationCost.of(rm, gemm, t);
    // M = 1.28e8 FLOPs × 2 B / (2 × 2e6 B) = 64 rows; computeAt(64) = 0.5 × 64 / (64 + 64) = 0.25;
    // time = 1.28e8 / (peak × 0.25), written as 1.28e8 / (peak × 0.5) + 2e6 × 2 × 64 / (2 × peak ×
    // 0.5): half a large-GEMM time each
    double peak = t.peak(Precision.BF16).flopsPerSecond();
    double expected = 1.28e8 / (peak * CURVED.computeAt(64));
    assertThat(cost.computeSeconds(1.28e8, 2e6)).isCloseTo(expected, within(1e-15 * expected));
    assertThat(cost.memoryFraction).isEqualTo(0.7);
  }

  @Test
  void computeSeconds_attentionAndElementwise_haveNoSmallMTerm() {
    RooflineModel rm = pool(CURVED);
    ComputeTarget t = rm.baseTarget();
    double peak = t.peak(Precision.BF16).flopsPerSecond();
    for (OperationRole role : new OperationRole[] {OperationRole.ATTENTION, OperationRole.NORM}) {
      OperationCost cost = OperationCost.of(rm, op(role, 64), t);
      // the large-GEMM fraction 0.5 at any rows: 1.28e8 / (peak × 0.5)
      double expected = 1.28e8 / (peak * 0.5);
      assertThat(cost.computeSeconds(1.28e8, 2e6))
          .as(role.id())
          .isCloseTo(expected, within(1e-15 * expected));
    }
    // attention streams the KV cache at its own fraction
    assertThat(OperationCost.of(rm, op(OperationRole.ATTENTION, 1), t).memoryFraction)
        .isEqualTo(0.6);
  }

  @Test
  void of_noFlops_takesNoComputeTimeAndNeedsNoPeak() {
    RooflineModel rm = pool(CURVED);
    Operation none = op(OperationRole.DENSE_FFN, 0);
    OperationCost cost = OperationCost.of(rm, none, rm.baseTarget());
    assertThat(cost.peak).isZero();
    assertThat(cost.computeSeconds(0, 2e6)).isZero();
  }

  @Test
  void mainTierMemorySeconds_isRooflineMemorySecondsOnTheMainTier() {
    RooflineModel rm = pool(CURVED);
    ComputeTarget t = rm.baseTarget();
    OperationCost cost = OperationCost.of(rm, op(OperationRole.DENSE_FFN, 1), t);
    // 2.01e6 B / (3.35e12 B/s × 0.7)
    double expected = 2.01e6 / (t.mainBandwidth().bytesPerSecond() * 0.7);
    assertThat(cost.mainTierMemorySeconds(2.01e6)).isCloseTo(expected, within(1e-15 * expected));
  }

  @Test
  void phase_objectPath_timesEachOperationWithItsCost() {
    RooflineModel rm = pool(CURVED);
    ComputeTarget t = rm.baseTarget();
    Operation gemm = op(OperationRole.DENSE_FFN, 64);
    double expected = OperationCost.of(rm, gemm, t).computeSeconds(1.28e8, 2e6);
    assertThat(
            PoolOperations.phase(
                    rm, io.ridgeline.core.PhaseKind.DECODE_FFN, java.util.List.of(gemm), t)
                .operations()
                .get(0)
                .computeSeconds()
                .seconds())
        .isEqualTo(expected);
  }

  @Test
  void shareOf_everyKind_isTheShardsPerChipDividesItBy() {
    Map<DataKind, OperationCost.Share> expected = new EnumMap<>(DataKind.class);
    expected.put(DataKind.WEIGHTS, OperationCost.Share.WEIGHTS);
    expected.put(DataKind.KV_READ, OperationCost.Share.KV);
    expected.put(DataKind.KV_WRITE, OperationCost.Share.KV);
    expected.put(DataKind.ACTIVATIONS, OperationCost.Share.WORK);
    for (DataKind k : DataKind.values()) {
      assertThat(OperationCost.shareOf(k)).as(k.id()).isEqualTo(expected.get(k));
    }
  }
}
