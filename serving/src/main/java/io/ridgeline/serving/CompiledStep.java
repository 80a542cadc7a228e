package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.Phase;
import io.ridgeline.core.Roofline;
import io.ridgeline.models.Ffn;
import io.ridgeline.models.Layer;
import io.ridgeline.models.Model;
import io.ridgeline.models.Routing;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
 * A collective's compute and network times are affine in its tokens (α-β). Every coefficient is
 * checked against the object path at x = 3 and x = 1000.5 (relative 1e-9); a step that does not
 * check is not compiled ({@link CompiledSteps#decode} and {@link CompiledSteps#prefill} answer
 * empty) and its points are evaluated by the object path.
 *
 * <p>Per point the operations are divided over the chips as {@link RooflineModel#perChip} divides
 * them (the same {@link ParallelLayout} shards), their GEMM rows and kernel-class fractions are
 * those of {@link RooflineModel}'s phases ({@link PoolOperations#gemmRows}, {@link KernelClass}),
 * and their times the shared roofline formulas ({@link Roofline#computeSeconds}, {@link
 * Roofline#memorySeconds}, {@link Roofline#operationSeconds}, {@link
 * ColocatedDeployment#ridingSeconds}), the quotients written as products with per-operation factors
 * ({@link #products}). Bytes are read from the chip's main tier, or, given a {@link Tiers} (a batch
 * whose weights spill off the main tier: {@link MemoryPlan#placed}), from each tier in its share,
 * summed tier by tier as {@link Roofline#evaluate} sums them. Results agree with the object path to
 * the last digit or two: an affine coefficient times x, or a product in place of a quotient, may
 * round differently from the object's arithmetic.
 *
 * <p>A block of sizes ({@link #blockTimes}, {@link #blockStageSeconds}, {@link
 * #blockRidingSeconds}: the batches of a sweep's or a frontier's run whose bytes all sit on the
 * main tier) is evaluated operation by operation, each size with the per-point arithmetic in the
 * same order, so that its times are the very doubles of the per-point methods.
 */
final class CompiledStep {
  private static final double TOLERANCE = 1e-9;

  // kinds of bytes by how perChip divides them
  private static final byte WEIGHTS = 0;
  private static final byte KV = 1;
  private static final byte OTHER = 2;
  // how a byte quantity follows x
  private static final byte AFFINE = 0;
  private static final byte DISTINCT_EXPERTS = 1;
  private static final byte EMBEDDING_ROWS = 2;

  private final ParallelLayout layout;
  private final boolean split; // the replica spans several chips (perChip divides)
  private final boolean uniform; // PoolOperations.uniformKernels
  private final Efficiency efficiency;
  private final double tokensPerX;
  private final double vocab;
  private final Routing routing;

  // model operations
  private final int ops;
  private final String[] names;
  private final int[] phaseEnd; // ops of phase p: [phaseEnd[p-1], phaseEnd[p])
  private final double[] flops0;
  private final double[] flops1;
  private final KernelClass[] kernel;
  private final boolean[] perGroup;
  // operation i's KV shards within a tensor-parallel group, min(tp, its KV shards)
  // (ParallelLayout.kvShards), and the pipeline stages
  private final int[] kvSplit;
  private final int stages;
  private final double[] weightShards;
  private final double[] peak;
  private final double[] computeScale; // the target's scale of each op's precision (narrow GEMMs)
  private final double[] depth; // KernelClass.depthFactor: a GEMM's reduction-depth cost
  private final double[] bytesEach;
  private final double[] memoryFraction;
  private final int[] kindStart; // kinds of op i: [kindStart[i], kindStart[i+1])
  private final byte[] kindDivisor;
  private final DataKind[] kindOf;
  private final byte[] kindForm;
  private final int[] experts;
  private final int[] topK;
  private final double[] bytes0;
  private final double[] bytes1;
  private final double computeEfficiency;
  private final double memoryEfficiency;
  private final double mainBandwidth;
  // operation i's times as products (computeSeconds, opMemory): seconds per FLOP and per weight
  // byte of compute, per byte read from the main tier; and the reciprocals of its weights' and
  // KV's fixed shards (KV's without the busy attention groups)
  private final double[] secondsPerFlop;
  private final double[] secondsPerWeightByte;
  private final double[] secondsPerByte;
  private final double[] perWeightShard;
  private final double[] perKvShard;

  // collectives: compute and network times affine in x, latency the time with no tokens
  private final int collectives;
  private final double[] compute0;
  private final double[] compute1;
  private final double[] network0;
  private final double[] network1;
  private final double[] latency;
  private final double[] collectiveFlops0;
  private final double[] collectiveFlops1;
  private final double[] collectivePeak;

  CompiledStep(
      RooflineModel pool,
      double tokensPerX,
      List<Phase> at1,
      List<Phase> at2,
      List<OperationResult> coll1,
      List<OperationResult> coll2,
      List<OperationResult> coll0) {
    this.layout = pool.layout();
    this.split = layout.replicaChips() > 1;
    this.uniform = PoolOperations.uniformKernels(pool);
    this.efficiency = pool.kernelEfficiency();
    this.tokensPerX = tokensPerX;
    this.vocab = pool.model().vocabSize();
    this.routing = pool.routing();
    ComputeTarget t = pool.baseTarget();
    computeEfficiency = t.computeEfficiency();
    memoryEfficiency = t.memoryEfficiency();
    mainBandwidth = t.mainBandwidth().bytesPerSecond();
    List<Operation> a = new ArrayList<>();
    List<Operation> b = new ArrayList<>();
    phaseEnd = new int[at1.size()];
    for (int p = 0; p < at1.size(); p++) {
      a.addAll(at1.get(p).operations());
      b.addAll(at2.get(p).operations());
      phaseEnd[p] = a.size();
    }
    ops = a.size();
    names = new String[ops];
    flops0 = new double[ops];
    flops1 = new double[ops];
    kernel = new KernelClass[ops];
    perGroup = new boolean[ops];
    kvSplit = new int[ops];
    stages = layout.pipelineParallel();
    weightShards = new double[ops];
    peak = new double[ops];
    computeScale = new double[ops];
    depth = new double[ops];
    bytesEach = new double[ops];
    memoryFraction = new double[ops];
    secondsPerFlop = new double[ops];
    secondsPerWeightByte = new double[ops];
    secondsPerByte = new double[ops];
    perWeightShard = new double[ops];
    perKvShard = new double[ops];
    kindStart = new int[ops + 1];
    int kinds = 0;
    for (Operation op : a) {
      kinds += op.bytes().size();
    }
    kindDivisor = new byte[kinds];
    kindOf = new DataKind[kinds];
    kindForm = new byte[kinds];
    experts = new int[kinds];
    topK = new int[kinds];
    bytes0 = new double[kinds];
    bytes1 = new double[kinds];
    List<Ffn> moe = moeFfns(pool.model());
    int moeSeen = 0;
    int k = 0;
    for (int i = 0; i < ops; i++) {
      Operation o1 = a.get(i);
      names[i] = o1.name();
      boolean routed = o1.role() == OperationRole.ROUTED_EXPERTS;
      require(!routed || moeSeen < moe.size(), "more routed experts than MoE layer groups");
      bytesEach[i] = PoolOperations.weightBytesPerElement(pool, o1);
      k = operation(i, k, o1, b.get(i), t, routed ? moe.get(moeSeen++) : null);
    }
    kindStart[ops] = k;
    collectives = coll1.size();
    require(coll2.size() == collectives && coll0.size() == collectives, "collectives differ");
    compute0 = new double[collectives];
    compute1 = new double[collectives];
    network0 = new double[collectives];
    network1 = new double[collectives];
    latency = new double[collectives];
    collectiveFlops0 = new double[collectives];
    collectiveFlops1 = new double[collectives];
    collectivePeak = new double[collectives];
    for (int i = 0; i < collectives; i++) {
      collective(i, coll1.get(i), coll2.get(i), coll0.get(i), t);
    }
  }

  /**
   * Fills operation {@code i}'s coefficients from its probes at x = 1 and 2 ({@code ffn}: the MoE
   * layer group of routed experts, else null); returns the next byte-kind entry.
   */
  private int operation(int i, int k, Operation o1, Operation o2, ComputeTarget t, Ffn ffn) {
    require(o1.name().equals(o2.name()) && o1.role() == o2.role(), "operations differ");
    require(o1.networkBytes().bytes() == 0 && o1.networkSteps() == 0, "network in a model op");
    double[] f = affine(o1.flops().flops(), o2.flops().flops());
    flops0[i] = f[0];
    flops1[i] = f[1];
    OperationRole role = o1.role();
    kernel[i] = KernelClass.of(role);
    perGroup[i] = layout.runsPerGroup(role);
    int shards = o1.kvShards();
    checkArgument(shards > 0, "kv shards must be positive: %s", shards);
    kvSplit[i] = Math.min(layout.tensorParallel(), shards);
    weightShards[i] =
        layout.shards(
            perGroup[i] ? ParallelLayout.Sharding.ATTENTION_GROUP : ParallelLayout.Sharding.STAGE);
    // zero FLOPs take no time even without a peak (Roofline.evaluate)
    peak[i] = f[0] == 0 && f[1] == 0 ? 0 : t.peak(o1.precision()).flopsPerSecond();
    computeScale[i] = peak[i] == 0 ? 1 : t.computeScale(o1.precision());
    // the reduction depths are ratios, the same at every x (probed where the op has FLOPs)
    depth[i] =
        uniform || peak[i] == 0
            ? 1
            : kernel[i].depthFactor(efficiency, o1.flops().flops() > 0 ? o1 : o2, layout, t);
    memoryFraction[i] = kernel[i].memoryFraction(efficiency, t.memoryEfficiency());
    products(i);
    kindStart[i] = k;
    require(o1.bytes().keySet().equals(o2.bytes().keySet()), "byte kinds differ");
    for (Map.Entry<DataKind, io.ridgeline.core.Bytes> e : o1.bytes().entrySet()) {
      DataKind kind = e.getKey();
      kindOf[k] = kind;
      kindDivisor[k] =
          kind == DataKind.WEIGHTS
              ? WEIGHTS
              : kind == DataKind.KV_READ || kind == DataKind.KV_WRITE ? KV : OTHER;
      double v1 = e.getValue().bytes();
      if (kind == DataKind.WEIGHTS && ffn != null) {
        kindForm[k] = DISTINCT_EXPERTS;
        experts[k] = ffn.experts();
        topK[k] = ffn.topK();
        bytes1[k] = v1 / routing.expectedDistinctExperts(ffn.experts(), ffn.topK(), tokensPerX);
      } else if (kind == DataKind.WEIGHTS && role == OperationRole.EMBEDDING) {
        kindForm[k] = EMBEDDING_ROWS;
        bytes1[k] = v1 / Math.min(tokensPerX, vocab);
      } else {
        double[] c = affine(v1, o2.bytes(kind).bytes());
        bytes0[k] = c[0];
        bytes1[k] = c[1];
      }
      k++;
    }
    return k;
  }

  /**
   * Operation i's times as products of its per-chip FLOPs, weight bytes and memory bytes ({@link
   * #computeSeconds}, {@link #opMemory(int, double)}), and the reciprocals of its shards ({@link
   * #perChip}).
   *
   * <p>Compute: {@link Roofline#computeSeconds} {@code flops / (peak × fraction)}. For a GEMM on
   * the small-M curve ({@link KernelClass#GEMM}, {@link Efficiency#computeAt}: {@code fraction =
   * compute × M / (M + half)}, M = {@code flops × bytesEach / (2 × weightBytes)}, {@link
   * PoolOperations#gemmRows}) that is {@code flops / (peak × compute) + weightBytes × 2 × half /
   * (bytesEach × peak × compute)}: the large-GEMM time plus {@code half} rows' worth of the
   * weights' GEMM time (1 multiply-add = 2 FLOPs per weight element and row); the large-GEMM time
   * is multiplied by the GEMM's reduction-depth factor ({@link KernelClass#depthFactor}). Every
   * other kernel (and a GEMM without weight bytes, M = 0) computes at {@code flops / (peak ×
   * fraction)}. Memory: {@code bytes / (bandwidth × fraction)} ({@link Roofline#memorySeconds}).
   * The products round differently from the object path's quotients by an ulp or two, within {@link
   * CompiledStep}'s agreement.
   */
  private void products(int i) {
    double large =
        (uniform ? computeEfficiency : kernel[i].computeFraction(efficiency, 0)) * computeScale[i];
    double half = uniform || kernel[i] != KernelClass.GEMM ? 0 : efficiency.gemmHalfTokens();
    secondsPerFlop[i] = peak[i] == 0 ? 0 : depth[i] / (peak[i] * large);
    secondsPerWeightByte[i] =
        half > 0 && bytesEach[i] > 0 && peak[i] > 0
            ? 2 * half / (bytesEach[i] * peak[i] * large)
            : 0;
    secondsPerByte[i] = 1 / (mainBandwidth * (uniform ? memoryEfficiency : memoryFraction[i]));
    perWeightShard[i] = 1 / weightShards[i];
    perKvShard[i] = 1 / ((double) kvSplit[i] * stages);
  }

  /** Fills collective {@code i}'s coefficients from its results at x = 1, 2 and 0. */
  private void collective(
      int i, OperationResult r1, OperationResult r2, OperationResult r0, ComputeTarget t) {
    require(r1.operation().name().equals(r2.operation().name()), "collectives differ");
    require(r1.memorySeconds().seconds() == 0, "memory in a collective");
    double[] c = affine(r1.computeSeconds().seconds(), r2.computeSeconds().seconds());
    compute0[i] = c[0];
    compute1[i] = c[1];
    double[] n = affine(r1.networkSeconds().seconds(), r2.networkSeconds().seconds());
    network0[i] = n[0];
    network1[i] = n[1];
    require(r0.operation().name().equals(r1.operation().name()), "collectives differ");
    latency[i] = r1.operation().networkSteps() > 0 ? r0.networkSeconds().seconds() : 0;
    double[] f = affine(r1.operation().flops().flops(), r2.operation().flops().flops());
    collectiveFlops0[i] = f[0];
    collectiveFlops1[i] = f[1];
    collectivePeak[i] =
        f[0] == 0 && f[1] == 0 ? 0 : t.peak(r1.operation().precision()).flopsPerSecond();
  }

  private static List<Ffn> moeFfns(Model m) {
    List<Ffn> out = new ArrayList<>();
    for (Layer l : m.layerGroups().keySet()) {
      if (l.ffn().isPresent() && l.ffn().get().isMoe()) {
        out.add(l.ffn().get());
      }
    }
    return out;
  }

  /** (a0, a1) with a0 + a1·x through (1, v1) and (2, v2), exact for constants and proportions. */
  private static double[] affine(double v1, double v2) {
    if (v2 == v1) {
      return new double[] {v1, 0};
    }
    if (v2 == 2 * v1) {
      return new double[] {0, v1};
    }
    return new double[] {2 * v1 - v2, v2 - v1};
  }

  private static void require(boolean condition, String why) {
    if (!condition) {
      throw new IllegalStateException(why);
    }
  }

  private static boolean close(double compiled, double object) {
    return Math.abs(compiled - object) <= TOLERANCE * Math.abs(object);
  }

  /** Whether the coefficients reproduce the object path's operations at {@code x}. */
  boolean matches(double x, List<Phase> phases, List<OperationResult> coll) {
    int i = 0;
    for (Phase p : phases) {
      for (Operation o : p.operations()) {
        if (i >= ops || !close(flops0[i] + flops1[i] * x, o.flops().flops())) {
          return false;
        }
        int k = kindStart[i];
        for (Map.Entry<DataKind, io.ridgeline.core.Bytes> e : o.bytes().entrySet()) {
          if (k >= kindStart[i + 1] || !close(bytes(k, x), e.getValue().bytes())) {
            return false;
          }
          k++;
        }
        i++;
      }
    }
    if (i != ops || coll.size() != collectives) {
      return false;
    }
    for (int c = 0; c < collectives; c++) {
      OperationResult r = coll.get(c);
      if (!close(collectiveFlops0[c] + collectiveFlops1[c] * x, r.operation().flops().flops())
          || !close(compute0[c] + compute1[c] * x, r.computeSeconds().seconds())
          || !close(network0[c] + network1[c] * x, r.networkSeconds().seconds())) {
        return false;
      }
    }
    return true;
  }

  /** Bytes of kind entry {@code k} at {@code x}, for the whole replica (before perChip). */
  private double bytes(int k, double x) {
    switch (kindForm[k]) {
      case DISTINCT_EXPERTS:
        return routing.expectedDistinctExperts(experts[k], topK[k], x * tokensPerX) * bytes1[k];
      case EMBEDDING_ROWS:
        return Math.min(x * tokensPerX, vocab) * bytes1[k];
      default:
        return bytes0[k] + bytes1[k] * x;
    }
  }

  /** The step's operations (collectives apart): the length of {@link #operationTimes}' arrays. */
  int operations() {
    return ops;
  }

  /**
   * Each operation's compute and memory time at {@code x} on one chip into {@code compute[i]} and
   * {@code memory[i]}, the bytes read from the tiers of {@code tiers} (null: the main tier): the
   * times {@link #stageSeconds(double, double[], double[])} adds and a riding prefill joins ({@link
   * #ridingSeconds}), computed once per step size.
   */
  void operationTimes(double x, Tiers tiers, double[] compute, double[] memory) {
    times(x, tiers, compute, memory, null, null, null);
  }

  /**
   * As {@link #operationTimes(double, Tiers, double[], double[])}, also keeping each operation's
   * per-chip memory bytes and FLOPs in {@code memoryBytes} and {@code flops}, from which {@link
   * #utilisation(double, double[], double[], double)} sums the step's utilisation.
   */
  void operationTimes(
      double x,
      Tiers tiers,
      double[] compute,
      double[] memory,
      double[] memoryBytes,
      double[] flops) {
    times(x, tiers, compute, memory, memoryBytes, null, flops);
  }

  /**
   * As {@link #operationTimes(double, Tiers, double[], double[])}, also keeping each operation's
   * per-chip memory bytes, weight bytes and FLOPs in each of {@code memoryBytes}, {@code
   * weightBytes} and {@code perChipFlops} that is not null (weight bytes: a riding prefill's side,
   * {@link #riding}).
   */
  private void times(
      double x,
      Tiers tiers,
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
      double perWork = perGroup[i] ? perGroupShard : perStageShard;
      double weights = 0;
      double bytes = 0;
      for (int k = kindStart[i]; k < kindStart[i + 1]; k++) {
        double v = perChip(i, k, x, perWork, perBusy);
        bytes += v;
        if (kindDivisor[k] == WEIGHTS) {
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
   * This step's side of a riding prefill at one size x ({@link #riding}): per operation its compute
   * time and its memory time less the weights' share ({@link ColocatedDeployment#withoutWeights})
   * on one chip, and per collective its riding time (its bandwidth time without the per-hop
   * latency); a reused scratch, not shared between threads.
   */
  static final class Riding {
    private double[] compute = new double[0];
    private double[] withoutWeights = new double[0];
    private double[] collective = new double[0];
    private double[] memory = new double[0];
    private double[] weightBytes = new double[0];
    private double[] memoryBytes = new double[0];

    private void size(int ops, int collectives) {
      if (compute.length < ops) {
        compute = new double[ops];
        withoutWeights = new double[ops];
        memory = new double[ops];
        weightBytes = new double[ops];
        memoryBytes = new double[ops];
      }
      if (collective.length < collectives) {
        collective = new double[collectives];
      }
    }
  }

  /**
   * Fills {@code out} with this step's side of {@code x} prompts' prefill riding a decode step, its
   * bytes read from the tiers of {@code tiers} (null: the main tier), for {@link #ridingSeconds}.
   */
  void riding(double x, Tiers tiers, Riding out) {
    out.size(ops, collectives);
    times(x, tiers, out.compute, out.memory, out.memoryBytes, out.weightBytes, null);
    for (int i = 0; i < ops; i++) {
      out.withoutWeights[i] =
          tiers == null
              ? mainTierWithoutWeights(secondsPerByte[i], out.weightBytes[i], out.memoryBytes[i])
              : ColocatedDeployment.withoutWeights(
                  out.memory[i], out.weightBytes[i], out.memoryBytes[i]);
    }
    for (int c = 0; c < collectives; c++) {
      out.collective[c] = ridingCollective(c, x);
    }
  }

  /**
   * The time of a prefill riding a decode step, one stage ({@link
   * ColocatedDeployment#prefillWithoutWeights} for one pipeline stage and pass): this step's side
   * {@code own} ({@link #riding}), operation i joining the kernel of the running step's operation
   * {@code pairs[i]} ({@link #pairWith}; −1: none), whose times are {@code runningCompute} and
   * {@code runningMemory} ({@link #operationTimes} of the running step at its size).
   */
  double ridingSeconds(Riding own, double[] runningCompute, double[] runningMemory, int[] pairs) {
    double stage = 0;
    for (int i = 0; i < ops; i++) {
      int j = pairs[i];
      double compute = 0;
      double memory = 0;
      if (j >= 0) {
        compute = runningCompute[j];
        memory = runningMemory[j];
      }
      stage +=
          ColocatedDeployment.joinedSeconds(
              own.compute[i], own.withoutWeights[i], 0, 0, compute, memory);
    }
    for (int c = 0; c < collectives; c++) {
      stage += own.collective[c];
    }
    return stage;
  }

  /**
   * For each operation of this step, the index of the operation of {@code running} whose kernel it
   * joins, −1 for none: the k-th operation of a name here is the k-th of that name there, as {@link
   * ColocatedDeployment#prefillWithoutWeights} matches them.
   */
  int[] pairWith(CompiledStep running) {
    Map<String, Integer> there = new HashMap<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int j = 0; j < running.ops; j++) {
      there.put(ColocatedDeployment.occurrence(running.names[j], seen), j);
    }
    seen.clear();
    int[] pairs = new int[ops];
    for (int i = 0; i < ops; i++) {
      pairs[i] = there.getOrDefault(ColocatedDeployment.occurrence(names[i], seen), -1);
    }
    return pairs;
  }

  /**
   * The decode step's utilisation of one chip over {@code seconds} ({@link
   * Utilisation#of(StepResult, RooflineModel)} of a step of one micro-batch): its FLOPs at their
   * precisions' peaks and its memory bytes, collectives included, from each operation's per-chip
   * memory bytes and FLOPs at {@code x} ({@link #operationTimes(double, Tiers, double[], double[],
   * double[], double[])}).
   */
  Utilisation utilisation(double x, double[] memoryBytes, double[] flops, double seconds) {
    double peakSeconds = 0;
    double bytes = 0;
    for (int i = 0; i < ops; i++) {
      if (flops[i] > 0) {
        peakSeconds += flops[i] / peak[i];
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
    return split ? v * perShard(i, k, perWork, perBusy) : v;
  }

  /**
   * 1 / the work shards ({@link ParallelLayout#workShards}) of the per-group operations ({@code
   * perGroup}) or the stage-wide ones at size x; 1 when the replica is one chip.
   */
  private double perWorkShard(boolean perGroup, double x) {
    return split ? 1 / layout.workShards(perGroup, x) : 1;
  }

  /** 1 / {@link ParallelLayout#busyAttentionGroups} at size x; 1 when the replica is one chip. */
  private double perBusy(double x) {
    return split ? 1 / layout.busyAttentionGroups(x) : 1;
  }

  /** 1 / the shards {@link #perChip} divides byte kind k of operation i into (a split replica). */
  private double perShard(int i, int k, double perWork, double perBusy) {
    switch (kindDivisor[k]) {
      case WEIGHTS:
        return perWeightShard[i];
      case KV:
        return perBusy * perKvShard[i];
      default:
        return perWork;
    }
  }

  /**
   * Op-major working arrays for a block of step sizes ({@link #blockTimes}): operation i's figure
   * at size j in {@code [i × cap + j]}, collective c's riding time at size j in {@code [c × cap +
   * j]}; a reused scratch, not shared between threads.
   */
  static final class Block {
    private int cap;
    private double[] compute = new double[0];
    private double[] memory = new double[0];
    private double[] withoutWeights = new double[0];
    private double[] collective = new double[0];
    // per size: 1 / the work shards of per-group and stage-wide operations, 1 / the busy
    // attention groups, one operation's bytes and weight bytes, a byte kind's bytes, and a
    // phase's running sum
    private double[] perGroupShard = new double[0];
    private double[] perStageShard = new double[0];
    private double[] perBusy = new double[0];
    private double[] bytes = new double[0];
    private double[] weights = new double[0];
    private double[] kind = new double[0];
    private double[] phase = new double[0];

    private void size(int ops, int collectives, int sizes) {
      if (cap < sizes || compute.length < ops * cap || collective.length < collectives * cap) {
        cap = Math.max(sizes, cap);
        compute = new double[ops * cap];
        memory = new double[ops * cap];
        withoutWeights = new double[ops * cap];
        collective = new double[collectives * cap];
        perGroupShard = new double[cap];
        perStageShard = new double[cap];
        perBusy = new double[cap];
        bytes = new double[cap];
        weights = new double[cap];
        kind = new double[cap];
        phase = new double[cap];
      }
    }
  }

  /**
   * {@link #operationTimes(double, Tiers, double[], double[])} (all bytes on the main tier) at each
   * of the {@code m} sizes {@code xs[0..m)} into {@code out}, operation by operation, with the same
   * arithmetic for each size, so that every time is the same double; {@code riding}: also each
   * operation's memory time less the weights' share and each collective's riding time, as {@link
   * #riding} keeps them.
   */
  void blockTimes(double[] xs, int m, Block out, boolean riding) {
    out.size(ops, collectives, m);
    int cap = out.cap;
    double[] group = out.perGroupShard;
    double[] stage = out.perStageShard;
    double[] busy = out.perBusy;
    for (int j = 0; j < m; j++) {
      double x = xs[j];
      group[j] = perWorkShard(true, x);
      stage[j] = perWorkShard(false, x);
      busy[j] = perBusy(x);
    }
    // one call per operation and per kind: short loops that the JIT compiles as methods, not as
    // on-stack replacements of one long loop
    for (int i = 0; i < ops; i++) {
      operationBlock(i, xs, m, out, riding);
    }
    if (riding) {
      for (int c = 0; c < collectives; c++) {
        int row = c * cap;
        for (int j = 0; j < m; j++) {
          out.collective[row + j] = ridingCollective(c, xs[j]);
        }
      }
    }
  }

  /** Operation i's part of {@link #blockTimes}. */
  private void operationBlock(int i, double[] xs, int m, Block out, boolean riding) {
    double[] work = perGroup[i] ? out.perGroupShard : out.perStageShard;
    double[] bytes = out.bytes;
    double[] weights = out.weights;
    java.util.Arrays.fill(bytes, 0, m, 0);
    java.util.Arrays.fill(weights, 0, m, 0);
    for (int k = kindStart[i]; k < kindStart[i + 1]; k++) {
      kindBlock(i, k, xs, m, work, out);
    }
    int row = i * out.cap;
    double f0 = flops0[i];
    double f1 = flops1[i];
    double[] compute = out.compute;
    double[] memory = out.memory;
    for (int j = 0; j < m; j++) {
      double flops = f0 + f1 * xs[j];
      double chipFlops = split ? flops * work[j] : flops;
      compute[row + j] = computeSeconds(i, chipFlops, weights[j]);
    }
    for (int j = 0; j < m; j++) {
      memory[row + j] = opMemory(i, bytes[j]);
    }
    if (riding) {
      double perByte = secondsPerByte[i];
      for (int j = 0; j < m; j++) {
        out.withoutWeights[row + j] = mainTierWithoutWeights(perByte, weights[j], bytes[j]);
      }
    }
  }

  /**
   * Byte kind k of operation i on one chip at each size ({@link #perChip}), added to the
   * operation's bytes in {@code out} and kept as its weight bytes when it is the weights.
   */
  private void kindBlock(int i, int k, double[] xs, int m, double[] work, Block out) {
    // perChip's product with perShard at each size (1 on one chip: a product that changes
    // nothing), its switch taken once per kind
    double[] factor = out.kind;
    if (!split) {
      java.util.Arrays.fill(factor, 0, m, 1);
    } else {
      switch (kindDivisor[k]) {
        case WEIGHTS:
          java.util.Arrays.fill(factor, 0, m, perWeightShard[i]);
          break;
        case KV:
          double kv = perKvShard[i];
          double[] busy = out.perBusy;
          for (int j = 0; j < m; j++) {
            factor[j] = busy[j] * kv;
          }
          break;
        default:
          factor = work;
      }
    }
    double[] bytes = out.bytes;
    double[] weights = kindDivisor[k] == WEIGHTS ? out.weights : null;
    if (kindForm[k] == AFFINE) {
      // bytes(k, x), its affine form
      double b0 = bytes0[k];
      double b1 = bytes1[k];
      for (int j = 0; j < m; j++) {
        double v = (b0 + b1 * xs[j]) * factor[j];
        bytes[j] += v;
        if (weights != null) {
          weights[j] = v;
        }
      }
    } else {
      for (int j = 0; j < m; j++) {
        double v = bytes(k, xs[j]) * factor[j];
        bytes[j] += v;
        if (weights != null) {
          weights[j] = v;
        }
      }
    }
  }

  /**
   * {@link #stageSeconds} at each of the {@code m} sizes {@code xs[0..m)} from {@code b}'s times
   * ({@link #blockTimes}) into {@code seconds[0..m)}, phase by phase in the same order.
   */
  void blockStageSeconds(double[] xs, int m, Block b, double[] seconds) {
    int cap = b.cap;
    double[] phase = b.phase;
    java.util.Arrays.fill(seconds, 0, m, 0);
    int i = 0;
    for (int p = 0; p < phaseEnd.length; p++) {
      java.util.Arrays.fill(phase, 0, m, 0);
      for (; i < phaseEnd[p]; i++) {
        int row = i * cap;
        for (int j = 0; j < m; j++) {
          phase[j] += Roofline.operationSeconds(b.compute[row + j], b.memory[row + j], 0);
        }
      }
      for (int j = 0; j < m; j++) {
        seconds[j] += phase[j];
      }
    }
    if (collectives > 0) {
      java.util.Arrays.fill(phase, 0, m, 0);
      for (int c = 0; c < collectives; c++) {
        for (int j = 0; j < m; j++) {
          phase[j] += collectiveSeconds(c, xs[j]);
        }
      }
      for (int j = 0; j < m; j++) {
        seconds[j] += phase[j];
      }
    }
  }

  /**
   * {@link #ridingSeconds} for {@code n} rows into {@code seconds[0..n)}: row r's own side is size
   * r of {@code own} ({@link #blockTimes} with riding), or, with {@code own} null, {@code chunk}
   * for every row ({@link #riding}); the running step's operation times are size {@code running[r]}
   * of {@code step} (a block of the running step's {@link #blockTimes}), each a size {@code step}
   * holds.
   */
  void blockRidingSeconds(
      Block own, Riding chunk, int n, Block step, int[] running, int[] pairs, double[] seconds) {
    int ownCap = own == null ? 1 : own.cap;
    int perRow = own == null ? 0 : 1;
    double[] oc = own == null ? chunk.compute : own.compute;
    double[] ow = own == null ? chunk.withoutWeights : own.withoutWeights;
    double[] ocoll = own == null ? chunk.collective : own.collective;
    int stepCap = step.cap;
    java.util.Arrays.fill(seconds, 0, n, 0);
    for (int i = 0; i < ops; i++) {
      int j = pairs[i];
      int row = i * ownCap;
      if (j < 0) {
        // no running kernel to join (ridingSeconds with both of its times 0)
        for (int r = 0; r < n; r++) {
          int q = row + perRow * r;
          seconds[r] += ColocatedDeployment.joinedSeconds(oc[q], ow[q], 0, 0, 0, 0);
        }
        continue;
      }
      int there = j * stepCap;
      for (int r = 0; r < n; r++) {
        int q = row + perRow * r;
        int t = there + running[r];
        seconds[r] +=
            ColocatedDeployment.joinedSeconds(oc[q], ow[q], 0, 0, step.compute[t], step.memory[t]);
      }
    }
    for (int c = 0; c < collectives; c++) {
      int row = c * ownCap;
      for (int r = 0; r < n; r++) {
        seconds[r] += ocoll[row + perRow * r];
      }
    }
  }

  /**
   * {@link ColocatedDeployment#withoutWeights} of an operation reading its {@code memoryBytes} from
   * the main tier at {@code perByte} seconds per byte ({@link #opMemory(int, double)}): {@code
   * memory × (1 − weightBytes / memoryBytes)} with {@code memory = memoryBytes × perByte} is {@code
   * (memoryBytes − weightBytes) × perByte}, the non-weight bytes' time.
   */
  private static double mainTierWithoutWeights(
      double perByte, double weightBytes, double memoryBytes) {
    return (memoryBytes - weightBytes) * perByte;
  }

  /** Collective c's time in a step of size x: the longer of its compute and network times. */
  private double collectiveSeconds(int c, double x) {
    return Roofline.operationSeconds(
        compute0[c] + compute1[c] * x, 0, network0[c] + network1[c] * x);
  }

  /** Collective c's time riding a decode step at size x (its bandwidth time, no latency). */
  private double ridingCollective(int c, double x) {
    return ColocatedDeployment.ridingSeconds(
        compute0[c] + compute1[c] * x, 0, 0, 0, network0[c] + network1[c] * x, latency[c], 0, 0);
  }

  /**
   * Operation i's memory time at x on one chip with its bytes read from {@code tiers} (not null; on
   * the main tier alone, {@link #opMemory(int, double)}): each byte kind's per-chip bytes split
   * over its tiers in their shares, accumulated per tier in the order the tiers first appear, each
   * tier's sum at its bandwidth, the tiers' times added in that order ({@link Roofline#evaluate}'s
   * arithmetic).
   */
  private double opMemory(int i, double x, Tiers tiers) {
    double perWork = perWorkShard(perGroup[i], x);
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
    double fraction = uniform ? memoryEfficiency : memoryFraction[i];
    double memory = 0;
    for (int q = 0; q < seen; q++) {
      int t = tiers.order[q];
      memory += Roofline.memorySeconds(tiers.bytes[t], tiers.bandwidth[t], fraction);
    }
    return memory;
  }

  /**
   * Where a step's bytes sit on a chip of several tiers: for each {@link DataKind} its tiers and
   * their shares, in the order {@link ComputeTarget#tierShares} gives them, and each tier's
   * bandwidth; with scratch space for one operation's sums (one instance per step evaluated, not
   * shared between threads).
   */
  static final class Tiers {
    private static final int WEIGHTS_KIND = DataKind.WEIGHTS.ordinal();

    private final double[] bandwidth;
    private final int[][] slot;
    private final double[][] share;
    private final int[] count; // kind k's tiers: slot[k][0..count[k]) with share[k][0..count[k])
    private final double[] bytes;
    private final boolean[] used;
    private final int[] order;

    private Tiers(ComputeTarget t) {
      List<String> names = new ArrayList<>(t.tierBandwidth().keySet());
      bandwidth = new double[names.size()];
      for (int n = 0; n < names.size(); n++) {
        bandwidth[n] = t.tierBandwidth().get(names.get(n)).bytesPerSecond();
      }
      DataKind[] kinds = DataKind.values();
      slot = new int[kinds.length][];
      share = new double[kinds.length][];
      count = new int[kinds.length];
      for (DataKind kind : kinds) {
        Map<String, Double> shares = t.tierShares(kind);
        slot[kind.ordinal()] = new int[shares.size()];
        share[kind.ordinal()] = new double[shares.size()];
        count[kind.ordinal()] = shares.size();
        int j = 0;
        for (Map.Entry<String, Double> e : shares.entrySet()) {
          slot[kind.ordinal()][j] = names.indexOf(e.getKey());
          share[kind.ordinal()][j] = e.getValue();
          j++;
        }
      }
      bytes = new double[names.size()];
      used = new boolean[names.size()];
      order = new int[names.size()];
    }

    /** The tiers of target {@code t} ({@link MemoryPlan#placed}). */
    static Tiers of(ComputeTarget t) {
      return new Tiers(t);
    }

    /**
     * Reusable tiers of a pool whose base target is {@code base} and whose weights {@code spill}
     * places batch by batch ({@link #at}); one per step evaluated at a time, not shared between
     * threads.
     */
    static Tiers view(ComputeTarget base, WeightSpill spill) {
      Tiers v = new Tiers(base);
      v.slot[WEIGHTS_KIND] = new int[spill.tiers()];
      v.share[WEIGHTS_KIND] = new double[spill.tiers()];
      return v;
    }

    /**
     * This view with the weights of {@code batch} sequences where {@code spill} places them, as
     * {@link #of} of {@link MemoryPlan#placed} gives them; null when every byte is on the main tier
     * (read at the base target's bandwidth, as a step without tiers).
     */
    Tiers at(WeightSpill spill, int batch) {
      int n = spill.place(batch, slot[WEIGHTS_KIND], share[WEIGHTS_KIND]);
      if (n == 0) {
        return null;
      }
      count[WEIGHTS_KIND] = n;
      return this;
    }

    /** Whether {@code o} reads each kind's bytes from the same tiers in the same shares. */
    boolean samePlacement(Tiers o) {
      if (!java.util.Arrays.equals(bandwidth, o.bandwidth)) {
        return false;
      }
      for (int k = 0; k < slot.length; k++) {
        if (count[k] != o.count[k]) {
          return false;
        }
        for (int j = 0; j < count[k]; j++) {
          if (slot[k][j] != o.slot[k][j]
              || Double.doubleToLongBits(share[k][j]) != Double.doubleToLongBits(o.share[k][j])) {
            return false;
          }
        }
      }
      return true;
    }
  }

  /**
   * Operation i's compute time of {@code flops} on one chip whose weight bytes are {@code
   * weightBytes} (for a GEMM's rows), at its kernel class's fraction.
   */
  private double computeSeconds(int i, double flops, double weightBytes) {
    // no FLOPs take no time (Roofline.evaluate); the small-M curve as a product (see products)
    return flops == 0 ? 0 : flops * secondsPerFlop[i] + weightBytes * secondsPerWeightByte[i];
  }

  /** The memory time of operation i's {@code memoryBytes} on one chip, from the main tier. */
  private double opMemory(int i, double memoryBytes) {
    return memoryBytes * secondsPerByte[i];
  }
}
