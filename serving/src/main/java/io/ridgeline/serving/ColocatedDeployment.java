package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Seconds;
import java.util.Optional;

/**
 * Colocated serving on one pool: continuous batching with chunked prefill (see {@link Deployment}).
 *
 * @param pool the pool that prefills and decodes
 * @param speculation speculative decoding, if on
 * @param price a price per chip-hour overriding the catalog's
 */
public record ColocatedDeployment(
    RooflineModel pool, Optional<Speculation> speculation, Optional<DollarsPerHour> price)
    implements Deployment {
  /**
   * Validates the components.
   *
   * @throws NullPointerException when one is null
   */
  public ColocatedDeployment {
    checkNotNull(pool, "pool");
    Deployments.checkOptions(speculation, price);
  }

  /** Colocated serving on {@code pool}, without speculation or a price override. */
  public ColocatedDeployment(RooflineModel pool) {
    this(pool, Optional.empty(), Optional.empty());
  }

  @Override
  public Strategy strategy() {
    return Strategy.COLOCATED;
  }

  @Override
  public RooflineModel decodePool() {
    return pool;
  }

  @Override
  public ImmutableMap<String, RooflineModel> pools() {
    return ImmutableMap.of("pool", pool);
  }

  @Override
  public ColocatedDeployment withSpeculation(Speculation value) {
    return new ColocatedDeployment(pool, Optional.of(value), price);
  }

  @Override
  public ColocatedDeployment withPrice(DollarsPerHour value) {
    return new ColocatedDeployment(pool, speculation, Optional.of(value));
  }

  @Override
  public Optional<String> fitProblem(int isl, int osl) {
    return PoolFit.problem("", pool, 1, isl + osl);
  }

  @Override
  public int maxBatch(int context) {
    return SpeculativeDecoding.maxBatch(speculation, pool, context);
  }

  @Override
  public FrontierPoint point(int batch, int isl, int osl) {
    Deployments.checkPoint(batch, isl, osl);
    int context = isl + Math.max(1, osl / 2);
    double decode = SpeculativeDecoding.decodeTpot(speculation, pool, batch, context);
    // prefill share of a step: batch/osl prompts on average, weights already streamed by the decode
    // part
    double prefillShare = prefillWithoutWeights(pool, (double) batch / osl, isl);
    double tpot = decode + prefillShare;
    int chunk = Math.min(isl, RooflineModel.PREFILL_CHUNK_TOKENS);
    int chunks = (isl + chunk - 1) / chunk;
    // TTFT = its chunks, each a step with the running batch's decode, + the request's admission
    double ttft =
        chunks * (decode + prefillWithoutWeights(pool, (double) chunk / isl, isl))
            + pool.efficiency().admission().seconds();
    double perChip = batch / tpot / pool.replicaChips();
    return ServingCosts.onePool(
        ImmutableFrontierPoint.builder()
            .batch(batch)
            .ttft(Seconds.of(ttft))
            .tpot(Seconds.of(tpot))
            .tokensPerSecondPerUser(1 / tpot)
            .tokensPerSecondPerChip(perChip)
            .fits(
                pool.memory(batch, isl + osl).fits()
                    && SpeculativeDecoding.fitsWithDraft(speculation, pool, batch, isl + osl)),
        strategy(),
        pool,
        price,
        perChip,
        pool.replicaChips(),
        speculation.map(Speculation::toString).orElse(""));
  }

  /** Time of {@code prompts} prompts' prefill with weight reads removed (they share the step's). */
  private static double prefillWithoutWeights(RooflineModel rm, double prompts, int isl) {
    StepResult full = rm.prefill(prompts, isl, 1);
    double stage = 0;
    for (PhaseResult p : full.phases()) {
      for (OperationResult o : p.operations()) {
        double weightShare =
            o.operation().bytes(DataKind.WEIGHTS).bytes()
                / Math.max(1e-300, o.operation().memoryBytes().bytes());
        double memory = o.memorySeconds().seconds() * (1 - weightShare);
        stage +=
            Math.max(o.computeSeconds().seconds(), Math.max(memory, o.networkSeconds().seconds()));
      }
    }
    return full.passes() * (stage + full.p2pSeconds().seconds());
  }

  @Override
  public String toString() {
    return Deployments.describe(strategy(), pool.toString(), speculation);
  }
}
