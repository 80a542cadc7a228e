package io.ridgeline.validation;

import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.RooflineModel;

/**
 * {@code static}: {@link Deployment.Strategy#STATIC} at batch = load; {@code ttft_ms} is the
 * prefill of the batch's prompts, {@code tpot_ms} one decode step of the batch at the
 * mid-generation context {@code isl + osl/2}.
 */
final class StaticPrediction extends ModePrediction {
  StaticPrediction(CaseContext x) {
    super(x);
  }

  @Override
  double predict() {
    int isl = isl();
    int osl = osl();
    int load = load();
    RooflineModel rm = system(load, isl + osl);
    int batch = perReplica(load, rm);
    if (!rm.memory(batch, isl + osl).fits()) {
      throw new Unpredictable(
          "does not fit: batch " + batch + " at context " + (isl + osl) + " on " + rm);
    }
    FrontierPoint p = deployment(Deployment.Strategy.STATIC, rm).point(batch, isl, osl);
    if (noting) {
      notes.add(rm + ", static batch " + batch);
    }
    if (c.metric() == Metric.TPOT_MS && systems.speculation().isEmpty()) {
      int context = isl + Math.max(1, osl / 2);
      notes.add("one decode step at context " + context);
      return 1e3 * rm.decode(batch, context).seconds().seconds();
    }
    return metric(p, isl, osl);
  }
}
