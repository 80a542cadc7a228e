package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.Precisions;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Interconnect;
import io.ridgeline.models.Kernels;
import io.ridgeline.models.Model;
import io.ridgeline.models.Routing;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import org.immutables.value.Value;

/**
 * A model served on a pool of {@link #chips()} identical chips. One model replica spans {@code tp ×
 * dp × pp} chips: {@link #pipelineParallel() pp} pipeline stages, each of {@code tp × dp} chips;
 * {@code chips / (tp·dp·pp)} replicas serve independent batches.
 *
 * <p>Within a stage, attention (and linear mixers) run with {@link #tensorParallel() tensor
 * parallelism} tp inside each of {@link #attentionDataParallel() dp} attention groups, which split
 * the batch and each hold a copy of the attention weights; the FFN, MoE and LM head run across all
 * {@code tp·dp} chips of the stage, MoE experts spread over {@link #expertParallel() ep} of them.
 * KV heads split over tp and replicate once tp exceeds them; an MLA latent cache, shared by all
 * heads, is replicated on every chip of a group.
 *
 * <p>Collectives are costed with the α-β model on the link they cross (the scale-up fabric when the
 * group fits its domain, else the scale-out network): an all-reduce after each attention block over
 * tp (a tree's {@code 2·⌈log2 n⌉} latency hops and a ring's {@code 2·(n−1)/n × message} bytes per
 * chip), an all-reduce after each FFN over the stage, or for MoE with ep &gt; 1 an all-to-all
 * dispatch and combine of each token's hidden vector to its k experts; pipeline stages hand each
 * micro-batch's activations to the next (one hop). A decode step runs {@code min(pp, batch)}
 * micro-batches; a token crosses all pp stages, so small batches leave stages idle (the bubble).
 *
 * <p>Memory: weights, workspace and KV cache are placed, in that order, on the chip's tiers from
 * the fastest down (SRAM, HBM or GDDR, then host DDR or LPDDR), each spilling to the next tier when
 * one is full; an operation reads each byte at the bandwidth of the tier that holds it.
 *
 * <p>Everything is per replica: {@code batch} is the number of requests one replica decodes
 * together; per-chip figures are one chip's share of one micro-batch in one stage.
 *
 * <pre>{@code
 * RooflineModel rm = RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.byId("h100-sxm"));
 * rm.decode(1, 1024).seconds();   // ≈ 4.5 ms
 * rm.maxBatch(2048);
 * }</pre>
 */
@Value.Immutable
// RidgelineStyle's settings, but the generated builder is not this type's Builder: that one wraps
// it (see Builder), so Immutables must not look for an extending builder under that name
@Value.Style(
    typeImmutable = "Immutable*",
    get = {"is*", "get*"},
    defaults = @Value.Immutable(copy = true, prehash = false),
    depluralize = true,
    depluralizeDictionary = {"bytes:bytes"},
    visibility = Value.Style.ImplementationVisibility.PACKAGE,
    builderVisibility = Value.Style.BuilderVisibility.PACKAGE,
    overshadowImplementation = true,
    typeInnerBuilder = "GeneratedBuilder",
    builder = "generatedBuilder")
public abstract class RooflineModel {
  RooflineModel() {} // subclassed only by the generated implementation

  /**
   * Tokens per prefill chunk assumed for the activation workspace: engines run chunked prefill with
   * a bounded token budget per step (vLLM's {@code max_num_batched_tokens} is 8,192 for
   * long-context serving).
   */
  public static final int PREFILL_CHUNK_TOKENS = 8192;

  /**
   * Prompts of {@code isl} tokens in one prefill pass of a replica: ⌊{@value #PREFILL_CHUNK_TOKENS}
   * / isl⌋ (at least 1) per attention data-parallel group, each group scheduling its own chunk.
   *
   * @throws IllegalArgumentException when isl is not positive
   */
  public int promptsPerPrefillPass(int isl) {
    checkArgument(isl > 0, "input tokens (isl) must be positive: %s", isl);
    return Math.max(1, PREFILL_CHUNK_TOKENS / isl) * attentionDataParallel();
  }

