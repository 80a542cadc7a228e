package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.OperationRole;
import io.ridgeline.core.TensorClass;
import java.util.Locale;

/**
 * How one model replica is laid out over chips, and the one sharding table that both time (each
 * operation's per-chip share) and memory (each chip's bytes) use.
 *
 * <p>A replica spans {@code tp × dp × pp} chips: {@link #pipelineParallel() pp} pipeline stages,
 * each of {@link #stageChips() tp × dp} chips. Attention (and linear mixers) run with {@link
 * #tensorParallel() tensor parallelism} tp inside each of {@link #attentionDataParallel() dp}
 * attention groups, which split the batch and each hold a copy of the attention weights (and, with
 * dp &gt; 1, of the dense FFN layers and shared experts); the other FFNs, the MoE and LM head run
 * across all chips of a stage, routed experts spread over {@link #expertParallel() ep} of them.
 * {@code chips / (tp·dp·pp)} replicas serve independent batches.
 *
 * <p>The table ({@link Sharding}): what one chip holds or computes of a whole-replica quantity.
 *
 * <table>
 *   <caption>Shards of each kind of data</caption>
 *   <tr><th>data</th><th>split over</th></tr>
 *   <tr><td>attention-side weights, and with dp &gt; 1 the dense-FFN class ({@link
 *       Sharding#ATTENTION_GROUP}, {@link #runsPerGroup})</td><td>tp · pp (each dp group holds a
 *       copy)</td></tr>
 *   <tr><td>stage-wide weights, FLOPs, activations ({@link Sharding#STAGE})</td><td>tp · dp ·
 *       pp</td></tr>
 *   <tr><td>KV cache of a layer with s KV shards</td><td>(busy dp groups) · min(tp, s) · pp
 *       (beyond s KV heads each chip of a group reads a replica)</td></tr>
 * </table>
 *
 * @param chips chips in the pool, a multiple of {@code tp × dp × pp}
 * @param tensorParallel tp, positive
 * @param pipelineParallel pp, positive
 * @param expertParallel ep, positive, dividing {@code tp × dp}
 * @param attentionDataParallel dp, positive
 */
