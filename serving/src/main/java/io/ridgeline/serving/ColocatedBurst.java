package io.ridgeline.serving;

import io.ridgeline.serving.queueing.Burst;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The closed-loop runs of {@link ColocatedDeployment#closedLoop} (and so of its {@link
 * ColocatedDeployment#burst}): every step costed at the mean request (the rounded mean prompt and
 * output lengths), the clients dealt round-robin over the pool's replicas (client {@code k} to
 * replica {@code k mod replicas}), each replica simulated by {@link Burst#closedLoop} with a KV
 * capacity of {@code maxBatch(c) · c} tokens at the mean final context {@code c}, its step times
 * memoised by (decoding sequences, prompt tokens), and the runs joined by {@link Burst#ofReplicas}.
 */
final class ColocatedBurst {
  private ColocatedBurst() {}

  /** The deployment's own step: seconds of a step ({@link ColocatedDeployment#burst}). */
  interface StepSeconds {
    /**
     * Seconds of a step of {@code decoding} sequences at workload {@code w}'s decode context with
     * {@code prefillTokens} prompt tokens of {@code w} riding it.
     */
    double seconds(int decoding, int prefillTokens, Workload w);
  }

  /**
   * {@code clients} closed-loop clients on {@code pool}'s replicas, each step timed by {@code
   * steps} ({@link ColocatedDeployment#closedLoop}).
   *
   * @throws IllegalArgumentException as {@link ColocatedDeployment#closedLoop}
   */
  static Burst closedLoop(
      RooflineModel pool,
      int clients,
      int rounds,
      int warmupRounds,
      List<Burst.Request> requests,
      int maxRunning,
      StepSeconds steps) {
    if (requests.isEmpty() || clients <= 0) {
      throw new IllegalArgumentException(
          "a run needs at least one client and one request length: " + clients + " clients");
    }
    double isl = requests.stream().mapToInt(Burst.Request::inputTokens).average().orElseThrow();
    double osl = requests.stream().mapToInt(Burst.Request::outputTokens).average().orElseThrow();
    Workload w =
        Workload.of((int) Math.max(1, Math.round(isl)), (int) Math.max(1, Math.round(osl)));
    int context = w.finalContext();
    int fit = pool.maxBatch(context);
    if (fit == 0) {
      throw new IllegalArgumentException(
          "a burst needs one request of " + context + " tokens to fit: it does not on " + pool);
    }
    // KV tokens of one replica: the largest batch that fits at the mean final context, × context
    long kvTokens = (long) fit * context;
    Map<Long, Double> memo = new HashMap<>();
    Burst.StepTime step =
        (decoding, prefillTokens) ->
            memo.computeIfAbsent(
                ((long) decoding << 32) | prefillTokens,
                k -> steps.seconds(decoding, prefillTokens, w));
    int replicas = pool.replicas();
    int perClient = Math.addExact(rounds, warmupRounds);
    List<Burst> runs = new ArrayList<>();
    for (int r = 0; r < Math.min(replicas, clients); r++) {
      // the replica's clients k = r, r + replicas, ...; their requests round by round
      List<Integer> mine = new ArrayList<>();
      for (int k = r; k < clients; k += replicas) {
        mine.add(k);
      }
      List<Burst.Request> lengths = new ArrayList<>();
      for (int j = 0; j < perClient; j++) {
        for (int k : mine) {
          lengths.add(requests.get((int) (((long) j * clients + k) % requests.size())));
        }
      }
      runs.add(
          Burst.closedLoop(
              mine.size(),
              rounds,
              warmupRounds,
              lengths,
              maxRunning,
              kvTokens,
              RooflineModel.PREFILL_CHUNK_TOKENS,
              pool.efficiency().admission().seconds(),
              step));
    }
    return Burst.ofReplicas(runs);
  }
}
