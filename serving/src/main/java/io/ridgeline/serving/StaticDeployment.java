package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkNotNull;

import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.Seconds;
import java.util.Optional;

/**
 * Static batching on one pool: a replica prefills its batch's prompts together, then decodes them
 * together (see {@link Deployment}).
 *
 * @param pool the pool that prefills and decodes
 * @param speculation speculative decoding, if on
 * @param price a price per chip-hour overriding the catalog's
 */
public record StaticDeployment(
    RooflineModel pool, Optional<Speculation> speculation, Optional<DollarsPerHour> price)
    implements SinglePoolDeployment {
  /**
   * Validates the components.
   *
   * @throws NullPointerException when one is null
   */
  public StaticDeployment {
    checkNotNull(pool, "pool");
    Deployments.checkOptions(pool, speculation, price);
  }

  /** Static batching on {@code pool}, without speculation or a price override. */
  public StaticDeployment(RooflineModel pool) {
    this(pool, Optional.empty(), Optional.empty());
  }

  @Override
  public Strategy strategy() {
    return Strategy.STATIC;
  }

  @Override
  public StaticDeployment withSpeculation(Speculation value) {
    return new StaticDeployment(pool, Optional.of(value), price);
  }

  @Override
  public StaticDeployment withPrice(DollarsPerHour value) {
    return new StaticDeployment(pool, speculation, Optional.of(value));
  }

  @Override
  public FrontierPoint point(int batch, Workload w) {
    int osl = w.outputTokens();
    Deployments.checkPoint(batch, w.inputTokens(), osl);
    FrontierPoint p = ParetoFrontier.point(pool, batch, w);
    if (speculation.isEmpty()) {
      return ServingCosts.onePool(
          FrontierPoint.builder().from(p),
          strategy(),
          pool,
          price,
          p.tokensPerSecondPerChip(),
          pool.replicaChips(),
          "");
    }
    double tpot =
        SpeculativeDecoding.tpot(speculation.get(), pool, batch, w.promptContext() + osl / 2);
    double request = p.ttft().seconds() + (osl - 1) * tpot;
    double perChip = (double) batch * osl / request / pool.replicaChips();
    return ServingCosts.onePool(
        FrontierPoint.builder()
            .from(p)
            .tpot(Seconds.of(tpot))
            .tokensPerSecondPerUser(1 / tpot)
            .tokensPerSecondPerChip(perChip)
            .fits(
                p.fits()
                    && SpeculativeDecoding.fitsWithDraft(
                        speculation, pool, batch, w.finalContext())),
        strategy(),
        pool,
        price,
        perChip,
        pool.replicaChips(),
        speculation.get().toString());
  }

  /**
   * The TTFT of the batch in its parts ({@link TtftParts}): a static batch is a batch job with no
   * request path, so only the prefill of the batch's prompts, without admission, wait or transfer.
   *
   * @throws IllegalArgumentException when an argument is not positive
   */
  public TtftParts ttftParts(int batch, int isl, int osl) {
    return TtftParts.prefillOnly(point(batch, isl, osl).ttft().seconds());
  }

  @Override
  public String toString() {
    return Deployments.describe(strategy(), pool.toString(), speculation);
  }
}
