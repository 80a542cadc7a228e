package io.ridgeline.serving.plan;

import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.hardware.Chip;
import io.ridgeline.serving.AttentionFfnDeployment;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.PrefillDecodeDeployment;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Workload;
import io.ridgeline.serving.queueing.PoissonQueue;
import java.util.Optional;

/**
 * The fleet a {@link Planner plan} sizes for one candidate point, and the latencies its requests
 * see under load: the queueing model of {@code ridgeline plan}.
 *
 * <p>With a chip budget instead of a rate ({@link PlanRequest#totalChips()}) the fleet is the one
 * serving the highest rate on at most that many chips ({@link #onChips}).
 *
 * <p><b>Arrivals</b>: requests arrive as a Poisson stream at the request's rate λ and are spread
 * evenly over the servers of the prefill queue (random routing: each server sees a Poisson stream
 * of λ / S).
 *
 * <p><b>Decode</b>: R decode replicas each run the candidate's batch B; one finishes {@code B /
 * (TPOT × OSL)} requests per second, so {@code R = ⌈λ × TPOT × OSL / B⌉} (at least 1). TPOT is the
 * step at the full batch B, the engine's cap on running requests: an upper bound that holds at any
 * percentile, so the p50 and p99 TPOT are both taken as the point's TPOT.
 *
 * <p><b>Prefill queue</b>: every prompt needs {@code τ} seconds of a prefill server, the server's
 * prefill pass of {@link RooflineModel#promptsPerPrefillPass} prompts of the workload's new tokens
 * (a prefill pool's {@link RooflineModel#prefillPassPrompts}: fewer when they do not fit it; after
 * its cached ones: their attention over the history, and under KV offload its fetch) over its
 * prompts. The servers are the R replicas themselves (colocated, static) or P whole prefill
 * replicas (pd, afd; the prefill pool's chips are counted as P × its replica chips, not the
 * fractional share of a frontier point). Each server is an M/D/1 queue at load {@code ρ = λ τ / S}:
 * mean wait {@code ρτ / (2(1 − ρ))} and p99 wait {@code τ ln(100ρ) / (1 − ρ)} ({@link
 * PoissonQueue}). TTFT p50 = the point's unloaded TTFT + the mean wait (the mean of this
 * right-skewed wait is at least its median, so the p50 check is conservative); TTFT p99 = unloaded
 * TTFT + the p99 wait. S starts at the fewest servers with ρ &lt; 1 and grows, up to four times
 * that (and R for colocated), until both TTFT objectives hold; a candidate whose queue cannot meet
 * them reports the last S tried.
 *
 * <p><b>Chips and price</b>: total chips = R × decode chips per replica (attention + FFN under afd)
 * + P × prefill replica chips, rounded up; the price per hour sums each pool's chips at its chip's
 * price (the request's override, else the catalog's; unknown if any pool's is).
 */
final class PlanFleet {
  private PlanFleet() {}

  /** A sized fleet: the rate it serves, replicas, waits and chips. */
  record Sized(
      double requestsPerSecond,
      long replicas,
      long prefillReplicas,
      double ttftP50,
      double ttftP99,
      long chips,
      Optional<DollarsPerHour> dollarsPerHour) {

    /** Whether its TTFT waits meet {@code q}'s objectives. */
    boolean meetsTtft(PlanRequest q) {
      return meets(q, ttftP50, ttftP99);
    }
  }

  /**
   * Sizes the fleet of {@code p}, a point of {@code d} at request {@code w}, for {@code q}'s rate;
   * see {@link PlanFleet}.
   */
  static Sized size(Deployment d, FrontierPoint p, Workload w, PlanRequest q) {
    return new Fleet(d, p, w, q).at(q.requestsPerSecond().orElseThrow());
  }

