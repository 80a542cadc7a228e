package io.ridgeline.validation;

import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.PointsAt;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Workload;

/**
 * {@code offline} and {@code single-stream}: colocated at the largest batch that fits (capped at
 * the engine's max_running_requests, at the batch of most tokens/s below that), at the load if
 * given, or at batch 1; TTFT without queueing. A single-stream speed (tokens/s per user) whose
 * lengths the source does not state, as vendors' headline claims, is predicted at a short chat turn
 * of {@value #ASSUMED_ISL} prompt and {@value #ASSUMED_OSL} output tokens: one sequence's decode
 * step is the weights' read plus a KV read that is small beside it at such contexts.
 */
final class ColocatedPrediction extends ModePrediction {
  ColocatedPrediction(CaseContext x) {
    super(x);
  }

  /** Prompt tokens assumed for a single-stream speed whose lengths are not stated. */
  static final int ASSUMED_ISL = 128;

  /** Output tokens assumed for a single-stream speed whose lengths are not stated. */
  static final int ASSUMED_OSL = 512;

  @Override
  double predict() {
    boolean single =
        switch (c.mode()) {
          case SINGLE_STREAM -> true;
          case OFFLINE -> false;
          case STATIC,
              BURST,
              CLIENTS,
              CONCURRENCY,
              SERVER,
              DISAGG_CONCURRENCY,
              DISAGG_PREFILL,
              DISAGG_DECODE,
              PRODUCTION ->
              throw otherFamily();
        };
    boolean assumeLengths =
        single
            && c.metric() == Metric.OUT_TOK_S_PER_USER
            && (c.isl().isEmpty() || c.osl().isEmpty());
    int isl = assumeLengths ? c.isl().orElse(ASSUMED_ISL) : isl();
    int osl = assumeLengths ? c.osl().orElse(ASSUMED_OSL) : osl();
    if (assumeLengths) {
      notes.add(
          "lengths not stated: single-stream speed at ISL " + isl + ", OSL " + osl + " assumed");
    }
    int wanted = single ? 1 : c.load().orElse(Integer.MAX_VALUE);
    RooflineModel rm = system(wanted == Integer.MAX_VALUE ? 1 : wanted, isl + osl);
    Deployment d = deployment(Deployment.Strategy.COLOCATED, rm);
    int max = d.largestBatch(isl + osl).orElse(0);
    int batch;
    if (wanted == Integer.MAX_VALUE) {
      int top = engineCapped(capped(max, max, isl + osl));
      // the search's points from the compiled path (Deployment#pointsAt: equal to the object
      // path's to the last digit or two, which fall back to it where not compiled); the chosen
      // batch's point below from the object path
      PointsAt at = d.pointsAt(Workload.of(isl, osl));
      batch = bestBatch(top, b -> at.point(b).tokensPerSecondPerChip());
      notes.add(
          batch == top
              ? "offline: largest batch that fits"
              : "offline: batch " + batch + " of at most " + top + " gives the most tokens/s");
    } else {
      batch = engineCapped(capped(perReplica(wanted, rm), max, isl + osl));
    }
    if (noting) {
      notes.add(0, rm + ", colocated batch " + batch + " per replica");
    }
    FrontierPoint p = d.point(batch, isl, osl);
    if (c.metric().quantity() == Metric.Quantity.TTFT && !single) {
      notes.add("TTFT without queueing");
    }
    return metric(p, p.tokensPerSecondPerChip(), p.ttft().seconds(), isl, osl);
  }
}
