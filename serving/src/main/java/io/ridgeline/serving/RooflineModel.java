package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Flops;
import io.ridgeline.core.ImmutableComputeTarget;
import io.ridgeline.core.Operation;
import io.ridgeline.core.Phase;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Roofline;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Interconnect;
import io.ridgeline.models.Model;
import io.ridgeline.models.Routing;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * A model served on {@link #chips()} identical chips: {@link #tensorParallel()} chips hold one
 * replica of the model with its layers split by tensor parallelism, and {@code chips / tp} replicas
 * serve independent batches (data parallelism).
 *
 * <p>Everything is per replica: {@code batch} is the number of requests one replica decodes
 * together; per-chip figures are one chip's share of that replica's work.
 *
 * <p><b>Tensor parallelism</b> splits every weight matrix and the query heads over {@code tp}
 * chips; KV heads are split too, and replicated once {@code tp} exceeds their count (each chip then
 * holds one KV head). Each layer adds two all-reduces of the batch's hidden activations (after
 * attention and after the FFN), costed with the α-β model on the chip's scale-up link (or its
 * scale-out network when {@code tp} exceeds the scale-up domain): a tree's {@code 2·⌈log2 tp⌉}
 * latency hops and a ring's {@code 2·(tp−1)/tp × message} bytes per chip, the best terms of the two
 * algorithms NCCL chooses between.
 *
 * <pre>{@code
 * RooflineModel rm = RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.byId("h100-sxm"));
 * rm.decode(1, 1024).seconds();   // ≈ 4.5 ms
 * rm.maxBatch(2048);
 * }</pre>
 */
@Value.Immutable
@RidgelineStyle
public abstract class RooflineModel {
  /**
   * Tokens per prefill chunk assumed for the activation workspace: engines run chunked prefill with
   * a bounded token budget per step (vLLM's {@code max_num_batched_tokens} is 8,192 for
   * long-context serving).
   */
  public static final int PREFILL_CHUNK_TOKENS = 8192;

  /** The model. */
  public abstract Model model();

  /** The chip type. */
  public abstract Chip chip();

  /** Chips in the system (a multiple of the tensor-parallel degree). */
  @Value.Default
  public int chips() {
    return tensorParallel();
  }

  /** Chips per model replica, splitting each layer. */
  @Value.Default
  public int tensorParallel() {
    return 1;
  }

  /** Weight, KV-cache and activation precisions; the checkpoint's own by default. */
  @Value.Default
  public Precisions precisions() {
    return model().defaultPrecisions();
  }

  /** How tokens spread over MoE experts; uniform by default. */
  @Value.Default
  public Routing routing() {
    return Routing.uniform();
  }

  /** Achieved fractions of peak and bandwidth; {@link Efficiency#ideal()} by default. */
  @Value.Default
  public Efficiency efficiency() {
    return Efficiency.ideal();
  }

  /** A new builder. */
  public static ImmutableRooflineModel.Builder builder() {
    return ImmutableRooflineModel.builder();
  }

  /** {@code model} on one {@code chip}, the checkpoint's precisions, ideal efficiency. */
  public static RooflineModel of(Model model, Chip chip) {
    return builder().model(model).chip(chip).build();
  }

  /** {@code model} on {@code count} chips, all in one tensor-parallel group. */
  public static RooflineModel of(Model model, Chip chip, int count) {
    return builder().model(model).chip(chip).chips(count).tensorParallel(count).build();
  }

  /** Model replicas: chips / tensor parallel degree. */
  public int replicas() {
    return chips() / tensorParallel();
  }

  /** The roofline target of one chip, with the link its all-reduces cross and the efficiency. */
  @Value.Lazy
  public ComputeTarget target() {
    ComputeTarget base = chip().toComputeTarget();
    ImmutableComputeTarget.Builder b = ImmutableComputeTarget.builder().from(base);
    Optional<Interconnect> link = tensorParallelLink();
    if (link.isPresent()) {
      b.linkBandwidth(link.get().bandwidthPerDirection()).linkLatency(link.get().latency());
    }
    Efficiency e = efficiency();
    return b.computeEfficiency(e.compute())
        .memoryEfficiency(e.memory())
        .networkEfficiency(e.network())
        .build();
  }

