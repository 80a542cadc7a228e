package io.ridgeline.serving;

import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Flops;
import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.Phase;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Roofline;
import io.ridgeline.core.Seconds;
import io.ridgeline.models.Ffn;
import io.ridgeline.models.Kernels;
import io.ridgeline.models.Layer;
import io.ridgeline.models.Model;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The operations of one chip of a {@link RooflineModel pool} and their times: each operation's
 * share on the busiest chip of the layout ({@link #perChip}), the kernel-class efficiency each runs
 * at ({@link #phase}) and the copy that brings offloaded KV back ({@link #kvFetch}). Split out of
 * {@link RooflineModel}, which builds its steps from these.
 */
final class PoolOperations {
  private PoolOperations() {}

  /**
   * The phase {@code kind} of {@code ops} (one chip's share, {@link #perChip}) on {@code t}: each
   * operation at its {@link OperationCost}, the per-operation formulas the compiled path shares:
   * weight GEMMs on the small-M GEMM curve ({@link Efficiency#gemmHalfTokens()}) at their own rows
   * M = FLOPs / (2 × weight elements read) (the step's tokens for a dense GEMM, the mean tokens per
   * expert read for routed experts: tokens × k / distinct experts) with their reduction-depth
   * factor; the kernels that read the KV cache at {@link Efficiency#attention()} of bandwidth and
   * the large-GEMM compute fraction, with no small-M penalty; the rest at the large-GEMM compute
   * fraction and the memory fraction.
   */
  static PhaseResult phase(
      RooflineModel pool, PhaseKind kind, List<Operation> ops, ComputeTarget t) {
    return phase(pool, Counted.of(pool, kind, ops), t);
  }

  /** {@link #phase(RooflineModel, PhaseKind, List, ComputeTarget)} of counted operations. */
  static PhaseResult phase(RooflineModel pool, Counted counted, ComputeTarget t) {
    PhaseResult.Builder b = PhaseResult.builder().kind(counted.kind());
    List<Operation> ops = counted.operations();
    OperationCost.Rates rates = new OperationCost.Rates(pool, t);
    for (int i = 0; i < ops.size(); i++) {
      Operation op = ops.get(i);
      double flops = op.flops().flops();
      OperationCost cost =
          OperationCost.of(op, flops > 0, counted.bytesEach(i), counted.split(i), rates);
      double compute = cost.computeSeconds(flops, counted.weightBytes(i));
      b.addOperation(Roofline.timed(op, t, compute, cost.memoryFraction));
    }
    return b.build();
  }

  /**
   * A phase's operations on the busiest chip with what its timing reads of each that does not
   * depend on the efficiency: the bytes per stored weight element ({@link #weightBytesPerElement})
   * the weight bytes and the chips that split the reduction, in the operations' order. Counted once
   * per step shape in an {@link OperationCache}; the arrays are never written after {@link #of}.
   */
  static final class Counted {
    private final PhaseKind kind;
    private final List<Operation> operations;
    private final double[] bytesEach;
    private final double[] weightBytes;
    private final double[] split;

    private Counted(
        PhaseKind kind,
        List<Operation> operations,
        double[] bytesEach,
        double[] weightBytes,
        double[] split) {
      this.kind = kind;
      this.operations = operations;
      this.bytesEach = bytesEach;
      this.weightBytes = weightBytes;
      this.split = split;
    }

    /** {@code ops} of phase {@code kind} in {@code pool}, counted. */
    static Counted of(RooflineModel pool, PhaseKind kind, List<Operation> ops) {
      double[] each = new double[ops.size()];
      double[] weights = new double[ops.size()];
      double[] split = new double[ops.size()];
      for (int i = 0; i < each.length; i++) {
        each[i] = weightBytesPerElement(pool, ops.get(i));
        weights[i] = ops.get(i).bytes(DataKind.WEIGHTS).bytes();
        split[i] = pool.layout().reductionSplit(ops.get(i).role());
      }
      return new Counted(kind, List.copyOf(ops), each, weights, split);
    }

    PhaseKind kind() {
      return kind;
    }

    List<Operation> operations() {
      return operations;
    }

    /** Operation {@code i}'s bytes per stored weight element. */
    double bytesEach(int i) {
      return bytesEach[i];
    }

    /** Operation {@code i}'s weight bytes on the chip. */
    double weightBytes(int i) {
      return weightBytes[i];
    }

    /**
     * The chips that split operation {@code i}'s reduction ({@link ParallelLayout#reductionSplit}).
     */
    double split(int i) {
      return split[i];
    }
  }

  /**
   * One decode step of {@code batch} sequences at {@code context} cached tokens each, {@code
   * tokensPerSequence} tokens per sequence ({@link RooflineModel#decode(int, int, int)}): per chip,
   * per micro-batch, per stage, the model's decode phases plus {@code decode_communication} when
   * the stage spans several chips, with the pool's fixed costs per pass ({@link #chargeOverheads}).
   */
  static StepResult decode(RooflineModel pool, int batch, int context, int tokensPerSequence) {
    int pp = pool.pipelineParallel();
    int micro = Math.min(pp, batch);
    double mb = (double) batch / micro;
    // the operations on the busiest chip: counted once per step shape in an OperationCache
    List<Counted> phases =
        OperationCache.decode(
            pool,
            mb,
            context,
            tokensPerSequence,
            () -> decodeOperations(pool, mb, context, tokensPerSequence));
    ComputeTarget t = MemoryPlan.placed(pool, batch, context);
    ImmutableStepResult.Builder b =
        ImmutableStepResult.builder().stages(pp).passes(pp).microBatches(micro);
    chargeOverheads(pool, b, false);
    for (Counted p : phases) {
      b.addPhases(phase(pool, p, t));
    }
    Collectives.of(pool, PhaseKind.DECODE_COMMUNICATION, mb * tokensPerSequence)
        .ifPresent(b::addPhases);
    b.p2pSeconds(Collectives.handOff(pool, mb * tokensPerSequence));
    return b.build();
  }

  /**
   * Prefill of a mean of {@code prompts} prompts of {@code promptTokens} new tokens after {@code
   * cachedTokens} cached ones in {@code micro} micro-batches ({@link RooflineModel#prefill(double,
   * int, int, int)}): phase {@code prefill} per chip, per micro-batch, per stage, collectives
   * included, the offloaded history fetched first; {@code micro + pp − 1} passes fill and drain the
   * pipeline.
   */
  static StepResult prefill(
      RooflineModel pool, double prompts, int promptTokens, int cachedTokens, int micro) {
    int pp = pool.pipelineParallel();
    double mb = prompts / micro;
    Counted perChip =
        OperationCache.prefill(
            pool,
            mb,
            promptTokens,
            cachedTokens,
            () ->
                Counted.of(
                    pool,
                    PhaseKind.PREFILL,
                    perChip(
                        pool,
                        pool.model()
                            .prefill(
                                mb,
                                promptTokens,
                                cachedTokens,
                                pool.computePrecisions(),
                                pool.routing())
                            .operations(),
                        mb,
                        mb * promptTokens)));
    int context = cachedTokens + promptTokens;
    ComputeTarget t = MemoryPlan.placed(pool, (int) Math.max(1, Math.ceil(prompts)), context);
    List<OperationResult> ops = new ArrayList<>();
    if (pool.kvOffload().history() && cachedTokens > 0 && pool.runsAttention()) {
      ops.addAll(
          phase(
                  pool,
                  PhaseKind.PREFILL,
                  List.of(kvFetch(pool, mb, cachedTokens)),
                  MemoryPlan.fetchTarget(pool))
              .operations());
    }
    ops.addAll(phase(pool, perChip, t).operations());
    Collectives.of(pool, PhaseKind.PREFILL, mb * promptTokens)
        .ifPresent(c -> ops.addAll(c.operations()));
    ImmutableStepResult.Builder b =
        ImmutableStepResult.builder()
            .addPhases(PhaseResult.builder().kind(PhaseKind.PREFILL).operations(ops).build())
            .stages(pp)
            .microBatches(micro)
            .passes(micro + pp - 1)
            .p2pSeconds(Collectives.handOff(pool, mb * promptTokens));
    chargeOverheads(pool, b, true);
    return b.build();
  }

  /**
   * The phases of a decode step of {@code sequences} sequences per micro-batch on the busiest chip
   * ({@link #perChip}): what {@link #decode} times, independent of the efficiency.
   */
  private static List<Counted> decodeOperations(
      RooflineModel pool, double sequences, int context, int tokensPerSequence) {
    List<Phase> phases =
        pool.model()
            .decodeStep(
                sequences, context, pool.computePrecisions(), pool.routing(), tokensPerSequence);
    List<Counted> out = new ArrayList<>(phases.size());
    for (Phase p : phases) {
      out.add(
          Counted.of(
              pool,
              p.kind(),
              perChip(pool, p.operations(), sequences, sequences * tokensPerSequence)));
    }
    return out;
  }

  /**
   * Sets a step's fixed costs per pass through a stage: on the device {@link
   * Efficiency#deviceOverheadSeconds} of the stage's share of the forward pass's kernels ({@link
   * RooflineModel#kernels()} / pp), and of the attention side's and FFN side's alone for
   * attention-FFN disaggregated pools; on the host, which overlaps the device ({@link
   * StepResult#seconds()}), the step's own work ({@link Efficiency#stepOverhead}) and, for a
   * prefill pass, whose kernels are launched eagerly, their launches ({@link
   * Efficiency#prefillHostSeconds}); a decode pass's kernels too under {@link
   * Efficiency#eagerDecode} ({@link #decodeHost}).
   */
  private static void chargeOverheads(
      RooflineModel pool, ImmutableStepResult.Builder b, boolean prefill) {
    Efficiency e = pool.efficiency();
    Kernels.Count k = pool.kernels();
    double pp = pool.pipelineParallel();
    b.overheadSeconds(passOverhead(pool, k))
        .attentionOverheadSeconds(Seconds.of(e.deviceOverheadSeconds(k.mixer() / pp)))
        .ffnOverheadSeconds(Seconds.of(e.deviceOverheadSeconds(k.ffn() / pp)));
    // the host's work per pass overlaps the device's (StepResult.seconds): a prefill's eager
    // launches and step work, a decode pass's step work (and its launches when not graphed)
    b.hostSeconds(prefill ? Seconds.of(e.prefillHostSeconds(k.total() / pp)) : decodeHost(pool, k));
  }

  /**
   * The host's time per pass of a decode step ({@link RooflineModel#decode}), {@link
   * StepResult#hostSeconds()}, which overlaps the device's pass: {@link
   * Efficiency#decodeHostSeconds} of the stage's share of the forward pass's kernels {@code k}
   * ({@link RooflineModel#kernels()} / pp): the step's own work ({@link Efficiency#stepOverhead})
   * when the kernels replay from a CUDA graph, and their eager launches too under {@link
   * Efficiency#eagerDecode}. It depends on the pool alone.
   */
  static Seconds decodeHost(RooflineModel pool, Kernels.Count k) {
    return Seconds.of(
        pool.efficiency().decodeHostSeconds(k.total() / (double) pool.pipelineParallel()));
  }

  /**
   * The device's fixed cost of one pass through a stage of a step, {@link
   * StepResult#overheadSeconds()}: {@link Efficiency#deviceOverheadSeconds} of the stage's share of
   * the forward pass's kernels {@code k} ({@link RooflineModel#kernels()} / pp). It depends on the
   * pool alone, not on the batch or the context.
   */
  static Seconds passOverhead(RooflineModel pool, Kernels.Count k) {
    return Seconds.of(
        pool.efficiency().deviceOverheadSeconds(k.total() / (double) pool.pipelineParallel()));
  }

  /**
   * Whether every kernel class of {@code pool} runs at the target's own fractions (no attention
   * factor, no small-M GEMM curve, no reduction-depth cost), so that {@link Roofline#phase} applies
   * as is.
   */
  static boolean uniformKernels(RooflineModel pool) {
    Efficiency e = pool.efficiency();
    return e.attention() == e.memory() && e.gemmHalfTokens() == 0 && e.gemmHalfDepth() == 0;
  }

  /**
   * Bytes per stored weight element of {@code op}: its tensor class's weight precision for a weight
   * GEMM (a weight-only FP8 GEMM computes at BF16 but reads 1 B each), else its own precision's.
   */
  static double weightBytesPerElement(RooflineModel pool, Operation op) {
    return KernelClass.weightClass(op.role())
        .map(c -> pool.computePrecisions().weights(c).bytesPerElement())
        .orElse(op.precision().bytesPerElement());
  }

  /**
   * The busiest chip's share of each operation in a step of {@code sequences} sequences (or
   * prompts) per micro-batch: FLOPs and activations of stage-wide operations over tp·dp·pp, of the
   * operations that run per attention group ({@link ParallelLayout#runsPerGroup}: the attention
   * side, and with dp &gt; 1 the dense-FFN class) over tp·pp·(busy attention groups, {@link
   * ParallelLayout#busyAttentionGroups}: each dp group runs whole sequences, so 4 sequences keep 4
   * of 8 groups busy and a single prompt one); their weights over tp·pp (each dp group holds a
   * copy), other weights over tp·dp·pp; KV over (busy groups)·min(tp, the op's KV shards)·pp. Under
   * {@link RooflineModel#expertImbalance()} with expert parallelism (ep &gt; 1) the routed experts
   * of the step's {@code tokens} tokens are the busiest rank's ({@link #expertImbalance}): their
   * FLOPs and activations times {@link ExpertLoad#tokenFactor}, their weights times {@link
   * ExpertLoad#expertFactor}.
   */
  static List<Operation> perChip(
      RooflineModel pool, List<Operation> ops, double sequences, double tokens) {
    ParallelLayout layout = pool.layout();
    if (layout.replicaChips() == 1) {
      return ops;
    }
    List<Ffn> moe = imbalanced(pool) ? moeFfns(pool.model()) : List.of();
    int moeSeen = 0;
    List<Operation> out = new ArrayList<>(ops.size());
    for (Operation op : ops) {
      double workImbalance = 1;
      double weightImbalance = 1;
      if (op.role() == OperationRole.ROUTED_EXPERTS && !moe.isEmpty()) {
        double[] f = expertImbalance(pool, moe.get(moeSeen++), tokens);
        workImbalance = f[0];
        weightImbalance = f[1];
      }
      boolean perGroup = layout.runsPerGroup(op.role());
      ParallelLayout.Sharding weights =
          perGroup ? ParallelLayout.Sharding.ATTENTION_GROUP : ParallelLayout.Sharding.STAGE;
      // the step takes the busiest attention group's time: its share of the per-group work
      double work = layout.workShards(perGroup, sequences) / workImbalance;
      ImmutableMap.Builder<DataKind, Bytes> bytes = ImmutableMap.builder();
      for (Map.Entry<DataKind, Bytes> e : op.bytes().entrySet()) {
        double divisor =
            switch (OperationCost.shareOf(e.getKey())) {
              case WEIGHTS -> layout.shards(weights) / weightImbalance;
              case KV -> layout.kvShards(op.kvShards(), sequences);
              case WORK -> work;
            };
        bytes.put(e.getKey(), e.getValue().dividedBy(divisor));
      }
      out.add(
          Operation.builder()
              .from(op)
              .flops(op.flops().dividedBy(work))
              .bytes(bytes.build())
              .build());
    }
    return out;
  }

  /**
   * The busiest expert-parallel rank's load over the mean rank's for the routed experts of {@code
   * f} in a step of {@code tokens} tokens on {@code pool}'s {@link RooflineModel#expertParallel()
   * ep} ranks: {@code {token-expert pairs (FLOPs, activations), distinct experts (weights)}}
   * ({@link ExpertLoad#tokenFactor}, {@link ExpertLoad#expertFactor} of the routing's expected
   * distinct experts, a token count below one counted as one token); {1, 1} with one rank.
   */
  static double[] expertImbalance(RooflineModel pool, Ffn f, double tokens) {
    int ranks = pool.expertParallel();
    if (ranks == 1) {
      return new double[] {1, 1};
    }
    return new double[] {
      ExpertLoad.tokenFactor(tokens, f.topK(), f.experts(), ranks, pool.redundantExpertsPerRank()),
      ExpertLoad.expertFactor(
          pool.routing().expectedDistinctExperts(f.experts(), f.topK(), Math.max(1, tokens)),
          f.experts(),
          ranks)
    };
  }

  /**
   * Whether {@code pool}'s routed experts take the busiest expert-parallel rank's load: {@link
   * RooflineModel#expertImbalance()} with ep &gt; 1.
   */
  static boolean imbalanced(RooflineModel pool) {
    return pool.expertImbalance() && pool.expertParallel() > 1;
  }

  /** The MoE FFNs of {@code m}'s layer groups in order: one routed-expert operation each. */
  static List<Ffn> moeFfns(Model m) {
    List<Ffn> out = new ArrayList<>();
    for (Layer l : m.layerGroups().keySet()) {
      if (l.ffn().isPresent() && l.ffn().get().isMoe()) {
        out.add(l.ffn().get());
      }
    }
    return out;
  }

  /**
   * Bringing the cached KV of a micro-batch of {@code prompts} prompts back from the offload tier
   * ({@link KvOffload#HISTORY}), per chip: {@code kv_fetch}, no FLOPs, reading {@code prompts ×
   * cacheBytesPerSequence(cached, kv, tp) / (busy attention groups × pp)} (each chip fetches its
   * own KV heads of its own sequences, the layers of its stage) from the tier that {@link
   * MemoryPlan#fetchTarget} places them on.
   */
  static Operation kvFetch(RooflineModel pool, double prompts, int cachedTokens) {
    ParallelLayout layout = pool.layout();
    Precision kv = pool.precisions().kvCache();
    Bytes perChip =
        pool.model()
            .cacheBytesPerSequence(cachedTokens, kv, pool.tensorParallel())
            .times(prompts)
            .dividedBy(layout.busyAttentionGroups(prompts) * pool.pipelineParallel());
    return Operation.builder()
        .name("kv_fetch")
        .role(OperationRole.KV_FETCH)
        .flops(Flops.ZERO)
        .precision(kv)
        .putBytes(DataKind.KV_READ, perChip)
        .build();
  }
}
