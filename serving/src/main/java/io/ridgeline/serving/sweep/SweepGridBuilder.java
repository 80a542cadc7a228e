package io.ridgeline.serving.sweep;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import com.google.common.primitives.Doubles;
import com.google.common.primitives.Ints;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.Limits;
import io.ridgeline.serving.Workload;

/**
 * Builds a {@link Sweep.Grid}; each setter replaces that key's values, which must be non-empty (and
 * positive, for numbers).
 */
public final class SweepGridBuilder {
  ImmutableList<Model> models;
  ImmutableList<Chip> chips;
  ImmutableList<Integer> counts;
  ImmutableList<Integer> tps;
  ImmutableList<Integer> eps;
  ImmutableList<Deployment.Strategy> strategies;
  ImmutableList<Integer> batches;
  ImmutableList<Integer> isls;
  ImmutableList<Integer> osls;
  ImmutableList<Integer> cacheds;
  ImmutableList<Double> prefixHits;
  ImmutableList<Precision> weights;
  ImmutableList<Precision> kvs;

  SweepGridBuilder() {}

  /** The models to serve. */
  @CanIgnoreReturnValue
  public SweepGridBuilder models(Model... values) {
    this.models = nonEmpty("model", values);
    return this;
  }

  /** The chip types. */
  @CanIgnoreReturnValue
  public SweepGridBuilder chips(Chip... values) {
    this.chips = nonEmpty("chip", values);
    return this;
  }

  /** Chips in the pool. */
  @CanIgnoreReturnValue
  public SweepGridBuilder counts(int... values) {
    this.counts = positive("count", Limits.MAX_CHIPS, values);
    return this;
  }

  /** Tensor-parallel degrees: chips per model replica. */
  @CanIgnoreReturnValue
  public SweepGridBuilder tps(int... values) {
    this.tps = positive("tp", Limits.MAX_CHIPS, values);
    return this;
  }

  /** Expert-parallel degrees: chips of a stage that MoE experts spread over. */
  @CanIgnoreReturnValue
  public SweepGridBuilder eps(int... values) {
    this.eps = positive("ep", Limits.MAX_CHIPS, values);
    return this;
  }

  /** Serving strategies. */
  @CanIgnoreReturnValue
  public SweepGridBuilder strategies(Deployment.Strategy... values) {
    this.strategies = nonEmpty("strategy", values);
    return this;
  }

  /** Batch sizes, requests per replica. */
  @CanIgnoreReturnValue
  public SweepGridBuilder batches(int... values) {
    this.batches = positive("batch", Limits.MAX_BATCH, values);
    return this;
  }

  /** Prompt lengths (ISL), tokens. */
  @CanIgnoreReturnValue
  public SweepGridBuilder isls(int... values) {
    this.isls = positive("isl", Limits.MAX_TOKENS, values);
    return this;
  }

  /** Output lengths (OSL), tokens. */
  @CanIgnoreReturnValue
  public SweepGridBuilder osls(int... values) {
    this.osls = positive("osl", Limits.MAX_TOKENS, values);
    return this;
  }

  /** Tokens already in each request's KV cache when its prompt arrives ({@link Workload}). */
  @CanIgnoreReturnValue
  public SweepGridBuilder cached(int... values) {
    checkArgument(values.length > 0, "cached: the list of values is empty");
    for (int v : values) {
      // as --cached: at most 2^27 tokens, so that cached + isl + osl stays inside an int
      checkArgument(
          v >= 0 && v <= Limits.MAX_TOKENS,
          "cached must be an integer from 0 to %s tokens: %s",
          String.format(java.util.Locale.ROOT, "%,d", Limits.MAX_TOKENS),
          v);
    }
    this.cacheds = ImmutableList.copyOf(Ints.asList(values));
    return this;
  }

  /**
   * Fractions of each prompt's tokens served from a prefix cache ({@link Workload}), each in [0,
   * 1).
   */
  @CanIgnoreReturnValue
  public SweepGridBuilder prefixHit(double... values) {
    checkArgument(values.length > 0, "prefix_hit: the list of values is empty");
    for (double v : values) {
      checkArgument(v >= 0 && v < 1, "prefix_hit must be at least 0 and below 1: %s", v);
    }
    this.prefixHits = ImmutableList.copyOf(Doubles.asList(values));
    return this;
  }

  /** Precisions of every weight (replacing the checkpoint's, per-class overrides included). */
  @CanIgnoreReturnValue
  public SweepGridBuilder weights(Precision... values) {
    this.weights = nonEmpty("weights", values);
    return this;
  }

  /** KV-cache precisions. */
  @CanIgnoreReturnValue
  public SweepGridBuilder kvs(Precision... values) {
    this.kvs = nonEmpty("kv", values);
    return this;
  }

  /**
   * The grid.
   *
   * @throws IllegalArgumentException when the product of the list sizes exceeds {@code
   *     Long.MAX_VALUE}
   */
  public Sweep.Grid build() {
    return new Sweep.Grid(this);
  }

  private static <T> ImmutableList<T> nonEmpty(String key, T[] values) {
    checkArgument(values.length > 0, "%s: the list of values is empty", key);
    return ImmutableList.copyOf(values); // rejects nulls
  }

  private static ImmutableList<Integer> positive(String key, int max, int... values) {
    checkArgument(values.length > 0, "%s: the list of values is empty", key);
    for (int v : values) {
      Limits.check(key, v, max);
    }
    return ImmutableList.copyOf(Ints.asList(values));
  }
}
