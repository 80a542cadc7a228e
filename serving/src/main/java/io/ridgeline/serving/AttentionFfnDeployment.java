package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.Seconds;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.Locale;
import java.util.Optional;

/**
 * Attention/FFN disaggregation (MegaScale-Infer, Step-3) as up to three pools: decode attention
 * with the KV cache, projections, embeddings and head on one pool, FFN/MoE on another,
 * micro-batches in ping-pong between them (see {@link Deployment}), and prompts either on a prefill
 * pool of their own (any chip and layout, sized to the decode side's demand exactly as under pd:
 * {@link DisaggregatedPrefill}) or, without one, through the attention and FFN pools themselves.
 *
 * <ul>
 *   <li><b>Step</b> ({@link AfdPools#step}): micro-batches split exactly (an odd batch is not
 *       costed as the next even one); each side pays its own per-step and per-kernel fixed costs
 *       ({@link StepResult#attentionOverheadSeconds()}, {@link StepResult#ffnOverheadSeconds()}).
 *   <li><b>TPOT</b>: the step with a prefill pool; without one, the step plus the prefill the pools
 *       do per step in steady state, {@code batch / osl} prompts of {@link
 *       AfdPools#prefillSecondsPerPrompt} each.
 *   <li><b>Chips</b>: attention + FFN replica chips + the prefill pool's share ({@link
 *       DisaggregatedPrefill#chips}); tokens per second per chip, price and power count all three.
 *   <li><b>FFN-pooling gain</b> ({@link #ffnPoolingGain}): AFD's decode tokens per second per chip
 *       over those of the attention pool's chips decoding the whole model alone, the most AFD can
 *       beat pd by with the same decode chips and prefill pool.
 * </ul>
 *
 * @param attention the pool that runs attention and holds the KV cache
 * @param ffn the pool that runs the FFN/MoE layers
 * @param prefill the pool that prefills prompts, if any (else the attention and FFN pools do)
 * @param speculation speculative decoding, if on (named in the text; AFD steps ignore it)
 * @param price a price per chip-hour overriding the catalog's
 * @param poolLink the link that carries activations between the pools (and KV from the prefill
 *     pool); by default the chips'
 * @param microBatches micro-batches in flight between the pools, at least 1
 */
