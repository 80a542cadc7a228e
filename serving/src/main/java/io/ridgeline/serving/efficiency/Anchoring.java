package io.ridgeline.serving.efficiency;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Locale;

/**
 * How much slower the model is than a user's own measurements of their deployment, per quantity,
 * each as {@code ln(predicted time / measured time)} (for a rate, {@code ln(measured /
 * predicted)}): the anchor's factors ({@code io.ridgeline.validation.Anchor} computes them from
 * measured rows).
 *
 * <p>TTFT and decode miss for different reasons (a serving stack's own queueing and hand-overs; the
 * engine's kernels and step overheads), so each estimate is scaled by the factor of its own
 * quantity: TTFT (and the prefill service time of a plan's queue) by {@code ttft}, TPOT and tokens
 * per second per user by {@code decode}, tokens per second per chip, $/Mtok, tokens per joule and
 * the utilisations by {@code throughput}. An anchor that measured only some quantities gives the
 * others the mean of its rows. What anchoring buys on sources the profile was not fitted on is the
 * anchored column of the cross-validation ({@code crossval.json}, the cross-validation table of
 * docs/validation.md).
 *
 * <p>Example: an anchor whose measured TTFT is 1.6× the model's and whose TPOT is 1.1× the model's
 * (and its throughput 1 / 1.1 of the model's) is {@code new Anchoring(−ln 1.6, −ln 1.1, −ln 1.1)}:
 * a predicted TTFT of 100 ms becomes 160 ms, a TPOT of 20 ms becomes 22 ms.
 *
 * @param ttft ln slowdown of the TTFT
 * @param decode ln slowdown of the decode speed one request sees (TPOT, tokens/s per user)
 * @param throughput ln slowdown of the throughput (tokens/s per chip)
 */
public record Anchoring(double ttft, double decode, double throughput) {
  /** No anchor: every factor 1. */
  public static final Anchoring NONE = new Anchoring(0, 0, 0);

  /** The largest factor an anchor may state, either way: a hundredfold. */
  private static final double LIMIT = Math.log(100);

  /**
   * Validates the factors.
   *
   * @throws IllegalArgumentException when one is not finite or beyond ±ln 100, naming it
   */
  public Anchoring {
    check("ttft", ttft);
    check("decode", decode);
    check("throughput", throughput);
  }

  /** One factor for every quantity: {@code lnSlowdown} for TTFT, decode and throughput. */
  public static Anchoring uniform(double lnSlowdown) {
    return new Anchoring(lnSlowdown, lnSlowdown, lnSlowdown);
  }

  /** Whether this is {@link #NONE}. */
  public boolean isNone() {
    return ttft == 0 && decode == 0 && throughput == 0;
  }

  private static void check(String name, double value) {
    checkArgument(
        Double.isFinite(value) && Math.abs(value) <= LIMIT,
        "anchor ln slowdown of %s must be finite and within ±ln 100: %s",
        name,
        value);
  }

  /**
   * The predicted time over the measured one per quantity, e.g. {@code "model/measured: TTFT
   * ×0.625, decode ×0.909, throughput ×0.909"} for the example above.
   */
  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "model/measured: TTFT ×%.3f, decode ×%.3f, throughput ×%.3f",
        Math.exp(ttft),
        Math.exp(decode),
        Math.exp(throughput));
  }
}
