package io.ridgeline.serving.sweep;

import io.ridgeline.serving.efficiency.Efficiency;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Nanoseconds per point of the reference sweep's evaluation alone, on one thread: {@link
 * SweepEvaluator#run} over the reference grid's 589,824 points (as {@code
 * benchmarks/grids/reference.json}; {@code io.ridgeline.benchmarks.ReferenceSweepBenchmark} has the
 * grid), the compiled runs' primitive blocks and the object path's rows handed to a {@link
 * Blackhole}: no text, no writer, no threads. What is left is the arithmetic and the compilation of
 * each of the 576 workloads; the target is 200 ns per point (5,000,000 points/s per core). In this
 * package because {@link SweepEvaluator} is the library's internal engine of {@link SweepWriter};
 * calibrated and ideal.
 *
 * <pre>{@code
 * mvn -B -q package -pl benchmarks -am -DskipTests
 * java -jar benchmarks/target/benchmarks.jar SweepEvaluationBenchmark -f 1 -wi 3 -i 3 -prof gc
 * }</pre>
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class SweepEvaluationBenchmark {
  /** Points of the reference grid. */
  static final int POINTS = 589_824;

  /** {@code calibrated} (the default profile) or {@code ideal} (the roofline bound). */
  @Param({"calibrated", "ideal"})
  public String efficiency;

  private Sweep.Grid grid;
  private Efficiency eff;

  /** Builds the grid once per trial. */
  @Setup
  public void setUp() {
    grid = io.ridgeline.benchmarks.ReferenceSweepBenchmark.referenceGrid();
    eff = efficiency.equals("ideal") ? Efficiency.ideal() : Efficiency.standard();
  }

  /** Evaluates every point of the grid on one thread, nothing written; ns per point. */
  @Benchmark
  @OperationsPerInvocation(POINTS)
  public void evaluate(Blackhole sink) {
    SweepEvaluator e = new SweepEvaluator(grid, eff);
    e.run(
        0,
        POINTS,
        sink::consume,
        (first, block, errors) -> {
          sink.consume(first);
          sink.consume(block.size());
        });
  }
}
