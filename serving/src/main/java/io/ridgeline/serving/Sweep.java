package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.primitives.Ints;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.ridgeline.core.Names;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntFunction;

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
 * with the fewest chips that hold one prompt ({@link Sizing#fewestChips}). Unlike {@code frontier},
 * a count that tp does not divide the heads of is not laid out over pipeline stages: tp is the
 * count unless given, and such a combination is an invalid row. Every pool has the sweep's
 * efficiency: {@link Efficiency#ideal()} under {@link #run(Grid, RowSink)}, the one given to {@link
 * #run(Grid, Efficiency, RowSink)} otherwise.
 *
 * <p><b>Invalid combinations.</b> A combination that cannot be built or evaluated (tp does not
 * divide the heads, count is not a multiple of tp, ep does not divide the stage, the chip lacks a
 * link the strategy needs, the model does not fit on any layout for the prefill pool) is not an
 * error of the sweep: its row has no point, {@link Row#fits()} false and the reason in {@link
 * Row#error()}. A row whose model does not hold even one request at {@code isl + osl} tokens keeps
 * its point and says so in {@link Row#error()}; a batch that merely exceeds memory has {@code fits}
 * false and no error.
 */
public final class Sweep {
  /**
   * The grid keys, named as {@code ridgeline frontier}'s options: model, chip, count, tp, ep,
   * strategy, batch, isl, osl, weights, kv.
   */
  public static final ImmutableList<String> KEYS =
      ImmutableList.of(
          "model", "chip", "count", "tp", "ep", "strategy", "batch", "isl", "osl", "weights", "kv");

  // odometer digits, outermost first: the deployment depends only on the first eight
  private static final int MODEL = 0;
  private static final int CHIP = 1;
  private static final int COUNT = 2;
  private static final int TP = 3;
  private static final int EP = 4;
  private static final int STRATEGY = 5;
  private static final int WEIGHTS = 6;
  private static final int KV = 7;
  private static final int ISL = 8;
  private static final int OSL = 9;
  private static final int BATCH = 10;
  private static final int DIGITS = 11;

  private Sweep() {}

  /**
   * Evaluates every combination of {@code grid}, in odometer order (batch fastest, model slowest),
   * handing each row to {@code sink} as soon as it is computed.
   *
   * <p>Every pool is at {@link Efficiency#ideal()}, the roofline bound.
   *
   * @return the number of rows handed to the sink, {@link Grid#size()}
   * @throws NullPointerException when an argument is null
   * @throws RuntimeException whatever the sink throws, which ends the sweep
   */
  @CanIgnoreReturnValue
  public static long run(Grid grid, RowSink sink) {
    return run(grid, Efficiency.ideal(), sink);
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
    Evaluator evaluator = new Evaluator(grid, efficiency);
    int[] length = evaluator.lengths();
    int[] index = new int[DIGITS];
    int changed = 0; // outermost digit that changed since the last row
    long rows = 0;
    while (true) {
      sink.accept(evaluator.row(index, changed));
      rows++;
      int d = DIGITS - 1;
      while (d >= 0 && ++index[d] == length[d]) {
        index[d] = 0;
        d--;
      }
      if (d < 0) {
        return rows;
      }
      changed = d;
    }
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
    private final ImmutableList<Precision> weights;
    private final ImmutableList<Precision> kvs;
    private final long size;

    private Grid(Builder b) {
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
      this.weights = b.weights != null ? b.weights : ImmutableList.of();
      this.kvs = b.kvs != null ? b.kvs : ImmutableList.of();
      long n = 1;
      for (List<?> l :
          List.of(models, chips, counts, tps, eps, strategies, batches, isls, osls, weights, kvs)) {
        try {
          n = Math.multiplyExact(n, Math.max(1, l.size()));
        } catch (ArithmeticException e) {
          throw new IllegalArgumentException("the grid has more than 2^63 - 1 points", e);
        }
      }
      this.size = n;
    }

    /** A new builder; every key starts at its default. */
    public static Builder builder() {
      return new Builder();
    }

    /**
     * Reads a grid from a JSON file: an object whose keys are {@link Sweep#KEYS}, each mapped to a
     * list of values or a single value (a one-element list). Models and chips are catalog ids or
     * paths to a {@code config.json} or a chip JSON file; counts, parallel degrees, batches and
     * lengths are positive integers; strategies are {@code static}, {@code colocated}, {@code pd}
     * or {@code afd}; weights and kv are precision ids ({@code bf16}, {@code fp8}, …).
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
      String text;
      try {
        text = Files.readString(file, StandardCharsets.UTF_8);
      } catch (NoSuchFileException e) {
        throw new IllegalArgumentException(file + ": no such file", e);
      } catch (IOException e) {
        throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
      }
      return fromJson(text, file.toString());
    }

    /**
     * Parses grid JSON text (see {@link #fromJson(Path)}); {@code origin} names it in error
     * messages.
     *
     * @throws IllegalArgumentException as {@link #fromJson(Path)} does
     */
    public static Grid fromJson(String json, String origin) {
      JsonNode root;
      try {
        root = GridJson.MAPPER.readTree(json);
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException(
            origin + ": not valid JSON: " + e.getOriginalMessage().replace('\n', ' ') + location(e),
            e);
      }
      if (root == null || !root.isObject()) {
        throw new IllegalArgumentException(
            origin
                + ": expected a JSON object of grid keys ("
                + String.join(", ", KEYS)
                + ") mapped to lists of values");
      }
      Builder b = builder();
      for (Map.Entry<String, JsonNode> f : root.properties()) {
        String key = f.getKey();
        if (!KEYS.contains(key)) {
          throw new IllegalArgumentException(
              origin + ": " + Names.unknown("grid key", key, KEYS).getMessage());
        }
        try {
          GridJson.set(b, key, GridJson.values(key, f.getValue()));
        } catch (IllegalArgumentException | NoSuchElementException e) {
          throw new IllegalArgumentException(origin + ": key '" + key + "': " + e.getMessage(), e);
        }
      }
      return b.build();
    }

    private static String location(JsonProcessingException e) {
      return e.getLocation() == null
          ? ""
          : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
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

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "Grid of %d points: model %s, chip %s, count %s, tp %s, ep %s, strategy %s, batch %s,"
              + " isl %s, osl %s, weights %s, kv %s",
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
          kvs.isEmpty() ? "(checkpoint)" : kvs);
    }

    private static <T> List<String> ids(List<T> values, Function<T, String> id) {
      List<String> out = new ArrayList<>(values.size());
      values.forEach(v -> out.add(id.apply(v)));
      return out;
    }

    /**
     * Builds a {@link Grid}; each setter replaces that key's values, which must be non-empty (and
     * positive, for numbers).
     */
    public static final class Builder {
      private ImmutableList<Model> models;
      private ImmutableList<Chip> chips;
      private ImmutableList<Integer> counts;
      private ImmutableList<Integer> tps;
      private ImmutableList<Integer> eps;
      private ImmutableList<Deployment.Strategy> strategies;
      private ImmutableList<Integer> batches;
      private ImmutableList<Integer> isls;
      private ImmutableList<Integer> osls;
      private ImmutableList<Precision> weights;
      private ImmutableList<Precision> kvs;

      private Builder() {}

      /** The models to serve. */
      @CanIgnoreReturnValue
      public Builder models(Model... values) {
        this.models = nonEmpty("model", values);
        return this;
      }

      /** The chip types. */
      @CanIgnoreReturnValue
      public Builder chips(Chip... values) {
        this.chips = nonEmpty("chip", values);
        return this;
      }

      /** Chips in the pool. */
      @CanIgnoreReturnValue
      public Builder counts(int... values) {
        this.counts = positive("count", values);
        return this;
      }

      /** Tensor-parallel degrees: chips per model replica. */
      @CanIgnoreReturnValue
      public Builder tps(int... values) {
        this.tps = positive("tp", values);
        return this;
      }

      /** Expert-parallel degrees: chips of a stage that MoE experts spread over. */
      @CanIgnoreReturnValue
      public Builder eps(int... values) {
        this.eps = positive("ep", values);
        return this;
      }

      /** Serving strategies. */
      @CanIgnoreReturnValue
      public Builder strategies(Deployment.Strategy... values) {
        this.strategies = nonEmpty("strategy", values);
        return this;
      }

      /** Batch sizes, requests per replica. */
      @CanIgnoreReturnValue
      public Builder batches(int... values) {
        this.batches = positive("batch", values);
        return this;
      }

      /** Prompt lengths (ISL), tokens. */
      @CanIgnoreReturnValue
      public Builder isls(int... values) {
        this.isls = positive("isl", values);
        return this;
      }

      /** Output lengths (OSL), tokens. */
      @CanIgnoreReturnValue
      public Builder osls(int... values) {
        this.osls = positive("osl", values);
        return this;
      }

      /** Precisions of every weight (replacing the checkpoint's, per-class overrides included). */
      @CanIgnoreReturnValue
      public Builder weights(Precision... values) {
        this.weights = nonEmpty("weights", values);
        return this;
      }

      /** KV-cache precisions. */
      @CanIgnoreReturnValue
      public Builder kvs(Precision... values) {
        this.kvs = nonEmpty("kv", values);
        return this;
      }

      /**
       * The grid.
       *
       * @throws IllegalArgumentException when the product of the list sizes exceeds {@code
       *     Long.MAX_VALUE}
       */
      public Grid build() {
        return new Grid(this);
      }

      private static <T> ImmutableList<T> nonEmpty(String key, T[] values) {
        checkArgument(values.length > 0, "%s: the list of values is empty", key);
        return ImmutableList.copyOf(values); // rejects nulls
      }

      private static ImmutableList<Integer> positive(String key, int... values) {
        checkArgument(values.length > 0, "%s: the list of values is empty", key);
        for (int v : values) {
          checkArgument(v > 0, "%s must be positive: %s", key, v);
        }
        return ImmutableList.copyOf(Ints.asList(values));
      }
    }
  }

  /** Reading grid JSON: one value list per key. */
  private static final class GridJson {
    static final ObjectMapper MAPPER =
        new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private GridJson() {}

    /** A list's elements, or a scalar as one element. */
    static List<JsonNode> values(String key, JsonNode node) {
      List<JsonNode> out = new ArrayList<>();
      if (node.isArray()) {
        node.forEach(out::add);
        checkArgument(!out.isEmpty(), "the list of values is empty");
      } else {
        out.add(node);
      }
      for (JsonNode v : out) {
        checkArgument(
            v.isValueNode() && !v.isNull(), "expected a list of %s, got %s", expected(key), v);
      }
      return out;
    }

    static void set(Grid.Builder b, String key, List<JsonNode> values) {
      switch (key) {
        case "model":
          b.models(map(values, v -> Models.resolve(text(key, v)), Model[]::new));
          break;
        case "chip":
          b.chips(map(values, v -> resolveChip(text(key, v)), Chip[]::new));
          break;
        case "strategy":
          b.strategies(
              map(values, v -> Deployment.Strategy.of(text(key, v)), Deployment.Strategy[]::new));
          break;
        case "weights":
          b.weights(map(values, v -> Precision.of(text(key, v)), Precision[]::new));
          break;
        case "kv":
          b.kvs(map(values, v -> Precision.of(text(key, v)), Precision[]::new));
          break;
        default:
          int[] ints = new int[values.size()];
          for (int i = 0; i < ints.length; i++) {
            ints[i] = positiveInt(key, values.get(i));
          }
          switch (key) {
            case "count":
              b.counts(ints);
              break;
            case "tp":
              b.tps(ints);
              break;
            case "ep":
              b.eps(ints);
              break;
            case "batch":
              b.batches(ints);
              break;
            case "isl":
              b.isls(ints);
              break;
            default:
              b.osls(ints);
          }
      }
    }

    private static <T> T[] map(
        List<JsonNode> values, Function<JsonNode, T> f, IntFunction<T[]> array) {
      T[] out = array.apply(values.size());
      for (int i = 0; i < out.length; i++) {
        out[i] = f.apply(values.get(i));
      }
      return out;
    }

    private static String text(String key, JsonNode v) {
      checkArgument(v.isTextual(), "expected %s, got %s", expected(key), v);
      return v.textValue();
    }

    private static int positiveInt(String key, JsonNode v) {
      checkArgument(
          v.isIntegralNumber() && v.canConvertToInt(), "expected %s, got %s", expected(key), v);
      checkArgument(v.intValue() > 0, "must be positive: %s", v.intValue());
      return v.intValue();
    }

    private static String expected(String key) {
      switch (key) {
        case "model":
          return "model ids or config.json paths";
        case "chip":
          return "chip ids or chip JSON paths";
        case "strategy":
          return "strategies (static, colocated, pd, afd)";
        case "weights":
        case "kv":
          return "precision ids (" + Precision.ids() + ")";
        default:
          return "positive integers";
      }
    }

    /** A catalog chip id, else a path to a chip JSON file (as {@code --chip} takes). */
    private static Chip resolveChip(String idOrPath) {
      Optional<Chip> builtIn = Chips.builtIn().find(idOrPath);
      if (builtIn.isPresent()) {
        return builtIn.get();
      }
      Path p = Path.of(idOrPath);
      if (idOrPath.endsWith(".json") && Files.isRegularFile(p)) {
        return Chips.fromJson(p).get(0);
      }
      return Chips.byId(idOrPath);
    }
  }

  // ---- rows ----

  /**
   * One combination of a sweep and its frontier point, or the reason it has none. Numbers are in SI
   * base units, as in {@link FrontierPoint}.
   */
  public static final class Row {
    private final Model model;
    private final Chip chip;
    private final int count;
    private final int tp;
    private final int ep;
    private final Deployment.Strategy strategy;
    private final int batch;
    private final int isl;
    private final int osl;
    private final Precisions precisions;
    private final String weights;
    private final FrontierPoint point;
    private final String error;

    Row(
        Model model,
        Chip chip,
        int count,
        int tp,
        int ep,
        Deployment.Strategy strategy,
        int batch,
        int isl,
        int osl,
        Precisions precisions,
        String weights,
        FrontierPoint point,
        String error) {
      this.model = model;
      this.chip = chip;
      this.count = count;
      this.tp = tp;
      this.ep = ep;
      this.strategy = strategy;
      this.batch = batch;
      this.isl = isl;
      this.osl = osl;
      this.precisions = precisions;
      this.weights = weights;
      this.point = point;
      this.error = error;
    }

    /** The model served. */
    public Model model() {
      return model;
    }

    /** The chip type of every pool. */
    public Chip chip() {
      return chip;
    }

    /** Chips in the (decode, attention or only) pool. */
    public int count() {
      return count;
    }

    /** Tensor-parallel degree. */
    public int tp() {
      return tp;
    }

    /** Expert-parallel degree. */
    public int ep() {
      return ep;
    }

    /** The serving strategy. */
    public Deployment.Strategy strategy() {
      return strategy;
    }

    /** Requests per replica. */
    public int batch() {
      return batch;
    }

    /** Prompt length (ISL), tokens. */
    public int isl() {
      return isl;
    }

    /** Output length (OSL), tokens. */
    public int osl() {
      return osl;
    }

    /** Weight, KV-cache and activation precisions of the combination. */
    public Precisions precisions() {
      return precisions;
    }

    /**
     * The weight precision id ({@code "fp8"}); for a checkpoint that mixes precisions, its base
     * precision followed by each override, {@code "bf16+experts:mxfp4"}.
     */
    public String weights() {
      return weights;
    }

    /** The KV-cache precision id. */
    public String kv() {
      return precisions.kvCache().id();
    }

    /** The frontier point; empty when the combination could not be built or evaluated. */
    public Optional<FrontierPoint> point() {
      return Optional.ofNullable(point);
    }

    /**
     * Why the combination is invalid or does not hold one request, in one line; empty for a valid
     * combination (whose batch may still exceed memory: see {@link #fits()}).
     */
    public Optional<String> error() {
      return Optional.ofNullable(error);
    }

    /** Whether there is a point and its batch fits in memory. */
    public boolean fits() {
      return point != null && point.fits();
    }

    @Override
    public String toString() {
      String what =
          String.format(
              Locale.ROOT,
              "%s on %d× %s (tp %d, ep %d, weights %s, kv %s), %s, ISL %d, OSL %d",
              model.id(),
              count,
              chip.id(),
              tp,
              ep,
              weights,
              kv(),
              strategy.id(),
              isl,
              osl);
      String result =
          point != null
              ? point.toString()
              : String.format(Locale.ROOT, "%s batch %d: no point", strategy.id(), batch);
      return what + ": " + result + (error != null ? " [" + error + "]" : "");
    }
  }

  // ---- evaluation ----

  /** Evaluates rows in odometer order, caching the deployment of the outer digits. */
  private static final class Evaluator {
    private final Model[] models;
    private final Chip[] chips;
    private final int[] counts; // 0: default
    private final int[] tps; // 0: default
    private final int[] eps;
    private final Deployment.Strategy[] strategies;
    private final int[] batches;
    private final int[] isls;
    private final int[] osls;
    private final Precision[] weights; // null: the checkpoint's
    private final Precision[] kvs; // null: the checkpoint's
    private final Efficiency efficiency;

    // the combination of the outer digits, and what was built for it
    private Model model;
    private Chip chip;
    private int count;
    private int tp;
    private int ep;
    private Deployment.Strategy strategy;
    private Precisions precisions;
    private String weightsLabel;
    private RooflineModel pool;
    private String poolError;
    private Deployment deployment;
    private String deploymentError;
    // why one request does not fit the deployment, at the last isl and osl asked
    private int fitIsl = -1;
    private int fitOsl = -1;
    private String fitError;

    Evaluator(Grid g, Efficiency efficiency) {
      this.efficiency = efficiency;
      models = g.models().toArray(new Model[0]);
      chips = g.chips().toArray(new Chip[0]);
      counts = g.counts().isEmpty() ? new int[] {0} : Ints.toArray(g.counts());
      tps = g.tps().isEmpty() ? new int[] {0} : Ints.toArray(g.tps());
      eps = Ints.toArray(g.eps());
      strategies = g.strategies().toArray(new Deployment.Strategy[0]);
      batches = Ints.toArray(g.batches());
      isls = Ints.toArray(g.isls());
      osls = Ints.toArray(g.osls());
      weights = g.weights().isEmpty() ? new Precision[1] : g.weights().toArray(new Precision[0]);
      kvs = g.kvs().isEmpty() ? new Precision[1] : g.kvs().toArray(new Precision[0]);
    }

    int[] lengths() {
      int[] l = new int[DIGITS];
      l[MODEL] = models.length;
      l[CHIP] = chips.length;
      l[COUNT] = counts.length;
      l[TP] = tps.length;
      l[EP] = eps.length;
      l[STRATEGY] = strategies.length;
      l[WEIGHTS] = weights.length;
      l[KV] = kvs.length;
      l[ISL] = isls.length;
      l[OSL] = osls.length;
      l[BATCH] = batches.length;
      return l;
    }

    /** The row at {@code index}; digits outside {@code changed..} are those of the last row. */
    Row row(int[] index, int changed) {
      int isl = isls[index[ISL]];
      if (changed <= KV) {
        combination(index);
        pool(isl);
      } else if (changed <= ISL && strategy == Deployment.Strategy.PD) {
        deployment(isl);
      }
      int osl = osls[index[OSL]];
      int batch = batches[index[BATCH]];
      if (deployment == null) {
        return row(batch, isl, osl, null, deploymentError);
      }
      try {
        FrontierPoint p = deployment.point(batch, isl, osl);
        return row(batch, isl, osl, p, p.fits() ? null : doesNotFit(isl, osl));
      } catch (IllegalArgumentException e) {
        return row(batch, isl, osl, null, oneLine(e));
      }
    }

    private Row row(int batch, int isl, int osl, FrontierPoint p, String error) {
      return new Row(
          model,
          chip,
          count,
          tp,
          ep,
          strategy,
          batch,
          isl,
          osl,
          precisions,
          weightsLabel,
          p,
          error);
    }

    private void combination(int[] index) {
      model = models[index[MODEL]];
      chip = chips[index[CHIP]];
      int c = counts[index[COUNT]];
      int t = tps[index[TP]];
      count = c > 0 ? c : t > 0 ? t : 1;
      tp = t > 0 ? t : count;
      ep = eps[index[EP]];
      strategy = strategies[index[STRATEGY]];
      Precision w = weights[index[WEIGHTS]];
      Precision kv = kvs[index[KV]];
      Precisions p = model.defaultPrecisions();
      if (w != null) {
        p = p.withAllWeights(w);
      }
      if (kv != null) {
        p = Precisions.builder().from(p).kvCache(kv).build();
      }
      precisions = p;
      weightsLabel = weightsLabel(p);
    }

    /** Builds the pool of the current combination, then its deployment. */
    private void pool(int isl) {
      try {
        pool =
            RooflineModel.builder()
                .model(model)
                .chip(chip)
                .chips(count)
                .tensorParallel(tp)
                .expertParallel(ep)
                .precisions(precisions)
                .efficiency(efficiency.forChip(chip))
                // a pd decode pool never prefills: its workspace holds one decode step
                .runsPrefill(strategy != Deployment.Strategy.PD)
                .build();
        poolError = null;
      } catch (IllegalArgumentException e) {
        pool = null;
        poolError = oneLine(e);
      }
      deployment(isl);
    }

    private void deployment(int isl) {
      fitIsl = -1;
      if (pool == null) {
        deployment = null;
        deploymentError = poolError;
        return;
      }
      try {
        switch (strategy) {
          case PD:
            deployment = Deployment.disaggregated(prefillPool(isl), pool);
            break;
          case AFD:
            deployment = Deployment.attentionFfn(pool, pool);
            break;
          default:
            deployment = Deployment.of(strategy, pool);
        }
        deploymentError = null;
      } catch (IllegalArgumentException e) {
        deployment = null;
        deploymentError = oneLine(e);
      }
    }

    /**
     * The prefill pool of {@code pd}, as {@code ridgeline frontier} sizes it without {@code
     * --prefill-count}: one chip, or the fewest chips that hold one prompt of {@code isl} tokens.
     */
    private RooflineModel prefillPool(int isl) {
      RooflineModel one =
          RooflineModel.builder()
              .model(model)
              .chip(chip)
              .precisions(precisions)
              .efficiency(efficiency.forChip(chip))
              .build();
      if (one.memory(1, isl).fits()) {
        return one;
      }
      return Sizing.fewestChips(one, 1, isl)
          .orElseThrow(
              () ->
                  new IllegalArgumentException(
                      model.id()
                          + " does not fit on any layout of "
                          + chip.id()
                          + " chips up to one layer per pipeline stage (pd prefill pool)"));
    }

    /**
     * Why not even one request of {@code isl + osl} tokens fits ({@link Deployment#fitProblem}, as
     * {@code ridgeline frontier} reports it), or null when one does; the last answer is kept.
     */
    private String doesNotFit(int isl, int osl) {
      if (isl != fitIsl || osl != fitOsl) {
        fitIsl = isl;
        fitOsl = osl;
        fitError = deployment.fitProblem(isl, osl).orElse(null);
      }
      return fitError;
    }

    private static String weightsLabel(Precisions p) {
      StringBuilder b = new StringBuilder(p.weights().id());
      p.weightOverrides()
          .forEach(
              (k, v) -> {
                if (v != p.weights()) {
                  b.append('+').append(k.id()).append(':').append(v.id());
                }
              });
      return b.toString();
    }

    private static String oneLine(RuntimeException e) {
      String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      return m.replace('\n', ' ');
    }
  }
}