  /**
   * Prompts of {@code newTokens} new tokens each (a prompt context of {@code promptContext} tokens,
   * its cached ones included) that one prefill pass of a prefill pool runs: {@link
   * #promptsPerPrefillPass}, or fewer when their KV cache does not fit beside the weights — the
   * largest count that does, at least 1 (whether one fits is {@link #memory}'s to say).
   *
   * @throws IllegalArgumentException when a length is not positive
   */
  public int prefillPassPrompts(int newTokens, int promptContext) {
    int wanted = promptsPerPrefillPass(newTokens);
    if (wanted == 1 || memory(wanted, promptContext).fits()) {
      return wanted;
    }
    return Math.max(1, BatchSearch.largest(n -> n < wanted && memory(n, promptContext).fits()));
  }

  /** The model. */
  public abstract Model model();

  /** The chip type. */
  public abstract Chip chip();

  /**
   * Chips in the pool (a multiple of tp × dp × pp); by default one replica, tp × dp × pp. A count
   * given without a tensor-parallel degree is one replica over all of them, as {@link #of(Model,
   * Chip, int)} and the command line's {@code --count} (see {@link Builder}).
   */
  @Value.Default
  public int chips() {
    return replicaChips();
  }

  /**
   * Tensor-parallel degree of attention (and of the FFN when dp = 1). The {@linkplain #builder()
   * builder} derives it from the chip count when only the count is given ({@link
   * ParallelLayout#defaultTensorParallel}: one replica over the whole pool), and uses 1 when
   * neither is given.
   */
  @Value.Default
  public int tensorParallel() {
    return 1;
  }

  /** Pipeline stages per replica. */
  @Value.Default
  public int pipelineParallel() {
    return 1;
  }

  /** Chips of a stage that MoE experts are spread over (a divisor of tp × dp). */
  @Value.Default
  public int expertParallel() {
    return 1;
  }

  /**
   * Attention data-parallel groups per stage: each holds the attention weights and 1/dp of the
   * batch.
   */
  @Value.Default
  public int attentionDataParallel() {
    return 1;
  }

  /** Weight, KV-cache and activation precisions; the checkpoint's own by default. */
  @Value.Default
  public Precisions precisions() {
    return model().defaultPrecisions();
  }

  /**
   * The precisions the chip computes at: {@link #precisions()} resolved against the chip's matrix
   * units ({@link Precisions#resolvedFor}), so that each class's GEMMs run at the rate engines use
   * (W8A8 for FP8 checkpoints on chips with FP8 units, W4A4 for FP4/MXFP4 on chips with FP4 units,
   * else weight-only at the activation precision). Decode and prefill count their operations with
   * these.
   */
  @Value.Lazy
  public Precisions computePrecisions() {
    return precisions().resolvedFor(chip().toComputeTarget());
  }

  /** How tokens spread over MoE experts; uniform by default. */
  @Value.Default
  public Routing routing() {
    return Routing.uniform();
  }

  /**
   * Whether the busiest expert-parallel rank sets the routed experts' time ({@link ExpertLoad}):
   * with ep &gt; 1 their FLOPs, activations and weight reads per chip become the busiest rank's
   * expected token-expert pairs and hit experts under uniform routing, instead of the mean rank's.
   * False by default (the cross-validation's evidence is in docs/decisions.md).
   */
  @Value.Default
  public boolean expertImbalance() {
    return false;
  }

  /**
   * Redundant expert slots per expert-parallel rank (DeepSeek's EPLB: the busiest experts
   * replicated on other ranks, each replica taking half of its expert's tokens), which lower the
   * busiest rank's token load ({@link ExpertLoad#tokenFactor}) under {@link #expertImbalance()}; 0
   * by default (no replicas). The replicas' weights are not added to the memory plan. Must be at
   * least 0 and, with ep &gt; 1, at most the experts per rank of each MoE layer (each expert
   * replicated at most once).
   */
  @Value.Default
  public int redundantExpertsPerRank() {
    return 0;
  }

  /**
   * Whether this pool prefills prompts (so its workspace holds a prefill chunk); false for the
   * decode pool of a prefill/decode-disaggregated system, whose workspace holds one decode step.
   */
  @Value.Default
  public boolean runsPrefill() {
    return true;
  }

