package io.ridgeline.serving.queueing;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A burst: N requests that arrive together at one replica of a continuous-batching engine (a
 * benchmark run with {@code --request-rate inf}, an "offline" batch of N prompts), simulated step
 * by step until the last one finishes. The result is each request's TTFT (its place in the draining
 * queue, not an unqueued prefill), its TPOT, and the run's throughput over its makespan, ramp and
 * tail included.
 *
 * <p><b>The engine.</b> Requests are admitted first come, first served while fewer than {@code
 * maxRunning} run (the engine's max running requests, vLLM's {@code max_num_seqs}) and their KV
 * cache fits: each admitted request reserves its final context, {@code input + output} tokens, out
 * of {@code kvTokens}, released when it finishes. Each step:
 *
 * <ul>
 *   <li>every running request whose prompt is prefilled decodes one token;
 *   <li>the running requests still in prefill, in admission order, get up to {@code chunkTokens}
 *       prompt tokens between them (chunked prefill: a long prompt spans several steps, short ones
 *       share a step);
 *   <li>the step takes {@link StepTime#seconds stepTime(decoding, prefillTokens)}, the deployment's
 *       own step time of that mix.
 * </ul>
 *
 * A request whose last prompt chunk is in a step has its first token at that step's end: its TTFT
 * is that time plus {@code admissionSeconds} (the host's fixed latency, which does not hold up the
 * engine). It then decodes one token per step; its TPOT is {@code (finish − first token) / (output
 * − 1)}. Throughput is {@code Σ output tokens / makespan}, the makespan being the end of the last
 * step.
 *
 * <p><b>Bounds.</b> With a step time affine in both arguments ({@code W + a·d + b·p}), the
 * throughput is at most that of the steady state of {@code maxRunning} slots, {@code B·osl / ((osl
 * − 1)·stepTime(B, B·isl / (osl − 1)))} for fixed lengths: every decode step carries at most B
 * decodes, and prompt tokens and decodes cost the same wherever they run. Adding requests to a
 * burst of equal requests never lowers its median TTFT (first come, first served: the earlier
 * requests' steps can only grow, and the new ones finish their prefill last).
 *
 * <p>Worked example: 3 requests of 2 prompt and 2 output tokens, at most 2 running, a chunk of 2
 * tokens, every step 1 s: step 1 prefills request 0 (TTFT 1 s), step 2 decodes it (it finishes at 2
 * s) and prefills request 1 (TTFT 2 s); step 3 admits request 2 into request 0's slot, decodes
 * request 1 (it finishes) and prefills request 2 (TTFT 3 s); step 4 decodes request 2. TTFTs 1, 2
 * and 3 s (median 2 s), TPOT 1 s, 6 output tokens over 4 s: 1.5 tokens/s.
 */
public final class Burst {
  /**
   * The time of one engine step, the deployment's step-time function.
   *
   * <p>Implementations return a positive, finite number of seconds.
   */
  @FunctionalInterface
  public interface StepTime {
    /**
     * Seconds of a step in which {@code decoding} running sequences each produce one token and
     * {@code prefillTokens} prompt tokens are prefilled in the same forward pass (at least one of
     * the two is positive).
     */
    double seconds(int decoding, int prefillTokens);
  }

  /**
   * One request's lengths.
   *
   * @param inputTokens prompt tokens, positive
   * @param outputTokens generated tokens, positive
   */
  public record Request(int inputTokens, int outputTokens) {
    /**
     * Validates the lengths.
     *
     * @throws IllegalArgumentException when a length is not positive
     */
    public Request {
      checkArgument(inputTokens > 0, "input tokens must be positive: %s", inputTokens);
      checkArgument(outputTokens > 0, "output tokens must be positive: %s", outputTokens);
    }

    /** The KV cache the request holds when it finishes: input + output tokens. */
    public long finalContextTokens() {
      return (long) inputTokens + outputTokens;
    }
  }

  /** φ − 1, the golden ratio's fractional part: the input lengths' low-discrepancy sequence. */
  private static final double INPUT_STEP = 0.6180339887498949;

  /** √2 − 1: the output lengths' sequence, independent of the input lengths'. */
  private static final double OUTPUT_STEP = 0.41421356237309515;

  private final double[] ttftSeconds;
  private final double[] tpotSeconds;
  private final double makespanSeconds;
  private final long outputTokens;
  private final long steps;
  private final int peakRunning;

  Burst(
      double[] ttftSeconds,
      double[] tpotSeconds,
      double makespanSeconds,
      long outputTokens,
      long steps,
      int peakRunning) {
    this.ttftSeconds = ttftSeconds;
    this.tpotSeconds = tpotSeconds;
    this.makespanSeconds = makespanSeconds;
    this.outputTokens = outputTokens;
    this.steps = steps;
    this.peakRunning = peakRunning;
  }

  /**
   * Simulates {@code requests}, all arriving at time 0, in list order (see the class javadoc).
   *
   * @param requests the requests, in arrival order, at least one
   * @param maxRunning the most requests running at once (prefilling or decoding), positive
   * @param kvTokens KV-cache capacity in tokens; every request's input + output must fit it
   * @param chunkTokens prompt tokens per step, positive
   * @param admissionSeconds fixed host latency added to every TTFT, ≥ 0
   * @param stepTime the deployment's step time
   * @throws IllegalArgumentException when an argument breaks its rule, a request cannot fit the KV
   *     cache alone, or {@code stepTime} returns a time that is not positive and finite
   */
  public static Burst simulate(
      List<Request> requests,
      int maxRunning,
      long kvTokens,
      int chunkTokens,
      double admissionSeconds,
      StepTime stepTime) {
    checkNotNull(requests, "requests");
    checkArgument(!requests.isEmpty(), "a burst needs at least one request");
    return closedLoop(
        requests.size(),
        1,
        0,
        requests,
        maxRunning,
        kvTokens,
        chunkTokens,
        admissionSeconds,
        stepTime);
  }

  /**
   * Simulates {@code clients} closed-loop clients on the engine of the class javadoc: each sends
   * its first request at time 0 and each next one as soon as its previous one finishes, {@code
   * warmupRounds + rounds} requests in all; a burst is one round. Each client's offset is carried
   * from round to round: a client whose request finished early sends its next one early, so the
   * rounds drift apart as they do in a benchmark, rather than starting together. Requests that
   * arrive at a step's end join the next step's admission, first come first served (ties in client
   * order). Only the last {@code rounds} requests of each client are measured: the TTFTs and TPOTs
   * are theirs, and the throughput is their output tokens over the window from the first measured
   * arrival to the last finish (with no warm-up, the makespan).
   *
   * <p>Worked example: 2 clients, 2 rounds, requests of 2 prompt and 2 output tokens, 1 running, a
   * chunk of 2 tokens, every step 1 s: client 0's first request runs in steps 1-2 (TTFT 1 s), then
   * client 1's in steps 3-4 (TTFT 3 s: it waited for the slot), client 0's second (sent at 2 s) in
   * steps 5-6 (TTFT 5 − 2 = 3 s), client 1's second (sent at 4 s) in 7-8 (TTFT 3 s). With one
   * warm-up round the measured TTFTs are 3 and 3 s, 4 tokens over 8 − 2 = 6 s.
   *
   * @param clients clients, positive
   * @param rounds measured requests per client, positive
   * @param warmupRounds requests per client sent before the measured ones, ≥ 0
   * @param requests the lengths of the requests in sending order, round by round: request {@code j
   *     × clients + k} is client k's j-th (warm-up first); taken in turn, repeated when shorter
   * @throws IllegalArgumentException as {@link #simulate}, or when a count breaks its rule
   */
  public static Burst closedLoop(
      int clients,
      int rounds,
      int warmupRounds,
      List<Request> requests,
      int maxRunning,
      long kvTokens,
      int chunkTokens,
      double admissionSeconds,
      StepTime stepTime) {
    return closedLoop(
        clients,
        rounds,
        warmupRounds,
        requests,
        maxRunning,
        kvTokens,
        chunkTokens,
        admissionSeconds,
        stepTime,
        true);
  }

  /**
   * {@link #closedLoop(int, int, int, List, int, long, int, double, StepTime)}, advancing the steps
   * of steady decoding at once when {@code skipSteady} (the same result, see the loop) or one by
   * one (the plain simulation, which tests compare it with).
   */
  static Burst closedLoop(
      int clients,
      int rounds,
      int warmupRounds,
      List<Request> requests,
      int maxRunning,
      long kvTokens,
      int chunkTokens,
      double admissionSeconds,
      StepTime stepTime,
      boolean skipSteady) {
    return BurstEngine.run(
        clients,
        rounds,
        warmupRounds,
        requests,
        maxRunning,
        kvTokens,
        chunkTokens,
        admissionSeconds,
        stepTime,
        skipSteady);
  }

  /**
   * {@code n} requests whose lengths spread uniformly over {@code [inputLow, inputHigh] × input}
   * and {@code [outputLow, outputHigh] × output} tokens: request i's input is {@code max(1,
   * round(input × (low + (high − low)·u_i)))} with {@code u_i} the fractional part of {@code 0.5 +
   * i·(φ − 1)}, a low-discrepancy sequence (evenly spread over [0, 1) for every prefix of the
   * requests, and the same on every call), its output likewise with {@code √2 − 1}. A benchmark's
   * range ratio r ({@code vllm bench --random-range-ratio}) is {@code [1 − r, 1 + r]} in recent
   * vLLM and {@code [r, 1]} in InferenceMAX's and older clients; {@code [1, 1]} is fixed lengths.
   *
   * <p>Worked example: 2 requests of 1,000 input tokens over [0.5, 1.5]: u = 0.5 and 0.118, inputs
   * 1,000 and 618.
   *
   * @throws IllegalArgumentException when {@code n} or a length is not positive, or a range is not
   *     {@code 0 ≤ low ≤ high} and finite
   */
  public static List<Request> uniformLengths(
      int n,
      int input,
      double inputLow,
      double inputHigh,
      int output,
      double outputLow,
      double outputHigh) {
    checkArgument(n > 0, "requests must be positive: %s", n);
    checkArgument(input > 0 && output > 0, "lengths must be positive: %s, %s", input, output);
    checkArgument(
        inputLow >= 0 && inputLow <= inputHigh && Double.isFinite(inputHigh),
        "input range must be 0 <= low <= high: [%s, %s]",
        inputLow,
        inputHigh);
    checkArgument(
        outputLow >= 0 && outputLow <= outputHigh && Double.isFinite(outputHigh),
        "output range must be 0 <= low <= high: [%s, %s]",
        outputLow,
        outputHigh);
    List<Request> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      list.add(
          new Request(
              spread(input, inputLow, inputHigh, (0.5 + i * INPUT_STEP) % 1.0),
              spread(output, outputLow, outputHigh, (0.5 + i * OUTPUT_STEP) % 1.0)));
    }
    return list;
  }

  /** {@code length × (low + (high − low)·u)}, rounded, at least 1 and at most an int's range. */
  private static int spread(int length, double low, double high, double u) {
    // a length drawn uniformly from [low·length, high·length]
    double v = Math.round(length * (low + (high - low) * u));
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, v));
  }

  /**
   * The bursts of several replicas as one run: every request's TTFT and TPOT together, the output
   * tokens summed, the makespan, steps and peak of the busiest replica.
   *
   * @throws IllegalArgumentException when {@code replicas} is empty
   */
  public static Burst ofReplicas(List<Burst> replicas) {
    checkArgument(!replicas.isEmpty(), "a burst needs at least one replica");
    double[] ttft = replicas.stream().flatMapToDouble(b -> Arrays.stream(b.ttftSeconds)).toArray();
    double[] tpot = replicas.stream().flatMapToDouble(b -> Arrays.stream(b.tpotSeconds)).toArray();
    Arrays.sort(ttft);
    Arrays.sort(tpot);
    return new Burst(
        ttft,
        tpot,
        replicas.stream().mapToDouble(b -> b.makespanSeconds).max().orElseThrow(),
        replicas.stream().mapToLong(b -> b.outputTokens).sum(),
        replicas.stream().mapToLong(b -> b.steps).max().orElseThrow(),
        replicas.stream().mapToInt(b -> b.peakRunning).max().orElseThrow());
  }

  /** Measured requests in the run (all of a burst's). */
  public int requests() {
    return ttftSeconds.length;
  }

  /** Every request's TTFT in seconds, ascending (a copy). */
  public double[] ttftSeconds() {
    return ttftSeconds.clone();
  }

  /** Median TTFT in seconds (the mean of the two middle ones for an even count). */
  public double medianTtftSeconds() {
    return median(ttftSeconds);
  }

  /** Mean TTFT in seconds. */
  public double meanTtftSeconds() {
    return Arrays.stream(ttftSeconds).average().orElse(0);
  }

  /**
   * 99th-percentile TTFT in seconds, by nearest rank: the {@code ⌈0.99·N⌉}-th smallest (the largest
   * for N ≤ 100).
   */
  public double p99TtftSeconds() {
    return nearestRank(ttftSeconds, 0.99);
  }

  /** Median TPOT in seconds over the requests with more than one output token; 0 when none has. */
  public double medianTpotSeconds() {
    return tpotSeconds.length == 0 ? 0 : median(tpotSeconds);
  }

  /** Mean TPOT in seconds over the requests with more than one output token; 0 when none has. */
  public double meanTpotSeconds() {
    return Arrays.stream(tpotSeconds).average().orElse(0);
  }

  /**
   * Seconds from the arrival of the burst to the end of the last step; for a closed loop, from the
   * first measured request's arrival.
   */
  public double makespanSeconds() {
    return makespanSeconds;
  }

  /** Output tokens of all requests. */
  public long outputTokens() {
    return outputTokens;
  }

  /** Output tokens per second over the makespan: {@code outputTokens / makespan}. */
  public double outputTokensPerSecond() {
    return outputTokens / makespanSeconds;
  }

  /** Engine steps of the run. */
  public long steps() {
    return steps;
  }

  /** The most requests that ran at once. */
  public int peakRunning() {
    return peakRunning;
  }

  private static double median(double[] sorted) {
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  private static double nearestRank(double[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "burst of %d: TTFT median %.4g s, p99 %.4g s; TPOT median %.4g s; %.4g output tok/s over"
            + " %.4g s",
        requests(),
        medianTtftSeconds(),
        p99TtftSeconds(),
        medianTpotSeconds(),
        outputTokensPerSecond(),
        makespanSeconds);
  }
}