public record ParallelLayout(
    int chips,
    int tensorParallel,
    int pipelineParallel,
    int expertParallel,
    int attentionDataParallel) {

  /** How a quantity is split over the chips of a replica (see the class comment). */
  public enum Sharding {
    /** Split over tp and pp; each attention data-parallel group holds a copy. */
    ATTENTION_GROUP,
    /** Split over every chip of the replica: tp · dp · pp. */
    STAGE
  }

  /**
   * Validates the layout.
   *
   * @throws IllegalArgumentException naming the degree that is not positive or does not divide
   */
  public ParallelLayout {
    positive("tensor parallel degree", tensorParallel);
    positive("pipeline parallel degree", pipelineParallel);
    positive("expert parallel degree", expertParallel);
    positive("attention data parallel degree", attentionDataParallel);
    positive("chip count", chips);
    int replica = tensorParallel * attentionDataParallel * pipelineParallel;
    checkArgument(
        chips % replica == 0,
        "chip count (%s) must be a multiple of tp × dp × pp = %s × %s × %s",
        chips,
        tensorParallel,
        attentionDataParallel,
        pipelineParallel);
    checkArgument(
        (tensorParallel * attentionDataParallel) % expertParallel == 0,
        "expert parallel degree (%s) must divide the %s chips of a stage (tp × dp)",
        expertParallel,
        tensorParallel * attentionDataParallel);
  }

  /**
   * The tensor-parallel degree of a pool of {@code chips} chips given no degree: one replica over
   * the whole pool, {@code tp = chips / (pp × dp)} (integer division, at least 1). The one rule of
   * the library's builder ({@link RooflineModel.Builder}), {@link RooflineModel#of(
   * io.ridgeline.models.Model, io.ridgeline.hardware.Chip, int)}, {@link PoolSpec} and the command
   * line's {@code --count}. For example 8 chips with pp 2: tp 4.
   *
   * @throws IllegalArgumentException when an argument is not positive
   */
  public static int defaultTensorParallel(
      int chips, int pipelineParallel, int attentionDataParallel) {
    positive("chip count", chips);
    positive("pipeline parallel degree", pipelineParallel);
    positive("attention data parallel degree", attentionDataParallel);
    // the chips of one replica's stage: the pool over its pp stages and dp attention groups
    return Math.max(1, chips / (pipelineParallel * attentionDataParallel));
  }

  /** One replica over {@code tp} chips: no pipeline, expert or attention data parallelism. */
  public static ParallelLayout tensorParallel(int tp) {
    return new ParallelLayout(tp, tp, 1, 1, 1);
  }

  /** Chips of one pipeline stage: tp × dp. */
  public int stageChips() {
    return tensorParallel * attentionDataParallel;
  }

  /** Chips of one replica: tp × dp × pp. */
  public int replicaChips() {
    return stageChips() * pipelineParallel;
  }

  /** Model replicas in the pool. */
  public int replicas() {
    return chips / replicaChips();
  }

  /** The shards a quantity of this sharding is divided into: one chip holds 1 / shards of it. */
  public double shards(Sharding sharding) {
    return switch (sharding) {
      case ATTENTION_GROUP -> (double) tensorParallel * pipelineParallel;
      case STAGE -> (double) replicaChips();
    };
  }

  /**
   * The sharding of a tensor class's weights: attention weights per dp group; with attention data
   * parallelism (dp &gt; 1) also the dense-FFN class (dense FFN layers, shared experts, routers),
   * which then runs with the attention groups ({@link #runsPerGroup}); routed experts, embeddings
   * and the LM head stage-wide.
   */
  public Sharding sharding(TensorClass weights) {
    return switch (weights) {
      case ATTENTION -> Sharding.ATTENTION_GROUP;
      case DENSE_FFN -> attentionDataParallel > 1 ? Sharding.ATTENTION_GROUP : Sharding.STAGE;
      case EXPERTS, EMBEDDINGS -> Sharding.STAGE;
    };
  }

  /**
   * Whether an operation runs within each attention data-parallel group (tp chips, its own
   * sequences, a copy of its weights per group) rather than across the stage: the attention side
   * always, and with dp &gt; 1 the dense-FFN class too. Engines that serve MoE models with
   * attention data parallelism keep dense FFN layers and shared experts data-parallel so that only
   * the routed experts cross groups: SGLang ({@code --moe-dense-tp-size 1} in the LMSYS large-scale
   * EP recipe; shared experts unsharded under DeepEP) and TensorRT-LLM (attention DP sets the
   * shared experts' and dense MLPs' tp to 1).
   */
  public boolean runsPerGroup(OperationRole role) {
    if (role.attentionSide()) {
      return true;
    }
    // the other roles run where their weights are held: the dense-FFN class per group with dp > 1
    return KernelClass.weightClass(role)
        .map(weights -> sharding(weights) == Sharding.ATTENTION_GROUP)
        .orElse(false);
  }

  /**
   * The chips a row-parallel GEMM of an operation of {@code role} splits its reduction dimension K
   * over ({@link io.ridgeline.core.Operation#inverseSplitDepth}): tp for the operations that run
   * per attention group ({@link #runsPerGroup}); for routed experts, each expert's matrices over
   * the stage's chips that share it, tp · dp / ep; for the other stage-wide operations tp · dp.
   * Pipeline stages split layers, not K.
   */
  public double reductionSplit(OperationRole role) {
    if (runsPerGroup(role)) {
      return tensorParallel;
    }
    double stage = (double) tensorParallel * attentionDataParallel;
    boolean experts = KernelClass.weightClass(role).filter(TensorClass.EXPERTS::equals).isPresent();
    return experts ? stage / expertParallel : stage;
  }

  /**
   * The shards of a KV cache already divided over tensor parallelism (as {@code
   * Model.cacheBytesPerSequence(context, kv, tp)} is): dp · pp.
   */
  public double kvShardsBeyondTensorParallel() {
    return (double) attentionDataParallel * pipelineParallel;
  }

  /**
   * Attention data-parallel groups whose share the busiest group carries, for {@code sequences}
   * sequences (or prompts) in a step: each group runs whole sequences, so the busiest one holds ⌈s
   * / dp⌉ of them and a step takes its time; the attention side then divides by {@code s / ⌈s /
   * dp⌉} groups rather than dp (dp when the batch splits evenly; 1 for a single sequence, or a
   * fraction of one, as a colocated step's prefill share). Worked example: dp 8 with 4 sequences: 4
   * / ⌈4/8⌉ = 4 groups busy, the other 4 idle; 12 sequences: 12 / ⌈12/8⌉ = 6.
   */
  public double busyAttentionGroups(double sequences) {
    if (sequences <= 1 || attentionDataParallel == 1) {
      return 1;
    }
    double perGroup = Math.ceil(sequences / attentionDataParallel - 1e-9);
    return Math.min(attentionDataParallel, sequences / perGroup);
  }

  /**
   * The shards a quantity of this sharding is divided into in a step of {@code sequences}
   * sequences: {@link #shards(Sharding)}, with the attention side's work (not its weights, see
   * {@link #shards(Sharding)}) over the busy groups only ({@link #busyAttentionGroups}).
   */
  public double workShards(boolean perGroup, double sequences) {
    return perGroup
        ? (double) tensorParallel * pipelineParallel * busyAttentionGroups(sequences)
        : replicaChips();
  }

  /**
   * The shards of a KV cache (or linear-mixer state) that can be split over at most {@code
   * kvShards} chips of a tensor-parallel group, in a step of {@code sequences} sequences: (busy
   * attention groups) · min(tp, kvShards) · pp; beyond kvShards each chip of a group reads a
   * replica.
   */
  public double kvShards(int kvShards, double sequences) {
    checkArgument(kvShards > 0, "kv shards must be positive: %s", kvShards);
    return busyAttentionGroups(sequences) * Math.min(tensorParallel, kvShards) * pipelineParallel;
  }

  private static void positive(String what, int value) {
    checkArgument(value > 0, "%s must be positive: %s", what, value);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("tp " + tensorParallel);
    if (pipelineParallel > 1) {
      b.append(", pp ").append(pipelineParallel);
    }
    if (expertParallel > 1) {
      b.append(", ep ").append(expertParallel);
    }
    if (attentionDataParallel > 1) {
      b.append(", attention dp ").append(attentionDataParallel);
    }
    return String.format(Locale.ROOT, "%s", b);
  }
}
