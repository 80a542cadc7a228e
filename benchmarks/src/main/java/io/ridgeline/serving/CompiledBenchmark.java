package io.ridgeline.serving;

import io.ridgeline.benchmarks.FrontierBenchmark;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Nanoseconds and bytes allocated per point of the compiled colocated evaluator ({@link
 * Deployment#pointsAt}): the system compiled once per trial (ISL 1024, OSL 1024). Systems as {@link
 * FrontierBenchmark}'s: dense on one chip, dense at tp 8, MoE at tp 8, a two-tier chip (GB200);
 * calibrated and ideal. In this package because {@link #block} drives the evaluator's internal
 * block API, as a sweep does.
 *
 * <ul>
 *   <li>{@link #point}: one {@link PointsAt#point} per call, the batch cycling through 1 … 1,024: a
 *       {@link FrontierPoint} per point.
 *   <li>{@link #block}: batches 1 … 1,024 evaluated into a reused {@link PointBlock} per call
 *       ({@link CompiledColocated#points}), the sweep's inner loop: the arithmetic alone, no
 *       compilation, object or text.
 * </ul>
 *
 * <pre>{@code
 * mvn -B -q package -pl benchmarks -am -DskipTests
 * java -jar benchmarks/target/benchmarks.jar CompiledBenchmark -f 1 -wi 3 -i 5 -prof gc
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class CompiledBenchmark {
  private static final int BATCHES = 1024;

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

  private CompiledColocated points;
  private int next;
  private final int[] batches = new int[BATCHES];
  private final PointBlock block = new PointBlock();

  /** Compiles the deployment's points once per trial. */
  @Setup
  public void setUp() {
    points =
        (CompiledColocated)
            Deployment.of(Deployment.Strategy.COLOCATED, FrontierBenchmark.pool(system, efficiency))
                .pointsAt(Workload.of(1024, 1024));
    for (int b = 0; b < BATCHES; b++) {
      batches[b] = b + 1;
    }
  }

  /** One compiled point; ns (and with -prof gc bytes) per point. */
  @Benchmark
  public FrontierPoint point() {
    int batch = next + 1;
    next = (next + 1) & (BATCHES - 1);
    return points.point(batch);
  }

  /** The 1,024 points of the workload into the block; ns (and bytes) per point. */
  @Benchmark
  @OperationsPerInvocation(BATCHES)
  public int block() {
    return points.points(batches, 0, BATCHES, block);
  }
}
