package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.immutables.value.Value;

/**
 * What {@link Planner#plan} searches for: a model, a workload (prompt and output lengths, request
 * rate), service-level objectives on mean TTFT and mean TPOT, and the chips, strategies and ranking
 * to search with.
 *
 * <pre>{@code
 * PlanRequest r = PlanRequest.builder()
 *     .model(Models.byId("llama-3.1-70b"))
 *     .addChips(Chips.H100_SXM, Chips.B200, Chips.MI300X)
 *     .inputTokens(1024).outputTokens(256)
 *     .requestsPerSecond(10)
 *     .ttftSlo(Seconds.ofMillis(500)).tpotSlo(Seconds.ofMillis(50))
 *     .build();
 * }</pre>
 *
 * <p>Validated at construction: chips not empty, token counts, rate and objectives positive, rate
 * finite, strategies among static, colocated and pd, {@code top} positive; violations throw {@link
 * IllegalArgumentException} naming the field and the value. A builder missing a required attribute
 * throws {@link IllegalStateException}.
 */
@Value.Immutable
@RidgelineStyle
public abstract class PlanRequest {
  /** How configurations that meet the objectives are ranked. */
  public enum Objective {
    /** Fewest chips in total, then lowest price per hour. */
    CHIPS,
    /** Lowest price per hour (configurations whose price is unknown last), then fewest chips. */
    COST;

    /** Lower-case id: {@code chips} or {@code cost}. */
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The objective with this id, ignoring case.
     *
     * @throws IllegalArgumentException listing the ids when there is none
     */
    public static Objective of(String id) {
      for (Objective o : values()) {
        if (o.id().equalsIgnoreCase(id == null ? "" : id.trim())) {
          return o;
        }
      }
      throw new IllegalArgumentException("unknown objective '" + id + "'; known: chips, cost");
    }
  }

  /** The model served. */
  public abstract Model model();

  /** Chip types to search, each on its own (a configuration uses one chip type); not empty. */
  public abstract List<Chip> chips();

  /** Prompt tokens per request (ISL); positive. */
  public abstract int inputTokens();

  /** Output tokens per request (OSL); positive. */
  public abstract int outputTokens();

  /**
   * Tokens of history already in each request's KV cache when its prompt arrives ({@link
   * Workload#cachedTokens()}); 0 by default.
   */
  @Value.Default
  public int cachedTokens() {
    return 0;
  }

  /**
   * Fraction of each prompt's tokens served from a prefix cache ({@link Workload#prefixHitRate()});
   * 0 by default.
   */
  @Value.Default
  public double prefixHitRate() {
    return 0;
  }

  /** One request: input and output tokens, history and prefix hits. */
  public Workload workload() {
    return new Workload(inputTokens(), outputTokens(), cachedTokens(), prefixHitRate());
  }

  /** Requests per second the fleet must serve; positive and finite. */
  public abstract double requestsPerSecond();

  /** The objective on mean time to first token; positive. */
  public abstract Seconds ttftSlo();

  /** The objective on mean time per output token; positive. */
  public abstract Seconds tpotSlo();

  /**
   * Strategies to search; colocated and pd by default. Static may be added; afd is not searched.
   */
  @Value.Default
  public Set<Deployment.Strategy> strategies() {
    return EnumSet.of(Deployment.Strategy.COLOCATED, Deployment.Strategy.PD);
  }

  /** The ranking; {@link Objective#CHIPS} by default. */
  @Value.Default
  public Objective objective() {
    return Objective.CHIPS;
  }

  /** How many configurations to report, best first; 5 by default. */
  @Value.Default
  public int top() {
    return 5;
  }

  /**
   * A price per chip-hour for every chip, overriding the catalog's ({@link Chip#pricePerHour()}).
   */
  public abstract Optional<DollarsPerHour> price();

  /** Weight, KV-cache and activation precisions; the checkpoint's own when absent. */
  public abstract Optional<Precisions> precisions();

  /**
   * The efficiency of every pool searched, applied per chip ({@link Efficiency#forChip}); {@link
   * Efficiency#standard()} (the calibrated default profile, as {@code ridgeline plan}) by default,
   * {@link Efficiency#ideal()} for the roofline bound.
   */
  @Value.Default
  public Efficiency efficiency() {
    return Efficiency.standard();
  }

  /** A new builder. */
  public static ImmutablePlanRequest.Builder builder() {
    return ImmutablePlanRequest.builder();
  }

  /** Output tokens per second the fleet must produce: requests per second × output tokens. */
  public double outputTokensPerSecond() {
    return requestsPerSecond() * outputTokens();
  }

  @Value.Check
  void check() {
    checkArgument(!chips().isEmpty(), "chips must not be empty: name at least one chip to search");
    checkArgument(inputTokens() > 0, "input tokens (isl) must be positive: %s", inputTokens());
    checkArgument(outputTokens() > 0, "output tokens (osl) must be positive: %s", outputTokens());
    workload(); // validates history and prefix hits
    checkArgument(
        requestsPerSecond() > 0 && Double.isFinite(requestsPerSecond()),
        "request rate must be positive and finite: %s requests/s",
        requestsPerSecond());
    checkArgument(ttftSlo().seconds() > 0, "TTFT objective must be positive: %s", ttftSlo());
    checkArgument(tpotSlo().seconds() > 0, "TPOT objective must be positive: %s", tpotSlo());
    checkArgument(
        !strategies().isEmpty(), "strategies must not be empty: give static, colocated or pd");
    checkArgument(
        !strategies().contains(Deployment.Strategy.AFD),
        "strategy afd is not searched by the planner: use static, colocated or pd");
    checkArgument(top() > 0, "top must be positive: %s", top());
  }

  @Override
  public String toString() {
    return String.format(
            Locale.ROOT,
            "%s, ISL %d, OSL %d, %s requests/s (%s output tok/s); TTFT ≤ %s, TPOT ≤ %s; chips %s;"
                + " strategies %s; objective %s, top %d",
            model().id(),
            inputTokens(),
            outputTokens(),
            Planner.number(requestsPerSecond()),
            Planner.number(outputTokensPerSecond()),
            ttftSlo(),
            tpotSlo(),
            chips().stream().map(Chip::id).collect(Collectors.joining(", ")),
            strategies().stream().map(Deployment.Strategy::id).collect(Collectors.joining(", ")),
            objective().id(),
            top())
        + (workload().hasCache() ? ", " + workload() : "")
        + price().map(p -> ", price " + p).orElse("")
        + precisions().map(p -> ", " + p).orElse("")
        + (efficiency().equals(Efficiency.standard()) ? "" : ", efficiency " + efficiency());
  }
}
