package io.ridgeline.serving;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.Precisions;
import io.ridgeline.models.Model;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a compiled pool's weights sit on a chip of several tiers, batch by batch, in primitives:
 * {@link MemoryPlan#placed} for one context, with no object per batch. The KV cache and the
 * workspace are reserved in the main tier ({@link MemoryUse}: a compiled pool keeps its KV there,
 * {@link KvOffload#NONE}), the weights fill what they leave of it and spill into the other tiers,
 * fastest first; each tier's share of the weights is its bytes over all of them.
 *
 * <p>The arithmetic is {@link MemoryPlan#use}'s and {@link MemoryUse#weightsByTier}'s, operation
 * for operation, so that every share is the same double: the KV cache is the bytes of one sequence
 * × batch ÷ the KV shards beyond tensor parallelism; the workspace is {@link
 * MemoryPlan#workspaceBytes}, the one formula both use. {@code WeightSpillTest} checks the shares
 * against {@link StepTiers} of {@link MemoryPlan#placed}.
 *
 * <p>Worked example (the shape of {@link MemoryUse}'s class comment): 500 GB of weights, 150 GB of
 * KV and workspace on a chip of 186 GB HBM and 467.5 GB LPDDR5X: 36 GB of weights stay in HBM and
 * 464 GB spill, shares 36 / 500 = 0.072 and 464 / 500 = 0.928.
 */
final class WeightSpill {
  private final double weights;
  private final double kvPerSequence;
  private final double kvShards;
  private final boolean runsPrefill;
  private final int context;
  private final double activationElements;
  private final double activationBytes;
  private final int stages;
  private final int vocab;
  private final int stageChips;
  // the tiers in placement order (the main one first, then the others from the fastest down):
  // capacity and index among the target's tiers (StepTiers' slots)
  private final double[] capacity;
  private final int[] slot;
  // one batch's weights per tier in placement order (scratch)
  private final double[] put;
  // the placement index of the tier that counts the weights no tier holds (MemoryUse.overflowTier)
  private final int overflow;

  private WeightSpill(RooflineModel pool, int context) {
    Model m = pool.model();
    ParallelLayout layout = pool.layout();
    Precisions p = pool.precisions();
    int tp = layout.tensorParallel();
    this.weights = MemoryPlan.weights(m, p, layout, MemoryPlan.Holding.ALL).bytes();
    this.kvPerSequence = m.cacheBytesPerSequence(context, p.kvCache(), tp).bytes();
    this.kvShards = layout.kvShardsBeyondTensorParallel();
    this.runsPrefill = pool.runsPrefill();
    this.context = context;
    this.activationElements = m.activationElementsPerToken(tp);
    this.activationBytes = p.activations().bytesPerElement();
    this.stages = layout.pipelineParallel();
    this.vocab = m.vocabSize();
    this.stageChips = layout.stageChips();
    Map<String, Bytes> tiers = MemoryPlan.tiers(pool.chip().memory());
    List<String> names = new ArrayList<>(pool.baseTarget().tierBandwidth().keySet());
    capacity = new double[tiers.size()];
    slot = new int[tiers.size()];
    int t = 0;
    for (Map.Entry<String, Bytes> e : tiers.entrySet()) {
      capacity[t] = e.getValue().bytes();
      slot[t] = names.indexOf(e.getKey());
      if (slot[t] < 0) {
        throw new IllegalStateException("tier " + e.getKey() + " is not one of " + names);
      }
      t++;
    }
    put = new double[tiers.size()];
    overflow =
        new ArrayList<>(tiers.keySet()).indexOf(MemoryPlan.slowestTier(pool.chip().memory()));
  }

  /**
   * The placement of {@code pool}'s weights at {@code context} tokens, for a pool whose bytes
   * {@link MemoryPlan#placed} places: several tiers, the KV cache in the main tier ({@link
   * KvOffload#NONE}) and a base target that places nothing elsewhere.
   *
   * @throws IllegalStateException for another pool
   */
  static WeightSpill of(RooflineModel pool, int context) {
    ComputeTarget base = pool.baseTarget();
    if (pool.chip().memory().size() < 2
        || pool.kvOffload() != KvOffload.NONE
        || !base.placement().isEmpty()
        || !base.splitPlacement().isEmpty()) {
      throw new IllegalStateException("weights spill only on a compiled pool of several tiers");
    }
    return new WeightSpill(pool, context);
  }

  /** The tiers of the chip. */
  int tiers() {
    return capacity.length;
  }

  /**
   * The weights' tiers and shares for {@code batch} sequences into {@code slots} and {@code shares}
   * (indices among the target's tiers, as {@link StepTiers} numbers them), as {@link
   * MemoryPlan#placed} places them; returns how many tiers hold weights, 0 when every byte is on
   * the main tier (the pool's base target).
   */
  int place(int batch, int[] slots, double[] shares) {
    // MemoryPlan.use: KV cache and workspace per chip
    double kv = kvPerSequence * batch / kvShards;
    double workspace =
        MemoryPlan.workspaceBytes(
            runsPrefill,
            batch,
            context,
            activationElements,
            stages,
            activationBytes,
            vocab,
            stageChips);
    // MemoryUse.weightsByTier: the main tier holds the KV cache and the workspace first, the
    // weights that fit nowhere count on the slowest tier
    double reserved = kv + workspace;
    double left = weights;
    for (int t = 0; t < capacity.length; t++) {
      double room = Math.max(0, capacity[t] - (t == 0 ? reserved : 0));
      double here = Math.min(left, room);
      put[t] = 0;
      if (here > 0) {
        put[t] = here;
        left -= here;
      }
    }
    if (left > 0) {
      put[overflow] += left;
    }
    int n = 0;
    double all = 0;
    for (int t = 0; t < capacity.length; t++) {
      if (put[t] > 0) {
        n++;
      }
      all += put[t];
    }
    if (n == 0 || (n == 1 && put[0] > 0)) {
      return 0; // all on the main tier (or none): the base target
    }
    // MemoryPlan.placed: each tier its share of the weights' bytes (1 for a tier holding them all)
    int j = 0;
    for (int t = 0; t < capacity.length; t++) {
      if (put[t] > 0) {
        slots[j] = slot[t];
        shares[j] = put[t] / all;
        j++;
      }
    }
    return n;
  }

  /**
   * The largest batch whose step reads every byte from the main tier at {@code context} (the target
   * {@link MemoryPlan#placed} gives is the pool's base target, which {@code spill} answers with no
   * tiers): all of them on a one-tier chip ({@code spill} null); on a tiered chip the weights spill
   * as the KV cache grows with the batch.
   */
  static int onMainTier(RooflineModel pool, int context, WeightSpill spill) {
    if (spill == null) {
      return Integer.MAX_VALUE;
    }
    int[] slots = new int[spill.tiers()];
    double[] shares = new double[spill.tiers()];
    // start from where the weights, KV cache and workspace (MemoryUse.total) fill the main tier
    int guess =
        BatchSearch.guess(
            b -> {
              MemoryUse use = pool.memory(b, context);
              return use.total().bytes() / use.mainCapacity().bytes();
            },
            MemoryPlan.fullChunkBatch(context));
    return BatchSearch.largest(b -> spill.place(b, slots, shares) == 0, guess);
  }
}
