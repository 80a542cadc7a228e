package io.ridgeline.serving.plan;

import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.Speculation;
import java.util.Locale;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * One configuration that meets a plan's objectives: a deployment (chips, strategy, layout,
 * speculation), the batch each replica runs, and the fleet that serves the requested rate under the
 * queueing model of {@link PlanFleet} (decode replicas, prefill replicas, p50 and p99 TTFT).
 */
@Value.Immutable
@RidgelineStyle
public abstract class PlanConfiguration {
  PlanConfiguration() {} // subclassed only by the generated implementation

  /**
   * The deployment: strategy and pools (for pd both pools have the layout of {@link
   * #tensorParallel()}, {@link #pipelineParallel()}).
   */
  public abstract Deployment deployment();

  /** The frontier point of one replica at {@link #batch()}. */
  public abstract FrontierPoint point();

  /**
   * Requests per second the fleet serves within the objectives: the request's rate, or under a chip
   * budget the highest rate the fleet sustains ({@link PlanFleet#onChips}).
   */
  public abstract double requestsPerSecond();

  /** Output tokens per second of the whole fleet: {@link #requestsPerSecond()} × OSL. */
  public abstract double outputTokensPerSecond();

  /** Replicas needed to serve the requested rate; at least one. */
  public abstract long replicas();

  /**
   * Whole prefill replicas of the fleet's prefill pool (pd, afd), sized to the prefill queue
   * ({@link PlanFleet}); 0 for single-pool deployments.
   */
  @Value.Default
  public long prefillReplicas() {
    return 0;
  }

  /**
   * Chips of the whole fleet: replicas × decode chips per replica + prefill replicas × their chips,
   * rounded up.
   */
  public abstract long totalChips();

  /** The p50 time to first token under the request's load (queueing model of {@link PlanFleet}). */
  public abstract Seconds ttftP50();

  /** The p99 time to first token under the request's load. */
  public abstract Seconds ttftP99();

  /** The fleet's price per hour, total chips × price per chip-hour, where the price is known. */
  public abstract Optional<DollarsPerHour> dollarsPerHour();

  /**
   * Dollars per million output tokens at {@link #requestsPerSecond()}: the fleet's price per hour
   * over the tokens it serves per hour (idle headroom from rounding replicas up included), where
   * the price is known.
   */
  public abstract Optional<Double> dollarsPerMillionTokens();

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link PlanConfiguration}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutablePlanConfiguration.Builder {
    Builder() {}
  }

  /** The chip type. */
  public Chip chip() {
    return deployment().decodePool().chip();
  }

  /** The serving strategy. */
  public Deployment.Strategy strategy() {
    return deployment().strategy();
  }

  /** Experts' parallel degree of a (decode) replica's stage. */
  public int expertParallel() {
    return deployment().decodePool().expertParallel();
  }

  /** Attention data-parallel groups of a (decode) replica's stage. */
  public int attentionDataParallel() {
    return deployment().decodePool().attentionDataParallel();
  }

  /** Speculative decoding, if the configuration uses it. */
  public Optional<Speculation> speculation() {
    return deployment().speculation();
  }

  /**
   * The chips of each pool by name ({@link Deployment#pools()}): "h100-sxm" or "h100-sxm + b200".
   */
  public String chipIds() {
    return chipIds(deployment());
  }

  /** The chips of {@code d}'s pools, distinct, joined by " + ". */
  static String chipIds(Deployment d) {
    return d.pools().values().stream()
        .map(p -> p.chip().id())
        .distinct()
        .collect(java.util.stream.Collectors.joining(" + "));
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

  /** Time to first token of the point, before queueing. */
  public Seconds ttft() {
    return point().ttft();
  }

  /** Time per output token at the full batch (p50 and p99 alike; {@link PlanFleet}). */
  public Seconds tpot() {
    return point().tpot();
  }

  /**
   * Output tokens per second per chip of one replica at {@link #batch()}, at full load (the
   * frontier point's; the fleet's, with its rounding and prefill servers, is {@link
   * #fleetTokensPerSecondPerChip()}).
   */
  public double tokensPerSecondPerChip() {
    return point().tokensPerSecondPerChip();
  }

  /**
   * Output tokens per second per chip of the whole fleet: {@link #outputTokensPerSecond()} / {@link
   * #totalChips()}; what a chip budget ranks by.
   */
  public double fleetTokensPerSecondPerChip() {
    return outputTokensPerSecond() / totalChips();
  }

  /** Output tokens per second each request sees while decoding: 1 / TPOT. */
  public double tokensPerSecondPerUser() {
    return point().tokensPerSecondPerUser();
  }

  /** Weight, KV-cache and activation precisions of the (decode) pool. */
  public Precisions precisions() {
    return deployment().decodePool().precisions();
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
        "%s %s tp %d pp %d ep %d dp %d%s batch %d (weights %s, kv %s): %d replicas%s = %d chips in"
            + " total, %s requests/s, TTFT p50 %s, p99 %s, TPOT %s, %.1f tok/s/chip of the"
            + " fleet, %s for the fleet, %s",
        chipIds(),
        strategy().id(),
        tensorParallel(),
        pipelineParallel(),
        expertParallel(),
        attentionDataParallel(),
        speculation().map(s -> " spec " + s).orElse(""),
        batch(),
        precisions().weights(),
        precisions().kvCache(),
        replicas(),
        prefillReplicas() > 0 ? " + " + prefillReplicas() + " prefill replicas" : "",
        totalChips(),
        Planner.number(requestsPerSecond()),
        ttftP50(),
        ttftP99(),
        tpot(),
        fleetTokensPerSecondPerChip(),
        dollarsPerHour().map(DollarsPerHour::toString).orElse("price unknown"),
        dollarsPerMillionTokens().map(d -> Planner.number(d) + " $/Mtok").orElse("- $/Mtok"));
  }
}