  /** The interconnect a tensor-parallel group of this size crosses, if any. */
  public Optional<Interconnect> tensorParallelLink() {
    Optional<Interconnect> up = chip().scaleUp();
    if (up.isPresent() && tensorParallel() <= up.get().domainSize()) {
      return up;
    }
    return chip().scaleOut().or(() -> up);
  }

  /**
   * One decode step of {@code batch} sequences at {@code context} cached tokens each, on one chip:
   * the model's decode phases, plus {@code decode_communication} when {@code tp > 1}.
   *
   * @throws IllegalArgumentException when batch or context is not positive
   */
  public StepResult decode(int batch, int context) {
    return evaluate(
        model().decodeStep(batch, context, precisions()), batch, "decode_communication");
  }

  /**
   * Prefill of {@code batch} prompts of {@code promptTokens} tokens, on one chip (phase {@code
   * prefill}, its all-reduces included).
   *
   * @throws IllegalArgumentException when batch or prompt length is not positive
   */
  public StepResult prefill(int batch, int promptTokens) {
    Phase prefill = model().prefill(batch, promptTokens, precisions(), routing());
    StepResult r = evaluate(List.of(prefill), (double) batch * promptTokens, "prefill");
    if (r.phases().size() == 1) {
      return r;
    }
    // fold the all-reduces into the prefill phase itself
    List<io.ridgeline.core.OperationResult> ops = new ArrayList<>();
    for (PhaseResult p : r.phases()) {
      ops.addAll(p.operations());
    }
    return ImmutableStepResult.builder()
        .addPhases(
            io.ridgeline.core.ImmutablePhaseResult.builder()
                .name("prefill")
                .operations(ops)
                .build())
        .build();
  }

  private StepResult evaluate(List<Phase> phases, double tokens, String communicationPhase) {
    ComputeTarget t = target();
    ImmutableStepResult.Builder b = ImmutableStepResult.builder();
    for (Phase p : phases) {
      List<Operation> perChip = new ArrayList<>();
      for (Operation op : p.operations()) {
        perChip.add(perChip(op));
      }
      b.addPhases(Roofline.phase(p.name(), perChip, t));
    }
    if (tensorParallel() > 1) {
      b.addPhases(Roofline.phase(communicationPhase, List.of(allReduces(tokens)), t));
    }
    return b.build();
  }

  /** One chip's share of {@code op}: 1/tp of everything, KV traffic 1/min(tp, its KV shards). */
  private Operation perChip(Operation op) {
    int tp = tensorParallel();
    if (tp == 1) {
      return op;
    }
    double kvShare = 1.0 / Math.min(tp, op.kvShards());
    ImmutableMap.Builder<DataKind, Bytes> bytes = ImmutableMap.builder();
    for (Map.Entry<DataKind, Bytes> e : op.bytes().entrySet()) {
      boolean kv = e.getKey() == DataKind.KV_READ || e.getKey() == DataKind.KV_WRITE;
      bytes.put(e.getKey(), e.getValue().times(kv ? kvShare : 1.0 / tp));
    }
    return io.ridgeline.core.ImmutableOperation.copyOf(op)
        .withFlops(op.flops().dividedBy(tp))
        .withBytes(bytes.build());
  }

