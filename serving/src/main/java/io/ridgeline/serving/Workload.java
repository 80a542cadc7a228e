package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Locale;

/**
 * What one request brings to a deployment: {@code inputTokens} prompt tokens (isl), {@code
 * outputTokens} generated tokens (osl), {@code cachedTokens} of history already in its KV cache
 * when the prompt arrives (a conversation's or an agent's earlier turns, kept by the engine), and
 * the fraction {@code prefixHitRate} of the prompt's tokens found in a prefix cache (a shared
 * system prompt, a re-sent document).
 *
 * <p>Prefill computes only the new tokens, {@link #newTokens()}, and their attention runs over the
 * cached ones too ({@link #cachedAtPrefill()}: history + prefix hits); decode runs at contexts from
 * {@link #promptContext()} to {@link #finalContext()}. With no history and no hits this is a plain
 * isl/osl request.
 *
 * <pre>{@code
 * Workload.of(256, 128).withCachedTokens(32_768);   // isl 256 after 32768 cached, osl 128
 * Workload.of(4096, 256).withPrefixHitRate(0.75);   // 3072 of 4096 prompt tokens hit
 * }</pre>
 *
 * <p>A multi-turn agent of turns of {@code u} new tokens and {@code a} answer tokens is, at turn k
 * (1-based), {@code Workload.of(u, a).withCachedTokens((k − 1) · (u + a))}.
 *
 * @param inputTokens prompt tokens per request (isl), positive
 * @param outputTokens generated tokens per request (osl), positive
 * @param cachedTokens tokens already in the request's KV cache when its prompt arrives, ≥ 0
 * @param prefixHitRate fraction of the prompt's tokens served from a prefix cache, in [0, 1)
 */
public record Workload(int inputTokens, int outputTokens, int cachedTokens, double prefixHitRate) {
  /**
   * Validates the fields.
   *
   * @throws IllegalArgumentException naming the field, the rule and the value
   */
  public Workload {
    checkArgument(inputTokens > 0, "input tokens (isl) must be positive: %s", inputTokens);
    checkArgument(outputTokens > 0, "output tokens (osl) must be positive: %s", outputTokens);
    checkArgument(cachedTokens >= 0, "cached tokens must be non-negative: %s", cachedTokens);
    checkArgument(
        prefixHitRate >= 0 && prefixHitRate < 1,
        "prefix hit rate must be at least 0 and below 1: %s",
        prefixHitRate);
    checkArgument(
        (long) cachedTokens + inputTokens + outputTokens <= Integer.MAX_VALUE,
        "cached + input + output tokens must fit an int: %s + %s + %s",
        cachedTokens,
        inputTokens,
        outputTokens);
  }

  /** A request of {@code inputTokens} prompt and {@code outputTokens} output tokens, no history. */
  public static Workload of(int inputTokens, int outputTokens) {
    return new Workload(inputTokens, outputTokens, 0, 0);
  }

  /** This workload with {@code tokens} of history in the KV cache when the prompt arrives. */
  public Workload withCachedTokens(int tokens) {
    return new Workload(inputTokens, outputTokens, tokens, prefixHitRate);
  }

  /** This workload with the fraction {@code rate} of prompt tokens hitting a prefix cache. */
  public Workload withPrefixHitRate(double rate) {
    return new Workload(inputTokens, outputTokens, cachedTokens, rate);
  }

  /**
   * Prompt tokens served from the prefix cache: ⌊rate · isl⌋, at most isl − 1 (the prompt's last
   * token is always computed: its logits start the answer).
   */
  public int prefixHitTokens() {
    return (int) Math.min(inputTokens - 1L, (long) Math.floor(prefixHitRate * inputTokens));
  }

  /** Prompt tokens prefill computes: isl − prefix hits. */
  public int newTokens() {
    return inputTokens - prefixHitTokens();
  }

  /** Tokens whose KV is in the cache when prefill starts: history + prefix hits. */
  public int cachedAtPrefill() {
    return cachedTokens + prefixHitTokens();
  }

  /** Tokens in the KV cache when the prompt is done: history + isl (the first decode context). */
  public int promptContext() {
    return cachedTokens + inputTokens;
  }

  /** Tokens in the KV cache when the answer is done: history + isl + osl. */
  public int finalContext() {
    return cachedTokens + inputTokens + outputTokens;
  }

  /** Whether there is history or a prefix hit (else a plain isl/osl request). */
  public boolean hasCache() {
    return cachedAtPrefill() > 0;
  }

  /** For example {@code "isl 256 (0 prefix hits) after 32768 cached, osl 128"}. */
  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "isl %d (%d prefix hits) after %d cached, osl %d",
        inputTokens,
        prefixHitTokens(),
        cachedTokens,
        outputTokens);
  }
}
