package io.ridgeline.models;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.RidgelineStyle;
import org.immutables.value.Value;

/**
 * How tokens spread over routed experts, which decides how many distinct experts' weights a decode
 * step reads.
 *
 * <p>Uniform routing: each of B tokens picks k of E experts, so an expert is missed by all of them
 * with probability (1 − k/E)^B and the step touches E·(1 − (1 − k/E)^B) experts. Skewed routing
 * gives expert i a per-token selection probability q_i ∝ i^−s (Zipf exponent s), capped at 1 and
 * scaled so that Σ q_i = k; the step then touches Σ_i 1 − (1 − q_i)^B experts, fewer than uniform
 * routing (more reuse). s = 0 is uniform. Real routers sit between: DeepSeek and Mixtral report
 * mild imbalance (s ≈ 0.2–0.5 fits their published load histograms loosely).
 */
@Value.Immutable
@RidgelineStyle
public abstract class Routing {
  Routing() {} // subclassed only by the generated implementation

  /**
   * The largest Zipf exponent accepted: beyond it the popularity of the 512th expert (512^−10 ≈
   * 8e−28) heads for underflow and the distribution is, for every purpose here, "one expert".
   */
  public static final double MAX_EXPONENT = 10;

  /** Zipf exponent of expert popularity; 0 is uniform. */
  @Value.Parameter
  public abstract double zipfExponent();

  /** Uniform routing. */
  public static Routing uniform() {
    return ImmutableRouting.of(0);
  }

  /**
   * Skewed routing with Zipf exponent {@code s}.
   *
   * @throws IllegalArgumentException when s is negative or not finite
   */
  public static Routing zipf(double s) {
    return ImmutableRouting.of(s);
  }

  /**
   * Expected distinct experts of {@code experts} touched when {@code tokens} tokens each pick
   * {@code topK}: in [min(k, E), E] from one token on, non-decreasing in tokens, and never more
   * under skew than uniform. A fractional token count (a mean: a step's share of a prompt) below
   * one touches {@code tokens × k} experts, the share of one token's k, whatever the skew; the
   * formula {@code Σ 1 − (1 − q_i)^B} is convex in q_i for B &lt; 1, so it would count more experts
   * for a skewed router than a uniform one there, the opposite of its reuse.
   */
  public double expectedDistinctExperts(int experts, int topK, double tokens) {
    checkArgument(experts > 0, "experts must be positive: %s", experts);
    checkArgument(
        topK >= 1 && topK <= experts, "experts per token (%s) must be in [1, %s]", topK, experts);
    checkArgument(
        tokens >= 0 && Double.isFinite(tokens), "tokens must be finite and >= 0: %s", tokens);
    if (tokens < 1) {
      return tokens * topK; // a fraction of one token's k experts
    }
    if (zipfExponent() == 0) {
      return experts * (1 - Math.pow(1 - (double) topK / experts, tokens));
    }
    double[] q = selectionProbabilities(experts, topK);
    double sum = 0;
    for (double qi : q) {
      sum += 1 - Math.pow(1 - qi, tokens);
    }
    return sum;
  }

  /** Per-token selection probability of each expert: ∝ i^−s, each ≤ 1, summing to k. */
  double[] selectionProbabilities(int experts, int topK) {
    double[] w = new double[experts];
    for (int i = 0; i < experts; i++) {
      w[i] = Math.pow(i + 1, -zipfExponent());
    }
    // water-filling: find c with Σ min(1, c·w_i) = k (the sum is increasing in c)
    double lo = 0;
    double hi = 1;
    while (capped(w, hi) < topK) {
      hi *= 2;
    }
    for (int iter = 0; iter < 100; iter++) {
      double mid = (lo + hi) / 2;
      if (capped(w, mid) < topK) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    double[] q = new double[experts];
    for (int i = 0; i < experts; i++) {
      q[i] = Math.min(1, hi * w[i]);
    }
    return q;
  }

  private static double capped(double[] w, double c) {
    double s = 0;
    for (double x : w) {
      s += Math.min(1, c * x);
    }
    return s;
  }

  @Value.Check
  void check() {
    checkArgument(
        zipfExponent() >= 0 && zipfExponent() <= MAX_EXPONENT,
        "routing zipf exponent must be in [0, %s]: %s",
        MAX_EXPONENT,
        zipfExponent());
  }

  @Override
  public String toString() {
    return zipfExponent() == 0 ? "uniform routing" : "zipf(" + zipfExponent() + ") routing";
  }
}
