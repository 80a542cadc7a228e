package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.ridgeline.serving.queueing.LruResidence;
import java.util.Locale;

/**
 * Multi-turn conversations: each of {@code turns} turns sends {@code newTokensPerTurn} new prompt
 * tokens after the conversation so far and gets {@code answerTokensPerTurn} tokens back; the user
 * thinks for an exponential time of mean {@code thinkSeconds} between an answer and the next turn.
 * Whether a turn finds its history in the engine's prefix cache follows from the KV capacity the
 * running batch leaves free and the think time ({@link #steadyState}); a hit prefills only the new
 * tokens after the cached history, a miss prefills the whole conversation again.
 *
 * <p><b>Tokens.</b> Turn k (1-based) arrives with history {@code h_k = (k − 1)(u + a)}; over the
 * turns the mean history is {@code h̄ = (T − 1)(u + a) / 2} (rounded to a token). The steady
 * state's request is the mean turn ({@link #workload}): isl {@code u + h̄}, osl {@code a}, of which
 * the share {@code p·h̄ / (u + h̄)} hits the prefix cache, p being the hit probability: prefill
 * computes {@code u + (1 − p)·h̄} tokens after {@code p·h̄} cached ones, and decode runs at the
 * turn's full context, hit or miss. (Prefill attention is costed at the mean turn, not averaged
 * over turns.)
 *
 * <p><b>Hit probability</b> ({@link LruResidence}, the Che approximation of an LRU cache): at a
 * batch of B running turns per replica, with request latency L = TTFT + (a − 1)·TPOT, turns end at
 * B / L per second (Little's law), each touching its final context {@code u + h̄ + a} tokens; the
 * capacity free of running requests is {@code S = K − B·(u + h̄ + a/2)} (K: KV tokens of a replica,
 * its largest batch at the final context × that context, as {@link ColocatedDeployment#burst}
 * counts it; running turns hold their context, on average halfway through the answer). History
 * survives {@code T_C = S / (B/L · (u + h̄ + a))} seconds; the next turn hits with {@code p = 1 −
 * e^(−T_C/θ)} (1 when θ = 0). L depends on p (a miss prefills more), p on L: the fixed point is
 * found by bisection (p − hit(L(p)) rises with p).
 *
 * <pre>{@code
 * Conversation c = Conversation.of(8, 512, 256, 30.0);  // 8 turns, 512 in + 256 out, 30 s think
 * Conversation.Steady s = c.steadyState(deployment, 64);
 * s.hitRate();                                            // share of histories found in the cache
 * }</pre>
 *
 * @param turns turns per conversation, positive
 * @param newTokensPerTurn new prompt tokens per turn (u), positive
 * @param answerTokensPerTurn answer tokens per turn (a), positive
 * @param thinkSeconds mean think time between an answer and the next turn (θ), finite, ≥ 0
 */
