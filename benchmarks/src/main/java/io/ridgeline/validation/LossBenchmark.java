package io.ridgeline.validation;

import io.ridgeline.serving.efficiency.EngineProfile;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Milliseconds per loss evaluation of a calibration fit ({@link FitObjective#loss}): every
 * predictable shipped row predicted under one candidate profile, as each step of {@code calibrate}
 * and of each cross-validation fold does. The objective (and its per-computation {@link
 * CaseEvaluator}s, which count each step's operations once) is built once per trial, as a fit
 * builds it once; the profile cycles through 64 drawn around the start (±0.7 logit units per
 * coordinate, a normal draw, seeded), so that the efficiency differs from one evaluation to the
 * next as in a search. The evaluation predicts its computations in parallel (the common pool):
 * run it on a quiet machine and read the CPU time too ({@code -prof gc} gives the allocation).
 * In this package because the objective is package-private.
 *
 * <pre>{@code
 * mvn -B -q package -pl benchmarks -am -DskipTests
 * java -jar benchmarks/target/benchmarks.jar LossBenchmark -f 1 -wi 5 -i 5 -w 5s -r 5s
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Thread)
public class LossBenchmark {
  private static final int PROFILES = 64;

  private FitObjective objective;
  private EngineProfile[] profiles;
  private int next;

  /** Builds the objective on the predictable shipped rows and draws the profiles. */
  @Setup
  public void setUp() {
    List<ValidationCase> rows = CrossValidation.predictable(CaseFile.shipped());
    objective = new FitObjective(rows);
    double[] start = FitCoordinates.toCoordinates(Calibration.startProfile());
    Random random = new Random(1);
    profiles = new EngineProfile[PROFILES];
    for (int i = 0; i < PROFILES; i++) {
      double[] x = start.clone();
      for (int k = 0; k < x.length; k++) {
        x[k] += 0.7 * random.nextGaussian();
      }
      profiles[i] = FitCoordinates.fromCoordinates(x);
    }
  }

  /** One loss evaluation; ms per evaluation. */
  @Benchmark
  public double loss() {
    EngineProfile p = profiles[next];
    next = (next + 1) % PROFILES;
    return objective.loss(p);
  }
}
