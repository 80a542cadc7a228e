package io.ridgeline.benchmarks;

import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.sweep.Sweep;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Nanoseconds per evaluated sweep point: Llama-3.1-8B served colocated on one H100 SXM (bf16, ISL
 * 1024, OSL 1024), batch sizes 1 to 1,024.
 *
 * <ul>
 *   <li>{@link #deploymentPoint}: one {@link Deployment#point} call, the batch cycling through 1 …
 *       1,024 from one call to the next; the deployment is built once.
 *   <li>{@link #sweepRow}: the {@link Sweep} engine end to end over a grid of those 1,024 batch
 *       sizes, each row handed to a sink that discards it; the score is per row (JMH divides the
 *       sweep's time by 1,024).
 * </ul>
 *
 * <p>Build and run from the repository root (the build never runs benchmarks):
 *
 * <pre>{@code
 * mvn -B -q package -pl benchmarks -am -DskipTests
 * java -jar benchmarks/target/benchmarks.jar -f 1 -wi 3 -i 5                  # every benchmark
 * java -jar benchmarks/target/benchmarks.jar PointBenchmark -f 1 -wi 3 -i 5   # these two
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class PointBenchmark {
  /** Batch sizes swept: 1 … 1,024 (a power of two, so the cycle is a mask). */
  static final int BATCHES = 1024;

  private Deployment colocated;
  private Sweep.Grid grid;
  private int next;

  /** Builds the deployment and the grid once per trial. */
  @Setup
  public void setUp() {
    Model model = Models.byId("llama-3.1-8b");
    Chip chip = Chips.byId("h100-sxm");
    colocated = Deployment.of(Deployment.Strategy.COLOCATED, RooflineModel.of(model, chip));
    grid =
        Sweep.Grid.builder()
            .models(model)
            .chips(chip)
            .strategies(Deployment.Strategy.COLOCATED)
            .batches(IntStream.rangeClosed(1, BATCHES).toArray())
            .isls(1024)
            .osls(1024)
            .build();
  }

  /** One frontier point of the colocated deployment; ns per point. */
  @Benchmark
  public FrontierPoint deploymentPoint() {
    int batch = next + 1;
    next = (next + 1) & (BATCHES - 1);
    return colocated.point(batch, 1024, 1024);
  }

  /** The sweep engine over 1,024 batch sizes, rows discarded; ns per row. */
  @Benchmark
  @OperationsPerInvocation(BATCHES)
  public long sweepRow(Blackhole sink) {
    return Sweep.run(grid, sink::consume);
  }
}