public record Conversation(
    int turns, int newTokensPerTurn, int answerTokensPerTurn, double thinkSeconds) {
  /** Bisection steps of the fixed point: the hit rate to 2^−30 of its range. */
  private static final int BISECTIONS = 30;

  /**
   * Validates the fields.
   *
   * @throws IllegalArgumentException naming the field, the rule and the value
   */
  public Conversation {
    checkArgument(turns > 0, "conversation turns must be positive: %s", turns);
    checkArgument(
        newTokensPerTurn > 0, "new tokens per turn must be positive: %s", newTokensPerTurn);
    checkArgument(
        answerTokensPerTurn > 0,
        "answer tokens per turn must be positive: %s",
        answerTokensPerTurn);
    checkArgument(
        Double.isFinite(thinkSeconds) && thinkSeconds >= 0,
        "think seconds must be finite and not negative: %s",
        thinkSeconds);
    // the last turn's context must fit an int: T·(u + a) tokens
    checkArgument(
        (long) turns * ((long) newTokensPerTurn + answerTokensPerTurn) <= Limits.MAX_TOKENS,
        "conversation tokens (turns x (new + answer tokens per turn)) must be at most %s: %s x"
            + " (%s + %s)",
        Limits.MAX_TOKENS,
        turns,
        newTokensPerTurn,
        answerTokensPerTurn);
  }

  /** {@code turns} turns of {@code newTokens} in and {@code answerTokens} out, think time θ. */
  public static Conversation of(int turns, int newTokens, int answerTokens, double thinkSeconds) {
    return new Conversation(turns, newTokens, answerTokens, thinkSeconds);
  }

  /** Mean history a turn arrives with, tokens: {@code (T − 1)(u + a) / 2}, rounded. */
  public int meanHistoryTokens() {
    return (int) Math.round((turns - 1) * ((double) newTokensPerTurn + answerTokensPerTurn) / 2);
  }

  /**
   * The mean turn when the share {@code hitRate} of histories is found in the cache: isl {@code u +
   * h̄}, osl {@code a}, prefix-hit rate {@code hitRate·h̄ / (u + h̄)}.
   *
   * @throws IllegalArgumentException when {@code hitRate} is outside [0, 1]
   */
  public Workload workload(double hitRate) {
    checkArgument(hitRate >= 0 && hitRate <= 1, "hit rate must be between 0 and 1: %s", hitRate);
    int history = meanHistoryTokens();
    int isl = newTokensPerTurn + history;
    return Workload.of(isl, answerTokensPerTurn).withPrefixHitRate(hitRate * history / isl);
  }

  /**
   * The steady state of conversations at {@code batch} running turns per replica of {@code d}: the
   * hit rate at the fixed point and the frontier point of the mean turn at that rate.
   *
   * @throws IllegalArgumentException when {@code d} is not colocated (a disaggregated pool's prefix
   *     cache is not modelled) or as {@link Deployment#point} throws
   */
  public Steady steadyState(Deployment d, int batch) {
    checkNotNull(d, "deployment");
    checkArgument(
        d instanceof ColocatedDeployment,
        "conversations are modelled on colocated deployments only, not %s",
        d.strategy().id());
    int context = workload(0).finalContext();
    // K: KV tokens of a replica at the mean final context
    double capacity = (double) d.largestBatch(context).orElse(0) * context;
    // running turns hold their prompt context and on average half their answer
    double held = batch * (newTokensPerTurn + meanHistoryTokens() + answerTokensPerTurn / 2.0);
    double low = 0;
    double high = 1;
    if (excess(d, batch, 1, capacity, held) <= 0) {
      low = 1;
    } else if (excess(d, batch, 0, capacity, held) >= 0) {
      high = 0;
    } else {
      for (int i = 0; i < BISECTIONS; i++) {
        double mid = (low + high) / 2;
        if (excess(d, batch, mid, capacity, held) > 0) {
          high = mid;
        } else {
          low = mid;
        }
      }
    }
    double p = (low + high) / 2;
    FrontierPoint point = d.point(batch, workload(p));
    double residence = residence(point, batch, capacity, held);
    return new Steady(
        this,
        p,
        residence,
        FrontierPoint.builder()
            .from(point)
            .note(
                String.format(
                    Locale.ROOT,
                    "%d-turn conversations: %.0f%% of histories (%,d tokens on average) found in the"
                        + " prefix cache, kept %.3g s",
                    turns,
                    100 * p,
                    meanHistoryTokens(),
                    residence))
            .build());
  }

  /** p − hit(L(p)): rises with p (more hits, shorter turns, more touches, shorter residence). */
  private double excess(Deployment d, int batch, double p, double capacity, double held) {
    FrontierPoint point = d.point(batch, workload(p));
    return p - LruResidence.hitProbability(residence(point, batch, capacity, held), thinkSeconds);
  }

  /** T_C of the point: free capacity over the tokens touched per second. */
  private double residence(FrontierPoint point, int batch, double capacity, double held) {
    // a turn's latency: its first token, then a − 1 more
    double latency = point.ttft().seconds() + (answerTokensPerTurn - 1) * point.tpot().seconds();
    // turns ending per second per replica (Little's law) × the tokens each touches
    double touched =
        batch / latency * ((double) newTokensPerTurn + meanHistoryTokens() + answerTokensPerTurn);
    return LruResidence.seconds(capacity - held, touched);
  }

  /** For example {@code "8 turns of 512 + 256 tokens, think 30 s"}. */
  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%d turns of %d + %d tokens, think %s s",
        turns,
        newTokensPerTurn,
        answerTokensPerTurn,
        thinkSeconds);
  }

  /**
   * Conversations at one batch: the share {@code hitRate} of turns that find their history cached,
   * the seconds {@code residenceSeconds} an untouched history stays ({@link LruResidence#seconds}),
   * and the frontier point of the mean turn at that rate (its note says both).
   *
   * @param conversation the conversations
   * @param hitRate share of histories found in the cache, in [0, 1]
   * @param residenceSeconds seconds an untouched history stays, ≥ 0
   * @param point the mean turn's frontier point
   */
  public record Steady(
      Conversation conversation, double hitRate, double residenceSeconds, FrontierPoint point) {
    /** Checks the ranges. */
    public Steady {
      checkNotNull(conversation, "conversation");
      checkNotNull(point, "point");
      checkArgument(hitRate >= 0 && hitRate <= 1, "hit rate must be in [0, 1]: %s", hitRate);
      checkArgument(
          Double.isFinite(residenceSeconds) && residenceSeconds >= 0,
          "residence seconds must be finite and not negative: %s",
          residenceSeconds);
    }
  }
}