  /**
   * Whether this pool runs the attention side of the layers; false for the FFN pool of an
   * attention/FFN-disaggregated system, which holds and computes only dense-FFN and expert layers,
   * so its tensor-parallel degree need not divide the attention heads.
   */
  @Value.Default
  public boolean runsAttention() {
    return true;
  }

  /**
   * Which KV cache lives in the chip's offload tier, a tier slower than the main one ({@link
   * KvOffload}): by default {@link KvOffload#NONE}, every byte of KV in the main tier.
   */
  @Value.Default
  public KvOffload kvOffload() {
    return KvOffload.NONE;
  }

  /**
   * Achieved fractions of peak and bandwidth and fixed costs; by default {@link
   * Efficiency#standard(Chip)}, the calibrated default profile the command line uses too. {@link
   * Efficiency#ideal()} gives the roofline bound.
   */
  @Value.Default
  public Efficiency efficiency() {
    return Efficiency.standard(chip());
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builds a {@link RooflineModel}: one setter per attribute, then {@code build()}. A chip count
   * means one pool of that many chips: {@code chips(8)} alone is one replica with tensor
   * parallelism 8 (over pp × dp: {@link ParallelLayout#defaultTensorParallel}), exactly {@link
   * #of(Model, Chip, int)} and the command line's {@code --count 8}; {@code tensorParallel(t)}
   * alone is one replica of t × dp × pp chips; both together are {@code chips / (t·dp·pp)}
   * replicas. {@link #from} copies every attribute, chips and tp included.
   *
   * <p>Unlike the other value types' builders (which extend the generated one, see {@code
   * RidgelineStyle}), this one wraps it: the default degree depends on whether a count was given,
   * which a generated builder's defaults cannot see.
   */
  public static final class Builder {
    private final ImmutableRooflineModel.Builder b = ImmutableRooflineModel.generatedBuilder();
    private boolean chipsSet;
    private boolean tensorParallelSet;
    private int chips;
    private int pipelineParallel = 1;
    private int attentionDataParallel = 1;

    Builder() {}

    /** Copies every attribute of {@code instance}, its chip count and degrees included. */
    @CanIgnoreReturnValue
    public Builder from(RooflineModel instance) {
      b.from(instance);
      chips = instance.chips();
      pipelineParallel = instance.pipelineParallel();
      attentionDataParallel = instance.attentionDataParallel();
      chipsSet = true;
      tensorParallelSet = true;
      return this;
    }

    /** Sets {@link RooflineModel#model()}. */
    @CanIgnoreReturnValue
    public Builder model(Model model) {
      b.model(model);
      return this;
    }

    /** Sets {@link RooflineModel#chip()}. */
    @CanIgnoreReturnValue
    public Builder chip(Chip chip) {
      b.chip(chip);
      return this;
    }

    /**
     * Sets {@link RooflineModel#chips()}: the pool's chip count; without {@link #tensorParallel}
     * one replica over all of them.
     */
    @CanIgnoreReturnValue
    public Builder chips(int chips) {
      b.chips(chips);
      this.chips = chips;
      chipsSet = true;
      return this;
    }

    /** Sets {@link RooflineModel#tensorParallel()}. */
    @CanIgnoreReturnValue
    public Builder tensorParallel(int tensorParallel) {
      b.tensorParallel(tensorParallel);
      tensorParallelSet = true;
      return this;
    }

    /** Sets {@link RooflineModel#pipelineParallel()}. */
    @CanIgnoreReturnValue
    public Builder pipelineParallel(int pipelineParallel) {
      b.pipelineParallel(pipelineParallel);
      this.pipelineParallel = pipelineParallel;
      return this;
    }

    /** Sets {@link RooflineModel#expertParallel()}. */
    @CanIgnoreReturnValue
    public Builder expertParallel(int expertParallel) {
      b.expertParallel(expertParallel);
      return this;
    }

    /** Sets {@link RooflineModel#attentionDataParallel()}. */
    @CanIgnoreReturnValue
    public Builder attentionDataParallel(int attentionDataParallel) {
      b.attentionDataParallel(attentionDataParallel);
      this.attentionDataParallel = attentionDataParallel;
      return this;
    }

    /** Sets {@link RooflineModel#precisions()}. */
    @CanIgnoreReturnValue
    public Builder precisions(Precisions precisions) {
      b.precisions(precisions);
      return this;
    }

    /** Sets {@link RooflineModel#routing()}. */
    @CanIgnoreReturnValue
    public Builder routing(Routing routing) {
      b.routing(routing);
      return this;
    }

    /** Sets {@link RooflineModel#expertImbalance()}. */
    @CanIgnoreReturnValue
    public Builder expertImbalance(boolean expertImbalance) {
      b.expertImbalance(expertImbalance);
      return this;
    }

    /** Sets {@link RooflineModel#redundantExpertsPerRank()}. */
    @CanIgnoreReturnValue
    public Builder redundantExpertsPerRank(int redundantExpertsPerRank) {
      b.redundantExpertsPerRank(redundantExpertsPerRank);
      return this;
    }

    /** Sets {@link RooflineModel#runsPrefill()}. */
    @CanIgnoreReturnValue
    public Builder runsPrefill(boolean runsPrefill) {
      b.runsPrefill(runsPrefill);
      return this;
    }

    /** Sets {@link RooflineModel#runsAttention()}. */
    @CanIgnoreReturnValue
    public Builder runsAttention(boolean runsAttention) {
      b.runsAttention(runsAttention);
      return this;
    }

    /** Sets {@link RooflineModel#kvOffload()}. */
    @CanIgnoreReturnValue
    public Builder kvOffload(KvOffload kvOffload) {
      b.kvOffload(kvOffload);
      return this;
    }

    /** Sets {@link RooflineModel#efficiency()}. */
    @CanIgnoreReturnValue
    public Builder efficiency(Efficiency efficiency) {
      b.efficiency(efficiency);
      return this;
    }

    /**
     * The pool; a count without a tensor-parallel degree is laid out as one replica ({@link
     * ParallelLayout#defaultTensorParallel}).
     *
     * @throws IllegalStateException when the model or chip is not set
     * @throws IllegalArgumentException when the layout is invalid (see {@link RooflineModel})
     */
    public RooflineModel build() {
      if (chipsSet && !tensorParallelSet) {
        // recomputed on every build, so a later chips(...) on this builder is followed
        b.tensorParallel(
            ParallelLayout.defaultTensorParallel(chips, pipelineParallel, attentionDataParallel));
      }
      return b.build();
    }
  }

  /** {@code model} on one {@code chip}, the checkpoint's precisions, the default efficiency. */
  public static RooflineModel of(Model model, Chip chip) {
    return builder().model(model).chip(chip).build();
  }

  /**
   * {@code model} on a pool of {@code count} chips, one replica with the default tensor-parallel
   * degree ({@link ParallelLayout#defaultTensorParallel}: all {@code count} chips); the same as
   * {@code builder().model(model).chip(chip).chips(count).build()}.
   */
  public static RooflineModel of(Model model, Chip chip, int count) {
    return builder().model(model).chip(chip).chips(count).build();
  }

  /**
   * The layout of this pool's replicas (tp, pp, ep, attention dp, chips) and its sharding table,
   * which both step time ({@link #decode(int, int)}) and {@link #memory(int, int) memory} use.
   */
  @Value.Lazy
  public ParallelLayout layout() {
    return new ParallelLayout(
        chips(), tensorParallel(), pipelineParallel(), expertParallel(), attentionDataParallel());
  }

  /** Chips of one pipeline stage: tp × dp. */
  public int stageChips() {
    return tensorParallel() * attentionDataParallel();
  }

  /** Chips of one replica: tp × dp × pp. */
  public int replicaChips() {
    return stageChips() * pipelineParallel();
  }

  /** Model replicas in the pool. */
  public int replicas() {
    return chips() / replicaChips();
  }

  /** The link a collective among {@code group} chips crosses, if the chip has one. */
  public Optional<Interconnect> linkFor(int group) {
    return Links.within(chip(), group);
  }

  /** The interconnect a tensor-parallel group of this size crosses, if any. */
  public Optional<Interconnect> tensorParallelLink() {
    return linkFor(tensorParallel());
  }

  /** One chip's roofline target (main tier only, tp link, efficiency applied). */
  @Value.Lazy
  public ComputeTarget target() {
    return linkTarget(tensorParallel());
  }

  // the link targets of this pool by group size: each a validated copy, so built once per size
  private final ConcurrentHashMap<Integer, ComputeTarget> linkTargets = new ConcurrentHashMap<>();

  /**
   * {@link #baseTarget()} with the link a collective among {@code group} chips crosses ({@link
   * Collectives#withLink}), built once per group size.
   */
  ComputeTarget linkTarget(int group) {
    ComputeTarget t = linkTargets.get(group);
    if (t == null) {
      t = Collectives.withLink(this, baseTarget(), group);
      linkTargets.putIfAbsent(group, t);
    }
    return t;
  }

  /** The layers the collectives count (mixers, dense and MoE FFNs), counted once per pool. */
  @Value.Lazy
  Collectives.LayerCounts layerCounts() {
    return Collectives.LayerCounts.of(this);
  }

  /**
   * The efficiency this pool's kernels run at: {@link #efficiency()} with its compute fraction
   * scaled by the chip's achievable matmul fraction ({@link KernelTargets#kernelEfficiency}).
   */
  @Value.Lazy
  Efficiency kernelEfficiency() {
    return KernelTargets.kernelEfficiency(this);
  }

  /**
   * The chip's target at this pool's efficiency ({@link #kernelEfficiency()}), each narrow
   * precision's compute scaled by its achievable matmul fraction ({@link
   * KernelTargets#baseTarget}).
   */
  @Value.Lazy
  ComputeTarget baseTarget() {
    return KernelTargets.baseTarget(this);
  }

  // ---- steps ----

  /**
   * One decode step of {@code batch} sequences at {@code context} cached tokens each: per chip, per
   * micro-batch, per stage, the model's decode phases plus {@code decode_communication} when the
   * stage spans several chips.
   *
   * @throws IllegalArgumentException when batch or context is not positive
   */
  public StepResult decode(int batch, int context) {
    return decode(batch, context, 1);
  }

  /**
   * A decode step in which each sequence processes {@code tokensPerSequence} tokens at once (a
   * speculative-decoding verify pass of γ + 1 tokens).
   *
   * @throws IllegalArgumentException when an argument is not positive
   */
  public StepResult decode(int batch, int context, int tokensPerSequence) {
    checkArgument(batch > 0, "batch must be positive: %s", batch);
    checkArgument(context > 0, "context must be positive: %s", context);
    return PoolOperations.decode(this, batch, context, tokensPerSequence);
  }

  /**
   * Prefill of {@code batch} prompts of {@code promptTokens} tokens: phase {@code prefill} per
   * chip, per micro-batch, per stage (collectives included); {@code min(pp, batch)} micro-batches
   * fill and drain the pipeline.
   *
   * @throws IllegalArgumentException when batch or prompt length is not positive
   */
  public StepResult prefill(int batch, int promptTokens) {
    return prefill(batch, promptTokens, 0);
  }

  /**
   * Prefill of {@code batch} prompts of {@code promptTokens} new tokens each appended to {@code
   * cachedTokens} already in each prompt's KV cache ({@link Model#prefill(double, int, int,
   * io.ridgeline.core.Precisions, Routing)}: attention over the cached tokens is charged, the GEMMs
   * see only the new tokens).
   *
   * @throws IllegalArgumentException when batch or prompt length is not positive, or the cached
   *     length is negative
   */
  public StepResult prefill(int batch, int promptTokens, int cachedTokens) {
    checkArgument(batch > 0, "batch must be positive: %s", batch);
    checkArgument(promptTokens > 0, "prompt tokens must be positive: %s", promptTokens);
    checkArgument(cachedTokens >= 0, "cached tokens must be non-negative: %s", cachedTokens);
    return prefill((double) batch, promptTokens, cachedTokens, Math.min(pipelineParallel(), batch));
  }

  /**
   * Prefill of {@code batch} prompts of a workload: its {@link Workload#newTokens()} after its
   * {@link Workload#cachedAtPrefill()} cached tokens.
   */
  public StepResult prefill(int batch, Workload workload) {
    return prefill(batch, workload.newTokens(), workload.cachedAtPrefill());
  }

  /**
   * Prefill of a mean of {@code prompts} prompts (fractional: the prefill share of a chunked step)
   * of {@code promptTokens} new tokens after {@code cachedTokens} cached ones, in {@code micro}
   * micro-batches.
   */
  StepResult prefill(double prompts, int promptTokens, int cachedTokens, int micro) {
    return PoolOperations.prefill(this, prompts, promptTokens, cachedTokens, micro);
  }

  /**
   * Kernels of one forward pass of a replica ({@link Kernels#forward}): the model's layers and head
   * with this pool's tensor-parallel, stage and expert-parallel collectives.
   */
  public Kernels.Count kernels() {
    return Kernels.forward(model(), tensorParallel(), stageChips(), expertParallel());
  }

  // ---- memory ----

  /**
   * Memory per chip for {@code batch} sequences of {@code context} tokens: weights (each tensor
   * class at its precision; attention weights over tp·pp, the rest over tp·dp·pp), every layer's
   * cache or state (over dp·min(tp, its shards)·pp) and a workspace for the activations of the
   * largest step: a prefill chunk of {@code min(batch × context, 8192)} tokens (the batch's tokens
   * for a decode-only pool) through the widest layer, shared by the stages of a pipeline, plus fp32
   * logits for the batch. The KV cache and the workspace must fit in the main tier; the weights
   * take the rest of it and spill into the other tiers ({@link MemoryUse}).
   */
  public MemoryUse memory(int batch, int context) {
    return MemoryPlan.use(this, batch, context, MemoryPlan.Holding.ALL);
  }

  /**
   * The largest batch whose memory fits at {@code context} tokens per sequence.
   *
   * @throws IllegalStateException when not even one sequence fits, naming this pool and what one
   *     sequence needs against what a chip has ({@link #largestBatch} and {@link #fits} do not
   *     throw)
   * @throws IllegalArgumentException when the context is not positive
   */
  public int maxBatch(int context) {
    OptionalInt largest = largestBatch(context);
    if (largest.isEmpty()) {
      throw new IllegalStateException(
          this
              + " does not hold one sequence of "
              + context
              + " tokens: "
              + memory(1, context).needs()
              + " (give it more chips: a larger chips() or tensorParallel())");
    }
    return largest.getAsInt();
  }

  /**
   * The largest batch whose memory fits at {@code context} tokens per sequence; empty when not even
   * one sequence fits.
   *
   * @throws IllegalArgumentException when the context is not positive
   */
  public OptionalInt largestBatch(int context) {
    checkArgument(context > 0, "context must be positive: %s", context);
    int largest =
        BatchSearch.largest(
            b -> memory(b, context).fits(), MemoryPlan.maxBatchGuess(this, context));
    return largest == 0 ? OptionalInt.empty() : OptionalInt.of(largest);
  }

  /**
   * Whether one sequence of {@code context} tokens fits in memory (weights, its KV cache and the
   * workspace): whether {@link #maxBatch} has an answer.
   *
   * @throws IllegalArgumentException when the context is not positive
   */
  public boolean fits(int context) {
    checkArgument(context > 0, "context must be positive: %s", context);
    return memory(1, context).fits();
  }

  /** Checks the layout, degrees, precisions and tiers ({@link PoolChecks#check}). */
  @Value.Check
  void check() {
    PoolChecks.check(this);
  }

  /**
   * For example {@code llama-3.1-70b on 8× h100-sxm (tp 8, weights fp8, kv bf16, compute fp8
   * (W8A8); ideal)}: the layout (with {@code busiest expert rank} under {@link #expertImbalance()}
   * and any {@link #redundantExpertsPerRank() redundant experts}), the {@link #computePrecisions()
   * compute precisions} and, after a semicolon, the efficiency. The command line prints it as its
   * first line.
   */
  @Override
  public String toString() {
    return model().id()
        + " on "
        + chips()
        + "× "
        + chip().id()
        + " ("
        + layout()
        + (expertImbalance() && expertParallel() > 1 ? ", busiest expert rank" : "")
        + (redundantExpertsPerRank() > 0
            ? ", " + redundantExpertsPerRank() + " redundant experts per rank"
            : "")
        + ", "
        + computePrecisions()
        + (kvOffload() == KvOffload.NONE || !runsAttention()
            ? ""
            : ", kv offload " + kvOffload() + " to " + KvOffload.tier(chip()).get().name())
        + "; "
        + efficiency()
        + ")";
  }
}
