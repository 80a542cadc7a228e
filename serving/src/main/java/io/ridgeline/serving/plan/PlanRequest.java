package io.ridgeline.serving.plan;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import io.ridgeline.serving.Conversation;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.KvOffload;
import io.ridgeline.serving.Speculation;
import io.ridgeline.serving.Workload;
import io.ridgeline.serving.efficiency.Anchoring;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;
import org.immutables.value.Value;

/**
 * What {@link Planner#plan} searches for: a model, a workload (prompt and output lengths, and
 * either a request rate or a chip budget), service-level objectives on p50 (and optionally p99)
 * TTFT and TPOT, and the chips, strategies, precisions, speculation and ranking to search with.
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
 * <p>With {@code .totalChips(16)} in place of {@code .requestsPerSecond(10)} the plan answers "the
 * best configurations on 16 chips": each candidate serves the highest rate its fleet of at most 16
 * chips sustains within the objectives, ranked by output tokens per second per chip.
 *
 * <p>Validated at construction: chips not empty, token counts, rate or chip budget (exactly one)
 * and objectives positive, rate finite, strategies not empty, {@code top} positive; violations
 * throw {@link IllegalArgumentException} naming the field and the value. A builder missing a
 * required attribute throws {@link IllegalStateException}.
 */
@Value.Immutable
@RidgelineStyle
public abstract class PlanRequest {
  PlanRequest() {} // subclassed only by the generated implementation

  /** How configurations that meet the objectives are ranked. */
  public enum Objective {
    /** Fewest chips in total, then lowest price per hour. */
    CHIPS("fewest chips"),
    /**
     * Lowest price per million output tokens, the same ranking as the lowest price per hour at a
     * fixed rate (configurations whose price is unknown last, among themselves by fewest chips),
     * then fewest chips.
     */
    COST("lowest cost"),
    /**
     * Most output tokens per second per chip of the fleet (the default with {@link
     * PlanRequest#totalChips()}); then lowest cost.
     */
    THROUGHPUT("most tokens/s per chip");

    private final String description;

    Objective(String description) {
      this.description = description;
    }

    /**
     * What ranks first, for output: {@code "fewest chips"}, {@code "lowest cost"} or {@code "most
     * tokens/s per chip"}.
     */
    public String description() {
      return description;
    }

