package io.ridgeline.serving;

import io.ridgeline.core.DataKind;
import io.ridgeline.core.Roofline;
import io.ridgeline.models.Model;
import io.ridgeline.models.Routing;
import java.util.HashMap;
import java.util.Map;

/**
 * A pool's decode step (or the prefill that rides one) at a fixed context, compiled into per
 * operation coefficients in the step's size x (sequences per micro-batch, or prompts), so that the
 * step's time at any x is a loop over primitive arrays with no allocation.
 *
 * <p>The coefficients come from the object path itself: the model's operations ({@link
 * Model#decodeStep}, {@link Model#prefill}) and the pool's collectives ({@link Collectives#of}) are
 * built at x = 1 and x = 2, and each operation's FLOPs and bytes of each kind are affine in x
 * (their formulas are products of x by constants); two closed forms are not: the routed experts'
 * weight bytes, proportional to the expected distinct experts the step's tokens touch ({@link
 * Routing#expectedDistinctExperts}), and the embedding's, proportional to min(tokens, vocabulary).
 * A collective's compute and network times are affine in its tokens (α-β). The coefficients and the
 * stage's time are checked against the object path at x = 3 and x = 1000.5 (relative {@value
 * #TOLERANCE}); a step that does not check is not compiled ({@link CompiledSteps#decode} and {@link
 * CompiledSteps#prefill} answer empty) and its points are evaluated by the object path.
 *
 * <p>Per point the operations are divided over the chips by the shards {@link
 * PoolOperations#perChip} divides them by ({@link OperationCost#shareOf}, the same {@link
 * ParallelLayout} shards, as products with their reciprocals), and timed with the object path's
 * per-operation terms ({@link OperationCost}: compute seconds per FLOP and per weight byte, the
 * memory fraction) and the shared roofline formulas ({@link Roofline#memorySeconds}, {@link
 * Roofline#operationSeconds}, {@link RidingPrefill#ridingSeconds}). Bytes are read from the chip's
 * main tier, or, given {@link StepTiers} (a batch whose weights spill off the main tier: {@link
 * MemoryPlan#placed}), from each tier in its share, summed tier by tier as {@link
 * Roofline#evaluate} sums them. Results agree with the object path to the last digit or two: an
 * affine coefficient times x, or a product with a reciprocal in place of a quotient, may round
 * differently from the object's arithmetic. {@link StepBlock} evaluates a block of sizes at once.
 */
final class CompiledStep {
  /** Relative agreement required of a compiled figure with the object path's. */
  static final double TOLERANCE = 1e-9;

  // how a byte quantity follows x
  enum Form {
    /** bytes0 + bytes1 × x. */
    AFFINE,
    /** bytes1 × the expected distinct experts x × tokensPerX tokens touch (routed experts). */
    DISTINCT_EXPERTS,
    /** bytes1 × min(x × tokensPerX, vocabulary) (the embedding's rows). */
    EMBEDDING_ROWS
  }

  final ParallelLayout layout;
  final boolean split; // the replica spans several chips (perChip divides)
  final double tokensPerX;
  final double vocab;
  final Routing routing;
  final int redundantExpertsPerRank;

  // model operations
  final int ops;
  final String[] names;
  final int[] phaseEnd; // ops of phase p: [phaseEnd[p-1], phaseEnd[p])
  final double[] flops0;
  final double[] flops1;
  final boolean[] perGroup;
  final boolean[] routed; // a routed-expert operation (RidingPrefill.sharedWeightBytes)
  // a routed-expert operation over several expert-parallel ranks: its per-chip share is the
  // busiest rank's (ExpertLoad), with its layer group's experts and experts per token
  final boolean[] imbalanced;
  final int[] opExperts;
  final int[] opTopK;
  final int[] kindStart; // kinds of op i: [kindStart[i], kindStart[i+1])
  final OperationCost.Share[] kindDivisor;
  final DataKind[] kindOf;
  final Form[] kindForm;
  final int[] experts;
  final int[] topK;
  final double[] bytes0;
  final double[] bytes1;
  final double mainBandwidth;
  // operation i's terms (OperationCost: its peak, seconds per FLOP and per weight byte of compute,
  // its memory fraction and seconds per byte read from the main tier); and the reciprocals of its
  // weights' and KV's fixed shards (KV's: min(tp, its KV shards) × pp, without the busy attention
  // groups, ParallelLayout.kvShards)
  final OperationCost[] cost;
  final double[] perWeightShard;
  final double[] perKvShard;

