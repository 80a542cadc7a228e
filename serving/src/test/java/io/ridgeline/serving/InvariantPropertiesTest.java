package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.FlopsPerSecond;
import io.ridgeline.core.Precision;
import io.ridgeline.core.TensorClass;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.hardware.MemoryTier;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.Profiles;
import io.ridgeline.serving.sweep.Sweep;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Invariants of every strategy, at the roofline bound and calibrated (QuickTheories, fixed seed): a
 * faster chip (bandwidth or peak) is never slower, a longer context never faster, a larger batch
 * that still fits never gives fewer tokens per second per chip, TPOT never beats reading the active
 * weights once at full bandwidth, and the Pareto flags are exact.
 */
final class InvariantPropertiesTest {
  private static final long SEED = 20261201L;

  private static final List<Model> MODELS =
      List.of(
          Models.byId("llama-3.1-8b"),
          Models.byId("qwen3-30b-a3b"),
          Models.byId("deepseek-v2-lite"),
          Models.byId("gpt-oss-20b"),
          Models.byId("gemma-2-9b"));

  /** H100 (one tier), GB200 (HBM and a slower LPDDR5X tier), MI300X. */
  private static final List<Chip> CHIPS =
      List.of(Chips.byId("h100-sxm"), Chips.byId("gb200"), Chips.byId("mi300x"));

  private static final Efficiency CALIBRATED = Profiles.builtIn().forEngine("default").efficiency();

  /** A system: a model on a chip under a strategy at an efficiency, built for any chip. */
  private record Setup(Model model, Chip chip, Deployment.Strategy strategy, boolean ideal) {
    Deployment on(Chip c) {
      Efficiency e = ideal ? Efficiency.ideal() : CALIBRATED;
      RooflineModel one = pool(c, 1, e);
      switch (strategy) {
        case PD:
          return Deployment.disaggregated(one, one);
        case AFD:
          return Deployment.attentionFfn(one, pool(c, 2, e));
        default:
          return Deployment.of(strategy, one);
      }
    }

    Deployment deployment() {
      return on(chip);
    }

    private RooflineModel pool(Chip c, int chips, Efficiency e) {
      return RooflineModel.builder()
          .model(model)
          .chip(c)
          .chips(chips)
          .tensorParallel(chips)
          .efficiency(e)
          .build();
    }

    @Override
    public String toString() {
      return strategy.id() + " " + model.id() + " on " + chip.id() + (ideal ? " ideal" : "");
    }
  }

  private static final List<Setup> SYSTEMS = systems();

  private static List<Setup> systems() {
    List<Setup> out = new ArrayList<>();
    for (Model m : MODELS) {
      for (Chip c : CHIPS) {
        for (Deployment.Strategy s : Deployment.Strategy.values()) {
          for (boolean ideal : List.of(true, false)) {
            Setup sys = new Setup(m, c, s, ideal);
            if (sys.deployment().fitProblem(1024, 256).isEmpty()) {
              out.add(sys);
            }
          }
        }
      }
    }
    return List.copyOf(out);
  }

  /** {@code chip} with every tier's bandwidth times {@code f}. */
  private static Chip bandwidthTimes(Chip chip, double f) {
    List<MemoryTier> tiers = new ArrayList<>();
    for (MemoryTier t : chip.memory()) {
      tiers.add(
          MemoryTier.builder()
              .from(t)
              .bandwidth(BytesPerSecond.of(t.bandwidth().bytesPerSecond() * f))
              .build());
    }
    return Chip.builder().from(chip).memory(tiers).build();
  }

  /** {@code chip} with every precision's peak times {@code f}. */
  private static Chip peakTimes(Chip chip, double f) {
    Map<Precision, FlopsPerSecond> peaks = new EnumMap<>(Precision.class);
    chip.peaks().forEach((p, v) -> peaks.put(p, FlopsPerSecond.of(v.flopsPerSecond() * f)));
    return Chip.builder().from(chip).peaks(peaks).build();
  }

  @Test
  void systems_coverEveryStrategyAndBothEfficiencies() {
    for (Deployment.Strategy s : Deployment.Strategy.values()) {
      assertThat(SYSTEMS).anyMatch(x -> x.strategy() == s && x.ideal());
      assertThat(SYSTEMS).anyMatch(x -> x.strategy() == s && !x.ideal());
    }
  }

