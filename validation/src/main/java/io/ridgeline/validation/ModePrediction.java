package io.ridgeline.validation;

import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.efficiency.EngineProfile;
import java.util.List;
import java.util.function.IntToDoubleFunction;

/**
 * The prediction of one case in one family of modes (see the {@link Predictor} javadoc), with what
 * every mode needs: the row's lengths and load, batches capped by memory and by the engine, the
 * row's systems ({@link CaseSystems}) and the metric of a frontier point.
 */
abstract class ModePrediction {
  /** The row. */
  protected final ValidationCase c;

  /** How its run was set up, as its run columns state it. */
  protected final RunSetup run;

  /** How the value is obtained, appended to as the prediction goes. */
  protected final List<String> notes;

  /** The engine profile the row runs with. */
  protected final EngineProfile engine;

  /** The row's systems. */
  protected final CaseSystems systems;

  /**
   * Whether the notes are kept ({@link CaseContext#noting}): a note whose text costs more than a
   * constant (a system's description, a formatted figure) is built only when they are.
   */
  protected final boolean noting;

  ModePrediction(CaseContext x) {
    this.c = x.testCase();
    this.run = x.testCase().run();
    this.notes = x.notes();
    this.engine = x.engine();
    this.systems = x.systems();
    this.noting = x.noting();
  }

  /**
   * The value of the row's metric, in its unit.
   *
   * @throws Unpredictable when the row cannot be predicted
   */
  abstract double predict();

  /**
   * The error for a row whose mode another family predicts ({@link Predictor} chose this one): a
   * bug, not an unpredictable row.
   */
  IllegalStateException otherFamily() {
    return new IllegalStateException(
        getClass().getSimpleName() + " does not predict mode " + c.mode());
  }

  /** The measured system: the row's chips and parallelism ({@link CaseSystems#system}). */
  RooflineModel system(int batch, int context) {
    return systems.system(batch, context);
  }

  /** {@link CaseSystems#deployment}. */
  Deployment deployment(Deployment.Strategy strategy, RooflineModel pool) {
    return systems.deployment(strategy, pool);
  }

  int isl() {
    return c.isl()
        .orElseThrow(
            () ->
                new Unpredictable(
                    "isl/osl not stated: lengths of a dataset, production traffic or"
                        + " undisclosed"));
  }

  int osl() {
    return c.osl()
        .orElseThrow(
            () ->
                new Unpredictable(
                    "isl/osl not stated: lengths of a dataset, production traffic or"
                        + " undisclosed"));
  }

  int load() {
    return c.load()
        .orElseThrow(() -> new Unpredictable("load not stated: mode " + c.mode() + " needs it"));
  }

  /** {@code load} requests split over the pool's replicas, at least 1. */
  int perReplica(int load, RooflineModel pool) {
    return Math.max(1, (int) Math.round((double) load / pool.replicas()));
  }

  int capped(int batch, int max, int context) {
    if (max <= 0) {
      throw new Unpredictable(
          "does not fit: one request of " + context + " tokens does not fit the system");
    }
    if (batch > max) {
      notes.add("batch " + batch + " capped at " + max + " by memory (the rest queue)");
      return max;
    }
    return batch;
  }

  /** {@code batch} capped at the engine's max_running_requests (at least 1). */
  int engineCapped(int batch) {
    if (!engine.capsRunningRequests()) {
      return batch;
    }
    int cap = engine.maxRunningRequests().getAsInt();
    if (batch > cap) {
      notes.add(
          "batch "
              + batch
              + " capped at "
              + cap
              + " by the engine's max_running_requests (the rest queue)");
      return cap;
    }
    return batch;
  }

  double metric(FrontierPoint p, int isl, int osl) {
    return metric(p, p.tokensPerSecondPerChip(), p.ttft().seconds(), isl, osl);
  }

  double metric(FrontierPoint p, double outPerChip, double ttft, int isl, int osl) {
    return metric(c.metric(), p, outPerChip, ttft, isl, osl);
  }

  /**
   * {@code m} of point {@code p}, given its output tokens/s per chip and TTFT (seconds): TTFT and
   * TPOT in ms, e2e = TTFT + (osl − 1) × TPOT in s, total and input tokens/s per chip the output's
   * × (isl + osl) / osl and × isl / osl.
   */
  static double metric(
      Metric m, FrontierPoint p, double outPerChip, double ttft, int isl, int osl) {
    double tpot = p.tpot().seconds();
    return switch (m) {
      case TTFT_MS, MEDIAN_TTFT_MS -> 1e3 * ttft;
      case TPOT_MS -> 1e3 * tpot;
      case E2E_S -> ttft + (osl - 1) * tpot;
      case OUT_TOK_S_PER_USER -> p.tokensPerSecondPerUser();
      case OUT_TOK_S_PER_CHIP -> outPerChip;
      case TOTAL_TOK_S_PER_CHIP -> outPerChip * (isl + osl) / osl;
      case INPUT_TOK_S_PER_CHIP -> outPerChip * isl / osl;
    };
  }

  /**
   * The batch in [1, {@code top}] with the highest {@code rate} (tokens/s): the one a scheduler
   * maximising throughput settles on when a source does not state its batch. Throughput grows with
   * batch until the KV cache pushes weights into a slower tier or the per-step prefill share
   * dominates; a grid of ratio 1.25 down from {@code top}, then a grid of ratio 1.02 around the
   * best, finds it.
   */
  static int bestBatch(int top, IntToDoubleFunction rate) {
    int best = top;
    double bestRate = rate.applyAsDouble(top);
    for (double b = top / 1.25; b >= 1; b /= 1.25) {
      double r = rate.applyAsDouble((int) b);
      if (r > bestRate) {
        best = (int) b;
        bestRate = r;
      }
    }
    int lo = Math.max(1, (int) (best / 1.25));
    int hi = Math.min(top, (int) Math.ceil(best * 1.25));
    for (double b = lo; b <= hi; b = Math.max(b + 1, b * 1.02)) {
      double r = rate.applyAsDouble((int) b);
      if (r > bestRate) {
        best = (int) b;
        bestRate = r;
      }
    }
    return best;
  }
}
