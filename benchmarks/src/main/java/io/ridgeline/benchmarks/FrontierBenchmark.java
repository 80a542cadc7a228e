package io.ridgeline.benchmarks;

import com.google.common.base.Splitter;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.PointsAt;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Workload;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Nanoseconds per 1,024-point frontier: a model served colocated (ISL 1024, OSL 1024, the
 * checkpoint's precisions), batch sizes 1 to 1,024, on each {@link #system}: dense on one chip
 * ({@code llama-3.1-8b/h100-sxm/1}), dense with tp 8 ({@code llama-3.1-70b/h100-sxm/8}), MoE with
 * tp 8 ({@code deepseek-v3/b200/8}) and a multi-tier chip ({@code llama-3.1-70b/gb200/8}: HBM and
 * LPDDR); {@link #efficiency} calibrated (the default profile) or ideal.
 *
 * <ul>
 *   <li>{@link #buildFrontier1024Batches}: {@code ParetoFrontier.builder(deployment).batches(1 …
 *       1024).build()}, which evaluates the 1,024 points and marks the Pareto-optimal ones.
 *   <li>{@link #compileWorkload}: {@code deployment.pointsAt(workload)}, the frontier's part that
 *       does not depend on the batch (the compiled steps, the TTFT chunk, the largest batch).
 *   <li>{@link #markFrontierOf1024Points}: {@code ParetoFrontier.of(points)} over 1,024 points
 *       computed once in setup: the Pareto marking alone.
 * </ul>
 *
 * <p>Build and run from the repository root (the build never runs benchmarks):
 *
 * <pre>{@code
 * mvn -B -q package -pl benchmarks -am -DskipTests
 * java -jar benchmarks/target/benchmarks.jar FrontierBenchmark -f 1 -wi 3 -i 5
 * java -jar benchmarks/target/benchmarks.jar FrontierBenchmark -f 1 -wi 2 -i 3 -w 2s -r 2s -prof gc
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class FrontierBenchmark {
  private static final int POINTS = 1024;

  /** model/chip/count: the pool is all count chips in one tensor-parallel group. */
  @Param({
    "llama-3.1-8b/h100-sxm/1",
    "llama-3.1-70b/h100-sxm/8",
    "deepseek-v3/b200/8",
    "llama-3.1-70b/gb200/8"
  })
  public String system;

  /** {@code calibrated} (the default profile) or {@code ideal} (the roofline bound). */
  @Param({"calibrated", "ideal"})
  public String efficiency;

  private Deployment colocated;
  private List<Integer> batches;
  private List<FrontierPoint> points;

  /** Builds the deployment, the batch list and the precomputed points once per trial. */
  @Setup
  public void setUp() {
    colocated = Deployment.of(Deployment.Strategy.COLOCATED, pool(system, efficiency));
    batches = new ArrayList<>(POINTS);
    points = new ArrayList<>(POINTS);
    for (int b = 1; b <= POINTS; b++) {
      batches.add(b);
      points.add(colocated.point(b, 1024, 1024));
    }
  }

  /** The pool {@code model/chip/count} at {@code efficiency} ("ideal" or "calibrated"). */
  public static RooflineModel pool(String system, String efficiency) {
    String[] f = Splitter.on('/').splitToList(system).toArray(String[]::new);
    int count = Integer.parseInt(f[2]);
    Chip chip = Chips.byId(f[1]);
    return RooflineModel.builder()
        .model(Models.byId(f[0]))
        .chip(chip)
        .chips(count)
        .tensorParallel(count)
        .efficiency(efficiency.equals("ideal") ? Efficiency.ideal() : Efficiency.standard(chip))
        .build();
  }

  /** Evaluates 1,024 batch sizes and marks the frontier; ns per frontier. */
  @Benchmark
  public ParetoFrontier buildFrontier1024Batches() {
    return ParetoFrontier.builder(colocated)
        .inputTokens(1024)
        .outputTokens(1024)
        .batches(batches)
        .build();
  }

  /**
   * Compiles the deployment's points at the workload ({@code Deployment.pointsAt}), the part of a
   * frontier that does not depend on the batch; ns per compilation.
   */
  @Benchmark
  public PointsAt compileWorkload() {
    return colocated.pointsAt(Workload.of(1024, 1024));
  }

  /** Marks the frontier of 1,024 precomputed points; ns per frontier. */
  @Benchmark
  public ParetoFrontier markFrontierOf1024Points() {
    return ParetoFrontier.of(points);
  }
}
