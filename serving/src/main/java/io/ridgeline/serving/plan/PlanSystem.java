package io.ridgeline.serving.plan;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.hardware.Chip;
import io.ridgeline.serving.Deployment;
import java.util.EnumSet;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One system a {@link Planner plan} evaluates instead of its own enumeration ({@link
 * PlanRequest#systems()}): a chip, the chips of one replica, and whichever of the parallel degrees
 * and strategies the user fixed. A degree left empty is searched as the planner searches it, within
 * this count: the planner's layouts of {@code count} chips that agree with the fixed degrees, and
 * the layout of {@code count} chips with the fixed degrees and the pool defaults for the others
 * ({@link io.ridgeline.serving.PoolSpec}). Empty strategies mean the request's.
 *
 * <pre>{@code
 * PlanSystem h100 = PlanSystem.of(Chips.H100_SXM, 8).withTensorParallel(8);
 * PlanSystem b200 = PlanSystem.of(Chips.B200, 4);   // tp, ep, attention-dp searched on 4 chips
 * }</pre>
 *
 * @param chip the chip of every pool of the system
 * @param count chips per replica (of its decode, or attention, pool); positive
 * @param tensorParallel the tensor-parallel degree, if fixed; positive
 * @param pipelineParallel the pipeline stages, if fixed; positive
 * @param expertParallel the expert-parallel degree, if fixed; positive
 * @param attentionDataParallel the attention data-parallel groups, if fixed; positive
 * @param strategies the strategies to evaluate on this system; empty for the request's
 */
public record PlanSystem(
    Chip chip,
    int count,
    OptionalInt tensorParallel,
    OptionalInt pipelineParallel,
    OptionalInt expertParallel,
    OptionalInt attentionDataParallel,
    Set<Deployment.Strategy> strategies) {

  /**
   * Validates the fields.
   *
   * @throws IllegalArgumentException naming the field and the value when the count or a fixed
   *     degree is not positive, or when the fixed degrees multiply to more chips than the count
   */
  public PlanSystem {
    Objects.requireNonNull(chip, "chip");
    Objects.requireNonNull(tensorParallel, "tensorParallel");
    Objects.requireNonNull(pipelineParallel, "pipelineParallel");
    Objects.requireNonNull(expertParallel, "expertParallel");
    Objects.requireNonNull(attentionDataParallel, "attentionDataParallel");
    Objects.requireNonNull(strategies, "strategies");
    strategies = strategies.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(strategies));
    checkArgument(count > 0, "system %s: count must be positive: %s", chip.id(), count);
    positive(chip, "tp", tensorParallel);
    positive(chip, "pp", pipelineParallel);
    positive(chip, "ep", expertParallel);
    positive(chip, "attention-dp", attentionDataParallel);
    // the chips the fixed degrees occupy: tp × attention-dp per stage, times the stages
    long occupied =
        (long) tensorParallel.orElse(1)
            * attentionDataParallel.orElse(1)
            * pipelineParallel.orElse(1);
    checkArgument(
        occupied <= count,
        "system %s x%s: tp × attention-dp × pp must not exceed the count: %s",
        chip.id(),
        count,
        occupied);
  }

  private static void positive(Chip chip, String field, OptionalInt value) {
    value.ifPresent(
        v -> checkArgument(v > 0, "system %s: %s must be positive: %s", chip.id(), field, v));
  }

  /** {@code count} chips of {@code chip}, every degree and strategy searched. */
  public static PlanSystem of(Chip chip, int count) {
    return new PlanSystem(
        chip,
        count,
        OptionalInt.empty(),
        OptionalInt.empty(),
        OptionalInt.empty(),
        OptionalInt.empty(),
        Set.of());
  }

  /** This system with the tensor-parallel degree fixed. */
  public PlanSystem withTensorParallel(int tp) {
    return new PlanSystem(
        chip,
        count,
        OptionalInt.of(tp),
        pipelineParallel,
        expertParallel,
        attentionDataParallel,
        strategies);
  }

  /** This system with the pipeline stages fixed. */
  public PlanSystem withPipelineParallel(int pp) {
    return new PlanSystem(
        chip,
        count,
        tensorParallel,
        OptionalInt.of(pp),
        expertParallel,
        attentionDataParallel,
        strategies);
  }

  /** This system with the expert-parallel degree fixed. */
  public PlanSystem withExpertParallel(int ep) {
    return new PlanSystem(
        chip,
        count,
        tensorParallel,
        pipelineParallel,
        OptionalInt.of(ep),
        attentionDataParallel,
        strategies);
  }

  /** This system with the attention data-parallel groups fixed. */
  public PlanSystem withAttentionDataParallel(int dp) {
    return new PlanSystem(
        chip,
        count,
        tensorParallel,
        pipelineParallel,
        expertParallel,
        OptionalInt.of(dp),
        strategies);
  }

  /** This system evaluated only under {@code only} (empty: the request's strategies). */
  public PlanSystem withStrategies(Set<Deployment.Strategy> only) {
    return new PlanSystem(
        chip, count, tensorParallel, pipelineParallel, expertParallel, attentionDataParallel, only);
  }

  /**
   * Whether a laid-out pool of {@code chips} chips with these degrees is this system: the count
   * matches and every fixed degree equals the pool's.
   */
  boolean matches(int chips, int tp, int pp, int ep, int dp) {
    return chips == count
        && tensorParallel.orElse(tp) == tp
        && pipelineParallel.orElse(pp) == pp
        && expertParallel.orElse(ep) == ep
        && attentionDataParallel.orElse(dp) == dp;
  }

  /**
   * The system as {@code --system} spells it: {@code h100-sxm:8:tp=8}, {@code b200:4:strategy=pd}.
   */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(chip.id()).append(':').append(count);
    tensorParallel.ifPresent(v -> b.append(":tp=").append(v));
    pipelineParallel.ifPresent(v -> b.append(":pp=").append(v));
    expertParallel.ifPresent(v -> b.append(":ep=").append(v));
    attentionDataParallel.ifPresent(v -> b.append(":attention-dp=").append(v));
    if (!strategies.isEmpty()) {
      b.append(":strategy=")
          .append(
              EnumSet.copyOf(strategies).stream()
                  .map(Deployment.Strategy::id)
                  .collect(Collectors.joining(",")));
    }
    return b.toString();
  }
}
