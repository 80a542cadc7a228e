package io.ridgeline.benchmarks;

import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.sweep.Sweep;
import io.ridgeline.serving.sweep.SweepWriter;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
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
 * Nanoseconds per point of the reference sweep ({@code benchmarks/grids/reference.json}): models
 * llama-3.1-8b, llama-3.1-70b, mixtral-8x7b, deepseek-v3 × chips h100-sxm, h200-sxm, b200, mi300x,
 * mi355x, gb200 × count 8, 16, 32, 64 × batch 1 … 1,024 × ISL 128, 1,024, 8,192 × OSL 128, 1,024 ×
 * weights fp8 = 589,824 points, colocated, calibrated and ideal. One operation is the whole sweep
 * (single shot); JMH divides by the 589,824 points, so the score is ns per point.
 *
 * <ul>
 *   <li>{@link #rows}: {@link Sweep#run} on one thread, every row handed to a {@link Blackhole}
 *       (evaluation alone, no output).
 *   <li>{@link #csv}: what {@code ridgeline sweep --grid reference.json --out x.csv} does after
 *       start-up: {@link SweepWriter} on every available processor, CSV text in grid order, written
 *       to a writer that discards it.
 * </ul>
 *
 * <p>Build and run from the repository root (a shot takes 1-30 s; {@code -prof gc} reports bytes
 * per point as {@code gc.alloc.rate.norm}):
 *
 * <pre>{@code
 * mvn -B -q package -pl benchmarks -am -DskipTests
 * java -jar benchmarks/target/benchmarks.jar ReferenceSweepBenchmark -f 1 -wi 1 -i 2 -prof gc
 * }</pre>
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class ReferenceSweepBenchmark {
  /** Points of the reference grid. */
  static final int POINTS = 589_824;

  /** {@code calibrated} (the default profile) or {@code ideal} (the roofline bound). */
  @Param({"calibrated", "ideal"})
  public String efficiency;

  Sweep.Grid grid;
  Efficiency eff;

  /** The reference grid, as {@code benchmarks/grids/reference.json} has it. */
  public static Sweep.Grid referenceGrid() {
    return Sweep.Grid.builder()
        .models(
            Models.byId("llama-3.1-8b"),
            Models.byId("llama-3.1-70b"),
            Models.byId("mixtral-8x7b"),
            Models.byId("deepseek-v3"))
        .chips(
            Chips.byId("h100-sxm"),
            Chips.byId("h200-sxm"),
            Chips.byId("b200"),
            Chips.byId("mi300x"),
            Chips.byId("mi355x"),
            Chips.byId("gb200"))
        .counts(8, 16, 32, 64)
        .batches(IntStream.rangeClosed(1, 1024).toArray())
        .isls(128, 1024, 8192)
        .osls(128, 1024)
        .weights(Precision.FP8)
        .build();
  }

  /** Builds the grid once per trial. */
  @Setup
  public void setUp() {
    grid = referenceGrid();
    eff = efficiency.equals("ideal") ? Efficiency.ideal() : Efficiency.standard();
  }

  /**
   * The whole sweep as CSV on every available processor, in grid order, as UTF-8 bytes (the command
   * line's {@code --out FILE}); ns per point.
   */
  @Benchmark
  @OperationsPerInvocation(POINTS)
  public long csv() {
    return SweepWriter.write(
            grid,
            eff,
            SweepWriter.Format.CSV,
            OutputStream.nullOutputStream(),
            Runtime.getRuntime().availableProcessors(),
            done -> {})
        .rows();
  }

  /** The whole sweep on one thread, rows discarded; ns per point. */
  @Benchmark
  @OperationsPerInvocation(POINTS)
  public long rows(Blackhole sink) {
    return Sweep.run(grid, eff, sink::consume);
  }
}
