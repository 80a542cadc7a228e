package io.ridgeline.serving.plan;

import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.hardware.Chip;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.immutables.value.Value;

/**
 * A candidate that misses a plan's objectives, with how far: the closest miss of each chip tells
 * the user why the chip fails and by how much.
 *
 * <p>The {@link #ratio() violation ratio} is the larger of TTFT / TTFT objective and TPOT / TPOT
 * objective for a candidate that fits, or the bytes one chip needs over its capacity for one that
 * does not; it is above 1 and 1 would be a pass.
 */
@Value.Immutable
@RidgelineStyle
public abstract class PlanMiss {
  PlanMiss() {} // subclassed only by the generated implementation

  /** The chip type of the (decode) pool. */
  public abstract Chip chip();

  /**
   * The chips of every pool by name, as {@link PlanConfiguration#chipIds()}: "h100-sxm" or "b200 +
   * h100-sxm" for a candidate of two chip types; {@link #chip()}'s id by default.
   */
  @Value.Default
  public String chipIds() {
    return chip().id();
  }

  /** The strategy. */
  public abstract Deployment.Strategy strategy();

  /** Tensor-parallel degree of a replica. */
  public abstract int tensorParallel();

  /** Pipeline stages of a replica. */
  public abstract int pipelineParallel();

  /** The evaluated point; absent when not even one request fits the layout. */
  public abstract Optional<FrontierPoint> point();

  /** The objectives missed: memory, or one or both of TTFT and TPOT. */
  public abstract Set<PlanFailure> reasons();

  /** The violation ratio (dimensionless, above 1); see {@link PlanMiss}. */
  public abstract double ratio();

  /** What was missed, with units: {@code "TPOT 61.2 ms > 50 ms"}. */
  public abstract String detail();

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link PlanMiss}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutablePlanMiss.Builder {
    Builder() {}
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%s %s tp %d pp %d%s: %s (%s× the limit)",
        chipIds(),
        strategy().id(),
        tensorParallel(),
        pipelineParallel(),
        point().map(p -> " batch " + p.batch()).orElse(""),
        detail(),
        Planner.number(ratio(), 3));
  }
}
