package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkNotNull;

import io.ridgeline.core.Phase;
import io.ridgeline.core.Precisions;
import io.ridgeline.models.Model;
import io.ridgeline.models.Routing;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A scope in which the operations of a step are counted once: the part of a step that does not
 * depend on the {@link io.ridgeline.serving.efficiency.Efficiency efficiency}. A decode step's
 * phases and a prefill's operations on the busiest chip (each operation's FLOPs and bytes of every
 * kind, its weight bytes and bytes per stored weight element), and the whole model's operations
 * that the compiled colocated path probes, are a function of the model, the precisions the chip
 * computes at, the MoE routing, the layout (chips, tp, pp, ep, attention dp) and the step's shape
 * (sequences per micro-batch, context or prompt tokens, cached tokens, tokens per sequence); the
 * times are the efficiency's. A calibration fit evaluates the same case's steps under thousands of
 * candidate efficiencies: inside {@link #run} the operations of a step already counted are taken
 * from the cache, so only the times are computed again.
 *
 * <p>The key is every input of the count (the model by identity: a different instance, even an
 * equal one, is counted again), so a cached step holds the objects the count would build, and every
 * time computed from them is the same double. Outside {@link #run} nothing is cached. The cache
 * grows with the distinct steps counted in it: it is meant for one case (or a few), dropped with
 * it, not for a whole process. Usable from several threads; {@link #run} sets it for the calling
 * thread only, so work that the scope hands to other threads counts there without it.
 *
 * <pre>{@code
 * OperationCache cache = OperationCache.create();
 * for (Efficiency e : candidates) {
 *   StepResult step = cache.run(() -> pool(e).decode(batch, context)); // counted on the first
 * }
 * }</pre>
 */
public final class OperationCache {
  private static final ThreadLocal<OperationCache> CURRENT = new ThreadLocal<>();

  /**
   * The most steps one cache keeps (of all kinds together): a step counted beyond it is counted
   * again each time, so a scope that meets ever new shapes (a batch search whose range moves with
   * the candidate's running-request cap) holds a few megabytes at most.
   */
  public static final int MAX_STEPS = 2048;

  private final Map<Key, List<PoolOperations.Counted>> decode = new ConcurrentHashMap<>();
  private final Map<Key, List<PoolOperations.Counted>> prefill = new ConcurrentHashMap<>();
  private final Map<Key, List<Phase>> modelDecode = new ConcurrentHashMap<>();
  private final Map<Key, List<Phase>> modelPrefill = new ConcurrentHashMap<>();

  private OperationCache() {}

  /** An empty cache. */
  public static OperationCache create() {
    return new OperationCache();
  }

  /**
   * {@code work}'s result, with this cache in effect on the calling thread while it runs (the one
   * in effect before, if any, is restored afterwards).
   */
  public <T> T run(Supplier<T> work) {
    checkNotNull(work, "work");
    OperationCache before = CURRENT.get();
    CURRENT.set(this);
    try {
      return work.get();
    } finally {
      if (before == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(before);
      }
    }
  }

  /** The steps counted in this cache so far (decode steps and prefills, per chip and whole). */
  public int size() {
    return decode.size() + prefill.size() + modelDecode.size() + modelPrefill.size();
  }

  /**
   * The model's phases of a decode step of {@code sequences} sequences (whole, before {@link
   * PoolOperations#perChip}: what {@link CompiledSteps} probes), from the cache in effect when
   * there is one.
   */
  static List<Phase> modelDecode(
      RooflineModel pool,
      double sequences,
      int context,
      int tokensPerSequence,
      Supplier<List<Phase>> count) {
    OperationCache cache = CURRENT.get();
    return cached(
        cache,
        cache == null ? null : cache.modelDecode,
        pool,
        sequences,
        context,
        0,
        tokensPerSequence,
        count);
  }

  /**
   * The model's phase of a prefill (whole, before {@link PoolOperations#perChip}: what {@link
   * CompiledSteps} probes), from the cache in effect when there is one.
   */
  static List<Phase> modelPrefill(
      RooflineModel pool,
      double prompts,
      int promptTokens,
      int cachedTokens,
      Supplier<List<Phase>> count) {
    OperationCache cache = CURRENT.get();
    return cached(
        cache,
        cache == null ? null : cache.modelPrefill,
        pool,
        prompts,
        promptTokens,
        cachedTokens,
        0,
        count);
  }

  private static <T> List<T> cached(
      OperationCache cache,
      Map<Key, List<T>> map,
      RooflineModel pool,
      double sequences,
      int tokens,
      int cached,
      int perSequence,
      Supplier<List<T>> count) {
    if (map == null) {
      return count.get();
    }
    Key key = Key.of(pool, sequences, tokens, cached, perSequence);
    List<T> value = map.get(key);
    if (value == null) {
      value = List.copyOf(count.get());
      if (cache.size() < MAX_STEPS) {
        map.putIfAbsent(key, value);
      }
    }
    return value;
  }

  /**
   * The per-chip phases of a decode step of {@code pool} ({@link PoolOperations#decode}): {@code
   * count}'s, from the cache in effect when there is one.
   */
  static List<PoolOperations.Counted> decode(
      RooflineModel pool,
      double sequences,
      int context,
      int tokensPerSequence,
      Supplier<List<PoolOperations.Counted>> count) {
    OperationCache cache = CURRENT.get();
    return cached(
        cache,
        cache == null ? null : cache.decode,
        pool,
        sequences,
        context,
        0,
        tokensPerSequence,
        count);
  }

  /**
   * The per-chip operations of a prefill of {@code pool} ({@link PoolOperations#prefill}, the
   * offloaded history's fetch apart): {@code count}'s, from the cache in effect when there is one.
   */
  static PoolOperations.Counted prefill(
      RooflineModel pool,
      double sequences,
      int promptTokens,
      int cachedTokens,
      Supplier<PoolOperations.Counted> count) {
    OperationCache cache = CURRENT.get();
    return cached(
            cache,
            cache == null ? null : cache.prefill,
            pool,
            sequences,
            promptTokens,
            cachedTokens,
            0,
            () -> List.of(count.get()))
        .get(0);
  }

  /**
   * Every input of a step's operation count: the model (by identity), compute precisions, routing,
   * layout, the expert-load options (imbalance, redundant experts per rank) and the step's shape.
   */
  private static final class Key {
    private final Model model;
    private final Precisions precisions;
    private final Routing routing;
    private final int chips;
    private final int tp;
    private final int pp;
    private final int ep;
    private final int dp;
    private final boolean imbalance;
    private final int redundant;
    private final double sequences;
    private final int tokens;
    private final int cached;
    private final int perSequence;
    private final int hash;

    private Key(
        Model model,
        Precisions precisions,
        Routing routing,
        ParallelLayout layout,
        boolean imbalance,
        int redundant,
        double sequences,
        int tokens,
        int cached,
        int perSequence) {
      this.model = model;
      this.precisions = precisions;
      this.routing = routing;
      this.chips = layout.chips();
      this.tp = layout.tensorParallel();
      this.pp = layout.pipelineParallel();
      this.ep = layout.expertParallel();
      this.dp = layout.attentionDataParallel();
      this.imbalance = imbalance;
      this.redundant = redundant;
      this.sequences = sequences;
      this.tokens = tokens;
      this.cached = cached;
      this.perSequence = perSequence;
      int h = System.identityHashCode(model);
      h = 31 * h + chips;
      h = 31 * h + tp;
      h = 31 * h + pp;
      h = 31 * h + ep;
      h = 31 * h + dp;
      h = 31 * h + Boolean.hashCode(imbalance);
      h = 31 * h + redundant;
      h = 31 * h + Double.hashCode(sequences);
      h = 31 * h + tokens;
      h = 31 * h + cached;
      this.hash = 31 * h + perSequence;
    }

    static Key of(RooflineModel pool, double sequences, int tokens, int cached, int perSequence) {
      return new Key(
          pool.model(),
          pool.computePrecisions(),
          pool.routing(),
          pool.layout(),
          pool.expertImbalance(),
          pool.redundantExpertsPerRank(),
          sequences,
          tokens,
          cached,
          perSequence);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k
          && hash == k.hash
          && model == k.model
          && Double.compare(sequences, k.sequences) == 0
          && tokens == k.tokens
          && cached == k.cached
          && perSequence == k.perSequence
          && chips == k.chips
          && tp == k.tp
          && pp == k.pp
          && ep == k.ep
          && dp == k.dp
          && imbalance == k.imbalance
          && redundant == k.redundant
          && (precisions == k.precisions || precisions.equals(k.precisions))
          && (routing == k.routing || routing.equals(k.routing));
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
