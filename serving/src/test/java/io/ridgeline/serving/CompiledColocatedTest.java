package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
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
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The compiled colocated evaluator ({@link CompiledColocated}) gives the object path's points
 * ({@link ColocatedDeployment#point}): every field equal, the doubles to a relative 1e-12 (its
 * affine coefficients may round the last digit or two differently, see {@link CompiledStep}). Over
 * random systems and over a sample of the reference grid; each system must compile, so that the
 * comparison is not the object path against itself.
 */
final class CompiledColocatedTest {
  /** Relative difference allowed between compiled and object doubles ({@link SamePoints}). */
  static final double RELATIVE = SamePoints.RELATIVE;

  private static final List<Model> MODELS =
      List.of(
          Models.byId("llama-3.1-8b"),
          Models.byId("llama-3.1-70b"),
          Models.byId("mixtral-8x7b"),
          Models.byId("deepseek-v3"));
  private static final List<Chip> CHIPS =
      List.of(
          Chips.byId("h100-sxm"),
          Chips.byId("b200"),
          Chips.byId("gb200"),
          Chips.byId("mi300x"),
          Chips.byId("mi355x"),
          Chips.byId("h200-sxm"));
  private static final int[] TPS = {1, 2, 4, 8, 16};
  private static final int[] LENGTHS = {1, 100, 128, 1000, 1024, 8192, 20000};
  private static final int[] CACHED = {0, 0, 0, 512, 32768};

  @Test
  void compiled_randomSystems_equalsObjectPath() {
    qt().withFixedSeed(20261202L)
        .withExamples(150)
        .forAll(
            integers().between(0, MODELS.size() * CHIPS.size() * TPS.length * 6 - 1),
            integers().between(0, LENGTHS.length * LENGTHS.length * CACHED.length - 1),
            integers().between(1, 1024),
            integers().between(1, 4096))
        .checkAssert(
            (system, lengths, batch, otherBatch) -> {
              Model model = MODELS.get(system % MODELS.size());
              int rest = system / MODELS.size();
              Chip chip = CHIPS.get(rest % CHIPS.size());
              rest /= CHIPS.size();
              int tp = TPS[rest % TPS.length];
              rest /= TPS.length;
              boolean fp8 = rest % 2 == 1;
              // ideal, calibrated, calibrated with decode launched eagerly (its host time)
              Efficiency efficiency =
                  rest / 2 == 0
                      ? Efficiency.ideal()
                      : rest / 2 == 1
                          ? Efficiency.standard()
                          : Efficiency.builder()
                              .from(Efficiency.standard())
                              .eagerDecode(true)
                              .build();
              int isl = LENGTHS[lengths % LENGTHS.length];
              int osl = LENGTHS[lengths / LENGTHS.length % LENGTHS.length];
              int cached = CACHED[lengths / (LENGTHS.length * LENGTHS.length)];
              Precisions p =
                  fp8
                      ? model.defaultPrecisions().withAllWeights(Precision.FP8)
                      : model.defaultPrecisions();
              ColocatedDeployment d;
              try {
                d = colocated(model, chip, tp, p, efficiency);
              } catch (IllegalArgumentException invalid) {
                return;
              }
              compare(d, Workload.of(isl, osl).withCachedTokens(cached), batch, otherBatch);
            });
  }

  @Test
  void compiled_referenceGridSample_equalsObjectPath() {
    int[] counts = {8, 16, 32, 64};
    int[] isls = {128, 1024, 8192};
    int[] osls = {128, 1024};
    int[] batches = {1, 3, 64, 333, 1000, 1024};
    for (Efficiency e : List.of(Efficiency.standard(), Efficiency.ideal())) {
      for (Model m : MODELS) {
        Precisions p = m.defaultPrecisions().withAllWeights(Precision.FP8);
        for (Chip c : CHIPS) {
          for (int count : counts) {
            ColocatedDeployment d;
            try {
              d = colocated(m, c, count, p, e);
            } catch (IllegalArgumentException invalid) {
              continue; // an error row of the grid (tp beyond the heads)
            }
            for (int isl : isls) {
              for (int osl : osls) {
                int i = (count + isl + osl) % batches.length;
                compare(d, Workload.of(isl, osl), batches[i], batches[(i + 3) % batches.length]);
              }
            }
          }
        }
      }
    }
  }

  @Test
  void compiled_weightsSpillingOffTheMainTier_equalsObjectPath() {
    // GB200 holds 186 GB of HBM3e and 480 GB of LPDDR5X: on one chip Llama-3.1-70B's 141 GB of
    // bf16 weights leave HBM to the KV cache as the batch grows, and the weights that no longer fit
    // are read from LPDDR5X in their share; the compiled path reads each tier as the object path
    Chip gb200 = Chips.byId("gb200");
    for (Efficiency e : List.of(Efficiency.standard(), Efficiency.ideal())) {
      Model m = Models.byId("llama-3.1-70b");
      ColocatedDeployment d = colocated(m, gb200, 1, m.defaultPrecisions(), e);
      Workload w = Workload.of(2048, 1024);
      int context = ColocatedDeployment.decodeContext(w);
      RooflineModel pool = d.pool();
      int spilled = 0;
      for (int b : new int[] {1, 8, 32, 64, 96, 128, 160, 200}) {
        if (MemoryPlan.placed(pool, b, context) != pool.baseTarget()) {
          // the object path answers such a batch (no exception), so compare checks it
          assertThat(d.point(b, w).tpot().seconds()).isPositive();
          spilled++;
        }
        compare(d, w, b);
      }
      assertThat(spilled).as("batches whose weights spill, %s", e).isGreaterThanOrEqualTo(3);
    }
  }

  /**
   * Systems evaluated as blocks: model, chip, tp, ISL, OSL (dense, tp 8, MoE, GB200 with weights
   * spilling into LPDDR5X).
   */
  private static final Object[][] BLOCK_SYSTEMS = {
    {"llama-3.1-8b", "h100-sxm", 1, 1024, 1024},
    {"llama-3.1-70b", "h100-sxm", 8, 8192, 128},
    {"deepseek-v3", "b200", 8, 1024, 1024},
    {"mixtral-8x7b", "mi300x", 2, 128, 1024},
    {"llama-3.1-70b", "gb200", 1, 2048, 1024}
  };

  /** The colocated deployment of a {@link #BLOCK_SYSTEMS} row at {@code e}. */
  private static ColocatedDeployment blockSystem(Object[] s, Efficiency e) {
    Model m = Models.byId((String) s[0]);
    return colocated(m, Chips.byId((String) s[1]), (int) s[2], m.defaultPrecisions(), e);
  }

  @Test
  void frontier_block_equalsPerPointCompiledPoints() {
    // ParetoFrontier.Builder evaluates a compiled colocated deployment's batches as one block
    // (CompiledColocated.frontier); each point must equal, exactly, the per-point compiled point
    // with its decode utilisation, and the flags ParetoFrontier.of marks on them: dense, tp 8, MoE,
    // GB200 with weights spilling into LPDDR5X, calibrated and ideal
    Object[][] systems = BLOCK_SYSTEMS;
    int compiled = 0;
    for (Efficiency e : List.of(Efficiency.standard(), Efficiency.ideal())) {
      for (Object[] s : systems) {
        ColocatedDeployment d = blockSystem(s, e);
        Workload w = Workload.of((int) s[3], (int) s[4]);
        CompiledColocated c = (CompiledColocated) CompiledColocated.of(d, w).orElseThrow();
        int[] batches = new int[300];
        for (int i = 0; i < batches.length; i++) {
          batches[i] = i < 256 ? i + 1 : 256 + 37 * (i - 255); // 1..256, then up to 1,883
        }
        List<FrontierPoint> perPoint = new java.util.ArrayList<>();
        for (int b : batches) {
          perPoint.add(c.point(b).withUtilisation(c.decodeUtilisation(b)));
        }
        List<FrontierPoint> expected = ParetoFrontier.of(perPoint).points();
        Optional<List<FrontierPoint>> block = ParetoFrontier.compiled(c, batches, d);
        assertThat(block).as("%s %s", d, w).isPresent();
        assertThat(block.get()).as("%s %s", d, w).isEqualTo(expected);
        assertThat(expected.stream().filter(FrontierPoint::pareto).count()).isPositive();
        compiled++;
        // and the builder takes that path
        ParetoFrontier f =
            ParetoFrontier.builder(d)
                .workload(w)
                .batches(java.util.Arrays.stream(batches).boxed().toList())
                .build();
        assertThat(f.points()).isEqualTo(expected);
      }
    }
    assertThat(compiled).isEqualTo(10);
  }

  @Test
  void points_operationByOperationBlock_equalsPerPointCompiledPointsExactly() {
    // CompiledColocated.points evaluates runs of batches whose bytes sit on the main tier as
    // blocks, operation by operation (StepBlock.times); every figure must be the very
    // double of the per-point compiled point: consecutive and scattered batches, repeats, batch 1,
    // batches past the largest that fits, GB200 batches spilling into LPDDR5X (point by point),
    // dense, tp 8, MoE, calibrated and ideal
    Object[][] systems = new Object[BLOCK_SYSTEMS.length + 1][];
    System.arraycopy(BLOCK_SYSTEMS, 0, systems, 0, BLOCK_SYSTEMS.length);
    systems[BLOCK_SYSTEMS.length] = new Object[] {"deepseek-v3", "h200-sxm", 8, 128, 8192};
    java.util.Random random = new java.util.Random(20261202L);
    int rows = 0;
    for (Efficiency e : List.of(Efficiency.standard(), Efficiency.ideal())) {
      for (Object[] s : systems) {
        ColocatedDeployment d = blockSystem(s, e);
        Workload w = Workload.of((int) s[3], (int) s[4]);
        CompiledColocated c = (CompiledColocated) CompiledColocated.of(d, w).orElseThrow();
        int[] batches = new int[400];
        for (int i = 0; i < batches.length; i++) {
          batches[i] =
              i < 150
                  ? i + 1 // 1..150, blocks of consecutive batches
                  : i < 300 ? 1 + random.nextInt(4096) : 300 + 7 * (i - 300) + random.nextInt(3);
        }
        PointBlock block = new PointBlock();
        assertThat(c.points(batches, 0, batches.length, block)).isEqualTo(batches.length);
        for (int r = 0; r < batches.length; r++) {
          FrontierPoint p = c.point(batches[r]);
          String what = d + " " + w + " batch " + batches[r];
          assertThat(block.batch(r)).as(what).isEqualTo(batches[r]);
          assertThat(block.fits(r)).as(what).isEqualTo(p.fits());
          assertThat(block.figure(r, PointBlock.TTFT)).as(what).isEqualTo(p.ttft().seconds());
          assertThat(block.figure(r, PointBlock.TPOT)).as(what).isEqualTo(p.tpot().seconds());
          assertThat(block.figure(r, PointBlock.TOKENS_PER_SECOND_PER_USER))
              .as(what)
              .isEqualTo(p.tokensPerSecondPerUser());
          assertThat(block.figure(r, PointBlock.TOKENS_PER_SECOND_PER_CHIP))
              .as(what)
              .isEqualTo(p.tokensPerSecondPerChip());
          assertThat(block.figure(r, PointBlock.DOLLARS_PER_MILLION_TOKENS))
              .as(what)
              .isEqualTo(p.dollarsPerMillionTokens().orElse(Double.NaN));
          assertThat(block.figure(r, PointBlock.TOKENS_PER_JOULE))
              .as(what)
              .isEqualTo(p.tokensPerJoule().orElse(Double.NaN));
          rows++;
        }
      }
    }
    assertThat(rows).isEqualTo(2 * systems.length * 400);
  }

  @Test
  void frontier_failingBatch_isEmptySoTheObjectPathThrows() {
    Model m = Models.byId("llama-3.1-8b");
    ColocatedDeployment d =
        colocated(m, Chips.byId("h100-sxm"), 1, m.defaultPrecisions(), Efficiency.standard());
    CompiledColocated c =
        (CompiledColocated) CompiledColocated.of(d, Workload.of(1024, 1024)).orElseThrow();
    assertThat(ParetoFrontier.compiled(c, new int[] {1, 2, Limits.MAX_BATCH + 1}, d)).isEmpty();
  }

  @Test
  void point_expertParallelWithRedundantExperts_isTheObjectPaths() {
    // the busiest rank's load (ExpertLoad) is nonlinear in the step's tokens: the compiled step
    // follows it at every batch, with and without EPLB's redundant slots
    Model m = Models.byId("deepseek-v3");
    for (int redundant : new int[] {0, 2}) {
      ColocatedDeployment d =
          new ColocatedDeployment(
              RooflineModel.builder()
                  .model(m)
                  .chip(Chips.B200)
                  .chips(8)
                  .tensorParallel(8)
                  .expertParallel(8)
                  .expertImbalance(true)
                  .redundantExpertsPerRank(redundant)
                  .efficiency(Efficiency.standard(Chips.B200))
                  .build());
      compare(d, Workload.of(1024, 1024), 1, 3, 8, 37, 256);
    }
  }

  @Test
  void decodeTimesByBatch_isTheObjectPathsDecodeTime() {
    // DecodeTimes#byBatch: compiled where the step compiles (dense at tp 8, MoE,
    // GB200 with its two memory tiers), the object path under pipeline parallelism; each batch's
    // time equals decode(batch, context)'s to 1e-12 relative
    Object[][] systems = {
      {"llama-3.1-70b", "h100-sxm", 8, 1, 2048},
      {"deepseek-v3", "b200", 8, 1, 4096},
      {"llama-3.1-70b", "gb200", 1, 1, 3072},
      {"llama-3.1-70b", "h100-sxm", 8, 2, 1024}
    };
    for (Object[] x : systems) {
      Model m = Models.byId((String) x[0]);
      int tp = (int) x[2];
      int pp = (int) x[3];
      int context = (int) x[4];
      RooflineModel pool =
          RooflineModel.builder()
              .model(m)
              .chip(Chips.byId((String) x[1]))
              .chips(tp * pp)
              .tensorParallel(tp)
              .pipelineParallel(pp)
              .build();
      java.util.function.IntToDoubleFunction seconds = DecodeTimes.byBatch(pool, context);
      assertThat(CompiledDecode.of(pool, context).isPresent())
          .as("%s compiles", pool)
          .isEqualTo(pp == 1);
      for (int b : new int[] {1, 2, 7, 64, 200}) {
        SamePoints.close(
            pool + " batch " + b,
            seconds.applyAsDouble(b),
            pool.decode(b, context).seconds().seconds());
      }
    }
  }

  @Test
  void runStep_compiled_equalsObjectPath() {
    // a burst's steps (ColocatedDeployment#closedLoop): decode of d sequences with p prompt tokens
    // riding it as one chunk, compiled where the workload's steps compile, equal to the object
    // path's to 1e-12 relative; DeepSeek-V3 on 8 H200 and 8 MI300X (the dstack burst systems, the
    // latter with a synchronous scheduler), Llama-3.1-8B on one H100, Llama-3.1-70B on one GB200
    // (weights spilling into LPDDR5X at the larger batches)
    Efficiency synchronous =
        Efficiency.builder().from(Efficiency.standard()).overlapScheduler(false).build();
    Object[][] systems = {
      {"deepseek-v3", "h200-sxm", 8, 3200, 800, Efficiency.standard()},
      {"deepseek-v3", "mi300x", 8, 3200, 800, synchronous},
      {"llama-3.1-8b", "h100-sxm", 1, 2000, 500, Efficiency.standard()},
      {"llama-3.1-70b", "gb200", 1, 2048, 1024, Efficiency.standard()}
    };
    for (Object[] x : systems) {
      Model m = Models.byId((String) x[0]);
      ColocatedDeployment d =
          colocated(
              m, Chips.byId((String) x[1]), (int) x[2], m.defaultPrecisions(), (Efficiency) x[5]);
      Workload w = Workload.of((int) x[3], (int) x[4]);
      for (int decoding : new int[] {1, 2, 17, 64, 255}) {
        for (int tokens : new int[] {0, 1, 800, 3200, 8192}) {
          double[] both = d.runStepBothPaths(decoding, tokens, w);
          assertThat(both[0]).as("%s compiles at %s", d, w).isNotNaN();
          SamePoints.close(
              d + " " + w + " decoding " + decoding + " tokens " + tokens, both[0], both[1]);
        }
      }
    }
  }

  private static void compare(ColocatedDeployment d, Workload w, int... batches) {
    Optional<PointsAt> compiled;
    try {
      compiled = CompiledColocated.of(d, w);
    } catch (IllegalArgumentException e) {
      return; // the object path's hoisted part throws too (Deployments.at)
    }
    assertThat(compiled).as("%s compiles at %s", d, w).isPresent();
    for (int b : batches) {
      FrontierPoint expected;
      try {
        expected = d.point(b, w);
      } catch (IllegalArgumentException e) {
        return;
      }
      SamePoints.assertSamePoint(compiled.get().point(b), expected, d + " " + w + " batch " + b);
      Utilisation u = ((CompiledColocated) compiled.get()).decodeUtilisation(b);
      Utilisation object = d.decodeUtilisation(b, w.promptContext(), w.outputTokens());
      SamePoints.close(d + " " + w + " batch " + b + " MFU", u.mfu(), object.mfu());
      SamePoints.close(
          d + " " + w + " batch " + b + " bandwidth", u.bandwidth(), object.bandwidth());
    }
  }

  private static ColocatedDeployment colocated(
      Model model, Chip chip, int tp, Precisions p, Efficiency e) {
    return new ColocatedDeployment(
        RooflineModel.builder()
            .model(model)
            .chip(chip)
            .chips(tp)
            .tensorParallel(tp)
            .precisions(p)
            .efficiency(e)
            .build());
  }
}
