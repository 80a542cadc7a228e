package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.Sets;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.TensorClass;
import io.ridgeline.hardware.MemoryTier;
import io.ridgeline.models.Model;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one memory plan of a pool: what one chip holds (weights by tensor class, KV cache, workspace)
 * and on which tier each lives. {@link RooflineModel#memory}, {@link Sizing}, the attention/FFN
 * pools' fit and the speculative draft model's fit all use it.
 *
 * <p>Per chip: weights of each tensor class at its precision over the {@link ParallelLayout}'s
 * shards for that class; every layer's cache or state over dp·min(tp, its shards)·pp; and a
 * workspace for the activations of the largest step: a prefill chunk of {@code min(batch × context,
 * 8192)} tokens (the batch's tokens for a pool that does not prefill) through the widest layer,
 * shared by the stages of a pipeline, plus fp32 logits for the batch.
 *
 * <p>Tiers (see {@link MemoryUse}): the KV cache and the workspace are reserved in the main tier
 * (the chip's first tier) and must fit there, as engines reserve their KV pool in HBM; the weights
 * take what is left of the main tier and overflow into the other tiers, fastest first, where they
 * are read at that tier's bandwidth. A slower tier (GB200's LPDDR5X) thus holds offloaded weights
 * but never sizes the batch. Llama-3.1-405B at FP8 on one GB200: 405.9 GB of weights, 186 GB of
 * HBM; KV and workspace are reserved first, the weights fill the rest of HBM and the remaining
 * 219.9 GB (plus as many bytes as the KV and workspace take) are read from LPDDR5X.
 */
final class MemoryPlan {
  /** Which of the model's data a pool holds. */
  enum Holding {
    /** The whole model: every weight, the KV cache and the workspace. */
    ALL(EnumSet.allOf(TensorClass.class), true, true),
    /** Attention/FFN disaggregation's attention pool: attention and embedding weights, the KV. */
    ATTENTION_SIDE(EnumSet.of(TensorClass.ATTENTION, TensorClass.EMBEDDINGS), true, false),
    /** Attention/FFN disaggregation's FFN pool: dense FFN and expert weights only. */
    FFN_SIDE(EnumSet.of(TensorClass.DENSE_FFN, TensorClass.EXPERTS), false, false);

    private final ImmutableSet<TensorClass> weights;
    private final boolean kvCache;
    private final boolean workspace;

    Holding(Set<TensorClass> weights, boolean kvCache, boolean workspace) {
      this.weights = Sets.immutableEnumSet(weights);
      this.kvCache = kvCache;
      this.workspace = workspace;
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
    Bytes kv = holding.kvCache ? kvCache(m, pool, p.kvCache(), batch, context) : Bytes.ZERO;
    Bytes workspace =
        holding.workspace
            ? Bytes.of(
                workspaceBytes(
                    pool.runsPrefill(),
                    batch,
                    context,
                    m.activationElementsPerToken(layout.tensorParallel()),
                    layout.pipelineParallel(),
                    p.activations().bytesPerElement(),
                    m.vocabSize(),
                    layout.stageChips()))
            : Bytes.ZERO;
    return ImmutableMemoryUse.builder()
        .weights(Bytes.of(weights))
        .kvCache(kv)
        .workspace(workspace)
        .tiers(tiers(pool.chip().memory()))
        .overflowTier(slowestTier(pool.chip().memory()))
        .kvSpillTier(
            holding.kvCache && pool.kvOffload().spill()
                ? KvOffload.tier(pool.chip()).map(MemoryTier::name)
                : Optional.empty())
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
                / layout.shards(layout.sharding(e.getKey()));
      }
    }
    return Bytes.of(weights);
  }

  /**
   * Workspace bytes per chip for {@code batch} sequences of {@code context} tokens (the class
   * comment's): the activations of a prefill chunk of min(batch × context, {@value
   * RooflineModel#PREFILL_CHUNK_TOKENS}) tokens (the batch's tokens for a pool that does not
   * prefill) through the widest layer, {@code elementsPerToken} each at {@code bytesPerElement},
   * over the pipeline {@code stages}, plus fp32 logits of the batch over the stage's chips; {@link
   * #use} and {@link WeightSpill} both take it from here.
   */
  static double workspaceBytes(
      boolean runsPrefill,
      int batch,
      int context,
      double elementsPerToken,
      int stages,
      double bytesPerElement,
      int vocab,
      int stageChips) {
    double chunk =
        runsPrefill
            ? Math.min((double) batch * context, RooflineModel.PREFILL_CHUNK_TOKENS)
            : batch;
    return chunk * elementsPerToken / stages * bytesPerElement
        + (double) batch * vocab / stageChips * Precision.FP32.bytesPerElement();
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

  /** The name of the tier of lowest bandwidth, the first of those (MemoryUse#overflowTier). */
  static String slowestTier(List<MemoryTier> memory) {
    MemoryTier slowest = memory.get(0);
    for (MemoryTier t : memory) {
      if (t.bandwidth().bytesPerSecond() < slowest.bandwidth().bytesPerSecond()) {
        slowest = t;
      }
    }
    return slowest.name();
  }

  /**
   * The chip's tiers in placement order, name to capacity: the main tier (the first) first, then
   * the others from the highest bandwidth down (the order offloaded weights spill in).
   */
  static ImmutableMap<String, Bytes> tiers(List<MemoryTier> memory) {
    List<MemoryTier> others = new ArrayList<>(memory.subList(1, memory.size()));
    others.sort(
        Comparator.comparingDouble((MemoryTier t) -> t.bandwidth().bytesPerSecond()).reversed());
    ImmutableMap.Builder<String, Bytes> out = ImmutableMap.builder();
    out.put(memory.get(0).name(), memory.get(0).capacity());
    others.forEach(t -> out.put(t.name(), t.capacity()));
    return out.build();
  }

  /**
   * {@code pool}'s compute target with each byte read from the tier that holds it for {@code batch}
   * sequences at {@code context} ({@link MemoryUse}): activations from the main tier; KV cache
   * (read and written) from the main tier, or where it spills ({@link KvOffload#SPILL}) from the
   * main tier and the offload tier in their shares; weights from the main tier and, where they
   * overflow it, from the other tiers in their shares. A split kind's bytes cross each tier at its
   * bandwidth, one after the other: {@code Σ share_tier × bytes / bandwidth_tier}.
   */
  static ComputeTarget placed(RooflineModel pool, int batch, int context) {
    ComputeTarget base = pool.baseTarget();
    if (pool.chip().memory().size() == 1) {
      return base;
    }
    MemoryUse use = pool.memory(batch, context);
    Map<String, Bytes> weights = use.weightsByTier();
    Map<String, Bytes> kv = use.kvCacheByTier();
    if (weights.size() == 1 && kv.size() == 1 && kv.containsKey(base.mainTier())) {
      // everything on one tier: the main tier unless the main tier holds no weights
      String tier = weights.keySet().iterator().next();
      return tier.equals(base.mainTier())
          ? base
          : ComputeTarget.builder()
              .from(base)
              .placement(ImmutableMap.of(DataKind.WEIGHTS, tier))
              .build();
    }
    ImmutableMap.Builder<DataKind, Map<String, Double>> split = ImmutableMap.builder();
    split.put(DataKind.WEIGHTS, shares(weights));
    if (!(kv.size() == 1 && kv.containsKey(base.mainTier()))) {
      split.put(DataKind.KV_READ, shares(kv));
      split.put(DataKind.KV_WRITE, shares(kv));
    }
    return ComputeTarget.builder().from(base).splitPlacement(split.build()).build();
  }

  /** Each tier's share of the bytes {@code byTier} places (1 for a tier holding them all). */
  private static ImmutableMap<String, Double> shares(Map<String, Bytes> byTier) {
    // summed in placement order, as WeightSpill sums them
    double sum = 0;
    for (Bytes b : byTier.values()) {
      sum += b.bytes();
    }
    double all = sum;
    ImmutableMap.Builder<String, Double> shares = ImmutableMap.builder();
    byTier.forEach(
        (tier, bytes) -> shares.put(tier, all > 0 ? bytes.bytes() / all : 1.0 / byTier.size()));
    return shares.build();
  }

  /**
   * {@code pool}'s compute target for bringing offloaded KV back ({@link KvOffload#HISTORY}): the
   * KV it reads comes from the chip's offload tier ({@link KvOffload#tier}).
   *
   * @throws IllegalArgumentException naming --kv-offload when the chip has no slower tier
   */
  static ComputeTarget fetchTarget(RooflineModel pool) {
    return ComputeTarget.builder()
        .from(pool.baseTarget())
        .placement(
            ImmutableMap.of(DataKind.KV_READ, pool.kvOffload().requireTier(pool.chip()).name()))
        .build();
  }

  /**
   * Where {@link RooflineModel#maxBatch} starts looking ({@link BatchSearch#guess}): {@link
   * MemoryUse#pressure()} grows by about the same step per sequence once a prefill chunk's
   * workspace is full, from the first batch whose tokens (batch × context) reach {@value
   * RooflineModel#PREFILL_CHUNK_TOKENS}.
   */
  static int maxBatchGuess(RooflineModel pool, int context) {
    return BatchSearch.guess(b -> pool.memory(b, context).pressure(), fullChunkBatch(context));
  }

  /**
   * The first batch whose tokens at {@code context} fill a prefill chunk ({@value
   * RooflineModel#PREFILL_CHUNK_TOKENS} tokens), the workspace's size from then on; at least 1.
   */
  static int fullChunkBatch(int context) {
    return (int) Math.max(1, ((long) RooflineModel.PREFILL_CHUNK_TOKENS + context - 1) / context);
  }
}