  /**
   * The all-reduces (one per attention, mixer or FFN sub-block) of {@code tokens} hidden vectors:
   * per chip, a ring sends 2·(tp−1)/tp of each message; a tree pays 2·⌈log2 tp⌉ latency hops; the
   * reduction adds one FLOP per received element.
   */
  private Operation allReduces(double tokens) {
    int tp = tensorParallel();
    double count = model().allReducesPerForward();
    Precision a = precisions().activations();
    double message = tokens * model().hiddenSize();
    double sentElements = count * message * 2.0 * (tp - 1) / tp;
    int hops = 2 * (32 - Integer.numberOfLeadingZeros(tp - 1));
    return Operation.builder()
        .name("tp_allreduce")
        .precision(a)
        .flops(Flops.of(sentElements / 2))
        .networkBytes(a.bytes(sentElements))
        .networkSteps((int) count * hops)
        .build();
  }

  /**
   * Memory per chip for {@code batch} sequences of {@code context} tokens: weights / tp (each
   * tensor class at its precision), every layer's cache or state split over min(tp, its shards),
   * and a workspace for the activations of the largest step: a prefill chunk of {@code min(batch ×
   * context, 8192)} tokens through the widest layer (residual stream plus mixer and FFN widths,
   * split by tp) plus fp32 logits for the batch.
   */
  public MemoryUse memory(int batch, int context) {
    checkArgument(batch > 0, "batch must be positive: %s", batch);
    checkArgument(context > 0, "context must be positive: %s", context);
    Model m = model();
    int tp = tensorParallel();
    Bytes weights = m.weightBytes(precisions()).dividedBy(tp);
    Bytes kv = m.cacheBytesPerSequence(context, precisions().kvCache(), tp).times(batch);
    double chunk = Math.min((double) batch * context, PREFILL_CHUNK_TOKENS);
    Bytes workspace =
        precisions()
            .activations()
            .bytes(chunk * m.activationElementsPerToken(tp))
            .plus(Precision.FP32.bytes((double) batch * m.vocabSize() / tp));
    return ImmutableMemoryUse.builder()
        .weights(weights)
        .kvCache(kv)
        .workspace(workspace)
        .capacity(chip().mainMemory().capacity())
        .build();
  }

  /**
   * The largest batch whose memory fits at {@code context} tokens per sequence; 0 when not even one
   * sequence fits.
   */
  public int maxBatch(int context) {
    if (!memory(1, context).fits()) {
      return 0;
    }
    int lo = 1;
    int hi = 2;
    while (hi < (1 << 24) && memory(hi, context).fits()) {
      lo = hi;
      hi *= 2;
    }
    while (hi - lo > 1) {
      int mid = (lo + hi) >>> 1;
      if (memory(mid, context).fits()) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Prefill and decode phase names this model reports, in order. */
  public List<String> phaseNames() {
    ImmutableList.Builder<String> b = ImmutableList.builder();
    b.add("prefill");
    model().decodeStep(1, 1, precisions(), routing()).forEach(p -> b.add(p.name()));
    if (tensorParallel() > 1) {
      b.add("decode_communication");
    }
    return b.build();
  }

  @Value.Check
  void check() {
    checkArgument(
        tensorParallel() > 0, "tensor parallel degree must be positive: %s", tensorParallel());
    checkArgument(chips() > 0, "chip count must be positive: %s", chips());
    checkArgument(
        chips() % tensorParallel() == 0,
        "chip count (%s) must be a multiple of the tensor parallel degree (%s)",
        chips(),
        tensorParallel());
    model()
        .tensorParallelProblem(tensorParallel())
        .ifPresent(
            problem -> {
              throw new IllegalArgumentException(problem);
            });
    if (tensorParallel() > 1) {
      checkArgument(
          chip().scaleUp().isPresent() || chip().scaleOut().isPresent(),
          "chip %s has no interconnect, so tensor parallelism over %s chips is impossible",
          chip().id(),
          tensorParallel());
    }
    // the chip must be able to run the precisions at all
    target().effectivePrecision(precisions().matmul());
    target().effectivePrecision(precisions().attention());
  }

  @Override
  public String toString() {
    return model().id()
        + " on "
        + chips()
        + "× "
        + chip().id()
        + " (tp "
        + tensorParallel()
        + ", "
        + precisions()
        + ", "
        + efficiency()
        + ")";
  }
}