  @Test
  void fasterBandwidth_neverSlower() {
    faster(c -> bandwidthTimes(c, 1.5));
  }

  @Test
  void fasterPeak_neverSlower() {
    faster(c -> peakTimes(c, 1.5));
  }

  private static void faster(Function<Chip, Chip> upgrade) {
    qt().withFixedSeed(SEED)
        .withExamples(60)
        .forAll(arbitrary().pick(SYSTEMS), integers().between(1, 256), isl(), osl())
        .checkAssert(
            (sys, batch, isl, osl) -> {
              FrontierPoint base = sys.deployment().point(batch, isl, osl);
              FrontierPoint fast = sys.on(upgrade.apply(sys.chip())).point(batch, isl, osl);
              String what = sys + ", batch " + batch + ", isl " + isl + ", osl " + osl;
              assertThat(fast.tpot().seconds())
                  .as("TPOT, %s", what)
                  .isLessThanOrEqualTo(base.tpot().seconds() * (1 + 1e-12));
              assertThat(fast.ttft().seconds())
                  .as("TTFT, %s", what)
                  .isLessThanOrEqualTo(base.ttft().seconds() * (1 + 1e-12));
            });
  }

  @Test
  void longerContext_neverFaster() {
    qt().withFixedSeed(SEED)
        .withExamples(60)
        .forAll(
            arbitrary().pick(SYSTEMS),
            integers().between(1, 128),
            isl(),
            integers().between(1, 8192))
        .checkAssert(
            (sys, batch, isl, extra) -> {
              int osl = 256;
              Deployment d = sys.deployment();
              FrontierPoint base = d.point(batch, isl, osl);
              FrontierPoint longer = d.point(batch, isl + extra, osl);
              String what = sys + ", batch " + batch + ", isl " + isl + " + " + extra;
              assertThat(longer.tpot().seconds())
                  .as("TPOT, %s", what)
                  .isGreaterThanOrEqualTo(base.tpot().seconds() * (1 - 1e-12));
              assertThat(longer.ttft().seconds())
                  .as("TTFT, %s", what)
                  .isGreaterThanOrEqualTo(base.ttft().seconds() * (1 - 1e-12));
            });
  }

  @Test
  void largerBatchThatFits_neverFewerTokensPerChip() {
    qt().withFixedSeed(SEED)
        .withExamples(80)
        .forAll(arbitrary().pick(SYSTEMS), integers().between(1, 1024), isl(), osl())
        .checkAssert(
            (sys, batch, isl, osl) -> {
              Deployment d = sys.deployment();
              FrontierPoint next = d.point(batch + 1, isl, osl);
              if (!next.fits()) {
                return;
              }
              FrontierPoint base = d.point(batch, isl, osl);
              assertThat(next.tokensPerSecondPerChip())
                  .as("%s, batch %s → %s, isl %s, osl %s", sys, batch, batch + 1, isl, osl)
                  .isGreaterThanOrEqualTo(base.tokensPerSecondPerChip() * (1 - 1e-12));
            });
  }

  @Test
  void tpot_neverBelowReadingTheActiveWeightsOnce() {
    qt().withFixedSeed(SEED)
        .withExamples(60)
        .forAll(arbitrary().pick(SYSTEMS), integers().between(1, 256), isl(), osl())
        .checkAssert(
            (sys, batch, isl, osl) -> {
              Deployment d = sys.deployment();
              FrontierPoint p = d.point(batch, isl, osl);
              // every chip of the system reads its share of the active weights at its fastest
              // tier's bandwidth, at the narrowest weight precision the model holds
              double bytesPerParameter = Double.MAX_VALUE;
              for (TensorClass c : TensorClass.values()) {
                bytesPerParameter =
                    Math.min(
                        bytesPerParameter,
                        d.decodePool().precisions().weights(c).bytesPerElement());
              }
              double bandwidth = 0;
              for (MemoryTier t : sys.chip().memory()) {
                bandwidth = Math.max(bandwidth, t.bandwidth().bytesPerSecond());
              }
              double chips = d.pools().values().stream().mapToInt(RooflineModel::chips).sum();
              // a decode step reads every active weight but the embedding table (a gather of
              // a few rows), and the LM head's vocab × hidden matrix (tied or not)
              Model m = sys.model();
              double read =
                  m.activeParameters()
                      - m.embeddingParameters()
                      - m.lmHeadParameters()
                      + (double) m.vocabSize() * m.hiddenSize();
              double floor = read * bytesPerParameter / (chips * bandwidth);
              assertThat(p.tpot().seconds())
                  .as("%s, batch %s", sys, batch)
                  .isGreaterThanOrEqualTo(floor * (1 - 1e-9));
            });
  }

