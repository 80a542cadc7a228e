package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.util.Optional;
import java.util.function.IntToDoubleFunction;

/**
 * A pool's decode step times by batch, for searches over many batches (the batch of most tokens/s
 * of a decode pool, say): {@code DecodeTimes.byBatch(pool, 2048).applyAsDouble(64)} is {@code
 * pool.decode(64, 2048).seconds()} in seconds.
 */
public final class DecodeTimes {
  private DecodeTimes() {}

  /**
   * The seconds of a decode step ({@link RooflineModel#decode(int, int)}'s {@link
   * StepResult#seconds()}) of {@code pool} at {@code context} cached tokens, by batch. Where the
   * step compiles (no pipeline parallelism, no offloaded KV, coefficients that reproduce the object
   * path) it is evaluated from the compiled coefficients, which equal the object path's time to the
   * last digit or two; elsewhere it is {@code pool.decode(batch, context)}'s. The function is not
   * for sharing between threads.
   *
   * @throws IllegalArgumentException when context is not positive, or (from the function) when a
   *     batch is not
   */
  public static IntToDoubleFunction byBatch(RooflineModel pool, int context) {
    checkNotNull(pool, "pool");
    checkArgument(context > 0, "context must be positive: %s", context);
    Optional<CompiledDecode> compiled = CompiledDecode.of(pool, context);
    if (compiled.isEmpty()) {
      return batch -> pool.decode(batch, context).seconds().seconds();
    }
    CompiledDecode d = compiled.get();
    double[] compute = new double[d.step.operations()];
    double[] memory = new double[d.step.operations()];
    return batch -> {
      checkArgument(batch > 0, "batch must be positive: %s", batch);
      return d.secondsAt(batch, compute, memory);
    };
  }
}
