package io.ridgeline.validation;

import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.RooflineModel;
import java.util.OptionalInt;

/**
 * {@code disagg-prefill} and {@code disagg-decode}: one pool of a disaggregated system alone (see
 * the {@link Predictor} javadoc).
 */
final class DisaggPoolPrediction extends ModePrediction {
  DisaggPoolPrediction(CaseContext x) {
    super(x);
  }

  @Override
  double predict() {
    return c.mode() == Mode.DISAGG_PREFILL ? disaggPrefill() : disaggDecode();
  }

  private double disaggPrefill() {
    if (c.metric() != Metric.INPUT_TOK_S_PER_CHIP) {
      throw new Unpredictable(
          "metric not predicted in this mode: " + c.metric() + " in disagg-prefill");
    }
    int isl = isl();
    OptionalInt chips = c.prefillChips().isPresent() ? c.prefillChips() : c.chips();
    RooflineModel rm =
        systems.statedPool(chips, Math.max(1, RooflineModel.PREFILL_CHUNK_TOKENS / isl), isl);
    // the load is prefill tokens per chip per pass when stated
    int promptsPerPass =
        c.load().isPresent()
            ? (int) Math.max(1, Math.round((double) c.load().getAsInt() * rm.replicaChips() / isl))
            : rm.promptsPerPrefillPass(isl);
    if (!rm.memory(promptsPerPass, isl).fits()) {
      throw new Unpredictable(
          "does not fit: prefill pass of "
              + promptsPerPass
              + " prompts of "
              + isl
              + " tokens on "
              + rm);
    }
    double pass = rm.prefill(promptsPerPass, isl).seconds().seconds();
    notes.add(rm + ", " + promptsPerPass + " prompts of " + isl + " tokens per pass");
    return (double) promptsPerPass * isl / pass / rm.replicaChips();
  }

  private double disaggDecode() {
    Metric m = c.metric();
    if (m != Metric.OUT_TOK_S_PER_CHIP && m != Metric.TPOT_MS && m != Metric.OUT_TOK_S_PER_USER) {
      throw new Unpredictable("metric not predicted in this mode: " + m + " in disagg-decode");
    }
    int context = isl();
    OptionalInt chips = c.decodeChips().isPresent() ? c.decodeChips() : c.chips();
    RooflineModel rm = systems.decodePool(chips, c.load().orElse(1), context);
    int max = rm.maxBatch(context + 1);
    int batch;
    if (c.load().isPresent()) {
      boolean perChip = run.loadPerChip();
      int total = perChip ? c.load().getAsInt() * rm.chips() : c.load().getAsInt();
      batch = capped(perReplica(total, rm), max, context);
      notes.add(
          "decode batch "
              + batch
              + " per replica"
              + (perChip ? " (load per chip × " + rm.chips() + " chips)" : ""));
    } else {
      int top = capped(max, max, context);
      batch = bestBatch(top, b -> b / rm.decode(b, context).seconds().seconds());
      notes.add(
          batch == top
              ? "load not stated: largest decode batch that fits, " + batch + " per replica"
              : "load not stated: decode batch "
                  + batch
                  + " per replica of at most "
                  + top
                  + " gives the most tokens/s");
    }
    notes.add(0, rm.toString());
    double tpot;
    if (systems.speculation().isPresent()) {
      Deployment d = systems.disaggregated(rm, rm);
      tpot = d.point(batch, context, 1).tpot().seconds();
    } else {
      tpot = rm.decode(batch, context).seconds().seconds();
    }
    switch (m) {
      case TPOT_MS:
        return 1e3 * tpot;
      case OUT_TOK_S_PER_USER:
        return 1 / tpot;
      default:
        return batch / tpot / rm.replicaChips();
    }
  }
}
