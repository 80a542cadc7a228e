package io.ridgeline.serving;

/**
 * What {@link ColocatedDeployment#point(int, Workload, double, double, double, double, boolean)}
 * composes a point with that is fixed for a workload, and that composition in primitives for the
 * compiled points ({@link CompiledColocated}): chips per replica, the admission latency, the
 * scheduling lag in steps, the prompt's TTFT chunks ({@link ColocatedDeployment#chunks}), dollars
 * per hour and watts of the replica (NaN when unknown), and the largest batch that fits.
 */
final class PointComposition {
  private final double chips;
  private final double admissionSeconds;
  private final int lagSteps;
  private final int chunks;
  private final double dollarsPerHour;
  private final double watts;
  private final int largestFit;

  /** The fixed parts of {@code d}'s points at workload {@code w}. */
  PointComposition(ColocatedDeployment d, Workload w) {
    RooflineModel pool = d.pool();
    largestFit = pool.largestBatch(w.finalContext()).orElse(0);
    chips = pool.replicaChips();
    admissionSeconds = pool.efficiency().admission().seconds();
    lagSteps = pool.efficiency().schedulingLagSteps();
    chunks = ColocatedDeployment.chunks(w);
    dollarsPerHour = ServingCosts.dollarsPerHour(d.price(), pool.chip(), chips);
    watts = ServingCosts.watts(pool.chip(), chips);
  }

  /** Chips per replica. */
  double chips() {
    return chips;
  }

  /** Whether a batch of {@code batch} sequences fits the pool's memory at the final context. */
  boolean fits(int batch) {
    return batch <= largestFit;
  }

  /**
   * Composes the point of {@code batch} from the step times in {@code out} ({@link
   * CompiledColocated}'s evaluation) and appends it, as {@link ColocatedDeployment#point(int,
   * Workload, double, double, double, double, boolean)} composes it (TTFT parts, tokens per second,
   * costs) in the same order of operations; false, appending nothing, when a figure is one the
   * object path rejects (negative or not finite).
   */
  boolean add(int batch, PointBlock out) {
    // the server's mean step (all batch / osl prompts' prefill) and a request's own decode steps
    // (the others' (batch - 1) / osl): ColocatedDeployment.point
    double step = out.stepSeconds + out.shareSeconds;
    double tpot = out.stepSeconds + out.othersSeconds;
    // TtftParts of admission, the mean wait for a step the prompt can join (none at batch 1) and
    // the prompt's chunks, each as Seconds holds it (+ 0.0: no negative zero), summed in that order
    double wait = TtftParts.stepWait(batch, step, lagSteps) + 0.0;
    double prefillPart = chunks * out.chunkSeconds + 0.0;
    double ttft = admissionSeconds + wait + prefillPart + 0.0;
    double perUser = 1 / tpot;
    double perChip = batch / step / chips;
    // ServingCosts.costs of perChip × chips tokens per second
    double tokensPerSecond = perChip * chips;
    double dollars = ServingCosts.dollarsPerMillionTokens(dollarsPerHour, tokensPerSecond);
    double joules = ServingCosts.tokensPerJoule(tokensPerSecond, watts);
    // the checks of Seconds, TtftParts and FrontierPoint: finite and not negative
    if (!(valid(wait)
        && valid(prefillPart)
        && valid(ttft)
        && valid(tpot)
        && valid(step)
        && valid(perUser)
        && valid(perChip)
        && (Double.isNaN(dollars) || valid(dollars))
        && (Double.isNaN(joules) || valid(joules)))) {
      return false;
    }
    out.add(batch, ttft, tpot + 0.0, perUser, perChip, dollars, joules, batch <= largestFit);
    return true;
  }

  /** Finite and not negative. */
  private static boolean valid(double v) {
    return v >= 0 && v <= Double.MAX_VALUE;
  }
}
