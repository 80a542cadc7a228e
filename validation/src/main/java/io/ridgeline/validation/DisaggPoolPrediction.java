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
    return switch (c.mode()) {
      case DISAGG_PREFILL -> disaggPrefill();
      case DISAGG_DECODE -> disaggDecode();
      case STATIC,
          CONCURRENCY,
          OFFLINE,
          BURST,
          CLIENTS,
          SERVER,
          SINGLE_STREAM,
          DISAGG_CONCURRENCY,
          PRODUCTION ->
          throw otherFamily();
    };
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
    if (noting) {
      notes.add(rm + ", " + promptsPerPass + " prompts of " + isl + " tokens per pass");
    }
    return (double) promptsPerPass * isl / pass / rm.replicaChips();
  }

  private double disaggDecode() {
    Metric m = c.metric();
    if (!decodeMetric(m)) {
      throw new Unpredictable("metric not predicted in this mode: " + m + " in disagg-decode");
    }
    int context = isl();
    OptionalInt chips = c.decodeChips().isPresent() ? c.decodeChips() : c.chips();
    RooflineModel rm = systems.decodePool(chips, c.load().orElse(1), context);
    int max = rm.largestBatch(context + 1).orElse(0);
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
      // the search's steps from the compiled path (DecodeTimes#byBatch: equal to
      // the object path's to the last digit or two); the chosen batch's step below from the
      // object path
      java.util.function.IntToDoubleFunction seconds =
          io.ridgeline.serving.DecodeTimes.byBatch(rm, context);
      batch = bestBatch(top, b -> b / seconds.applyAsDouble(b));
      notes.add(
          batch == top
              ? "load not stated: largest decode batch that fits, " + batch + " per replica"
              : "load not stated: decode batch "
                  + batch
                  + " per replica of at most "
                  + top
                  + " gives the most tokens/s");
    }
    if (noting) {
      notes.add(0, rm.toString());
    }
    double tpot;
    if (systems.speculation().isPresent()) {
      Deployment d = systems.disaggregated(rm, rm);
      tpot = d.point(batch, context, 1).tpot().seconds();
    } else {
      tpot = rm.decode(batch, context).seconds().seconds();
    }
    return switch (m) {
      case TPOT_MS -> 1e3 * tpot;
      case OUT_TOK_S_PER_USER -> 1 / tpot;
      case OUT_TOK_S_PER_CHIP -> batch / tpot / rm.replicaChips();
      case TTFT_MS, MEDIAN_TTFT_MS, E2E_S, TOTAL_TOK_S_PER_CHIP, INPUT_TOK_S_PER_CHIP ->
          throw new AssertionError(m); // rejected by decodeMetric
    };
  }

  /** Whether a decode pool alone predicts {@code m}: its speed per request and its throughput. */
  private static boolean decodeMetric(Metric m) {
    return switch (m) {
      case TPOT_MS, OUT_TOK_S_PER_USER, OUT_TOK_S_PER_CHIP -> true;
      case TTFT_MS, MEDIAN_TTFT_MS, E2E_S, TOTAL_TOK_S_PER_CHIP, INPUT_TOK_S_PER_CHIP -> false;
    };
  }
}
