package io.ridgeline.serving.queueing;

/**
 * Poisson arrivals at rate λ to one server whose every job takes τ seconds (M/D/1): utilisation ρ =
 * λ·τ; no steady state when ρ ≥ 1 (the waits are then infinite).
 */
public final class PoissonQueue {
  private PoissonQueue() {}

  /**
   * Mean wait in the queue of an M/D/1 server: ρτ / (2(1 − ρ)); infinite when ρ ≥ 1.
   *
   * <p>Worked example: λ = 40/s, τ = 20 ms: ρ = 0.8, wait 0.8 × 0.02 / (2 × 0.2) = 40 ms.
   *
   * @param rate arrivals per second
   * @param service seconds of each job
   */
  public static double meanWait(double rate, double service) {
    double rho = rate * service;
    if (rho >= 1) {
      return Double.POSITIVE_INFINITY;
    }
    return rho * service / (2 * (1 - rho));
  }

  /**
   * 99th-percentile wait, from the exponential tail of an M/M/1 queue: τ·ln(100ρ) / (1 − ρ), 0 when
   * ρ ≤ 1% (no queue worth counting) and infinite when ρ ≥ 1.
   *
   * <p>Worked example: λ = 40/s, τ = 20 ms: ρ = 0.8, p99 wait 0.02 × ln 80 / 0.2 = 0.02 × 4.382 /
   * 0.2 ≈ 438 ms.
   *
   * @param rate arrivals per second
   * @param service seconds of each job
   */
  public static double p99Wait(double rate, double service) {
    double rho = rate * service;
    if (rho >= 1) {
      return Double.POSITIVE_INFINITY;
    }
    return Math.max(0, service * Math.log(100 * rho) / (1 - rho));
  }
}
