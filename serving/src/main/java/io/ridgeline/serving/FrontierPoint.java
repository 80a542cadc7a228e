package io.ridgeline.serving;

import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Seconds;
import io.ridgeline.serving.efficiency.Anchoring;
import java.util.Locale;
import org.immutables.value.Value;

/** One batch size's serving performance: latency, interactivity and throughput. */
@Value.Immutable
@RidgelineStyle
public abstract class FrontierPoint {
  FrontierPoint() {} // subclassed only by the generated implementation

  /** Requests decoded together per model replica. */
  public abstract int batch();

  /** Time to first token: the prefill of the batch's prompts. */
  public abstract Seconds ttft();

  /** Time per output token: the mean decode-step time over the remaining output tokens. */
  public abstract Seconds tpot();

  /** Interactivity: output tokens per second per user, 1 / TPOT. */
  public abstract double tokensPerSecondPerUser();

  /**
   * Throughput: output tokens per second per chip, batch × OSL over (TTFT + (OSL − 1) × TPOT),
   * divided by the chips of one replica.
   */
  public abstract double tokensPerSecondPerChip();

  /** Whether the batch's weights, KV cache and workspace fit in memory. */
  public abstract boolean fits();

  /** The serving strategy that produced the point: static, colocated, pd or afd. */
  @Value.Default
  public String strategy() {
    return "static";
  }

  /**
   * Chips per replica-equivalent, all pools counted (fractional when a PD prefill pool is sized to
   * balance the decode pool's demand); tokens per second per chip divide by it.
   */
  public abstract double chipsTotal();

  /** Dollars per million output tokens, where the chips' prices per hour are known. */
  public abstract java.util.Optional<Double> dollarsPerMillionTokens();

  /** Output tokens per joule at the chips' TDP, where known. */
  public abstract java.util.Optional<Double> tokensPerJoule();

  /**
   * MFU of the chips that hold the running batch over one decode step at this batch ({@link
   * Deployment#decodeUtilisation}; see {@link Utilisation} for the definition), where computed.
   */
  public abstract java.util.Optional<Double> mfu();

  /**
   * Memory-bandwidth utilisation of the same chips over the same step ({@link Utilisation}), where
   * computed.
   */
  public abstract java.util.Optional<Double> bandwidthUtilisation();

  /** This point with the utilisation {@code u}. */
  public FrontierPoint withUtilisation(Utilisation u) {
    return FrontierPoint.builder()
        .from(this)
        .mfu(u.mfu())
        .bandwidthUtilisation(u.bandwidth())
        .build();
  }

  /** Strategy details: PD prefill:decode ratio, AFD bandwidth needed, speculative acceptance. */
  @Value.Default
  public String note() {
    return "";
  }

  /**
   * Whether no other fitting point of the frontier is at least as good on both axes and better on
   * one.
   */
  @Value.Default
  public boolean pareto() {
    return false;
  }

  /**
   * Checks that the batch is positive and every rate, count and price is finite and not negative
   * (chips positive): no NaN or infinity leaves a frontier.
   */
  @Value.Check
  protected void check() {
    com.google.common.base.Preconditions.checkArgument(
        batch() > 0, "frontier point batch must be positive: %s", batch());
    finite("tokens per second per user", tokensPerSecondPerUser());
    finite("tokens per second per chip", tokensPerSecondPerChip());
    finite("chips", chipsTotal());
    com.google.common.base.Preconditions.checkArgument(
        chipsTotal() > 0, "frontier point chips must be positive: %s", chipsTotal());
    dollarsPerMillionTokens().ifPresent(d -> finite("dollars per million tokens", d));
    tokensPerJoule().ifPresent(t -> finite("tokens per joule", t));
  }

  private void finite(String what, double v) {
    com.google.common.base.Preconditions.checkArgument(
        Double.isFinite(v) && v >= 0,
        "frontier point at batch %s: %s must be finite and not negative: %s",
        batch(),
        what,
        v);
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link FrontierPoint}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableFrontierPoint.Builder {
    Builder() {}
  }

  /**
   * This point for a deployment measured {@code exp(lnSlowdown)} times faster than the model
   * predicts on every quantity ({@link #anchored(Anchoring)} with {@link Anchoring#uniform}).
   *
   * @throws IllegalArgumentException when {@code lnSlowdown} is not finite or beyond ±ln 100
   */
  public FrontierPoint anchored(double lnSlowdown) {
    return anchored(Anchoring.uniform(lnSlowdown));
  }

  /**
   * This point for a deployment whose measurements say the model is {@code exp(a.x())} times too
   * slow on quantity x (an anchor: {@code ln(predicted time / measured time)}, see {@code
   * io.ridgeline.validation.Anchor}): TTFT divided by {@code exp(a.ttft())}; TPOT divided and
   * tokens per second per user multiplied by {@code exp(a.decode())}; tokens per second per chip,
   * tokens per joule and the utilisations multiplied and $/Mtok divided by {@code
   * exp(a.throughput())}. A negative ln slows the point down. Each axis of the frontier is scaled
   * by one factor, so Pareto flags are kept.
   */
  public FrontierPoint anchored(Anchoring a) {
    double first = Math.exp(a.ttft());
    double decode = Math.exp(a.decode());
    double rate = Math.exp(a.throughput());
    return FrontierPoint.builder()
        .from(this)
        .ttft(ttft().dividedBy(first))
        .tpot(tpot().dividedBy(decode))
        .tokensPerSecondPerUser(tokensPerSecondPerUser() * decode)
        .tokensPerSecondPerChip(tokensPerSecondPerChip() * rate)
        .dollarsPerMillionTokens(dollarsPerMillionTokens().map(d -> d / rate))
        .tokensPerJoule(tokensPerJoule().map(t -> t * rate))
        .mfu(mfu().map(m -> m * rate))
        .bandwidthUtilisation(bandwidthUtilisation().map(b -> b * rate))
        .build();
  }

  /** Whether this point dominates {@code other}: no worse on both axes, better on one. */
  public boolean dominates(FrontierPoint other) {
    boolean noWorse =
        tokensPerSecondPerUser() >= other.tokensPerSecondPerUser()
            && tokensPerSecondPerChip() >= other.tokensPerSecondPerChip();
    boolean better =
        tokensPerSecondPerUser() > other.tokensPerSecondPerUser()
            || tokensPerSecondPerChip() > other.tokensPerSecondPerChip();
    return noWorse && better;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%s batch %d: TTFT %s, TPOT %s, %.1f tok/s/user, %.1f tok/s/chip%s%s",
        strategy(),
        batch(),
        ttft(),
        tpot(),
        tokensPerSecondPerUser(),
        tokensPerSecondPerChip(),
        fits() ? "" : " (does not fit)",
        pareto() ? " *" : "");
  }
}
