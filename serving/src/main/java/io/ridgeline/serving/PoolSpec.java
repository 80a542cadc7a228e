package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.Precisions;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import io.ridgeline.models.Routing;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * What a pool of a {@link Deployment} is to be: a model on a chip type, with an optional chip count
 * and tensor-parallel degree, pipeline, expert and attention-data parallelism, precisions, routing,
 * efficiency and whether it runs prefill. {@link #build} lays it out into a {@link RooflineModel}
 * with the one layout policy of Ridgeline (that of {@code ridgeline frontier}):
 *
 * <ul>
 *   <li>an explicit tensor-parallel degree is used as given;
 *   <li>a chip count without one gives {@code tp = count / (pp × attention-dp)} (at least 1);
 *   <li>a count whose tp the model's heads do not divide (with pp and attention-dp 1) is laid out
 *       as tensor × pipeline parallelism ({@link Sizing#layoutFor});
 *   <li>with neither count nor tp, pp 1, and one chip too small for the batch, the pool gets the
 *       fewest chips that hold it ({@link Sizing#fewestChips}).
 * </ul>
 *
 * <pre>{@code
 * PoolSpec.builder().model(Models.byId("llama-3.1-70b")).chip(Chips.byId("h100-sxm")).count(8)
 *     .build().build(1, 2048);   // tp 8 on 8 chips
 * }</pre>
 */
@Value.Immutable
@RidgelineStyle
public abstract class PoolSpec {
  PoolSpec() {} // subclassed only by the generated implementation

  /** The model served. */
  public abstract Model model();

  /** The chip type. */
  public abstract Chip chip();

  /** Chips in the pool; empty to derive them from tp or size the pool to the model. */
  public abstract Optional<Integer> count();

  /** Tensor-parallel degree; empty to derive it from the count. */
  public abstract Optional<Integer> tensorParallel();

  /** Pipeline stages per replica. */
  @Value.Default
  public int pipelineParallel() {
    return 1;
  }

  /** Chips of a stage that MoE experts spread over. */
  @Value.Default
  public int expertParallel() {
    return 1;
  }

  /** Attention data-parallel groups per stage. */
  @Value.Default
  public int attentionDataParallel() {
    return 1;
  }

  /** Weight, KV-cache and activation precisions; by default the checkpoint's. */
  @Value.Default
  public Precisions precisions() {
    return model().defaultPrecisions();
  }

  /** MoE routing; uniform by default. */
  @Value.Default
  public Routing routing() {
    return Routing.uniform();
  }

  /**
   * Whether the busiest expert-parallel rank sets the routed experts' time; false by default
   * ({@link RooflineModel#expertImbalance()}).
   */
  @Value.Default
  public boolean expertImbalance() {
    return false;
  }

  /**
   * Redundant expert slots per expert-parallel rank (EPLB); 0 by default ({@link
   * RooflineModel#redundantExpertsPerRank()}).
   */
  @Value.Default
  public int redundantExpertsPerRank() {
    return 0;
  }

  /**
   * Efficiency, applied {@linkplain Efficiency#forChip for the chip}; {@link Efficiency#standard()}
   * (the calibrated default profile) by default.
   */
  @Value.Default
  public Efficiency efficiency() {
    return Efficiency.standard();
  }

  /**
   * Which KV cache lives in the chip's slower offload tier ({@link KvOffload}); {@link
   * KvOffload#NONE} by default.
   */
  @Value.Default
  public KvOffload kvOffload() {
    return KvOffload.NONE;
  }

  /** Whether the pool runs prefill (false: a pd decode pool, without a prefill chunk). */
  @Value.Default
  public boolean runsPrefill() {
    return true;
  }

  /**
   * Whether the pool runs the attention side (false: an AFD FFN pool, laid out without regard to
   * the attention heads; see {@link RooflineModel#runsAttention()}).
   */
  @Value.Default
  public boolean runsAttention() {
    return true;
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link PoolSpec}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutablePoolSpec.Builder {
    Builder() {}
  }

  /**
   * The specification of an existing pool: its chips, parallelism, precisions, routing, efficiency
   * and prefill flag, all explicit (so {@link #build} gives it back).
   */
  public static PoolSpec of(RooflineModel pool) {
    return builder()
        .model(pool.model())
        .chip(pool.chip())
        .count(pool.chips())
        .tensorParallel(pool.tensorParallel())
        .pipelineParallel(pool.pipelineParallel())
        .expertParallel(pool.expertParallel())
        .attentionDataParallel(pool.attentionDataParallel())
        .precisions(pool.precisions())
        .routing(pool.routing())
        .expertImbalance(pool.expertImbalance())
        .redundantExpertsPerRank(pool.redundantExpertsPerRank())
        .efficiency(pool.efficiency())
        .kvOffload(pool.kvOffload())
        .runsPrefill(pool.runsPrefill())
        .runsAttention(pool.runsAttention())
        .build();
  }

  /**
   * The pool laid out by the policy above, sized (when it is sized) to hold {@code batch} sequences
   * of {@code context} tokens. The prefill flag is applied after sizing.
   *
   * @throws IllegalArgumentException when the count has no tensor × pipeline layout, when no layout
   *     of the chip holds the model, or when the pool is invalid ({@link RooflineModel})
   */
  public RooflineModel build(int batch, int context) {
    RooflineModel rm = layout(batch, context);
    return runsPrefill() ? rm : RooflineModel.builder().from(rm).runsPrefill(false).build();
  }

  private RooflineModel layout(int batch, int context) {
    int pp = pipelineParallel();
    int dp = attentionDataParallel();
    int tp =
        tensorParallel()
            .orElse(count().map(c -> ParallelLayout.defaultTensorParallel(c, pp, dp)).orElse(1));
    RooflineModel.Builder b =
        RooflineModel.builder()
            .model(model())
            .chip(chip())
            .tensorParallel(tp)
            .pipelineParallel(pp)
            .expertParallel(expertParallel())
            .attentionDataParallel(dp)
            .precisions(precisions())
            .routing(routing())
            .expertImbalance(expertImbalance())
            .redundantExpertsPerRank(redundantExpertsPerRank())
            .efficiency(efficiency().forChip(chip()))
            .kvOffload(kvOffload())
            .runsAttention(runsAttention());
    if (count().isPresent()) {
      int chips = count().get();
      b.chips(chips);
      if (runsAttention()
          && tensorParallel().isEmpty()
          && pp == 1
          && dp == 1
          && model().tensorParallelProblem(tp).isPresent()) {
        // a chip count the heads do not divide: lay it out as tensor × pipeline parallelism
        return Sizing.layoutFor(b.tensorParallel(1).chips(1).build(), chips, context)
            .orElseThrow(() -> noLayout(chips));
      }
    }
    RooflineModel rm = b.build();
    if (count().isEmpty()
        && tensorParallel().isEmpty()
        && pp == 1
        && !rm.memory(batch, context).fits()) {
      return Sizing.fewestChips(rm, batch, context).orElseThrow(this::doesNotFit);
    }
    return rm;
  }

  private IllegalArgumentException noLayout(int chips) {
    return new IllegalArgumentException(
        "--count "
            + chips
            + " has no tensor × pipeline layout for "
            + model().id()
            + "; give --tp and --pp");
  }

  private IllegalArgumentException doesNotFit() {
    Chip c = chip();
    return new IllegalArgumentException(
        model().id()
            + " does not fit on any layout of "
            + c.id()
            + " chips up to one layer per pipeline stage"
            + (c.scaleUp().isEmpty() && c.scaleOut().isEmpty()
                ? " (the chip has no interconnect in the catalog, so it cannot be split over chips;"
                    + " give it a scale_up or scale_out link in a chip JSON)"
                : ""));
  }

  @Value.Check
  void check() {
    checkArgument(pipelineParallel() > 0, "--pp must be positive: %s", pipelineParallel());
    checkArgument(expertParallel() > 0, "--ep must be positive: %s", expertParallel());
    checkArgument(
        redundantExpertsPerRank() >= 0,
        "--redundant-experts must be >= 0: %s",
        redundantExpertsPerRank());
    checkArgument(
        attentionDataParallel() > 0,
        "--attention-dp must be positive: %s",
        attentionDataParallel());
    count().ifPresent(c -> checkArgument(c > 0, "--count must be positive: %s", c));
    tensorParallel().ifPresent(t -> checkArgument(t > 0, "--tp must be positive: %s", t));
  }

  /**
   * What the pool will be, before it is laid out: for example {@code "llama-3.1-70b on 8× h100-sxm
   * (tp 8, weights bf16, kv bf16; compute 52%, …)"}; an unset count or degree reads {@code
   * "sized"}.
   */
  @Override
  public String toString() {
    StringBuilder b =
        new StringBuilder(model().id())
            .append(" on ")
            .append(count().map(String::valueOf).orElse("sized"))
            .append("× ")
            .append(chip().id())
            .append(" (tp ")
            .append(tensorParallel().map(String::valueOf).orElse("sized"));
    if (pipelineParallel() > 1) {
      b.append(", pp ").append(pipelineParallel());
    }
    if (expertParallel() > 1) {
      b.append(", ep ").append(expertParallel());
    }
    if (attentionDataParallel() > 1) {
      b.append(", attention dp ").append(attentionDataParallel());
    }
    if (expertImbalance() && expertParallel() > 1) {
      b.append(", busiest expert rank");
    }
    if (redundantExpertsPerRank() > 0) {
      b.append(", ").append(redundantExpertsPerRank()).append(" redundant experts per rank");
    }
    b.append(", ").append(precisions());
    if (kvOffload() != KvOffload.NONE) {
      b.append(", kv offload ").append(kvOffload());
    }
    if (!runsPrefill()) {
      b.append(", decode only");
    }
    return b.append("; ").append(efficiency()).append(')').toString();
  }
}
