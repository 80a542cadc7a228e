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
 * Nanoseconds per point of the compiled colocated evaluator's arithmetic alone: one workload (ISL
 * 1024, OSL 1024) compiled once per trial ({@link CompiledColocated#of}), then batches 1 … 1,024
 * evaluated into a reused {@link PointBlock} per operation ({@link CompiledColocated#points}), as a
 * sweep's run of batches is: no compilation, no objects, no text. Systems as {@link
 * FrontierBenchmark}'s (dense on one chip, dense at tp 8, MoE at tp 8, GB200's two tiers),
 * calibrated and ideal. In this package because the evaluator is internal to the sweep.
 *
 * <pre>{@code
 * mvn -B -q package -pl benchmarks -am -DskipTests
 * java -jar benchmarks/target/benchmarks.jar CompiledBlockBenchmark -f 1 -wi 3 -i 5 -prof gc
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class CompiledBlockBenchmark {
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

  private CompiledColocated compiled;
  private final int[] batches = new int[BATCHES];
  private final PointBlock block = new PointBlock();

  /** Compiles the workload once per trial. */
  @Setup
  public void setUp() {
    ColocatedDeployment d =
        (ColocatedDeployment)
            Deployment.of(
                Deployment.Strategy.COLOCATED, FrontierBenchmark.pool(system, efficiency));
    compiled = (CompiledColocated) CompiledColocated.of(d, Workload.of(1024, 1024)).orElseThrow();
    for (int b = 0; b < BATCHES; b++) {
      batches[b] = b + 1;
    }
  }

  /** The 1,024 points of the workload into the block; ns (and bytes) per point. */
  @Benchmark
  @OperationsPerInvocation(BATCHES)
  public int points() {
    return compiled.points(batches, 0, BATCHES, block);
  }
}
