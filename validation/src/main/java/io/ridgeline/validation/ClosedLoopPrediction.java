package io.ridgeline.validation;

import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.queueing.ClosedLoop;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.function.IntToDoubleFunction;

/**
 * {@code concurrency} (colocated) and {@code disagg-concurrency} (PD): closed-loop clients, a batch
 * capped by memory and the engine, TTFT from the rounds in which prompts arrive and the queueing of
 * the clients beyond the batch (see the {@link Predictor} javadoc, <b>Closed-loop TTFT</b> and
 * <b>Closed-loop queueing</b>).
 */
final class ClosedLoopPrediction extends ModePrediction {
  ClosedLoopPrediction(CaseContext x) {
    super(x);
  }

  /**
   * What a closed-loop point predicts for every metric of its row's operating point: the frontier
   * point, output tokens/s per chip and the TTFT with queueing, at the row's lengths.
   */
  record Values(FrontierPoint point, double outPerChip, double ttft, int isl, int osl) {}

  @Override
  double predict() {
    return metric(c.metric(), values());
  }

  /** {@code m} of {@code v}, in the metric's unit ({@link ModePrediction#metric}). */
  double metric(Metric m, Values v) {
    return metric(m, v.point(), v.outPerChip(), v.ttft(), v.isl(), v.osl());
  }

  /**
   * The values of the row's operating point. They depend on the row's metric only through the TTFT
   * statistic (the median of the rounds for {@code median_ttft_ms}, their mean otherwise) and the
   * notes, so the rows of one point that share that statistic share one computation ({@link
   * Predictor#predictShared}).
   */
  Values values() {
    return switch (c.mode()) {
      case CONCURRENCY -> concurrency();
      case DISAGG_CONCURRENCY -> disaggConcurrency();
      case STATIC,
          OFFLINE,
          BURST,
          CLIENTS,
          SERVER,
          SINGLE_STREAM,
          DISAGG_PREFILL,
          DISAGG_DECODE,
          PRODUCTION ->
          throw otherFamily();
    };
  }

  /** Colocated at batch = load per replica, capped. */
  private Values concurrency() {
    int isl = isl();
    int osl = osl();
    int wanted = load();
    RooflineModel rm = system(wanted, isl + osl);
    Deployment d = deployment(Deployment.Strategy.COLOCATED, rm);
    int max = d.largestBatch(isl + osl).orElse(0);
    int clients = perReplica(wanted, rm);
    int batch = engineCapped(capped(clients, max, isl + osl));
    if (noting) {
      notes.add(0, rm + ", colocated batch " + batch + " per replica");
    }
    FrontierPoint p = d.point(batch, isl, osl);
    double decodeStep = rm.decode(batch, isl + Math.max(1, osl / 2)).seconds().seconds();
    double ttft =
        closedLoopTtft(rm, batch, isl, osl, decodeStep, p.tpot().seconds(), 0)
            + engine.efficiency().admission().seconds();
    ttft = queuedTtft(clients, batch, ttft, p.tpot().seconds(), osl);
    return new Values(p, p.tokensPerSecondPerChip(), ttft, isl, osl);
  }

  /**
   * PD with the row's decode pool and prefill pool, the decode batch capped like {@code
   * concurrency}.
   */
  private Values disaggConcurrency() {
    int isl = isl();
    int osl = osl();
    int load = load();
    OptionalInt decodeChips = c.decodeChips();
    if (decodeChips.isEmpty()) {
      throw new Unpredictable("pools not stated: disagg-concurrency needs decode_chips");
    }
    RooflineModel decode = systems.decodePool(decodeChips, load, isl + osl);
    int promptsPerPass = Math.max(1, RooflineModel.PREFILL_CHUNK_TOKENS / isl);
    RooflineModel prefill = systems.prefillPool(promptsPerPass, isl);
    Deployment d = systems.disaggregated(decode, prefill);
    int clients = perReplica(load, decode);
    int batch = engineCapped(capped(clients, d.largestBatch(isl + osl).orElse(0), isl + osl));
    FrontierPoint p = d.point(batch, isl, osl);
    if (!p.fits()) {
      throw new Unpredictable(
          "does not fit: "
              + d.fitProblem(isl, osl)
                  .orElse(
                      "prefill pass of "
                          + promptsPerPass
                          + " prompts of "
                          + isl
                          + " tokens on "
                          + prefill));
    }
    if (noting) {
      notes.add(0, "decode " + decode + ", batch " + batch + " per replica; prefill " + prefill);
    }
    double perChip =
        c.prefillChips().isPresent()
            ? statedPoolsPerChip(decode, prefill, batch, p, isl, osl)
            : p.tokensPerSecondPerChip();
    double ttft = disaggTtft(d, decode, prefill, batch, p, isl, osl);
    ttft = queuedTtft(clients, batch, ttft, p.tpot().seconds(), osl);
    return new Values(p, perChip, ttft, isl, osl);
  }

