package io.ridgeline.serving.sweep;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.Sets;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Seconds;
import io.ridgeline.serving.RooflineModel;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.immutables.value.Value;

/**
 * Where decode attention overtakes the FFN: the smallest context at which one decode step's
 * attention time (phases whose {@link PhaseKind#attention()} holds: {@code decode_attention},
 * {@code decode_attention_sliding}, {@code decode_linear_attention}) reaches its FFN time (those
 * whose {@link PhaseKind#ffn()} holds: {@code decode_ffn} and {@code decode_moe}), for a model,
 * system, precision and batch.
 *
 * <p>Attention time is non-decreasing in context and the FFN's does not depend on it, so a binary
 * search over contexts 1 … {@link #SEARCH_LIMIT} finds the crossover. For dense GQA models at batch
 * B it is near {@code FFN weight bytes / (B × KV bytes per token)}: GQA and MLA shrink the cache
 * and push it out; a larger batch pulls it in (the FFN's weights are shared by the batch, the
 * caches are not); sliding-window and linear layers stop growing, so a stack of only those never
 * crosses.
 *
 * <pre>{@code
 * Crossover.find(RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.byId("h100-sxm")), 1)
 *     .context();   // Optional[≈ 86,000]
 * }</pre>
 */
@Value.Immutable
@RidgelineStyle
public abstract class Crossover {
  Crossover() {} // subclassed only by the generated implementation

  /** The largest context searched, tokens (2^24 ≈ 16.8M). */
  public static final int SEARCH_LIMIT = 1 << 24;

  /** Phases counted as attention: the kinds whose {@link PhaseKind#attention()} holds. */
  public static final Set<PhaseKind> ATTENTION_PHASES = kinds(PhaseKind::attention);

  /** Phases counted as FFN: the kinds whose {@link PhaseKind#ffn()} holds. */
  public static final Set<PhaseKind> FFN_PHASES = kinds(PhaseKind::ffn);

  private static Set<PhaseKind> kinds(Predicate<PhaseKind> property) {
    return Sets.immutableEnumSet(
        Arrays.stream(PhaseKind.values()).filter(property).collect(Collectors.toList()));
  }

  /** The system evaluated. */
  public abstract RooflineModel model();

  /** Sequences per decode step. */
  public abstract int batch();

  /** The smallest context at which attention time ≥ FFN time; empty when it never gets there. */
  public abstract Optional<Integer> context();

  /** Why there is no crossover, when there is none. */
  public abstract Optional<String> reason();

  /** FFN/MoE time of one decode step (independent of context). */
  public abstract Seconds ffnSeconds();

  /** Attention time at the crossover, or at the search limit when there is none. */
  public abstract Seconds attentionSeconds();

  /** Whether the crossover lies within the model's declared maximum context. */
  public boolean withinMaxContext() {
    return context().isPresent()
        && model().model().maxContext().map(max -> context().get() <= max).orElse(true);
  }

  /**
   * Finds the crossover for {@code batch} sequences on {@code model}.
   *
   * @throws IllegalArgumentException when batch is not positive
   */
  public static Crossover find(RooflineModel model, int batch) {
    checkArgument(batch > 0, "batch must be positive: %s", batch);
    double ffn = sum(model.decode(batch, 1).phases(), FFN_PHASES);
    ImmutableCrossover.Builder b =
        ImmutableCrossover.builder().model(model).batch(batch).ffnSeconds(Seconds.of(ffn));
    if (ffn == 0) {
      return b.reason("the model has no FFN or MoE layers")
          .attentionSeconds(Seconds.of(attention(model, batch, 1)))
          .build();
    }
    double atLimit = attention(model, batch, SEARCH_LIMIT);
    if (atLimit < ffn) {
      boolean bounded = attention(model, batch, SEARCH_LIMIT / 2) == atLimit;
      return b.reason(
              bounded
                  ? "attention work is bounded (only sliding-window or linear-attention layers): it stays below the FFN at every context"
                  : "attention stays below the FFN up to the search limit of "
                      + SEARCH_LIMIT
                      + " tokens")
          .attentionSeconds(Seconds.of(atLimit))
          .build();
    }
    int lo = 0; // attention(lo) < ffn, or lo == 0
    int hi = SEARCH_LIMIT; // attention(hi) >= ffn
    while (hi - lo > 1) {
      int mid = lo + (hi - lo) / 2;
      if (attention(model, batch, mid) >= ffn) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return b.context(hi).attentionSeconds(Seconds.of(attention(model, batch, hi))).build();
  }

  private static double attention(RooflineModel model, int batch, int context) {
    return sum(model.decode(batch, context).phases(), ATTENTION_PHASES);
  }

  private static double sum(List<PhaseResult> phases, Set<PhaseKind> kinds) {
    double s = 0;
    for (PhaseResult p : phases) {
      if (kinds.contains(p.kind())) {
        s += p.seconds().seconds();
      }
    }
    return s;
  }

  @Value.Check
  void check() {
    checkArgument(
        context().isPresent() != reason().isPresent(), "a crossover has a context or a reason");
  }

  @Override
  public String toString() {
    return context()
        .map(
            c ->
                String.format(
                    java.util.Locale.ROOT,
                    c == 1
                        ? "%s, batch %d: attention (linear-attention state included) already matches the FFN at context %,d (%s vs %s)%s"
                        : "%s, batch %d: attention reaches the FFN at context %,d tokens (%s vs %s)%s",
                    model(),
                    batch(),
                    c,
                    attentionSeconds(),
                    ffnSeconds(),
                    withinMaxContext() ? "" : ", beyond the model's max context"))
        .orElseGet(() -> model() + ", batch " + batch() + ": no crossover: " + reason().get());
  }
}