  // collectives: compute and network times affine in x, latency the time with no tokens
  final int collectives;
  final double[] compute0;
  final double[] compute1;
  final double[] network0;
  final double[] network1;
  final double[] latency;
  final double[] collectiveFlops0;
  final double[] collectiveFlops1;
  final double[] collectivePeak;

  /**
   * Empty coefficients of a step of {@code pool} in x ({@code tokensPerX} tokens each): the
   * operations of phase p end at {@code phaseEnd[p]}, with {@code kinds} byte kinds among them, and
   * {@code collectives} collectives. {@link CompiledSteps#coefficients} fills them from the object
   * path.
   */
  CompiledStep(RooflineModel pool, double tokensPerX, int[] phaseEnd, int kinds, int collectives) {
    this.layout = pool.layout();
    this.split = layout.replicaChips() > 1;
    this.tokensPerX = tokensPerX;
    this.vocab = pool.model().vocabSize();
    this.routing = pool.routing();
    this.redundantExpertsPerRank = pool.redundantExpertsPerRank();
    this.mainBandwidth = pool.baseTarget().mainBandwidth().bytesPerSecond();
    this.phaseEnd = phaseEnd;
    ops = phaseEnd.length == 0 ? 0 : phaseEnd[phaseEnd.length - 1];
    names = new String[ops];
    flops0 = new double[ops];
    flops1 = new double[ops];
    perGroup = new boolean[ops];
    routed = new boolean[ops];
    imbalanced = new boolean[ops];
    opExperts = new int[ops];
    opTopK = new int[ops];
    cost = new OperationCost[ops];
    perWeightShard = new double[ops];
    perKvShard = new double[ops];
    kindStart = new int[ops + 1];
    kindDivisor = new OperationCost.Share[kinds];
    kindOf = new DataKind[kinds];
    kindForm = new Form[kinds];
    experts = new int[kinds];
    topK = new int[kinds];
    bytes0 = new double[kinds];
    bytes1 = new double[kinds];
    this.collectives = collectives;
    compute0 = new double[collectives];
    compute1 = new double[collectives];
    network0 = new double[collectives];
    network1 = new double[collectives];
    latency = new double[collectives];
    collectiveFlops0 = new double[collectives];
    collectiveFlops1 = new double[collectives];
    collectivePeak = new double[collectives];
  }

  static boolean close(double compiled, double object) {
    return Math.abs(compiled - object) <= TOLERANCE * Math.abs(object);
  }

  /** Bytes of kind entry {@code k} at {@code x}, for the whole replica (before perChip). */
  double bytes(int k, double x) {
    return switch (kindForm[k]) {
      case DISTINCT_EXPERTS ->
          routing.expectedDistinctExperts(experts[k], topK[k], x * tokensPerX) * bytes1[k];
      case EMBEDDING_ROWS -> Math.min(x * tokensPerX, vocab) * bytes1[k];
      case AFFINE -> bytes0[k] + bytes1[k] * x;
    };
  }

  /** The step's operations (collectives apart): the length of {@link #operationTimes}' arrays. */
  int operations() {
    return ops;
  }

  /**
   * Each operation's compute and memory time at {@code x} on one chip into {@code compute[i]} and
   * {@code memory[i]}, the bytes read from the tiers of {@code tiers} (null: the main tier): the
   * times {@link #stageSeconds(double, double[], double[])} adds and a riding prefill joins ({@link
   * RidingSide#ridingSeconds}), computed once per step size.
   */
  void operationTimes(double x, StepTiers tiers, double[] compute, double[] memory) {
    times(x, tiers, compute, memory, null, null, null);
  }

  /**
   * As {@link #operationTimes(double, StepTiers, double[], double[])}, also keeping each
   * operation's per-chip weight bytes in {@code weightBytes}: what a riding prefill's operation
   * shares with it ({@link RidingSide#ridingSeconds}).
   */
  void operationTimes(
      double x, StepTiers tiers, double[] compute, double[] memory, double[] weightBytes) {
    times(x, tiers, compute, memory, null, weightBytes, null);
  }

