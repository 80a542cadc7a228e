package io.ridgeline.validation;

import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.queueing.ClosedLoop;
import io.ridgeline.serving.queueing.PoissonQueue;
import java.util.Locale;

/**
 * {@code server} (MLPerf Server): colocated under Poisson arrivals at the highest rate whose p99
 * TTFT and TPOT meet the row's bounds (see the {@link Predictor} javadoc).
 */
final class ServerPrediction extends ModePrediction {
  ServerPrediction(CaseContext x) {
    super(x);
  }

  /**
   * A colocated point under Poisson arrivals: its request rate per replica, and the mean and p99
   * TTFT with the wait for the prefill server.
   */
  private record ServerPoint(FrontierPoint point, double rate, double meanTtft, double p99Ttft) {}

  /**
   * {@code p} (batch B) as the steady state of Poisson arrivals: by Little's law the rate is λ = B
   * / (TTFT₀ + (osl − 1)·TPOT); prompts queue for prefill, a server of utilisation ρ = λ·τ (τ = one
   * prompt's prefill): mean wait ρτ / (2(1 − ρ)) (M/D/1), p99 wait τ·ln(100ρ) / (1 − ρ) (the
   * exponential tail of an M/M/1 queue, 0 when ρ ≤ 1%); ρ ≥ 1 has no steady state (infinite TTFT).
   */
  private static ServerPoint serverPoint(FrontierPoint p, double prefill, int osl) {
    double ttft0 = p.ttft().seconds(); // admission included
    double rate = ClosedLoop.throughput(p.batch(), ttft0 + (osl - 1) * p.tpot().seconds());
    return new ServerPoint(
        p,
        rate,
        ttft0 + PoissonQueue.meanWait(rate, prefill),
        ttft0 + PoissonQueue.p99Wait(rate, prefill));
  }

  /**
   * MLPerf Server: Poisson arrivals at the highest rate whose p99 TTFT and TPOT meet the row's
   * bounds, {@code slo_ttft_ms} and {@code slo_tpot_ms} (see the {@link Predictor} javadoc).
   */
  @Override
  double predict() {
    int isl = isl();
    int osl = osl();
    RunSetup.Slo slo = run.slo().orElseThrow(() -> new Unpredictable(Predictor.SERVER_REASON));
    double ttftBound = slo.ttftSeconds();
    double tpotBound = slo.tpotSeconds();
    RooflineModel rm = system(1, isl + osl);
    Deployment d = deployment(Deployment.Strategy.COLOCATED, rm);
    int max = d.largestBatch(isl + osl).orElse(0);
    int top = engineCapped(capped(max, max, isl + osl));
    double prefill = rm.prefill(1, isl).seconds().seconds();
    ServerPoint best = null;
    for (double b = 1; b <= top; b = Math.max(b + 1, b * 1.05)) {
      ServerPoint sp = serverPoint(d.point((int) b, isl, osl), prefill, osl);
      if (sp.p99Ttft <= ttftBound
          && sp.point.tpot().seconds() <= tpotBound
          && (best == null || sp.rate > best.rate)) {
        best = sp;
      }
    }
    if (best == null) {
      throw new Unpredictable(
          String.format(
              Locale.ROOT,
              "no rate meets the bounds (p99 TTFT %.4g s, TPOT %.4g s) on %s",
              ttftBound,
              tpotBound,
              rm));
    }
    FrontierPoint p = best.point;
    notes.add(
        String.format(
            Locale.ROOT,
            "%s; server: %.4g requests/s per replica (batch %d) is the highest rate with p99 TTFT"
                + " %.4g s ≤ %.4g s and TPOT %.4g s ≤ %.4g s",
            rm,
            best.rate,
            p.batch(),
            best.p99Ttft,
            ttftBound,
            p.tpot().seconds(),
            tpotBound));
    return metric(p, p.tokensPerSecondPerChip(), best.meanTtft, isl, osl);
  }
}
