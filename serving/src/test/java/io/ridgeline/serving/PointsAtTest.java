package io.ridgeline.serving;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sweep's batch loop ({@link Deployments#at}, which hoists what does not depend on the batch)
 * gives exactly the points of {@link Deployment#point}: over random systems (dense and MoE models,
 * single- and multi-tier chips, tp 1-8, bf16 or fp8 weights), every strategy, ideal and calibrated,
 * every field of the point equal: exactly for the strategies evaluated point by point, to a
 * relative 1e-12 for compiled colocated serving ({@link CompiledColocated}, whose affine
 * coefficients may round the last digit differently).
 */
final class PointsAtTest {
  private static final long SEED = 20261201L;

  private static final List<Model> MODELS =
      List.of(
          Models.byId("llama-3.1-8b"),
          Models.byId("llama-3.1-70b"),
          Models.byId("mixtral-8x7b"),
          Models.byId("deepseek-v3"));
  private static final List<Chip> CHIPS =
      List.of(
          Chips.byId("h100-sxm"), Chips.byId("b200"), Chips.byId("gb200"), Chips.byId("mi300x"));
  private static final int[] TPS = {1, 2, 4, 8};
  private static final int[] LENGTHS = {1, 128, 1024, 8192, 20000};

  @Test
  void at_everyStrategyAndEfficiency_equalsPointExactly() {
    qt().withFixedSeed(SEED)
        .withExamples(60)
        .forAll(
            integers().between(0, MODELS.size() * CHIPS.size() * TPS.length * 2 - 1),
            integers().between(0, Deployment.Strategy.values().length * 2 - 1),
            integers().between(0, LENGTHS.length * LENGTHS.length - 1),
            integers().between(1, 1024))
        .checkAssert(
            (system, strategyAndEfficiency, lengths, batch) -> {
              Model model = MODELS.get(system % MODELS.size());
              Chip chip = CHIPS.get(system / MODELS.size() % CHIPS.size());
              int tp = TPS[system / (MODELS.size() * CHIPS.size()) % TPS.length];
              boolean fp8 = system / (MODELS.size() * CHIPS.size() * TPS.length) == 1;
              Deployment.Strategy strategy =
                  Deployment.Strategy.values()[strategyAndEfficiency % 4];
              Efficiency efficiency =
                  strategyAndEfficiency / 4 == 0 ? Efficiency.ideal() : Efficiency.standard();
              int isl = LENGTHS[lengths % LENGTHS.length];
              int osl = LENGTHS[lengths / LENGTHS.length];
              Precisions precisions =
                  fp8
                      ? model.defaultPrecisions().withAllWeights(Precision.FP8)
                      : model.defaultPrecisions();
              Deployment d;
              try {
                d = deployment(model, chip, tp, strategy, precisions, efficiency, isl, osl);
              } catch (IllegalArgumentException invalid) {
                return; // a combination the sweep reports as an invalid row
              }
              FrontierPoint expected;
              try {
                expected = d.point(batch, isl, osl);
              } catch (IllegalArgumentException e) {
                return;
              }
              FrontierPoint actual = Deployments.at(d, Workload.of(isl, osl)).point(batch);
              SamePoints.assertSamePoint(actual, expected, d + " batch " + batch);
            });
  }

  /** The deployment the sweep builds for this combination (as {@code SweepEvaluator} builds it). */
  private static Deployment deployment(
      Model model,
      Chip chip,
      int tp,
      Deployment.Strategy strategy,
      Precisions precisions,
      Efficiency efficiency,
      int isl,
      int osl) {
    PoolSpec pool =
        PoolSpec.builder()
            .model(model)
            .chip(chip)
            .count(tp)
            .tensorParallel(tp)
            .precisions(precisions)
            .efficiency(efficiency)
            .build();
    PoolSpec prefill =
        PoolSpec.builder()
            .model(model)
            .chip(chip)
            .precisions(precisions)
            .efficiency(efficiency)
            .build();
    return DeploymentSpec.builder()
        .strategy(strategy)
        .pool(pool)
        .prefill(prefill)
        .build()
        .build(isl, osl);
  }
}