  /**
   * As {@link #operationTimes(double, StepTiers, double[], double[], double[])}, also keeping each
   * operation's per-chip memory bytes and FLOPs in {@code memoryBytes} and {@code flops}, from
   * which {@link #utilisation(double, double[], double[], double)} sums the step's utilisation
   * ({@code weightBytes} may be null).
   */
  void operationTimes(
      double x,
      StepTiers tiers,
      double[] compute,
      double[] memory,
      double[] weightBytes,
      double[] memoryBytes,
      double[] flops) {
    times(x, tiers, compute, memory, memoryBytes, weightBytes, flops);
  }

  /**
   * As {@link #operationTimes(double, Tiers, double[], double[])}, also keeping each operation's
   * per-chip memory bytes, weight bytes and FLOPs in each of {@code memoryBytes}, {@code
   * weightBytes} and {@code perChipFlops} that is not null (weight bytes: a riding prefill's side,
   * {@link RidingSide#fill}).
   */
  void times(
      double x,
      StepTiers tiers,
      double[] compute,
      double[] memory,
      double[] memoryBytes,
      double[] weightBytes,
      double[] perChipFlops) {
    // each operation's FLOPs, weight bytes and memory bytes per chip in one pass over its kinds
    double perGroupShard = perWorkShard(true, x);
    double perStageShard = perWorkShard(false, x);
    double perBusy = perBusy(x);
    for (int i = 0; i < ops; i++) {
      double perWork = (perGroup[i] ? perGroupShard : perStageShard) * workImbalance(i, x);
      double weights = 0;
      double bytes = 0;
      for (int k = kindStart[i]; k < kindStart[i + 1]; k++) {
        double v = perChip(i, k, x, perWork, perBusy);
        bytes += v;
        if (kindDivisor[k] == OperationCost.Share.WEIGHTS) {
          weights = v;
        }
      }
      double flops = flops0[i] + flops1[i] * x;
      double chipFlops = split ? flops * perWork : flops;
      if (memoryBytes != null) {
        memoryBytes[i] = bytes;
      }
      if (weightBytes != null) {
        weightBytes[i] = weights;
      }
      if (perChipFlops != null) {
        perChipFlops[i] = chipFlops;
      }
      compute[i] = computeSeconds(i, chipFlops, weights);
      memory[i] = tiers == null ? opMemory(i, bytes) : opMemory(i, x, tiers);
    }
  }

  /**
   * One stage's time for {@code x} sequences per micro-batch, as {@link StepResult}'s stage time,
   * from the operations' times at {@code x} ({@link #operationTimes}): each operation max(compute,
   * memory), summed phase by phase (each the sum of its operations' roofline times), then the
   * collectives' phase.
   */
  double stageSeconds(double x, double[] compute, double[] memory) {
    double stage = 0;
    int i = 0;
    for (int p = 0; p < phaseEnd.length; p++) {
      double phase = 0;
      for (; i < phaseEnd[p]; i++) {
        phase += Roofline.operationSeconds(compute[i], memory[i], 0);
      }
      stage += phase;
    }
    if (collectives > 0) {
      double phase = 0;
      for (int c = 0; c < collectives; c++) {
        phase += collectiveSeconds(c, x);
      }
      stage += phase;
    }
    return stage;
  }