  /**
   * Output tokens/s per chip of stated pools: the lower of the decode pool's output rate and the
   * prefill pool's request rate × osl, over all chips of both pools.
   */
  private double statedPoolsPerChip(
      RooflineModel decode, RooflineModel prefill, int batch, FrontierPoint p, int isl, int osl) {
    double decodeRate = decode.replicas() * batch / p.tpot().seconds();
    int perPass = prefill.promptsPerPrefillPass(isl);
    double pass = prefill.prefill(perPass, isl).seconds().seconds();
    double prefillRate = prefill.replicas() * perPass / pass * osl;
    if (prefillRate < decodeRate && noting) {
      notes.add(
          "prefill-bound: prefill pool sustains "
              + String.format(Locale.ROOT, "%.0f", prefillRate)
              + " of "
              + String.format(Locale.ROOT, "%.0f", decodeRate)
              + " output tok/s");
    }
    return Math.min(decodeRate, prefillRate) / (prefill.chips() + decode.chips());
  }

  /**
   * Unqueued closed-loop TTFT of a disaggregated replica: a wave of the decode replica's batch is
   * prefilled by its share of the prefill replicas, then its KV cache moves; plus admission.
   */
  private double disaggTtft(
      Deployment d,
      RooflineModel decode,
      RooflineModel prefill,
      int batch,
      FrontierPoint p,
      int isl,
      int osl) {
    double prefillReplicas =
        c.prefillChips().isPresent()
            ? (double) prefill.replicas() / decode.replicas()
            : (p.chipsTotal() - decode.replicaChips()) / prefill.replicaChips();
    int wave = (int) Math.max(1, Math.ceil(batch / Math.max(1e-9, prefillReplicas)));
    return closedLoopTtft(
            prefill,
            wave,
            isl,
            osl,
            0,
            p.tpot().seconds(),
            d.kvTransferSeconds(isl, prefill, decode))
        + engine.efficiency().admission().seconds();
  }

  /**
   * Closed-loop TTFT ({@link ClosedLoop#roundsTtft}) of {@code prompts} prompts per round on one
   * replica of {@code prefill}, plus {@code transfer} seconds of KV transfer, with a note.
   *
   * @param decodeStep the decode step that prefill steps share (colocated), or 0 (a prefill pool)
   * @param tpot the decode pool's time per output token
   */
  private double closedLoopTtft(
      RooflineModel prefill,
      int prompts,
      int isl,
      int osl,
      double decodeStep,
      double tpot,
      double transfer) {
    int perStep = prefill.promptsPerPrefillPass(isl);
    double ratio = run.rangeRatioOrDefault();
    int cycles = run.cycles(c.load());
    boolean median = c.metric() == Metric.MEDIAN_TTFT_MS;
    IntToDoubleFunction step = m -> prefill.prefill(m, isl).seconds().seconds();
    double decoding = (osl - 1) * tpot;
    int lag = prefill.efficiency().schedulingLagSteps();
    double ttft =
        (median
                ? ClosedLoop.roundsMedianTtft(
                    prompts, perStep, step, decodeStep, decoding, ratio, cycles, lag)
                : ClosedLoop.roundsTtft(
                    prompts, perStep, step, decodeStep, decoding, ratio, cycles, lag))
            + transfer;
    boolean reportsTtft =
        switch (c.metric().quantity()) {
          case TTFT, END_TO_END -> true;
          case THROUGHPUT, DECODE_SPEED -> false;
        };
    if (reportsTtft && noting) {
      notes.add(
          String.format(
              Locale.ROOT,
              "closed loop: %d prompts per round, %d rounds, length range ratio %.2f, up to %d"
                  + " prompts per prefill step: %s TTFT %.4g s",
              prompts,
              cycles,
              ratio,
              perStep,
              median ? "median" : "mean",
              ttft));
    }
    return ttft;
  }

  /** {@link ClosedLoop#queuedTtft}, with a note when requests wait. */
  private double queuedTtft(int clients, int batch, double ttft0, double tpot, int osl) {
    double queued = ClosedLoop.queuedTtft(clients, batch, ttft0, tpot, osl);
    if (queued <= ttft0) {
      return ttft0;
    }
    if (!noting) {
      return queued;
    }
    notes.add(
        String.format(
            Locale.ROOT,
            "closed loop: %d clients on batch %d, TTFT %.4g s with queueing (Little's law)",
            clients,
            batch,
            queued));
    return queued;
  }
}