public record AttentionFfnDeployment(
    RooflineModel attention,
    RooflineModel ffn,
    Optional<RooflineModel> prefill,
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
    // the order of the checks is the order of the messages a deployment with several problems
    // gets first: micro-batches, then the pool link, the pools' model, the options
    checkArgument(microBatches >= 1, "AFD micro-batches must be at least 1: %s", microBatches);
    Deployments.checkPoolLink(poolLink);
    Deployments.checkSameModel(attention, ffn);
    checkNotNull(prefill, "prefill").ifPresent(p -> Deployments.checkSameModel(attention, p));
    Deployments.checkOptions(attention, speculation, price);
  }

  /**
   * The two decode pools, prefilling on themselves, with {@value #DEFAULT_MICRO_BATCHES}
   * micro-batches and no other options.
   */
  public AttentionFfnDeployment(RooflineModel attention, RooflineModel ffn) {
    this(
        attention,
        ffn,
        Optional.empty(),
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
    return prefill
        .map(p -> ImmutableMap.of("attention", attention, "ffn", ffn, "prefill", p))
        .orElseGet(() -> ImmutableMap.of("attention", attention, "ffn", ffn));
  }

  @Override
  public AttentionFfnDeployment withSpeculation(Speculation value) {
    return new AttentionFfnDeployment(
        attention, ffn, prefill, Optional.of(value), price, poolLink, microBatches);
  }

  @Override
  public AttentionFfnDeployment withPrice(DollarsPerHour value) {
    return new AttentionFfnDeployment(
        attention, ffn, prefill, speculation, Optional.of(value), poolLink, microBatches);
  }

  /** This deployment with {@code value} as its prefill pool. */
  public AttentionFfnDeployment withPrefill(RooflineModel value) {
    return new AttentionFfnDeployment(
        attention, ffn, Optional.of(value), speculation, price, poolLink, microBatches);
  }

  private AfdPools afd() {
    return new AfdPools(attention, ffn, poolLink);
  }

  @Override
  public Optional<String> fitProblem(int isl, int osl) {
    Optional<String> problem = afd().fitProblem(isl + osl);
    return problem.isPresent() || prefill.isEmpty()
        ? problem
        : DisaggregatedPrefill.fitProblem(prefill.get(), isl);
  }

  @Override
  public java.util.OptionalInt largestBatch(int context) {
    AfdPools p = afd();
    int b = BatchSearch.largest(x -> p.fits(x, context));
    return b >= 1 ? java.util.OptionalInt.of(b) : java.util.OptionalInt.empty();
  }

  /**
   * The aggregate link bandwidth (B/s, all attention chips together) at which moving {@code micro}
   * tokens' activations takes no longer than {@code computeSeconds}: below it the transfer is AFD's
   * bottleneck.
   */
  public double afdBandwidthNeeded(int micro, double computeSeconds) {
    return afd().transferBytes(micro) / Math.max(computeSeconds, 1e-12);
  }

  /**
   * The decode step of {@code batch} sequences of {@code isl + osl / 2} tokens, in seconds ({@link
   * AfdPools#step}).
   */
  public Seconds step(int batch, int isl, int osl) {
    Deployments.checkPoint(batch, isl, osl);
    return Seconds.of(afd().step(batch, isl + Math.max(1, osl / 2), microBatches).seconds());
  }

  /**
   * The FFN-pooling gain at {@code batch}: AFD's decode output tokens per second per decode chip,
   * {@code batch / step / (attention + FFN chips)}, over those of the attention pool's layout
   * decoding the whole model alone (a pd decode pool of the same chips) at {@code b = min(batch,
   * the largest batch that pool holds)} (at least 1), {@code b / TPOT(b) / attention chips}.
   * Prefill chips per output token per second are the same under pd and afd with one prefill pool,
   * so AFD's tokens per second per chip exceed pd's on those chips by at most this factor (when it
   * is above 1).
   *
   * @throws IllegalArgumentException when an argument is not positive
   */
  public double ffnPoolingGain(int batch, int isl, int osl) {
    double afdRate = batch / step(batch, isl, osl).seconds() / decodeChips();
    return afdRate / aloneRate(batch, isl, osl);
  }

  /** Decode tokens/s per chip of the attention pool decoding the whole model alone. */
  private double aloneRate(int batch, int isl, int osl) {
    RooflineModel alone =
        RooflineModel.builder().from(attention).runsPrefill(false).runsAttention(true).build();
    int b = Math.max(1, Math.min(batch, alone.largestBatch(isl + osl).orElse(1)));
    double tpot = alone.decode(b, isl + Math.max(1, osl / 2)).seconds().seconds();
    return b / tpot / attention.replicaChips();
  }

  /** The attention and FFN pools' utilisation over the AFD step, weighted by their chips. */
  @Override
  public Utilisation decodeUtilisation(int batch, int isl, int osl) {
    Deployments.checkPoint(batch, isl, osl);
    return afd().utilisation(batch, isl + Math.max(1, osl / 2), microBatches);
  }

  private double decodeChips() {
    return attention.replicaChips() + ffn.replicaChips();
  }

  @Override
  public FrontierPoint point(int batch, Workload w) {
    int osl = w.outputTokens();
    Deployments.checkPoint(batch, w.inputTokens(), osl);
    checkArgument(
        !w.hasCache() || prefill.isPresent(),
        "cached tokens and prefix hits need a prefill pool under attention-FFN disaggregation: %s",
        w);
    // the history counts as prompt for contexts, memory and the KV sent to the attention pool
    int isl = w.promptContext();
    AfdPools p = afd();
    int context = isl + Math.max(1, osl / 2);
    AfdPools.Step s = p.step(batch, context, microBatches);
    double step = s.seconds();
    // without a prefill pool the decode pools also prefill batch / osl prompts per step
    double tpot = prefill.isPresent() ? step : step + batch * p.prefillSecondsPerPrompt(isl) / osl;
    double prefillChips =
        prefill.map(pre -> DisaggregatedPrefill.chips(pre, w, batch, tpot)).orElse(0.0);
    double ttft = ttftParts(batch, step, w, p).total().seconds();
    double chips = decodeChips() + prefillChips;
    double perChip = batch / tpot / chips;
    boolean fits =
        p.fits(batch, w.finalContext())
            && prefill.map(pre -> DisaggregatedPrefill.fits(pre, isl)).orElse(true);
    FrontierPoint.Builder b =
        FrontierPoint.builder()
            .strategy(strategy().id())
            .batch(batch)
            .ttft(Seconds.of(ttft))
            .tpot(Seconds.of(tpot))
            .tokensPerSecondPerUser(1 / tpot)
            .tokensPerSecondPerChip(perChip)
            .fits(fits)
            .chipsTotal(chips)
            .note(note(s.largest(), prefillChips, batch, isl, osl));
    RooflineModel pre = prefill.orElse(attention);
    return ServingCosts.costs(
        b,
        batch / tpot,
        ServingCosts.dollarsPerHour(
                price, attention.chip(), attention.replicaChips(), ffn.chip(), ffn.replicaChips())
            + ServingCosts.dollarsPerHour(price, pre.chip(), prefillChips),
        ServingCosts.watts(
                attention.chip(), attention.replicaChips(), ffn.chip(), ffn.replicaChips())
            + ServingCosts.watts(pre.chip(), prefillChips));
  }

  /**
   * The point's breakdown: one micro-batch's sides, the link bandwidth each pool's chips need for
   * the transfer to hide behind the slower side, the chips of each pool and the FFN-pooling gain.
   */
  private String note(AfdPools.MicroBatch micro, double prefillChips, int batch, int isl, int osl) {
    double needed = afdBandwidthNeeded(micro.sequences(), Math.max(micro.attention(), micro.ffn()));
    return String.format(
        Locale.ROOT,
        "attention %s, FFN %s, transfer %s per micro-batch of %d; link needed %s per attention"
            + " chip, %s per FFN chip; attention:FFN%s chips %d:%d%s; FFN-pooling gain %.2f×",
        Seconds.of(micro.attention()),
        Seconds.of(micro.ffn()),
        Seconds.of(micro.transfer()),
        micro.sequences(),
        BytesPerSecond.of(needed / attention.replicaChips()),
        BytesPerSecond.of(needed / ffn.replicaChips()),
        prefill.isPresent() ? ":prefill" : "",
        attention.replicaChips(),
        ffn.replicaChips(),
        prefill.isPresent() ? String.format(Locale.ROOT, ":%.2f", prefillChips) : "",
        ffnPoolingGain(batch, isl, osl));
  }

  /**
   * The TTFT of a request of {@code isl} prompt tokens joining a running batch of {@code batch}
   * sequences at context {@code isl + osl / 2}, in its parts ({@link TtftParts}):
   *
   * <ul>
   *   <li>admission: the attention pool's {@link Efficiency#admission()};
   *   <li>wait: half the running AFD decode step, {@code step / 2}, the mean residual for a request
   *       arriving at a random time, plus one whole step under the attention pool's overlap
   *       scheduler ({@link Efficiency#schedulingLagSteps}), none at batch 1 ({@link
   *       TtftParts#stepWait});
   *   <li>prefill: with a prefill pool, the prompt's prefill there; without, the prompt through
   *       both pools, attention side + FFN side + the activations' transfer of its {@code isl}
   *       tokens there and back;
   *   <li>transfer: with a prefill pool, its KV cache to the attention pool ({@link KvTransfer});
   *       without, zero (the KV cache stays on the attention pool).
   * </ul>
   *
   * @throws IllegalArgumentException when an argument is not positive
   */
  public TtftParts ttftParts(int batch, int isl, int osl) {
    return ttftParts(batch, step(batch, isl, osl).seconds(), Workload.of(isl, osl), afd());
  }

  /**
   * The TTFT parts of a request of workload {@code w}: with a prefill pool, its new tokens' prefill
   * after its cached ones and its whole prompt context's KV sent on ({@link DisaggregatedPrefill});
   * without one, its prompt through the decode pools (no history: {@link #point} refuses one).
   */
  private TtftParts ttftParts(int batch, double step, Workload w, AfdPools p) {
    double wait = TtftParts.stepWait(batch, step, attention.efficiency().schedulingLagSteps());
    if (prefill.isPresent()) {
      return DisaggregatedPrefill.ttftParts(poolLink, prefill.get(), attention, w, wait);
    }
    return TtftParts.of(
        attention.efficiency().admission().seconds(),
        wait,
        p.prefillSeconds(1, w.inputTokens()),
        0);
  }

  @Override
  public String toString() {
    return Deployments.describe(
        strategy(),
        attention + " + " + ffn + prefill.map(pre -> " + prefill " + pre).orElse(""),
        speculation);
  }
}
