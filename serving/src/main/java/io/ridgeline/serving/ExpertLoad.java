package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The load of the busiest expert-parallel rank of a MoE layer, relative to the mean rank's: a step
 * waits for the rank that computes the most tokens and reads the most experts' weights, not for the
 * average one. Under {@link RooflineModel#expertImbalance()} (off by default) {@link
 * PoolOperations#perChip} divides the routed experts' work and weights by the stage's chips and
 * multiplies them by these factors; otherwise each chip takes the mean rank's share.
 *
 * <p><b>Tokens.</b> T tokens each pick k of E experts (uniform routing), spread over R ranks of E /
 * R experts each. One token puts a hypergeometric count on a rank (k draws without replacement from
 * E of which E / R are the rank's): mean k / R, variance {@code k (1/R)(1 − 1/R)(E − k)/(E − 1)}.
 * Over T independent tokens a rank's token-expert pairs have mean {@code μ = T k / R} and standard
 * deviation {@code σ = sqrt(T k (1/R)(1 − 1/R)(E − k)/(E − 1))}. The busiest of R ranks computes
 * about {@code μ + z_R σ} pairs, where {@code z_R} is the expected maximum of R independent
 * standard normal variables (the normal approximation of the multinomial's largest cell, the
 * balls-into-bins load for many balls per bin: Raab and Steger, "Balls into Bins — A Simple and
 * Tight Analysis", RANDOM 1998, give {@code m/n + sqrt(2 (m/n) ln n)} for large n, whose {@code
 * sqrt(2 ln n)} is {@code z_n}'s limit), capped at {@code T × min(k, ⌈E / R⌉)} (a token puts at
 * most one pair on each of a rank's experts). The factor is {@code (μ + z_R σ) / μ}, at least 1,
 * tending to 1 as T grows (σ / μ ∝ 1 / sqrt(T)). {@code z_R} is computed, not approximated by
 * {@code sqrt(2 ln R)}, which overstates it at few ranks (R = 8: 2.04 against 1.42): {@code z_R =
 * ∫_0^∞ (1 − Φ(x)^R) dx − ∫_−∞^0 Φ(x)^R dx}, z_1 = 0, z_2 = 1 / sqrt(π) = 0.5642, z_8 = 1.4236
 * (Teichroew's table of expected normal order statistics, Annals of Mathematical Statistics 27,
 * 1956). The ranks' counts share a fixed sum and are slightly negatively correlated, so the
 * independent maximum is a little high; DeepSeek's EPLB README (github.com/deepseek-ai/EPLB)
 * describes the same effect: "different experts may be assigned to different GPUs, it is important
 * to keep the load of different GPUs balanced".
 *
 * <p><b>Weights.</b> A rank reads the weights of the experts its tokens hit: each of its E / R
 * experts is hit with probability {@code p = distinct / E} (with uniform routing {@code 1 − (1 −
 * k/E)^T}, {@link io.ridgeline.models.Routing#expectedDistinctExperts}), so its count is binomial,
 * mean {@code (E/R) p}, standard deviation {@code sqrt((E/R) p (1 − p))}; the busiest rank reads
 * about {@code mean + z_R sd}, capped at E / R; the factor is that over the mean. At decode batches
 * of a few tokens on many ranks this is the larger factor: DeepSeek-V3 (E = 256, k = 8) on 8 ranks
 * at T = 8 reads 10.5 experts' weights on its busiest rank against 7.2 on the mean one.
 *
 * <p><b>Redundant experts</b> (EPLB: the busiest experts replicated on other ranks, each replica
 * taking half of its expert's tokens): with {@code r} redundant slots per rank, {@code r R} experts
 * have two replicas, and a rank holds on average {@code E/R − r} whole experts and {@code 2r}
 * half-loaded replicas; a half-loaded replica's count has a quarter of the variance, so a rank's
 * variance is {@code (E/R − r/2) / (E/R)} of the unreplicated one's, and σ shrinks by the square
 * root of that. The weight factor is left as without replicas (a replicated expert hit on both of
 * its ranks reads both copies). Under uniform routing the redundancy removes little; EPLB's main
 * gain is against skewed popularity, which the uniform formula does not model.
 *
 * <p>With one rank (ep = 1: every chip holds a slice of every expert) both factors are 1.
 */
final class ExpertLoad {
  /** Ranks up to which {@link #expectedMaxStandardNormal} is tabulated at class initialisation. */
  private static final int TABLE = 1024;

  /** Integration step of {@link #expectedMaxStandardNormal}, in standard deviations. */
  private static final double STEP = 0.01;

  /** Half-width of the integration range, in standard deviations. */
  private static final double RANGE = 9;

  private static final double[] Z = table();

  private ExpertLoad() {}

  /**
   * The busiest rank's token-expert pairs over the mean rank's (see the class comment) for {@code
   * tokens} tokens routed to {@code topK} of {@code experts} experts over {@code ranks} ranks with
   * {@code redundantPerRank} redundant expert slots each: 1 with one rank, else at least 1; a token
   * count below one counts as one token (a step's share of a prompt still routes whole tokens).
   *
   * @throws IllegalArgumentException when an argument is out of range or not finite
   */
  static double tokenFactor(
      double tokens, int topK, int experts, int ranks, double redundantPerRank) {
    check(tokens, topK, experts, ranks, redundantPerRank);
    if (ranks == 1) {
      return 1;
    }
    double t = Math.max(1, tokens);
    double r = ranks;
    double perRank = experts / r;
    // a token's hypergeometric count on a rank: k draws of E, E/R of them the rank's
    double perToken = topK * (1 / r) * (1 - 1 / r) * (experts - topK) / Math.max(1, experts - 1);
    double redundancy = 1 - Math.min(redundantPerRank, perRank) / (2 * perRank);
    double mean = t * topK / r; // token-expert pairs of the mean rank
    double sd = Math.sqrt(t * perToken * redundancy);
    double cap = t * Math.min(topK, Math.ceil(perRank)); // one pair per token and expert
    return Math.max(1, Math.min(mean + expectedMaxStandardNormal(ranks) * sd, cap) / mean);
  }

  /**
   * The busiest rank's distinct experts hit over the mean rank's (see the class comment), when the
   * step's tokens touch {@code distinct} of {@code experts} experts in all, spread over {@code
   * ranks} ranks: 1 with one rank, or when no expert or every expert is touched; else at least 1.
   *
   * @throws IllegalArgumentException when an argument is out of range or not finite
   */
  static double expertFactor(double distinct, int experts, int ranks) {
    checkArgument(experts > 0, "experts must be positive: %s", experts);
    checkArgument(ranks > 0, "expert-parallel ranks must be positive: %s", ranks);
    checkArgument(
        distinct >= 0 && distinct <= experts,
        "distinct experts must be in [0, %s]: %s",
        (Object) experts,
        distinct);
    double p = distinct / experts; // an expert's chance of being hit
    if (ranks == 1 || p <= 0 || p >= 1) {
      return 1;
    }
    double perRank = experts / (double) ranks;
    double mean = perRank * p;
    double sd = Math.sqrt(perRank * p * (1 - p));
    return Math.max(1, Math.min(mean + expectedMaxStandardNormal(ranks) * sd, perRank) / mean);
  }

  /**
   * The expected maximum of {@code n} independent standard normal variables, {@code ∫_0^∞ (1 −
   * Φ(x)^n) dx − ∫_−∞^0 Φ(x)^n dx} by Simpson's rule over ±9 standard deviations: 0 for one, 1 /
   * sqrt(π) for two, 1.4236 for eight (Teichroew 1956), growing like sqrt(2 ln n).
   *
   * @throws IllegalArgumentException when n is not positive
   */
  static double expectedMaxStandardNormal(int n) {
    checkArgument(n > 0, "count must be positive: %s", n);
    return n <= TABLE ? Z[n] : integrate(n);
  }

  private static double[] table() {
    double[] z = new double[TABLE + 1];
    for (int n = 2; n <= TABLE; n++) {
      z[n] = integrate(n);
    }
    return z;
  }

  /** Simpson's rule of the integrand 1{x > 0} − Φ(x)^n over [−RANGE, RANGE]. */
  private static double integrate(int n) {
    int steps = (int) Math.round(2 * RANGE / STEP); // even
    double sum = 0;
    for (int i = 0; i <= steps; i++) {
      int fromZero = i - steps / 2;
      double x = fromZero * STEP;
      // the jump of 1{x > 0} falls on a panel boundary: its two panels take its mean there
      double f = (fromZero > 0 ? 1 : fromZero == 0 ? 0.5 : 0) - Math.pow(normalCdf(x), n);
      double w = i == 0 || i == steps ? 1 : i % 2 == 1 ? 4 : 2;
      sum += w * f;
    }
    return sum * STEP / 3;
  }

  /**
   * The standard normal distribution function, {@code Φ(x) = erfc(−x / sqrt 2) / 2}, erfc by the
   * Chebyshev fit of Numerical Recipes ({@code erfcc}, fractional error below 1.2e−7 everywhere).
   */
  static double normalCdf(double x) {
    return erfc(-x / Math.sqrt(2)) / 2;
  }

  private static double erfc(double x) {
    double z = Math.abs(x);
    double t = 1 / (1 + 0.5 * z);
    double poly =
        -z * z
            - 1.26551223
            + t
                * (1.00002368
                    + t
                        * (0.37409196
                            + t
                                * (0.09678418
                                    + t
                                        * (-0.18628806
                                            + t
                                                * (0.27886807
                                                    + t
                                                        * (-1.13520398
                                                            + t
                                                                * (1.48851587
                                                                    + t
                                                                        * (-0.82215223
                                                                            + t
                                                                                * 0.17087277))))))));
    double r = t * Math.exp(poly);
    return x >= 0 ? r : 2 - r;
  }

  private static void check(
      double tokens, int topK, int experts, int ranks, double redundantPerRank) {
    checkArgument(experts > 0, "experts must be positive: %s", experts);
    checkArgument(
        topK >= 1 && topK <= experts, "experts per token (%s) must be in [1, %s]", topK, experts);
    checkArgument(ranks > 0, "expert-parallel ranks must be positive: %s", ranks);
    checkArgument(
        tokens >= 0 && Double.isFinite(tokens), "tokens must be finite and >= 0: %s", tokens);
    checkArgument(
        redundantPerRank >= 0 && Double.isFinite(redundantPerRank),
        "redundant experts per rank must be finite and >= 0: %s",
        redundantPerRank);
  }
}