    /** Lower-case id: {@code chips}, {@code cost} or {@code throughput}. */
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
      throw new IllegalArgumentException(
          "unknown objective '" + id + "'; known: chips, cost, throughput");
    }
  }

  /** The model served. */
  public abstract Model model();

  /** Chip types to search, each on its own (a configuration uses one chip type); not empty. */
  public abstract List<Chip> chips();

  /**
   * Fixed systems to evaluate instead of laying out each of {@link #chips()} at 1, 2, 4, … chips
   * ({@link PlanSystem}: a chip, a count and the degrees and strategies the user fixed); empty by
   * default, for the planner's own enumeration. With systems, pd and afd pair each system's pools
   * on its own chip only, and every system's chip must be one of {@link #chips()} (whose prices,
   * error bands and offload tiers the output reads).
   */
  public abstract List<PlanSystem> systems();

  /** Prompt tokens per request (ISL); positive. */
  public abstract int inputTokens();

  /** Output tokens per request (OSL); positive. */
  public abstract int outputTokens();

  /**
   * Tokens of history already in each request's KV cache when its prompt arrives ({@link
   * io.ridgeline.serving.Workload#cachedTokens()}); 0 by default.
   */
  @Value.Default
  public int cachedTokens() {
    return 0;
  }

  /**
   * Fraction of each prompt's tokens served from a prefix cache ({@link
   * io.ridgeline.serving.Workload#prefixHitRate()}); 0 by default.
   */
  @Value.Default
  public double prefixHitRate() {
    return 0;
  }

  /**
   * Multi-turn conversations of {@link #inputTokens()} new and {@link #outputTokens()} answer
   * tokens per turn ({@link Conversation}): each candidate is evaluated at its mean turn with the
   * prefix-cache hit rate of {@link Conversation#steadyState}, and a request is a turn. Colocated
   * strategies only, without {@link #cachedTokens()} or {@link #prefixHitRate()}; empty by default.
   */
  public abstract Optional<Conversation> conversation();

  /**
   * One request: input and output tokens, history and prefix hits; with {@link #conversation()},
   * its mean turn before any hit (the request pools are sized for).
   */
  public Workload workload() {
    return conversation()
        .map(c -> c.workload(0))
        .orElseGet(
            () -> new Workload(inputTokens(), outputTokens(), cachedTokens(), prefixHitRate()));
  }

  /**
   * Requests per second the fleet must serve (positive and finite): the rate mode, sizing the
   * fewest chips (or the lowest cost) for this rate. Exactly one of this and {@link #totalChips()}.
   */
  public abstract OptionalDouble requestsPerSecond();

  /**
   * Chips available (positive): the budget mode, "the best configurations on N chips", where each
   * candidate's fleet (replicas of its layout, for pd and afd the split between prefill and decode
   * replicas) fills at most this many chips and serves the highest request rate that meets the
   * objectives ({@link PlanFleet#onChips}). Exactly one of this and {@link #requestsPerSecond()}.
   */
  public abstract OptionalInt totalChips();

  /**
   * The objective on the median (p50) time to first token, checked against the queueing model's
   * mean ({@link PlanFleet}); positive.
   */
  public abstract Seconds ttftSlo();

  /** The objective on the median (p50) time per output token; positive. */
  public abstract Seconds tpotSlo();

  /** An objective on the 99th-percentile time to first token, if any; positive. */
  public abstract Optional<Seconds> ttftP99Slo();

  /** An objective on the 99th-percentile time per output token, if any; positive. */
  public abstract Optional<Seconds> tpotP99Slo();

  /**
   * Speculative decoding to try beside plain decoding on colocated and pd candidates (its draft,
   * length and acceptance α as given), if any.
   */
  public abstract Optional<Speculation> speculation();

  /**
   * Weight and KV precisions to search, each a lever; empty to use {@link #precisions()} (or the
   * checkpoint's).
   */
  public abstract List<Precisions> precisionChoices();

  /** Strategies to search; colocated, pd and afd by default; static may be added. */
  @Value.Default
  public Set<Deployment.Strategy> strategies() {
    return EnumSet.of(
        Deployment.Strategy.COLOCATED, Deployment.Strategy.PD, Deployment.Strategy.AFD);
  }

  /**
   * Whether pd and afd also try pools of different chips from {@link #chips()} (prefill on one,
   * decode on another; attention on one, FFN on another); true by default.
   */
  @Value.Default
  public boolean heterogeneous() {
    return true;
  }

  /**
   * The precisions searched: {@link #precisionChoices()}, else the one of {@link #precisions()}.
   */
  public List<Precisions> searchedPrecisions() {
    return precisionChoices().isEmpty()
        ? List.of(precisions().orElse(model().defaultPrecisions()))
        : precisionChoices();
  }

  /**
   * The ranking; by default {@link Objective#CHIPS} for a rate, {@link Objective#THROUGHPUT} for a
   * chip budget.
   */
  @Value.Default
  public Objective objective() {
    return totalChips().isPresent() ? Objective.THROUGHPUT : Objective.CHIPS;
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

  /**
   * Where each candidate keeps KV it offloads ({@link KvOffload}), applied on the chips that have a
   * slower tier ({@link KvOffload#tier}); chips without one keep all KV in their main tier. {@link
   * KvOffload#NONE} by default.
   */
  @Value.Default
  public KvOffload kvOffload() {
    return KvOffload.NONE;
  }

  /**
   * An anchor: how much slower the model is than measurements of the user's own deployment, per
   * quantity ({@link io.ridgeline.serving.efficiency.Anchoring}, {@link
   * io.ridgeline.serving.FrontierPoint#anchored(io.ridgeline.serving.efficiency.Anchoring)}); every
   * candidate's TTFT and the prefill service time of its queue are scaled by the TTFT factor, its
   * TPOT and rates by the decode and throughput factors. {@link
   * io.ridgeline.serving.efficiency.Anchoring#NONE} by default.
   */
  @Value.Default
  public Anchoring anchor() {
    return Anchoring.NONE;
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link PlanRequest}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutablePlanRequest.Builder {
    Builder() {}
  }

  /**
   * Output tokens per second the fleet must produce: requests per second × output tokens; empty
   * with a chip budget instead of a rate.
   */
  public OptionalDouble outputTokensPerSecond() {
    return requestsPerSecond().isPresent()
        ? OptionalDouble.of(requestsPerSecond().getAsDouble() * outputTokens())
        : OptionalDouble.empty();
  }

  /** The rate, or the chip budget, for output: "10 requests/s (2560 output tok/s)", "16 chips". */
  public String load() {
    return requestsPerSecond().isPresent()
        ? Planner.number(requestsPerSecond().getAsDouble())
            + " requests/s ("
            + Planner.number(outputTokensPerSecond().getAsDouble())
            + " output tok/s)"
        : totalChips().getAsInt() + " chips";
  }

  @Value.Check
  void check() {
    checkArgument(!chips().isEmpty(), "chips must not be empty: name at least one chip to search");
    for (PlanSystem s : systems()) {
      checkArgument(
          chips().stream().anyMatch(c -> c.id().equalsIgnoreCase(s.chip().id())),
          "system %s: its chip must be one of the request's chips: %s",
          s,
          chips().stream().map(Chip::id).collect(Collectors.joining(", ")));
    }
    checkArgument(inputTokens() > 0, "input tokens (isl) must be positive: %s", inputTokens());
    checkArgument(outputTokens() > 0, "output tokens (osl) must be positive: %s", outputTokens());
    var unused = workload(); // validates history and prefix hits
    conversation()
        .ifPresent(
            c -> {
              checkArgument(
                  cachedTokens() == 0 && prefixHitRate() == 0,
                  "conversations derive each turn's history and prefix hits: cached tokens %s and"
                      + " prefix hit rate %s must be 0",
                  Integer.valueOf(cachedTokens()),
                  Double.valueOf(prefixHitRate()));
              checkArgument(
                  c.newTokensPerTurn() == inputTokens()
                      && c.answerTokensPerTurn() == outputTokens(),
                  "conversation %s must have the request's input and output tokens per turn: %s"
                      + " and %s",
                  c,
                  Integer.valueOf(inputTokens()),
                  Integer.valueOf(outputTokens()));
              String others =
                  strategies().stream()
                      .filter(x -> x != Deployment.Strategy.COLOCATED)
                      .map(Deployment.Strategy::id)
                      .collect(Collectors.joining(", "));
              checkArgument(
                  others.isEmpty(),
                  "conversations are planned on colocated deployments only, not %s",
                  others);
            });
    speculation().ifPresent(s -> s.checkServes(model()));
    checkArgument(
        requestsPerSecond().isPresent() != totalChips().isPresent(),
        "give exactly one of a request rate and a chip budget (total chips): rate %s, total chips"
            + " %s",
        requestsPerSecond(),
        totalChips());
    requestsPerSecond()
        .ifPresent(
            r ->
                checkArgument(
                    r > 0 && Double.isFinite(r),
                    "request rate must be positive and finite: %s requests/s",
                    r));
    totalChips().ifPresent(n -> checkArgument(n > 0, "total chips must be positive: %s", n));
    checkArgument(ttftSlo().seconds() > 0, "TTFT objective must be positive: %s", ttftSlo());
    checkArgument(tpotSlo().seconds() > 0, "TPOT objective must be positive: %s", tpotSlo());
    checkArgument(
        !strategies().isEmpty(), "strategies must not be empty: give static, colocated, pd or afd");
    ttftP99Slo()
        .ifPresent(
            s -> checkArgument(s.seconds() > 0, "TTFT p99 objective must be positive: %s", s));
    tpotP99Slo()
        .ifPresent(
            s -> checkArgument(s.seconds() > 0, "TPOT p99 objective must be positive: %s", s));
    checkArgument(top() > 0, "top must be positive: %s", top());
    checkArgument(
        kvOffload() == KvOffload.NONE
            || chips().stream().anyMatch(c -> KvOffload.tier(c).isPresent()),
        "--kv-offload %s needs a chip with a memory tier slower than its main one, and none of %s"
            + " has one",
        kvOffload(),
        chips().stream().map(Chip::id).collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return String.format(
            Locale.ROOT,
            "%s, ISL %d, OSL %d, %s; TTFT p50 ≤ %s, TPOT p50 ≤ %s; chips %s;"
                + " strategies %s; objective %s, top %d",
            model().id(),
            inputTokens(),
            outputTokens(),
            load(),
            ttftSlo(),
            tpotSlo(),
            chips().stream().map(Chip::id).collect(Collectors.joining(", ")),
            strategies().stream().map(Deployment.Strategy::id).collect(Collectors.joining(", ")),
            objective().id(),
            top())
        + (systems().isEmpty()
            ? ""
            : ", systems "
                + systems().stream().map(PlanSystem::toString).collect(Collectors.joining(" ")))
        + (workload().hasCache() ? ", " + workload() : "")
        + conversation().map(c -> ", conversations " + c).orElse("")
        + ttftP99Slo().map(p -> ", TTFT p99 ≤ " + p).orElse("")
        + tpotP99Slo().map(p -> ", TPOT p99 ≤ " + p).orElse("")
        + speculation().map(p -> ", speculative " + p).orElse("")
        + price().map(p -> ", price " + p).orElse("")
        + precisions().map(p -> ", " + p).orElse("")
        + (kvOffload() == KvOffload.NONE ? "" : ", kv offload " + kvOffload())
        + (efficiency().equals(Efficiency.standard()) ? "" : ", efficiency " + efficiency());
  }
}