  @Test
  void paretoFlags_areExact() {
    qt().withFixedSeed(SEED)
        .withExamples(30)
        .forAll(arbitrary().pick(SYSTEMS), isl(), osl(), integers().between(1, 512))
        .checkAssert(
            (sys, isl, osl, cap) -> {
              ParetoFrontier f =
                  ParetoFrontier.builder(sys.deployment())
                      .inputTokens(isl)
                      .outputTokens(osl)
                      .maxBatch(cap)
                      .build();
              List<FrontierPoint> points = f.points();
              for (FrontierPoint p : points) {
                boolean dominated =
                    points.stream().anyMatch(q -> q.fits() && q != p && q.dominates(p));
                assertThat(p.pareto()).as("%s in %s", p, sys).isEqualTo(p.fits() && !dominated);
              }
              // and marking is independent of order
              List<FrontierPoint> reversed = new ArrayList<>(points);
              java.util.Collections.reverse(reversed);
              assertThat(ParetoFrontier.of(reversed).frontier())
                  .containsExactlyInAnyOrderElementsOf(f.frontier());
            });
  }

  @Test
  void price_scalesDollarsPerToken() {
    qt().withFixedSeed(SEED)
        .withExamples(20)
        .forAll(arbitrary().pick(SYSTEMS), doubles().between(0.01, 100), integers().between(1, 64))
        .checkAssert(
            (sys, price, batch) -> {
              FrontierPoint p =
                  sys.deployment()
                      .withPrice(io.ridgeline.core.DollarsPerHour.of(price))
                      .point(batch, 1024, 256);
              double expected = price / 3600 / p.tokensPerSecondPerChip() * 1e6;
              assertThat(p.dollarsPerMillionTokens().orElseThrow())
                  .isCloseTo(expected, org.assertj.core.data.Percentage.withPercentage(1e-7));
            });
  }

  @Test
  void sweepRows_equalTheReferencePath() {
    // the sweep caches deployments across rows; each row must equal a deployment built afresh
    qt().withFixedSeed(SEED)
        .withExamples(25)
        .forAll(
            arbitrary().pick(MODELS),
            arbitrary().pick(List.of(Deployment.Strategy.values())),
            integers().between(0, 3),
            integers().between(1, 512))
        .checkAssert(
            (model, strategy, log2Count, batch) -> {
              int count = 1 << log2Count;
              Chip chip = Chips.byId("h200-sxm");
              List<Sweep.Row> rows = new ArrayList<>();
              Sweep.run(
                  Sweep.Grid.builder()
                      .models(model)
                      .chips(chip)
                      .counts(count)
                      .tps(count)
                      .strategies(strategy)
                      .batches(batch, batch + 1)
                      .isls(1024, 3000)
                      .osls(256)
                      .build(),
                  CALIBRATED,
                  rows::add);
              for (Sweep.Row r : rows) {
                if (r.point().isEmpty()) {
                  continue;
                }
                PoolSpec pool =
                    PoolSpec.builder()
                        .model(model)
                        .chip(chip)
                        .count(count)
                        .tensorParallel(count)
                        .efficiency(CALIBRATED)
                        .build();
                PoolSpec prefill =
                    PoolSpec.builder().model(model).chip(chip).efficiency(CALIBRATED).build();
                FrontierPoint expected =
                    DeploymentSpec.builder()
                        .strategy(strategy)
                        .pool(pool)
                        .prefill(prefill)
                        .build()
                        .build(r.isl(), r.osl())
                        .point(r.batch(), r.isl(), r.osl());
                FrontierPoint actual = r.point().orElseThrow();
                // colocated rows are compiled: equal to a relative 1e-12 (CompiledColocatedTest)
                SamePoints.assertSamePoint(actual, expected, r.toString());
              }
            });
  }

  private static org.quicktheories.core.Gen<Integer> isl() {
    return integers().between(1, 16_384);
  }

  private static org.quicktheories.core.Gen<Integer> osl() {
    return integers().between(2, 4_096);
  }
}
