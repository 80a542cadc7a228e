package io.ridgeline.validation;

import io.ridgeline.serving.ColocatedDeployment;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.queueing.Burst;
import java.util.List;
import java.util.Locale;

/**
 * {@code burst}: the run's {@code prompts} requests sent at once ({@code --request-rate inf}, an
 * offline throughput script) to a colocated system, simulated until the last finishes ({@link
 * ColocatedDeployment#burst}). A replica runs at most {@code load} requests (the engine's slots,
 * when stated) or the engine profile's max_running_requests, and what its KV cache holds. Lengths
 * are fixed unless the row states {@code range_ratio} r: then uniform over [r·L, L] ({@link
 * Burst#uniformLengths}). Throughput is output tokens over the makespan (ramp and tail included);
 * {@code ttft_ms} the mean TTFT, {@code median_ttft_ms} the median, {@code tpot_ms} the mean TPOT,
 * {@code e2e_s} the mean TTFT + (osl − 1) × the mean TPOT.
 *
 * <p>{@code clients}: {@code load} closed-loop clients on the same engine ({@link
 * ColocatedDeployment#closedLoop}), each sending its next request when its previous one finishes,
 * {@code prompts / load} rounds (10 when not stated), at most the engine's max_running_requests per
 * replica, lengths uniform over [r·L, L] with the row's range ratio or InferenceMAX's 0.8, as
 * {@code concurrency}; the same metrics over every request.
 */
final class BurstPrediction extends ModePrediction {
  BurstPrediction(CaseContext x) {
    super(x);
  }

  @Override
  double predict() {
    boolean burst =
        switch (c.mode()) {
          case BURST -> true;
          case CLIENTS -> false;
          case STATIC,
              CONCURRENCY,
              OFFLINE,
              SERVER,
              SINGLE_STREAM,
              DISAGG_CONCURRENCY,
              DISAGG_PREFILL,
              DISAGG_DECODE,
              PRODUCTION ->
              throw otherFamily();
        };
    int isl = isl();
    int osl = osl();
    int requests;
    int clients;
    int rounds;
    if (burst) {
      requests =
          run.prompts()
              .orElseThrow(
                  () -> new Unpredictable("requests not stated: burst needs the prompts column"));
      clients = requests;
      rounds = 1;
    } else {
      clients = load();
      rounds = run.cycles(c.load());
      requests = Math.multiplyExact(clients, rounds);
    }
    RooflineModel rm = system(Math.min(clients, 256), isl + osl);
    Deployment d = deployment(Deployment.Strategy.COLOCATED, rm);
    if (!(d instanceof ColocatedDeployment colocated)) {
      throw new IllegalStateException("colocated deployment expected: " + d);
    }
    if (colocated.speculation().isPresent()) {
      throw new Unpredictable(c.mode() + " with speculative decoding is not modelled");
    }
    int limit =
        engineCapped(
            burst
                ? (c.load().isPresent() ? perReplica(c.load().getAsInt(), rm) : requests)
                : perReplica(clients, rm));
    // a burst's lengths are fixed unless stated; clients' as the closed loop's (InferenceMAX's)
    double r = burst ? run.rangeRatio().orElse(1.0) : run.rangeRatioOrDefault();
    List<Burst.Request> list = Burst.uniformLengths(requests, isl, r, 1, osl, r, 1);
    Burst b =
        burst
            ? colocated.burst(list, limit)
            : colocated.closedLoop(clients, rounds, 0, list, limit);
    if (noting) {
      notes.add(0, rm + ", colocated, at most " + limit + " running per replica");
    }
    notes.add(
        String.format(
            Locale.ROOT,
            "%s: %d requests (%d clients), range ratio %.2f, peak %d running: TTFT median %.4g s,"
                + " mean %.4g s; makespan %.4g s",
            c.mode(),
            requests,
            clients,
            r,
            b.peakRunning(),
            b.medianTtftSeconds(),
            b.meanTtftSeconds(),
            b.makespanSeconds()));
    double outPerChip = b.outputTokensPerSecond() / rm.chips();
    double tpot = b.meanTpotSeconds();
    // mean lengths of the requests: the throughput ratios of total and input to output tokens
    double meanIsl = list.stream().mapToInt(Burst.Request::inputTokens).average().orElseThrow();
    double meanOsl = list.stream().mapToInt(Burst.Request::outputTokens).average().orElseThrow();
    return switch (c.metric()) {
      case TTFT_MS -> 1e3 * b.meanTtftSeconds();
      case MEDIAN_TTFT_MS -> 1e3 * b.medianTtftSeconds();
      case TPOT_MS -> 1e3 * tpot;
      case E2E_S -> b.meanTtftSeconds() + (meanOsl - 1) * tpot;
      case OUT_TOK_S_PER_USER -> tpot > 0 ? 1 / tpot : 0;
      case OUT_TOK_S_PER_CHIP -> outPerChip;
      case TOTAL_TOK_S_PER_CHIP -> outPerChip * (meanIsl + meanOsl) / meanOsl;
      case INPUT_TOK_S_PER_CHIP -> outPerChip * meanIsl / meanOsl;
    };
  }
}