  /**
   * For each operation of this step, the index of the operation of {@code running} whose kernel it
   * joins, −1 for none: the k-th operation of a name here is the k-th of that name there, as {@link
   * ColocatedDeployment#prefillWithoutWeights} matches them.
   */
  int[] pairWith(CompiledStep running) {
    Map<Occurrence, Integer> there = new HashMap<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int j = 0; j < running.ops; j++) {
      there.put(Occurrence.next(running.names[j], seen), j);
    }
    seen.clear();
    int[] pairs = new int[ops];
    for (int i = 0; i < ops; i++) {
      pairs[i] = there.getOrDefault(Occurrence.next(names[i], seen), -1);
    }
    return pairs;
  }

  /**
   * The decode step's utilisation of one chip over {@code seconds} ({@link
   * Utilisation#of(StepResult, RooflineModel)} of a step of one micro-batch): its FLOPs at their
   * precisions' peaks and its memory bytes, collectives included, from each operation's per-chip
   * memory bytes and FLOPs at {@code x} ({@link #operationTimes(double, StepTiers, double[],
   * double[], double[], double[], double[])}).
   */
  Utilisation utilisation(double x, double[] memoryBytes, double[] flops, double seconds) {
    double peakSeconds = 0;
    double bytes = 0;
    for (int i = 0; i < ops; i++) {
      if (flops[i] > 0) {
        peakSeconds += flops[i] / cost[i].peak;
      }
      bytes += memoryBytes[i];
    }
    // collectives add their reductions' FLOPs; their bytes cross the link, not memory
    for (int c = 0; c < collectives; c++) {
      double reduction = collectiveFlops0[c] + collectiveFlops1[c] * x;
      if (reduction > 0) {
        peakSeconds += reduction / collectivePeak[c];
      }
    }
    return Utilisation.over(peakSeconds, bytes, seconds, mainBandwidth);
  }

  /**
   * Byte kind k of operation i at x on one chip: weights over their shards, KV over its shards, the
   * rest over the operation's work shards (as {@link PoolOperations#perChip}), each as a product
   * with the shards' reciprocal; {@code perWork} is 1 / the work shards, {@code perBusy} 1 / {@link
   * ParallelLayout#busyAttentionGroups} at x, so that the KV's shards are {@link
   * ParallelLayout#kvShards}' product, busy × min(tp, the op's KV shards) × pp.
   */
  private double perChip(int i, int k, double x, double perWork, double perBusy) {
    double v = bytes(k, x);
    if (!split) {
      return v;
    }
    double chip = v * perShard(i, k, perWork, perBusy);
    return kindDivisor[k] == OperationCost.Share.WEIGHTS ? chip * weightImbalance(i, x) : chip;
  }

  /**
   * Operation i's token-expert pairs on the busiest expert-parallel rank over the mean rank's at
   * size x ({@link ExpertLoad#tokenFactor}, the factor on its FLOPs and activations per chip); 1
   * for an operation that is not {@link #imbalanced}.
   */
  double workImbalance(int i, double x) {
    return imbalanced[i]
        ? ExpertLoad.tokenFactor(
            x * tokensPerX,
            opTopK[i],
            opExperts[i],
            layout.expertParallel(),
            redundantExpertsPerRank)
        : 1;
  }

  /**
   * Operation i's distinct experts on the busiest expert-parallel rank over the mean rank's at size
   * x ({@link ExpertLoad#expertFactor}, the factor on its weight bytes per chip); 1 for an
   * operation that is not {@link #imbalanced}.
   */
  double weightImbalance(int i, double x) {
    if (!imbalanced[i]) {
      return 1;
    }
    double distinct =
        routing.expectedDistinctExperts(opExperts[i], opTopK[i], Math.max(1, x * tokensPerX));
    return ExpertLoad.expertFactor(distinct, opExperts[i], layout.expertParallel());
  }

  /**
   * 1 / the work shards ({@link ParallelLayout#workShards}) of the per-group operations ({@code
   * perGroup}) or the stage-wide ones at size x; 1 when the replica is one chip.
   */
  double perWorkShard(boolean perGroup, double x) {
    return split ? 1 / layout.workShards(perGroup, x) : 1;
  }

  /** 1 / {@link ParallelLayout#busyAttentionGroups} at size x; 1 when the replica is one chip. */
  double perBusy(double x) {
    return split ? 1 / layout.busyAttentionGroups(x) : 1;
  }

  /** 1 / the shards {@link #perChip} divides byte kind k of operation i into (a split replica). */
  private double perShard(int i, int k, double perWork, double perBusy) {
    return switch (kindDivisor[k]) {
      case WEIGHTS -> perWeightShard[i];
      case KV -> perBusy * perKvShard[i];
      case WORK -> perWork;
    };
  }

  /**
   * {@link RidingPrefill#withoutWeights} of an operation reading its {@code memoryBytes} from the
   * main tier at {@code perByte} seconds per byte ({@link #opMemory(int, double)}): {@code memory ×
   * (1 − weightBytes / memoryBytes)} with {@code memory = memoryBytes × perByte} is {@code
   * (memoryBytes − weightBytes) × perByte}, the non-weight bytes' time.
   */
  static double mainTierWithoutWeights(double perByte, double weightBytes, double memoryBytes) {
    return (memoryBytes - weightBytes) * perByte;
  }

  /**
   * A riding prefill's operation i's memory time less the weights the running kernel's read serves
   * ({@link RidingPrefill#sharedWeightBytes} of its {@code weightBytes}, one TTFT chunk's {@code
   * chunkWeights}, the kernel's {@code runningWeights} and the prefill's {@code chunksPerStep}),
   * its {@code memoryBytes} read from the main tier: {@code withoutWeights} (less all of its own
   * weights) when the running kernel reads at least a chunk's, else its non-shared bytes' time
   * ({@link #mainTierWithoutWeights}).
   */
  double sharedWithoutWeights(
      int i,
      double withoutWeights,
      double weightBytes,
      double memoryBytes,
      double chunkWeights,
      double runningWeights,
      double chunksPerStep) {
    if (!(chunkWeights > runningWeights)) {
      return withoutWeights;
    }
    double shared =
        RidingPrefill.sharedWeightBytes(weightBytes, chunkWeights, runningWeights, chunksPerStep);
    return mainTierWithoutWeights(cost[i].secondsPerMainTierByte, shared, memoryBytes);
  }

  /** Collective c's time in a step of size x: the longer of its compute and network times. */
  double collectiveSeconds(int c, double x) {
    return Roofline.operationSeconds(
        compute0[c] + compute1[c] * x, 0, network0[c] + network1[c] * x);
  }

  /** Collective c's time riding a decode step at size x (its bandwidth time, no latency). */
  double ridingCollective(int c, double x) {
    return RidingPrefill.ridingSeconds(
        compute0[c] + compute1[c] * x, 0, 0, 0, network0[c] + network1[c] * x, latency[c], 0, 0);
  }

  /**
   * Operation i's memory time at x on one chip with its bytes read from {@code tiers} (not null; on
   * the main tier alone, {@link #opMemory(int, double)}): each byte kind's per-chip bytes split
   * over its tiers in their shares, accumulated per tier in the order the tiers first appear, each
   * tier's sum at its bandwidth, the tiers' times added in that order ({@link Roofline#evaluate}'s
   * arithmetic).
   */
  double opMemory(int i, double x, StepTiers tiers) {
    double perWork = perWorkShard(perGroup[i], x) * workImbalance(i, x);
    double perBusy = perBusy(x);
    int seen = 0;
    java.util.Arrays.fill(tiers.bytes, 0);
    java.util.Arrays.fill(tiers.used, false);
    for (int k = kindStart[i]; k < kindStart[i + 1]; k++) {
      double v = perChip(i, k, x, perWork, perBusy);
      int kind = kindOf[k].ordinal();
      int[] slots = tiers.slot[kind];
      double[] shares = tiers.share[kind];
      int count = tiers.count[kind];
      for (int j = 0; j < count; j++) {
        int t = slots[j];
        if (!tiers.used[t]) {
          tiers.used[t] = true;
          tiers.order[seen++] = t;
        }
        tiers.bytes[t] += v * shares[j];
      }
    }
    double fraction = cost[i].memoryFraction;
    double memory = 0;
    for (int q = 0; q < seen; q++) {
      int t = tiers.order[q];
      memory += Roofline.memorySeconds(tiers.bytes[t], tiers.bandwidth[t], fraction);
    }
    return memory;
  }

  /**
   * Operation i's compute time of {@code flops} on one chip whose weight bytes are {@code
   * weightBytes} (for a GEMM's rows), at its kernel class's fraction.
   */
  double computeSeconds(int i, double flops, double weightBytes) {
    return cost[i].computeSeconds(flops, weightBytes);
  }

  /** The memory time of operation i's {@code memoryBytes} on one chip, from the main tier. */
  double opMemory(int i, double memoryBytes) {
    return cost[i].mainTierMemorySeconds(memoryBytes);
  }
}
