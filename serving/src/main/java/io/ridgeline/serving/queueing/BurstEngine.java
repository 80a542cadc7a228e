package io.ridgeline.serving.queueing;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;

/**
 * The step-by-step simulation of {@link Burst}'s engine (see its class javadoc) for closed-loop
 * clients ({@link Burst#closedLoop(int, int, int, List, int, long, int, double, Burst.StepTime)}):
 * admission first come, first served under the running-request limit and the KV cache, chunked
 * prefill in admission order, each step timed by the deployment's {@link Burst.StepTime}, and the
 * measured requests' TTFTs and TPOTs collected.
 */
final class BurstEngine {
  private BurstEngine() {}

  /**
   * {@link Burst#closedLoop(int, int, int, List, int, long, int, double, Burst.StepTime)},
   * advancing the steps of steady decoding at once when {@code skipSteady} (the same result, see
   * the loop) or one by one.
   *
   * @throws IllegalArgumentException as {@link Burst#closedLoop(int, int, int, List, int, long,
   *     int, double, Burst.StepTime)}
   */
  static Burst run(
      int clients,
      int rounds,
      int warmupRounds,
      List<Burst.Request> requests,
      int maxRunning,
      long kvTokens,
      int chunkTokens,
      double admissionSeconds,
      Burst.StepTime stepTime,
      boolean skipSteady) {
    checkNotNull(requests, "requests");
    checkNotNull(stepTime, "stepTime");
    checkArgument(!requests.isEmpty(), "a run needs at least one request length");
    checkArgument(clients > 0, "clients must be positive: %s", clients);
    checkArgument(rounds > 0, "rounds must be positive: %s", rounds);
    checkArgument(warmupRounds >= 0, "warm-up rounds must be >= 0: %s", warmupRounds);
    checkArgument(maxRunning > 0, "max running requests must be positive: %s", maxRunning);
    checkArgument(chunkTokens > 0, "chunk tokens must be positive: %s", chunkTokens);
    checkArgument(
        admissionSeconds >= 0 && Double.isFinite(admissionSeconds),
        "admission seconds must be finite and >= 0: %s",
        admissionSeconds);
    int perClient = Math.addExact(rounds, warmupRounds);
    int n = Math.multiplyExact(clients, perClient);
    Burst.Request[] lengths = new Burst.Request[n];
    long largest = 0;
    for (int i = 0; i < n; i++) {
      lengths[i] = checkNotNull(requests.get(i % requests.size()), "request");
      largest = Math.max(largest, lengths[i].finalContextTokens());
    }
    checkArgument(
        largest <= kvTokens,
        "a request of %s tokens (input + output) does not fit a KV cache of %s tokens",
        largest,
        kvTokens);
    double[] arrival = new double[n];
    double[] firstToken = new double[n];
    List<Double> ttft = new ArrayList<>();
    List<Double> tpot = new ArrayList<>();
    long output = 0;
    double windowStart = Double.POSITIVE_INFINITY;
    // requests waiting for admission, in arrival order (ties by client): request indices
    Deque<Integer> waiting = new ArrayDeque<>();
    for (int k = 0; k < clients; k++) {
      waiting.addLast(k);
    }
    // running requests in admission order: [index, prompt tokens left, tokens left to decode]
    Deque<int[]> running = new ArrayDeque<>();
    long reserved = 0;
    int done = 0;
    int peak = 0;
    long stepCount = 0;
    double t = 0;
    List<Integer> next = new ArrayList<>(); // the requests sent at the end of a step
    while (done < n) {
      while (!waiting.isEmpty()
          && running.size() < maxRunning
          && reserved + lengths[waiting.peekFirst()].finalContextTokens() <= kvTokens) {
        int i = waiting.pollFirst();
        running.addLast(new int[] {i, lengths[i].inputTokens(), lengths[i].outputTokens() - 1});
        reserved += lengths[i].finalContextTokens();
      }
      peak = Math.max(peak, running.size());
      // steady decoding: when every running request has its prompt prefilled, no step admits a
      // request until one finishes (admission stopped above, and requests arrive only as others
      // finish), so the k - 1 steps before the first finish (k = the fewest tokens any running
      // request has left to decode) are one step of `running` sequences repeated: advance them at
      // once, adding the step's time once per step as the loop would (the same sums to the bit)
      int steady = skipSteady ? Integer.MAX_VALUE : -1;
      for (int[] a : running) {
        if (steady < 0) {
          break;
        }
        steady = a[1] == 0 ? Math.min(steady, a[2] - 1) : -1;
      }
      if (steady > 0 && steady != Integer.MAX_VALUE) {
        double dt = stepTime.seconds(running.size(), 0);
        checkArgument(
            dt > 0 && Double.isFinite(dt),
            "step time must be positive and finite: %s s at %s decoding and 0 prefill tokens",
            Double.valueOf(dt),
            Integer.valueOf(running.size()));
        for (int s = 0; s < steady; s++) {
          t += dt;
        }
        stepCount += steady;
        for (int[] a : running) {
          a[2] -= steady;
        }
      }
      // the step's mix: one token for each prefilled request, the chunk for the first prompts
      int decoding = 0;
      int prefill = 0;
      for (int[] a : running) {
        if (a[1] == 0) {
          decoding++;
        } else if (prefill < chunkTokens) {
          prefill += Math.min(a[1], chunkTokens - prefill);
        }
      }
      double dt = stepTime.seconds(decoding, prefill);
      checkArgument(
          dt > 0 && Double.isFinite(dt),
          "step time must be positive and finite: %s s at %s decoding and %s prefill tokens",
          dt,
          decoding,
          prefill);
      t += dt;
      stepCount++;
      // apply the step in running order: a request prefilled before it decodes a token, the first
      // prompts take their chunks (the same split as the mix above), and the finished leave
      next.clear();
      int given = 0; // prompt tokens of the step given out so far
      for (Iterator<int[]> it = running.iterator(); it.hasNext(); ) {
        int[] a = it.next();
        if (a[1] == 0) {
          a[2]--;
        } else if (given < chunkTokens) {
          int take = Math.min(a[1], chunkTokens - given);
          given += take;
          a[1] -= take;
          if (a[1] == 0) {
            firstToken[a[0]] = t;
          }
        }
        if (a[1] == 0 && a[2] == 0) {
          int index = a[0];
          Burst.Request r = lengths[index];
          if (index / clients >= warmupRounds) {
            // a measured request
            ttft.add(firstToken[index] - arrival[index] + admissionSeconds);
            if (r.outputTokens() > 1) {
              tpot.add((t - firstToken[index]) / (r.outputTokens() - 1));
            }
            output += r.outputTokens();
            windowStart = Math.min(windowStart, arrival[index]);
          }
          reserved -= r.finalContextTokens();
          it.remove();
          done++;
          if (index + clients < n) {
            // the client sends its next request now
            arrival[index + clients] = t;
            next.add(index + clients);
          }
        }
      }
      next.sort(null);
      waiting.addAll(next);
    }
    double[] ttfts = ttft.stream().mapToDouble(Double::doubleValue).toArray();
    double[] tpots = tpot.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(ttfts);
    Arrays.sort(tpots);
    return new Burst(ttfts, tpots, t - windowStart, output, stepCount, peak);
  }
}
