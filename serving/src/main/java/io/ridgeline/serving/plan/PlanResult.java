package io.ridgeline.serving.plan;

import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.hardware.Chip;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.immutables.value.Value;

/**
 * What {@link Planner#plan} found: the best configurations that meet the objectives, failure counts
 * by reason over every candidate evaluated, and each chip's closest miss.
 *
 * <p>Finding nothing is a result, not an error: {@link #configurations()} is empty and {@link
 * #summary()} says, one line per reason, why.
 */
@Value.Immutable
@RidgelineStyle
public abstract class PlanResult {
  PlanResult() {} // subclassed only by the generated implementation

  /** The request planned. */
  public abstract PlanRequest request();

  /**
   * The best configurations, at most {@link PlanRequest#top()}, best first by the request's
   * objective; one per chip, strategy and layout (its best batch).
   */
  public abstract List<PlanConfiguration> configurations();

  /**
   * Configurations (chip, strategy, layout at its best batch) that meet the objectives, before the
   * top cut.
   */
  public abstract int meeting();

  /**
   * Candidates evaluated: one per chip, strategy, layout and batch, plus one per chip, strategy and
   * layout that does not hold even one request.
   */
  public abstract int candidates();

  /**
   * Candidates missing each objective, every reason present; a candidate can miss both TTFT and
   * TPOT and then counts under each. A candidate that does not fit counts under memory only.
   */
  public abstract Map<PlanFailure, Integer> failures();

  /**
   * For each chip that had a failing candidate, in request order, its closest miss: the smallest
   * violation ratio among candidates that fit, or among memory misses when none fits.
   */
  public abstract List<PlanMiss> closest();

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link PlanResult}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutablePlanResult.Builder {
    Builder() {}
  }

  /** Whether at least one configuration meets the objectives. */
  public boolean found() {
    return !configurations().isEmpty();
  }

  /**
   * One line of objectives and workload, then one line per failure reason and one per chip's
   * closest miss, for example:
   *
   * <pre>
   * no configuration meets TTFT ≤ 200 ms and TPOT ≤ 1 µs for llama-3.1-8b (ISL 1024, OSL 256, 10 requests/s) on h100-sxm:
   *   memory: 0 of 36 candidates do not fit
   *   ttft: 4 of 36 candidates have TTFT above 200 ms
   *   tpot: 36 of 36 candidates have TPOT above 1 µs
   *   closest: h100-sxm colocated tp 8 pp 1 batch 1: TPOT 1.53 ms > 1 µs (1530× the limit)
   * </pre>
   *
   * When configurations were found the first line says how many.
   */
  public String summary() {
    PlanRequest r = request();
    String what =
        String.format(
            Locale.ROOT,
            "TTFT ≤ %s and TPOT ≤ %s for %s (ISL %d, OSL %d, %s) on %s",
            r.ttftSlo(),
            r.tpotSlo(),
            r.model().id(),
            r.inputTokens(),
            r.outputTokens(),
            r.requestsPerSecond().isPresent()
                ? Planner.number(r.requestsPerSecond().getAsDouble()) + " requests/s"
                : "at most " + r.totalChips().getAsInt() + " chips",
            r.chips().stream().map(Chip::id).distinct().collect(Collectors.joining(", ")));
    StringBuilder b = new StringBuilder();
    if (found()) {
      b.append(meeting())
          .append(meeting() == 1 ? " configuration meets " : " configurations meet ")
          .append(what)
          .append(':');
    } else {
      b.append("no configuration meets ").append(what).append(':');
    }
    int n = candidates();
    b.append(
        String.format(
            Locale.ROOT,
            "%n  memory: %d of %d candidates do not fit",
            failures().getOrDefault(PlanFailure.MEMORY, 0),
            n));
    b.append(
        String.format(
            Locale.ROOT,
            "%n  ttft: %d of %d candidates have TTFT above %s",
            failures().getOrDefault(PlanFailure.TTFT, 0),
            n,
            r.ttftSlo()));
    b.append(
        String.format(
            Locale.ROOT,
            "%n  tpot: %d of %d candidates have TPOT above %s",
            failures().getOrDefault(PlanFailure.TPOT, 0),
            n,
            r.tpotSlo()));
    if (r.totalChips().isPresent()) {
      b.append(
          String.format(
              Locale.ROOT,
              "%n  chips: %d of %d candidates need more than %d chips",
              failures().getOrDefault(PlanFailure.CHIPS, 0),
              n,
              r.totalChips().getAsInt()));
    }
    for (PlanMiss m : closest()) {
      b.append(String.format(Locale.ROOT, "%n  closest: %s", m));
    }
    return b.toString();
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(summary());
    if (found()) {
      b.append(
          String.format(
              Locale.ROOT,
              "%nbest %d by %s:",
              configurations().size(),
              request().objective().description()));
      for (PlanConfiguration c : configurations()) {
        b.append(String.format(Locale.ROOT, "%n  %s", c));
      }
    }
    return b.toString();
  }
}
