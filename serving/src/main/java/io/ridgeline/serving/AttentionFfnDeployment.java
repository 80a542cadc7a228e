package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.Seconds;
import java.util.Locale;
import java.util.Optional;

/**
 * Attention/FFN disaggregation (MegaScale-Infer, Step-3): decode attention with the KV cache,
 * projections, embeddings and head on one pool, FFN/MoE on another, micro-batches in ping-pong
 * between them (see {@link Deployment}).
 *
 * @param attention the pool that runs attention and holds the KV cache
 * @param ffn the pool that runs the FFN/MoE layers
 * @param speculation speculative decoding, if on (named in the text; AFD steps ignore it)
 * @param price a price per chip-hour overriding the catalog's
 * @param poolLink the link that carries activations between the pools; by default the chips'
 * @param microBatches micro-batches in flight between the pools, at least 1
 */
public record AttentionFfnDeployment(
    RooflineModel attention,
    RooflineModel ffn,
    Optional<Speculation> speculation,
    Optional<DollarsPerHour> price,
    Optional<BytesPerSecond> poolLink,
    int microBatches)
    implements Deployment {
  /** Micro-batches in flight unless given. */
  public static final int DEFAULT_MICRO_BATCHES = 2;

  /**
   * Validates the components.
   *
   * @throws IllegalArgumentException when the pools serve different models, the pool link is not
   *     positive or there are fewer than one micro-batch
   */
  public AttentionFfnDeployment {
    // the order of the checks is that of the former Immutables Deployment
    checkArgument(microBatches >= 1, "AFD micro-batches must be at least 1: %s", microBatches);
    Deployments.checkPoolLink(poolLink);
    Deployments.checkSameModel(attention, ffn);
    Deployments.checkOptions(speculation, price);
  }

  /** The pools, with {@value #DEFAULT_MICRO_BATCHES} micro-batches and no other options. */
  public AttentionFfnDeployment(RooflineModel attention, RooflineModel ffn) {
    this(
        attention,
        ffn,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        DEFAULT_MICRO_BATCHES);
  }

  @Override
  public Strategy strategy() {
    return Strategy.AFD;
  }

  @Override
  public RooflineModel decodePool() {
    return attention;
  }

  @Override
  public ImmutableMap<String, RooflineModel> pools() {
    return ImmutableMap.of("attention", attention, "ffn", ffn);
  }

  @Override
  public AttentionFfnDeployment withSpeculation(Speculation value) {
    return new AttentionFfnDeployment(
        attention, ffn, Optional.of(value), price, poolLink, microBatches);
  }

  @Override
  public AttentionFfnDeployment withPrice(DollarsPerHour value) {
    return new AttentionFfnDeployment(
        attention, ffn, speculation, Optional.of(value), poolLink, microBatches);
  }

  private AfdPools afd() {
    return new AfdPools(attention, ffn, poolLink);
  }

  @Override
  public Optional<String> fitProblem(int isl, int osl) {
    return afd().fitProblem(isl + osl);
  }

  @Override
  public int maxBatch(int context) {
    AfdPools p = afd();
    return BatchSearch.largest(b -> p.fits(b, context));
  }

  /**
   * The aggregate link bandwidth (B/s, all attention chips together) at which moving {@code micro}
   * tokens' activations takes no longer than {@code computeSeconds}: below it the transfer is AFD's
   * bottleneck.
   */
  public double afdBandwidthNeeded(int micro, double computeSeconds) {
    return afd().transferBytes(micro) / Math.max(computeSeconds, 1e-12);
  }

  @Override
  public FrontierPoint point(int batch, Workload w) {
    int isl = w.inputTokens();
    int osl = w.outputTokens();
    Deployments.checkPoint(batch, isl, osl);
    checkArgument(
        !w.hasCache(),
        "cached tokens and prefix hits are not modelled for attention-FFN disaggregation yet: %s",
        w);
    AfdPools p = afd();
    int context = isl + Math.max(1, osl / 2);
    int m = Math.min(microBatches, batch);
    // m micro-batches: batch mod m of ⌈batch / m⌉ sequences, the others one fewer (costed at
    // their own size, so that an odd batch is not charged for a sequence it does not have)
    int micro = (batch + m - 1) / m;
    int full = batch % m == 0 ? m : batch % m;
    double ta = AfdPools.side(attention.decode(micro, context), false);
    double tf = AfdPools.side(ffn.decode(micro, context), true);
    double tx = p.transferSeconds(micro);
    // each pool and the link serve every micro-batch once per step; a step also lasts at least
    // one micro-batch's round trip through both pools
    double busyA = full * ta;
    double busyF = full * tf;
    double busyX = full * tx;
    if (full < m) {
      busyA += (m - full) * AfdPools.side(attention.decode(micro - 1, context), false);
      busyF += (m - full) * AfdPools.side(ffn.decode(micro - 1, context), true);
      busyX += (m - full) * p.transferSeconds(micro - 1);
    }
    double step = Math.max(Math.max(busyA, busyF), Math.max(busyX, ta + tf + tx));
    double ttft = ttftParts(step, isl, p).total().seconds();
    double chips = attention.replicaChips() + ffn.replicaChips();
    double perChip = batch / step / chips;
    double needed = afdBandwidthNeeded(micro, Math.max(ta, tf));
    String note =
        String.format(
            Locale.ROOT,
            "attention %s, FFN %s, transfer %s per micro-batch of %d; link needed %s per attention"
                + " chip",
            Seconds.of(ta),
            Seconds.of(tf),
            Seconds.of(tx),
            micro,
            BytesPerSecond.of(needed / attention.replicaChips()));
    return ServingCosts.costs(
        ImmutableFrontierPoint.builder()
            .strategy(strategy().id())
            .batch(batch)
            .ttft(Seconds.of(ttft))
            .tpot(Seconds.of(step))
            .tokensPerSecondPerUser(1 / step)
            .tokensPerSecondPerChip(perChip)
            .fits(p.fits(batch, isl + osl))
            .chipsTotal(chips)
            .note(note),
        batch / step,
        ServingCosts.dollarsPerHour(
            price, attention.chip(), attention.replicaChips(), ffn.chip(), ffn.replicaChips()),
        ServingCosts.watts(
            attention.chip(), attention.replicaChips(), ffn.chip(), ffn.replicaChips()));
  }

  /**
   * The TTFT of a request of {@code isl} prompt tokens joining a running batch of {@code batch}
   * sequences at context {@code isl + osl / 2}, in its parts ({@link TtftParts}):
   *
   * <ul>
   *   <li>admission: the attention pool's {@link Efficiency#admission()};
   *   <li>wait: half the running AFD decode step, {@code step / 2}, the mean residual for a request
   *       arriving at a random time;
   *   <li>prefill: the prompt through both pools, attention side + FFN side + the activations'
   *       transfer of its {@code isl} tokens there and back;
   *   <li>transfer: zero (the KV cache stays on the attention pool).
   * </ul>
   *
   * @throws IllegalArgumentException when an argument is not positive
   */
  public TtftParts ttftParts(int batch, int isl, int osl) {
    // the running step is the point's TPOT: one AFD decode step per output token
    return ttftParts(point(batch, isl, osl).tpot().seconds(), isl, afd());
  }

  private TtftParts ttftParts(double step, int isl, AfdPools p) {
    double prefill =
        AfdPools.side(attention.prefill(1, isl), false)
            + AfdPools.side(ffn.prefill(1, isl), true)
            + p.transferSeconds(isl);
    return TtftParts.of(attention.efficiency().admission().seconds(), step / 2, prefill, 0);
  }

  @Override
  public String toString() {
    return Deployments.describe(strategy(), attention + " + " + ffn, speculation);
  }
}
