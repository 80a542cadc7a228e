package io.ridgeline.benchmarks;

import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.PointsAt;
import io.ridgeline.serving.Workload;
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
 * Nanoseconds and bytes allocated per point of the compiled colocated evaluator ({@link
 * Deployment#pointsAt}): the system compiled once per trial (ISL 1024, OSL 1024), then one {@link
 * PointsAt#point} per call, the batch cycling through 1 … 1,024. Systems as {@link
 * FrontierBenchmark}'s: dense on one chip, dense at tp 8, MoE at tp 8, a two-tier chip (GB200);
 * calibrated and ideal.
 *
 * <pre>{@code
 * mvn -B -q package -pl benchmarks -am -DskipTests
 * java -jar benchmarks/target/benchmarks.jar CompiledBenchmark -f 1 -wi 2 -i 3 -prof gc
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

  private PointsAt points;
  private int next;

  /** Compiles the deployment's points once per trial. */
  @Setup
  public void setUp() {
    points =
        Deployment.of(Deployment.Strategy.COLOCATED, FrontierBenchmark.pool(system, efficiency))
            .pointsAt(Workload.of(1024, 1024));
  }

  /** One compiled point; ns (and with -prof gc bytes) per point. */
  @Benchmark
  public FrontierPoint point() {
    int batch = next + 1;
    next = (next + 1) & (BATCHES - 1);
    return points.point(batch);
  }
}
