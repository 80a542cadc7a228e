package io.ridgeline.serving.sweep;

import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.DeploymentSpec;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.PoolSpec;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Sizing;
import io.ridgeline.serving.Workload;
import io.ridgeline.serving.efficiency.Efficiency;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * A design-space sweep: the frontier point of every combination of a {@link Grid} of models, chips,
 * chip counts, parallelism, strategies, batch sizes, prompt and output lengths and precisions,
 * handed one {@link Row} at a time to a {@link RowSink}.
 *
 * <pre>{@code
 * Sweep.Grid grid = Sweep.Grid.builder()
 *     .models(Models.byId("llama-3.1-8b"), Models.byId("llama-3.1-70b"))
 *     .chips(Chips.byId("h100-sxm"))
 *     .counts(8)
 *     .strategies(Deployment.Strategy.COLOCATED, Deployment.Strategy.PD)
 *     .batches(1, 8, 64, 256)
 *     .build();
 * long n = Sweep.run(grid, row -> System.out.println(row));   // 16 rows
 * }</pre>
 *
 * <p><b>Streaming.</b> The product is walked lazily by an odometer over index arrays, batch
 * fastest, then output length, prompt length, kv, weights, strategy, ep, tp, count, chip and model;
 * each row goes to the sink as soon as it is computed and nothing is kept, so memory does not grow
 * with the grid. The pools and the {@link Deployment} of a combination of model, chip, count, tp,
 * ep, strategy, weights and kv are built once and reused for every batch, prompt and output length
 * under it (for {@code pd}, whose prefill pool is sized to the prompt, once per prompt length).
 *
 * <p><b>Pools.</b> One pool of {@code count} chips with tensor parallelism {@code tp} and expert
 * parallelism {@code ep} serves the model. {@code static} and {@code colocated} use it alone;
 * {@code afd} uses it as both the attention and the FFN pool; {@code pd} uses it as the decode pool
 * (without a prefill chunk in its workspace, {@link RooflineModel#runsPrefill()} false) and, as
 * {@code ridgeline frontier} does without {@code --prefill-count}, a prefill pool of the same chip
 * with the fewest chips that hold one prompt ({@link Sizing#fewestChips}); both come from {@link
 * DeploymentSpec#build}, the factory {@code frontier} uses. Unlike {@code frontier}, a count that
 * tp does not divide the heads of is not laid out over pipeline stages: the pool's {@link PoolSpec}
 * has an explicit tp (the count unless given), and such a combination is an invalid row. Every pool
 * has the sweep's efficiency: {@link Efficiency#ideal()} under {@link #run(Grid, RowSink)}, the one
 * given to {@link #run(Grid, Efficiency, RowSink)} otherwise.
 *
 * <p><b>Invalid combinations.</b> A combination that cannot be built or evaluated (tp does not
 * divide the heads, count is not a multiple of tp, ep does not divide the stage, the chip lacks a
 * link the strategy needs, the model does not fit on any layout for the prefill pool) is not an
 * error of the sweep: its row has no point, {@link Row#fits()} false and the reason in {@link
 * Row#error()}. A row whose model does not hold even one request at {@code isl + osl} tokens keeps
 * its point and says so in {@link Row#error()}; a batch that merely exceeds memory keeps its point
 * too, with {@code fits} false and an error naming the largest batch that fits.
 */
public final class Sweep {
  /**
   * The grid keys, named as {@code ridgeline frontier}'s options: model, chip, count, tp, ep,
   * strategy, batch, isl, osl, weights, kv, cached, prefix_hit.
   */
  public static final ImmutableList<String> KEYS =
      ImmutableList.of(
          "model",
          "chip",
          "count",
          "tp",
          "ep",
          "strategy",
          "batch",
          "isl",
          "osl",
          "weights",
          "kv",
          "cached",
          "prefix_hit");

  // odometer digits, outermost first: the deployment depends only on the first eight
  static final int MODEL = 0;
  static final int CHIP = 1;
  static final int COUNT = 2;
  static final int TP = 3;
  static final int EP = 4;
  static final int STRATEGY = 5;
  static final int WEIGHTS = 6;
  static final int KV = 7;
  static final int ISL = 8;
  static final int CACHED = 9;
  static final int PREFIX_HIT = 10;
  static final int OSL = 11;
  static final int BATCH = 12;
  static final int DIGITS = 13;

  private Sweep() {}

  /**
   * Evaluates every combination of {@code grid}, in odometer order (batch fastest, model slowest),
   * handing each row to {@code sink} as soon as it is computed.
   *
   * <p>Every pool is at {@link Efficiency#standard()} (the calibrated default profile, applied per
   * chip), as {@code ridgeline sweep} without efficiency options.
   *
   * @return the number of rows handed to the sink, {@link Grid#size()}
   * @throws NullPointerException when an argument is null
   * @throws RuntimeException whatever the sink throws, which ends the sweep
   */
  @CanIgnoreReturnValue
  public static long run(Grid grid, RowSink sink) {
    return run(grid, Efficiency.standard(), sink);
  }

  /**
   * Evaluates every combination of {@code grid} as {@link #run(Grid, RowSink)} does, with every
   * pool (the pd prefill pool included) at {@code efficiency}.
   *
   * @return the number of rows handed to the sink, {@link Grid#size()}
   * @throws NullPointerException when an argument is null
   * @throws RuntimeException whatever the sink throws, which ends the sweep
   */
  @CanIgnoreReturnValue
  public static long run(Grid grid, Efficiency efficiency, RowSink sink) {
    checkNotNull(grid, "grid");
    checkNotNull(efficiency, "efficiency");
    checkNotNull(sink, "sink");
    return run(grid, efficiency, 0, grid.size(), sink);
  }

  /**
   * Evaluates the rows {@code from} (inclusive) to {@code to} (exclusive) of {@code grid} in
   * odometer order, as {@link #run(Grid, Efficiency, RowSink)} numbers them from 0, handing each to
   * {@code sink}: a slice of a sweep, which {@link SweepWriter} evaluates in parallel.
   *
   * @return the number of rows handed to the sink, {@code to − from}
   * @throws IllegalArgumentException unless {@code 0 ≤ from ≤ to ≤ grid.size()}
   * @throws NullPointerException when an argument is null
   * @throws RuntimeException whatever the sink throws, which ends the sweep
   */
  @CanIgnoreReturnValue
  public static long run(Grid grid, Efficiency efficiency, long from, long to, RowSink sink) {
    checkNotNull(grid, "grid");
    checkNotNull(efficiency, "efficiency");
    checkNotNull(sink, "sink");
    com.google.common.base.Preconditions.checkArgument(
        0 <= from && from <= to && to <= grid.size(),
        "rows must satisfy 0 <= from <= to <= %s: from %s, to %s",
        grid.size(),
        from,
        to);
    SweepEvaluator evaluator = new SweepEvaluator(grid, efficiency);
    int[] length = evaluator.lengths();
    int[] index = new int[DIGITS];
    // the odometer reading of row `from`: batch is the fastest digit
    long rest = from;
    for (int d = DIGITS - 1; d >= 0; d--) {
      index[d] = (int) (rest % length[d]);
      rest /= length[d];
    }
    int changed = 0; // outermost digit that changed since the last row
    for (long row = from; row < to; row++) {
      sink.accept(evaluator.row(index, changed));
      int d = DIGITS - 1;
      while (d >= 0 && ++index[d] == length[d]) {
        index[d] = 0;
        d--;
      }
      changed = Math.max(d, 0);
    }
    return to - from;
  }

  /** Receives the rows of a sweep, one at a time. */
  @FunctionalInterface
  public interface RowSink {
    /** Takes one row; the sweep goes on when this returns. */
    void accept(Row row);
  }

  // ---- grid ----

  /**
   * The values of each key of a sweep: non-empty lists whose cartesian product is evaluated.
   * Defaults for keys not given: model {@code llama-3.1-8b}, chip {@code h100-sxm}, count the
   * combination's tp (or 1), tp the combination's count (or 1), ep 1, strategy colocated, batch 1,
   * isl 1024, osl 1024, weights and kv the model checkpoint's precisions.
   *
   * <p>Build one with {@link #builder()} or read one from JSON with {@link #fromJson(Path)}.
   */
  public static final class Grid {
    private final ImmutableList<Model> models;
    private final ImmutableList<Chip> chips;
    private final ImmutableList<Integer> counts;
    private final ImmutableList<Integer> tps;
    private final ImmutableList<Integer> eps;
    private final ImmutableList<Deployment.Strategy> strategies;
    private final ImmutableList<Integer> batches;
    private final ImmutableList<Integer> isls;
    private final ImmutableList<Integer> osls;
    private final ImmutableList<Integer> cacheds;
    private final ImmutableList<Double> prefixHits;
    private final ImmutableList<Precision> weights;
    private final ImmutableList<Precision> kvs;
    private final long size;

    Grid(SweepGridBuilder b) {
      this.models = b.models != null ? b.models : ImmutableList.of(Models.byId("llama-3.1-8b"));
      this.chips = b.chips != null ? b.chips : ImmutableList.of(Chips.byId("h100-sxm"));
      this.counts = b.counts != null ? b.counts : ImmutableList.of();
      this.tps = b.tps != null ? b.tps : ImmutableList.of();
      this.eps = b.eps != null ? b.eps : ImmutableList.of(1);
      this.strategies =
          b.strategies != null ? b.strategies : ImmutableList.of(Deployment.Strategy.COLOCATED);
      this.batches = b.batches != null ? b.batches : ImmutableList.of(1);
      this.isls = b.isls != null ? b.isls : ImmutableList.of(1024);
      this.osls = b.osls != null ? b.osls : ImmutableList.of(1024);
      this.cacheds = b.cacheds != null ? b.cacheds : ImmutableList.of(0);
      this.prefixHits = b.prefixHits != null ? b.prefixHits : ImmutableList.of(0.0);
      this.weights = b.weights != null ? b.weights : ImmutableList.of();
      this.kvs = b.kvs != null ? b.kvs : ImmutableList.of();
      long n = 1;
      for (List<?> l :
          List.of(
              models,
              chips,
              counts,
              tps,
              eps,
              strategies,
              batches,
              isls,
              osls,
              weights,
              kvs,
              cacheds,
              prefixHits)) {
        try {
          n = Math.multiplyExact(n, Math.max(1, l.size()));
        } catch (ArithmeticException e) {
          throw new IllegalArgumentException("the grid has more than 2^63 - 1 points", e);
        }
      }
      this.size = n;
    }

    /** A new builder; every key starts at its default. */
    public static SweepGridBuilder builder() {
      return new SweepGridBuilder();
    }

    /**
     * Reads a grid from a JSON file: an object whose keys are {@link Sweep#KEYS}, each mapped to a
     * list of values or a single value (a one-element list). Models and chips are catalog ids or
     * paths to a {@code config.json} or a chip JSON file; counts, parallel degrees, batches and
     * lengths are positive integers; strategies are {@link Deployment.Strategy} ids; weights and kv
     * are precision ids ({@code bf16}, {@code fp8}, …).
     *
     * <pre>{@code
     * {"model": ["llama-3.1-8b", "llama-3.1-70b"], "chip": "h100-sxm", "count": 8,
     *  "strategy": ["colocated", "pd"], "batch": [1, 2, 4, 8, 16, 32, 64], "isl": [1024, 8192]}
     * }</pre>
     *
     * @throws IllegalArgumentException naming the file, and the key and value, when the file is
     *     missing, is not a JSON object, has an unknown key (the message lists the known ones) or a
     *     bad value (unknown model, chip or precision id, unknown strategy, a number that is not a
     *     positive integer, an empty list)
     * @throws UncheckedIOException when the file exists but cannot be read
     */
    public static Grid fromJson(Path file) {
      return SweepGridJson.read(file);
    }

    /**
     * Parses grid JSON text (see {@link #fromJson(Path)}); {@code origin} names it in error
     * messages.
     *
     * @throws IllegalArgumentException as {@link #fromJson(Path)} does
     */
    public static Grid fromJson(String json, String origin) {
      return SweepGridJson.parse(json, origin);
    }

    /** The number of combinations: the product of the list sizes (a default counts as one). */
    public long size() {
      return size;
    }

    /** The models. */
    public ImmutableList<Model> models() {
      return models;
    }

    /** The chips. */
    public ImmutableList<Chip> chips() {
      return chips;
    }

    /** Chips per pool; empty for the default (each combination's tp, or 1). */
    public ImmutableList<Integer> counts() {
      return counts;
    }

    /** Tensor-parallel degrees; empty for the default (each combination's count, or 1). */
    public ImmutableList<Integer> tps() {
      return tps;
    }

    /** Expert-parallel degrees. */
    public ImmutableList<Integer> eps() {
      return eps;
    }

    /** Serving strategies. */
    public ImmutableList<Deployment.Strategy> strategies() {
      return strategies;
    }

    /** Batch sizes, requests per replica. */
    public ImmutableList<Integer> batches() {
      return batches;
    }

    /** Prompt lengths (ISL), tokens. */
    public ImmutableList<Integer> isls() {
      return isls;
    }

    /** Output lengths (OSL), tokens. */
    public ImmutableList<Integer> osls() {
      return osls;
    }

    /** Precisions of every weight; empty for the checkpoint's. */
    public ImmutableList<Precision> weights() {
      return weights;
    }

    /** KV-cache precisions; empty for the checkpoint's. */
    public ImmutableList<Precision> kvs() {
      return kvs;
    }

    /** Tokens of history in each request's KV cache ({@link Workload}); {@code [0]} by default. */
    public ImmutableList<Integer> cached() {
      return cacheds;
    }

    /**
     * Fractions of each prompt's tokens served from a prefix cache ({@link Workload}); {@code [0]}
     * by default.
     */
    public ImmutableList<Double> prefixHit() {
      return prefixHits;
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "Grid of %d points: model %s, chip %s, count %s, tp %s, ep %s, strategy %s, batch %s,"
              + " isl %s, osl %s, weights %s, kv %s%s%s",
          size,
          ids(models, Model::id),
          ids(chips, Chip::id),
          counts.isEmpty() ? "(= tp)" : counts,
          tps.isEmpty() ? "(= count)" : tps,
          eps,
          ids(strategies, Deployment.Strategy::id),
          batches,
          isls,
          osls,
          weights.isEmpty() ? "(checkpoint)" : weights,
          kvs.isEmpty() ? "(checkpoint)" : kvs,
          cacheds.equals(List.of(0)) ? "" : ", cached " + cacheds,
          prefixHits.equals(List.of(0.0)) ? "" : ", prefix hit " + prefixHits);
    }

    private static <T> List<String> ids(List<T> values, Function<T, String> id) {
      List<String> out = new ArrayList<>(values.size());
      values.forEach(v -> out.add(id.apply(v)));
      return out;
    }
  }

  // ---- rows ----

  /**
   * One combination of a sweep and its frontier point, or the reason it has none. Numbers are in SI
   * base units, as in {@link FrontierPoint}.
   *
   * @param model the model served
   * @param chip the chip type of every pool
   * @param count chips in the (decode, attention or only) pool
   * @param tp tensor-parallel degree
   * @param ep expert-parallel degree
   * @param strategy the serving strategy
   * @param batch requests per replica
   * @param isl prompt length (ISL), tokens
   * @param osl output length (OSL), tokens
   * @param cached tokens already in each request's KV cache when its prompt arrives
   * @param prefixHit fraction of each prompt's tokens served from a prefix cache, in [0, 1)
   * @param precisions weight, KV-cache and activation precisions of the combination
   * @param weights the weight precision id ({@code "fp8"}); for a checkpoint that mixes precisions,
   *     its base precision followed by each override, {@code "bf16+experts:mxfp4"}
   * @param point the frontier point; empty when the combination could not be built or evaluated
   * @param error why the combination is invalid, does not hold one request or its batch exceeds
   *     memory, in one line; empty when the point fits
   */
  public record Row(
      Model model,
      Chip chip,
      int count,
      int tp,
      int ep,
      Deployment.Strategy strategy,
      int batch,
      int isl,
      int osl,
      int cached,
      double prefixHit,
      Precisions precisions,
      String weights,
      Optional<FrontierPoint> point,
      Optional<String> error) {
    /**
     * Checks that no component is null.
     *
     * @throws NullPointerException when one is
     */
    public Row {
      checkNotNull(model, "model");
      checkNotNull(chip, "chip");
      checkNotNull(strategy, "strategy");
      checkNotNull(precisions, "precisions");
      checkNotNull(weights, "weights");
      checkNotNull(point, "point");
      checkNotNull(error, "error");
    }

    /** The KV-cache precision id. */
    public String kv() {
      return precisions.kvCache().id();
    }

    /** Whether there is a point and its batch fits in memory. */
    public boolean fits() {
      return point.isPresent() && point.get().fits();
    }

    @Override
    public String toString() {
      String what =
          String.format(
              Locale.ROOT,
              "%s on %d× %s (tp %d, ep %d, weights %s, kv %s), %s, ISL %d, OSL %d%s%s",
              model.id(),
              count,
              chip.id(),
              tp,
              ep,
              weights,
              kv(),
              strategy.id(),
              isl,
              osl,
              cached == 0 ? "" : ", cached " + cached,
              prefixHit == 0 ? "" : ", prefix hit " + prefixHit);
      String result =
          point
              .map(FrontierPoint::toString)
              .orElseGet(
                  () -> String.format(Locale.ROOT, "%s batch %d: no point", strategy.id(), batch));
      return what + ": " + result + error.map(e -> " [" + e + "]").orElse("");
    }
  }
}
