package io.ridgeline.serving;

import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import java.util.Locale;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * One configuration that meets a plan's objectives: a deployment (chip, strategy, layout), the
 * batch each replica runs, and how many replicas serve the requested rate.
 *
 * <p>Replicas are {@code ⌈rate × OSL / (tokens/s per chip × chips per replica)⌉}, at least one;
 * total chips are {@code ⌈replicas × chips per replica⌉} (for pd the prefill share of a replica is
 * fractional, so only the total is rounded up to whole chips).
 */
@Value.Immutable
@RidgelineStyle
public abstract class PlanConfiguration {
  /**
   * The deployment: strategy and pools (for pd both pools have the layout of {@link
   * #tensorParallel()}, {@link #pipelineParallel()}).
   */
  public abstract Deployment deployment();

  /** The frontier point of one replica at {@link #batch()}. */
  public abstract FrontierPoint point();

  /** Replicas needed to serve the requested rate; at least one. */
  public abstract long replicas();

  /** Chips of the whole fleet: replicas × chips per replica, rounded up. */
  public abstract long totalChips();

  /** The fleet's price per hour, total chips × price per chip-hour, where the price is known. */
  public abstract Optional<DollarsPerHour> dollarsPerHour();

  /**
   * Dollars per million output tokens at the requested rate: the fleet's price per hour over the
   * tokens it serves per hour (idle headroom from rounding replicas up included), where the price
   * is known.
   */
  public abstract Optional<Double> dollarsPerMillionTokens();

  /** A new builder. */
  public static ImmutablePlanConfiguration.Builder builder() {
    return ImmutablePlanConfiguration.builder();
  }

  /** The chip type. */
  public Chip chip() {
    return deployment().decodePool().chip();
  }

  /** The serving strategy. */
  public Deployment.Strategy strategy() {
    return deployment().strategy();
  }

  /** Tensor-parallel degree of a replica (of each pool for pd). */
  public int tensorParallel() {
    return deployment().decodePool().tensorParallel();
  }

  /** Pipeline stages of a replica (of each pool for pd). */
  public int pipelineParallel() {
    return deployment().decodePool().pipelineParallel();
  }

  /** Requests one (decode) replica runs together. */
  public int batch() {
    return point().batch();
  }

  /** Chips per replica-equivalent, both pools counted for pd (fractional there). */
  public double chipsPerReplica() {
    return point().chipsTotal();
  }

  /** Mean time to first token. */
  public Seconds ttft() {
    return point().ttft();
  }

  /** Mean time per output token. */
  public Seconds tpot() {
    return point().tpot();
  }

  /** Output tokens per second per chip of one replica at {@link #batch()}. */
  public double tokensPerSecondPerChip() {
    return point().tokensPerSecondPerChip();
  }

  /**
   * Output tokens per second the fleet can serve: replicas × chips per replica × tokens/s per chip;
   * at least the requested rate × OSL.
   */
  public double capacityTokensPerSecond() {
    return replicas() * chipsPerReplica() * tokensPerSecondPerChip();
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%s %s tp %d pp %d batch %d: %d × %s chips = %d chips, TTFT %s, TPOT %s, %.1f tok/s/chip, %s, %s",
        chip().id(),
        strategy().id(),
        tensorParallel(),
        pipelineParallel(),
        batch(),
        replicas(),
        Planner.number(chipsPerReplica()),
        totalChips(),
        ttft(),
        tpot(),
        tokensPerSecondPerChip(),
        dollarsPerHour().map(DollarsPerHour::toString).orElse("price unknown"),
        dollarsPerMillionTokens().map(d -> Planner.number(d) + " $/Mtok").orElse("- $/Mtok"));
  }
}
