package io.ridgeline.serving;

/**
 * The FFN pool of an attention/FFN-disaggregated deployment when its size is not given: the
 * attention:FFN chip ratio searched.
 *
 * <p>Candidates: the fewest chips {@code n₀} (a multiple of the FFN spec's {@code pp × ep}, so that
 * its experts divide its stage) whose share of the dense-FFN and expert weights fits one chip
 * ({@link MemoryPlan.Holding#FFN_SIDE}), then {@code 2n₀, 4n₀, …} up to four times the attention
 * pool's replica chips. Each is scored by the tokens per second per chip of the deployment at the
 * attention pool's largest batch (the throughput end of its frontier, prefill chips counted); the
 * best is kept, the fewer chips on a tie. A handful of points per deployment.
 */
final class AfdRatio {
  /** Chips beyond which the fewest-chips search gives up: no practical FFN pool is larger. */
  private static final int MAX_FFN_CHIPS = 1 << 16;

  private AfdRatio() {}

  /** {@code template} with {@code ffn} as its FFN pool. */
  static AttentionFfnDeployment withFfn(AttentionFfnDeployment template, RooflineModel ffn) {
    return new AttentionFfnDeployment(
        template.attention(),
        ffn,
        template.prefill(),
        template.speculation(),
        template.price(),
        template.poolLink(),
        template.microBatches());
  }

  /**
   * {@code template} with the FFN pool of {@code spec} (without count or tp) sized by the search
   * above for requests of {@code isl} and {@code osl} tokens.
   *
   * @throws IllegalArgumentException when no count up to 65,536 chips holds the FFN weights
   */
  static AttentionFfnDeployment search(
      AttentionFfnDeployment template, PoolSpec spec, int isl, int osl) {
    int context = isl + osl;
    int unit = spec.pipelineParallel() * spec.expertParallel();
    int fewest = fewest(spec, unit, context);
    int limit = Math.max(fewest, 4 * template.attention().replicaChips());
    AttentionFfnDeployment best = null;
    double bestRate = -1;
    for (long n = fewest; n <= limit; n *= 2) {
      AttentionFfnDeployment d = withFfn(template, withCount(spec, (int) n).build(1, context));
      int batch = d.largestBatch(context).orElse(0);
      if (batch == 0) {
        return d; // the attention pool holds no request; more FFN chips cannot help
      }
      double rate = d.point(batch, isl, osl).tokensPerSecondPerChip();
      if (rate > bestRate) {
        best = d;
        bestRate = rate;
      }
    }
    return best;
  }

  /** The fewest chips, a multiple of {@code unit}, whose FFN share fits one chip. */
  private static int fewest(PoolSpec spec, int unit, int context) {
    RooflineModel one = withCount(spec, unit).build(1, context);
    double weights = MemoryPlan.use(one, 1, 1, MemoryPlan.Holding.FFN_SIDE).weights().bytes();
    double capacity = one.chip().memory().stream().mapToDouble(t -> t.capacity().bytes()).sum();
    // weights per chip fall as 1/n: start at the count whose share fills every tier
    long n = Math.max(1, (long) Math.floor(weights / capacity)) * unit;
    for (; n <= MAX_FFN_CHIPS; n += unit) {
      RooflineModel pool = withCount(spec, (int) n).build(1, context);
      if (MemoryPlan.use(pool, 1, 1, MemoryPlan.Holding.FFN_SIDE).fits()) {
        return (int) n;
      }
    }
    throw new IllegalArgumentException(
        "the FFN weights of "
            + spec.model().id()
            + " fit no pool of up to "
            + MAX_FFN_CHIPS
            + " "
            + spec.chip().id()
            + " chips");
  }

  /** {@code spec} with {@code count} chips. */
  private static PoolSpec withCount(PoolSpec spec, int count) {
    return PoolSpec.builder().from(spec).count(count).build();
  }
}
