package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.ImmutableComputeTarget;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.TensorClass;
import io.ridgeline.hardware.MemoryTier;
import io.ridgeline.models.Model;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one memory plan of a pool: what one chip holds (weights by tensor class, KV cache, workspace)
 * and on which tier each lives. {@link RooflineModel#memory}, {@link Sizing}, the attention/FFN
 * pools' fit and the speculative draft model's fit all use it.
 *
 * <p>Per chip: weights of each tensor class at its precision over the {@link ParallelLayout}'s
 * shards for that class; every layer's cache or state over dp·min(tp, its shards)·pp; and a
 * workspace for the activations of the largest step: a prefill chunk of {@code min(batch ×
 * context, 8192)} tokens (the batch's tokens for a pool that does not prefill) through the widest
 * layer, shared by the stages of a pipeline, plus fp32 logits for the batch. Capacity is every tier
 * of the chip together; weights, workspace and KV are placed, in that order, from the fastest tier
 * down, each spilling to the next when one is full.
 */
final class MemoryPlan {
  /** Which of the model's data a pool holds. */
  enum Holding {
    /** The whole model: every weight, the KV cache and the workspace. */
    ALL(EnumSet.allOf(TensorClass.class), true),
    /** Attention/FFN disaggregation's attention pool: attention and embedding weights, the KV. */
    ATTENTION_SIDE(EnumSet.of(TensorClass.ATTENTION, TensorClass.EMBEDDINGS), true),
    /** Attention/FFN disaggregation's FFN pool: dense FFN and expert weights only. */
    FFN_SIDE(EnumSet.of(TensorClass.DENSE_FFN, TensorClass.EXPERTS), false);

    private final Set<TensorClass> weights;
    private final boolean kvCache;

    Holding(Set<TensorClass> weights, boolean kvCache) {
      this.weights = weights;
      this.kvCache = kvCache;
    }
  }

  private MemoryPlan() {}

  /**
   * Memory per chip of {@code pool} for {@code batch} sequences of {@code context} tokens, of the
   * data {@code holding} names (see the class comment).
   *
   * @throws IllegalArgumentException when batch or context is not positive
   */
  static MemoryUse use(RooflineModel pool, int batch, int context, Holding holding) {
    checkArgument(batch > 0, "batch must be positive: %s", batch);
    checkArgument(context > 0, "context must be positive: %s", context);
    Model m = pool.model();
    ParallelLayout layout = pool.layout();
    Precisions p = pool.precisions();
    double weights = weights(m, p, layout, holding).bytes();
    Bytes kv =
        holding.kvCache
            ? kvCache(m, pool, p.kvCache(), batch, context)
            : Bytes.ZERO;
    int tp = layout.tensorParallel();
    double chunk =
        pool.runsPrefill()
            ? Math.min((double) batch * context, RooflineModel.PREFILL_CHUNK_TOKENS)
            : batch;
    Bytes workspace =
        holding == Holding.ALL
            ? p.activations()
                .bytes(chunk * m.activationElementsPerToken(tp) / layout.pipelineParallel())
                .plus(Precision.FP32.bytes((double) batch * m.vocabSize() / layout.stageChips()))
            : Bytes.ZERO;
    double capacity = pool.chip().memory().stream().mapToDouble(t -> t.capacity().bytes()).sum();
    return ImmutableMemoryUse.builder()
        .weights(Bytes.of(weights))
        .kvCache(kv)
        .workspace(workspace)
        .capacity(Bytes.of(capacity))
        .build();
  }

  /**
   * One chip's share of {@code model}'s weights of the classes {@code holding} names, each class at
   * its precision over the layout's shards for it.
   */
  static Bytes weights(Model model, Precisions p, ParallelLayout layout, Holding holding) {
    double weights = 0;
    for (Map.Entry<TensorClass, Double> e : model.parametersByClass().entrySet()) {
      if (holding.weights.contains(e.getKey())) {
        weights +=
            e.getValue()
                * p.weights(e.getKey()).bytesPerElement()
                / layout.shards(ParallelLayout.sharding(e.getKey()));
      }
    }
    return Bytes.of(weights);
  }

  /**
   * One chip's share of the cache of {@code batch} sequences of {@code model} at {@code context}
   * tokens in {@code pool}'s layout, at {@code kv} precision.
   */
  static Bytes kvCache(Model model, RooflineModel pool, Precision kv, int batch, int context) {
    ParallelLayout layout = pool.layout();
    return model
        .cacheBytesPerSequence(context, kv, layout.tensorParallel())
        .times(batch)
        .dividedBy(layout.kvShardsBeyondTensorParallel());
  }

  /**
   * {@code pool}'s compute target with weights, workspace and KV cache placed on the chip's tiers
   * for {@code batch} sequences at {@code context}: each fills the fastest tier with room left and
   * spills to the next.
   */
  static ComputeTarget placed(RooflineModel pool, int batch, int context) {
    ComputeTarget base = pool.baseTarget();
    if (pool.chip().memory().size() == 1) {
      return base;
    }
    MemoryUse mem = pool.memory(batch, context);
    List<MemoryTier> tiers = new ArrayList<>(pool.chip().memory());
    tiers.sort(
        Comparator.comparingDouble((MemoryTier t) -> t.bandwidth().bytesPerSecond()).reversed());
    double[] free = tiers.stream().mapToDouble(t -> t.capacity().bytes()).toArray();
    Map<DataKind, Map<String, Double>> split = new LinkedHashMap<>();
    Map<DataKind, String> single = new LinkedHashMap<>();
    place(DataKind.WEIGHTS, mem.weights().bytes(), tiers, free, split, single);
    place(DataKind.ACTIVATIONS, mem.workspace().bytes(), tiers, free, split, single);
    place(DataKind.KV_READ, mem.kvCache().bytes(), tiers, free, split, single);
    // the KV written this step lands where the cache lives
    if (split.containsKey(DataKind.KV_READ)) {
      split.put(DataKind.KV_WRITE, split.get(DataKind.KV_READ));
    } else {
      single.put(DataKind.KV_WRITE, single.get(DataKind.KV_READ));
    }
    return ImmutableComputeTarget.builder()
        .from(base)
        .placement(single)
        .splitPlacement(split)
        .build();
  }

  private static void place(
      DataKind kind,
      double bytes,
      List<MemoryTier> tiers,
      double[] free,
      Map<DataKind, Map<String, Double>> split,
      Map<DataKind, String> single) {
    Map<String, Double> shares = new LinkedHashMap<>();
    double left = bytes;
    for (int i = 0; i < tiers.size() && left > 0; i++) {
      double put = Math.min(left, free[i]);
      if (put > 0) {
        shares.put(tiers.get(i).name(), put / bytes);
        free[i] -= put;
        left -= put;
      }
    }
    if (left > 0 || bytes == 0) {
      // does not fit (or nothing to place): the rest sits on the slowest tier
      String last = tiers.get(tiers.size() - 1).name();
      shares.merge(last, bytes == 0 ? 1.0 : left / bytes, Double::sum);
    }
    if (shares.size() == 1) {
      single.put(kind, shares.keySet().iterator().next());
    } else {
      split.put(kind, ImmutableMap.copyOf(shares));
    }
  }
}
