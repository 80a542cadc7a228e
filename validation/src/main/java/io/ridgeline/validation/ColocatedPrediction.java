package io.ridgeline.validation;

import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.RooflineModel;

/**
 * {@code offline} and {@code single-stream}: colocated at the largest batch that fits (capped at
 * the engine's max_running_requests, at the batch of most tokens/s below that), at the load if
 * given, or at batch 1; TTFT without queueing.
 */
final class ColocatedPrediction extends ModePrediction {
  ColocatedPrediction(CaseContext x) {
    super(x);
  }

  @Override
  double predict() {
    int isl = isl();
    int osl = osl();
    boolean single = c.mode() == Mode.SINGLE_STREAM;
    int wanted = single ? 1 : c.load().orElse(Integer.MAX_VALUE);
    RooflineModel rm = system(wanted == Integer.MAX_VALUE ? 1 : wanted, isl + osl);
    Deployment d = deployment(Deployment.Strategy.COLOCATED, rm);
    int max = d.maxBatch(isl + osl);
    int batch;
    if (wanted == Integer.MAX_VALUE) {
      int top = engineCapped(capped(max, max, isl + osl));
      batch = bestThroughputBatch(d, top, isl, osl);
      notes.add(
          batch == top
              ? "offline: largest batch that fits"
              : "offline: batch " + batch + " of at most " + top + " gives the most tokens/s");
    } else {
      batch = engineCapped(capped(perReplica(wanted, rm), max, isl + osl));
    }
    notes.add(0, rm + ", colocated batch " + batch + " per replica");
    FrontierPoint p = d.point(batch, isl, osl);
    if (c.metric() == Metric.TTFT_MS && !single) {
      notes.add("TTFT without queueing");
    }
    return metric(p, p.tokensPerSecondPerChip(), p.ttft().seconds(), isl, osl);
  }

  /**
   * The batch in [1, {@code top}] with the highest output tokens/s per chip: the one a scheduler
   * maximising throughput settles on. Throughput grows with batch until the KV cache spills to a
   * slower tier or the per-step prefill share dominates; a grid of ratio 1.25 down from {@code
   * top}, then a grid of ratio 1.02 around the best, finds it.
   */
  private int bestThroughputBatch(Deployment d, int top, int isl, int osl) {
    int best = top;
    double bestRate = d.point(top, isl, osl).tokensPerSecondPerChip();
    for (double b = top / 1.25; b >= 1; b /= 1.25) {
      double rate = d.point((int) b, isl, osl).tokensPerSecondPerChip();
      if (rate > bestRate) {
        best = (int) b;
        bestRate = rate;
      }
    }
    int lo = Math.max(1, (int) (best / 1.25));
    int hi = Math.min(top, (int) Math.ceil(best * 1.25));
    for (double b = lo; b <= hi; b = Math.max(b + 1, b * 1.02)) {
      double rate = d.point((int) b, isl, osl).tokensPerSecondPerChip();
      if (rate > bestRate) {
        best = (int) b;
        bestRate = rate;
      }
    }
    return best;
  }
}