  /**
   * The fleet of {@code p}, a point of {@code d} at request {@code w}, that serves the highest
   * request rate on at most {@code chips} chips within {@code q}'s TTFT objectives; when none does,
   * the fleet of the smallest rate tried (one part in a billion of the decode capacity below),
   * which then needs more than {@code chips} chips or misses those objectives.
   *
   * <p>The fleet sized for a rate λ ({@link #size}) needs chips that do not fall as λ grows (its
   * decode replicas ⌈λ × TPOT × OSL / B⌉ and its fewest prefill servers meeting the waits both
   * grow), so the feasible rates are an interval (0, λ*]; λ* is found by bisection between 0 and
   * the decode capacity of all {@code chips} chips, {@code max(1, ⌊chips / decode chips per
   * replica⌋) × B / (TPOT × OSL)}, to a relative 1e-9. For pd and afd this sets the split between
   * prefill and decode replicas.
   */
  static Sized onChips(Deployment d, FrontierPoint p, Workload w, PlanRequest q, int chips) {
    Fleet f = new Fleet(d, p, w, q);
    long decodeReplicas = Math.max(1, (long) Math.floor(chips / (double) decodeChips(d) + 1e-9));
    double hi = decodeReplicas * f.perReplica;
    double lo = hi * 1e-9;
    if (!f.fitsIn(lo, chips)) {
      return f.at(lo);
    }
    if (f.fitsIn(hi, chips)) {
      return f.at(hi);
    }
    while (hi - lo > 1e-9 * hi) {
      double mid = lo + (hi - lo) / 2;
      if (f.fitsIn(mid, chips)) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return f.at(lo);
  }

  /** One candidate's fleet, its per-rate sizing with the parts that do not depend on the rate. */
  private static final class Fleet {
    private final Deployment d;
    private final PlanRequest q;
    private final Optional<RooflineModel> prefill;
    // requests per second one decode replica finishes: B / (TPOT × OSL)
    private final double perReplica;
    // one prompt's prefill service time, seconds
    private final double tau;
    // the point's unloaded TTFT, seconds
    private final double ttft0;

    Fleet(Deployment d, FrontierPoint p, Workload w, PlanRequest q) {
      this.d = d;
      this.q = q;
      this.perReplica = p.batch() / (p.tpot().seconds() * q.outputTokens());
      this.prefill = prefillPool(d);
      RooflineModel server = prefill.orElse(d.decodePool());
      // a prefill pool runs as many prompts per pass as fit it; a colocated server a chunk's worth
      int n =
          prefill.isPresent()
              ? server.prefillPassPrompts(w.newTokens(), w.promptContext())
              : server.promptsPerPrefillPass(w.newTokens());
      // one prompt's prefill service time: its new tokens after its cached ones (history and prefix
      // hits), anchored as the point's TTFT is
      this.tau = server.prefill(n, w).seconds().seconds() / n / Math.exp(q.anchor().ttft());
      this.ttft0 = p.ttft().seconds();
    }

    /** Whether the fleet for {@code rate} meets the TTFT objectives on at most {@code chips}. */
    boolean fitsIn(double rate, int chips) {
      Sized s = at(rate);
      return s.chips() <= chips && s.meetsTtft(q);
    }

    /** The fleet for {@code rate} requests per second; see {@link PlanFleet}. */
    Sized at(double rate) {
      long replicas = Math.max(1, (long) Math.ceil(rate / perReplica - 1e-9));
      long first = Math.max(1, (long) Math.floor(rate * tau) + 1);
      if (prefill.isEmpty()) {
        first = Math.max(first, replicas);
      }
      // the fewest servers in [first, 4·first] whose waits meet the TTFT objectives (else
      // 4·first): waits fall as servers grow, so a binary search finds it in O(log first) steps
      // even when the rate needs millions of replicas
      long lo = first;
      long hi = 4 * first;
      if (meetsWith(q, rate, tau, ttft0, lo)) {
        hi = lo;
      } else if (meetsWith(q, rate, tau, ttft0, hi)) {
        while (hi - lo > 1) {
          long mid = lo + (hi - lo) / 2;
          if (meetsWith(q, rate, tau, ttft0, mid)) {
            hi = mid;
          } else {
            lo = mid;
          }
        }
      }
      long servers = hi;
      double w50 = PoissonQueue.meanWait(rate / servers, tau);
      double w99 = PoissonQueue.p99Wait(rate / servers, tau);
      long decodeReplicas = prefill.isEmpty() ? servers : replicas;
      long prefillReplicas = prefill.isEmpty() ? 0 : servers;
      double chips =
          decodeReplicas * decodeChips(d)
              + prefillReplicas * prefill.map(RooflineModel::replicaChips).orElse(0);
      return new Sized(
          rate,
          decodeReplicas,
          prefillReplicas,
          ttft0 + w50,
          ttft0 + w99,
          (long) Math.ceil(chips - 1e-9),
          price(d, q, decodeReplicas, prefill, prefillReplicas));
    }
  }

  /** Whether {@code servers} M/D/1 servers of service time {@code tau} meet the TTFT objectives. */
  private static boolean meetsWith(
      PlanRequest q, double rate, double tau, double ttft0, long servers) {
    return meets(
        q,
        ttft0 + PoissonQueue.meanWait(rate / servers, tau),
        ttft0 + PoissonQueue.p99Wait(rate / servers, tau));
  }

  private static boolean meets(PlanRequest q, double p50, double p99) {
    return p50 <= q.ttftSlo().seconds() && q.ttftP99Slo().map(s -> p99 <= s.seconds()).orElse(true);
  }

  /** The prefill pool of pd and afd; empty for single-pool deployments. */
  static Optional<RooflineModel> prefillPool(Deployment d) {
    if (d instanceof PrefillDecodeDeployment pd) {
      return Optional.of(pd.prefill());
    }
    if (d instanceof AttentionFfnDeployment afd) {
      return afd.prefill();
    }
    return Optional.empty();
  }

  /** Chips of one decode replica: the pool, the decode pool, or attention + FFN. */
  static int decodeChips(Deployment d) {
    if (d instanceof AttentionFfnDeployment afd) {
      return afd.attention().replicaChips() + afd.ffn().replicaChips();
    }
    return d.decodePool().replicaChips();
  }

  private static Optional<DollarsPerHour> price(
      Deployment d,
      PlanRequest q,
      long replicas,
      Optional<RooflineModel> prefill,
      long prefillReplicas) {
    double dollars = 0;
    if (d instanceof AttentionFfnDeployment afd) {
      dollars +=
          cost(q, afd.attention().chip(), (double) (replicas * afd.attention().replicaChips()));
      dollars += cost(q, afd.ffn().chip(), (double) (replicas * afd.ffn().replicaChips()));
    } else {
      dollars +=
          cost(q, d.decodePool().chip(), (double) (replicas * d.decodePool().replicaChips()));
    }
    if (prefill.isPresent()) {
      dollars +=
          cost(q, prefill.get().chip(), (double) (prefillReplicas * prefill.get().replicaChips()));
    }
    return Double.isFinite(dollars) ? Optional.of(DollarsPerHour.of(dollars)) : Optional.empty();
  }

  /** Dollars per hour of {@code chips} chips of {@code chip}; NaN when its price is unknown. */
  private static double cost(PlanRequest q, Chip chip, double chips) {
    if (chips == 0) {
      return 0;
    }
    return q.price().or(chip::pricePerHour).map(p -> p.dollarsPerHour() * chips).orElse(Double.NaN);
  }
}
