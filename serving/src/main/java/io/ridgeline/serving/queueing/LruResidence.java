package io.ridgeline.serving.queueing;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * How long a least-recently-used cache keeps what it was last given, and the share of returns that
 * find it there: the characteristic-time (Che) approximation of an LRU cache (H. Che, Y. Tung, Z.
 * Wang, "Hierarchical Web caching systems: modeling, design and experimental results", IEEE JSAC
 * 20(7), 2002; C. Fricker, P. Robert, J. Roberts, "A versatile and accurate approximation for LRU
 * cache performance", ITC 24, 2012). Applied to an engine's KV cache with automatic prefix caching
 * (vLLM's and SGLang's radix cache evict the least recently used blocks that no running request
 * holds): a conversation's history, touched when its turn ends, stays while less than the free
 * capacity has been touched since.
 *
 * <p>The cache holds the tokens touched within the last T_C seconds: with tokens touched at a rate
 * R (tokens/s) and S tokens of capacity free of running requests, {@code T_C = S / R}. An item
 * asked for again X seconds after its last touch is a hit when X &lt; T_C; with X exponential of
 * mean θ (a user's think time), {@code P(hit) = 1 − e^(−T_C / θ)}.
 */
public final class LruResidence {
  private LruResidence() {}

  /**
   * Seconds an untouched token stays in the cache, {@code T_C = S / R}: 0 when nothing is free.
   *
   * <p>Worked example: 1,000,000 free tokens, 50,000 tokens touched per second: 1e6 / 5e4 = 20 s.
   *
   * @param freeTokens tokens of capacity not held by running requests (≤ 0: none free)
   * @param touchedTokensPerSecond tokens brought to the front of the cache per second, positive
   */
  public static double seconds(double freeTokens, double touchedTokensPerSecond) {
    checkArgument(Double.isFinite(freeTokens), "free tokens must be finite: %s", freeTokens);
    checkArgument(
        Double.isFinite(touchedTokensPerSecond) && touchedTokensPerSecond > 0,
        "touched tokens per second must be positive and finite: %s",
        touchedTokensPerSecond);
    return freeTokens <= 0 ? 0 : freeTokens / touchedTokensPerSecond;
  }

  /**
   * The share of returns after an exponential wait of mean {@code meanWaitSeconds} that find the
   * item: {@code 1 − e^(−T_C / θ)}; 1 when the return is immediate (θ = 0: nothing else was touched
   * in between), 0 when nothing is kept (T_C = 0 and θ &gt; 0).
   *
   * <p>Worked example: T_C = 20 s, θ = 10 s: 1 − e^(−2) = 0.8647.
   *
   * @param residenceSeconds {@link #seconds}, ≥ 0
   * @param meanWaitSeconds mean time between the last touch and the return, ≥ 0
   */
  public static double hitProbability(double residenceSeconds, double meanWaitSeconds) {
    checkArgument(
        Double.isFinite(residenceSeconds) && residenceSeconds >= 0,
        "residence seconds must be finite and not negative: %s",
        residenceSeconds);
    checkArgument(
        Double.isFinite(meanWaitSeconds) && meanWaitSeconds >= 0,
        "mean wait seconds must be finite and not negative: %s",
        meanWaitSeconds);
    if (meanWaitSeconds == 0) {
      return 1;
    }
    return -Math.expm1(-residenceSeconds / meanWaitSeconds);
  }
}
