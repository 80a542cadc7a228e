package io.ridgeline.serving;

import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.Seconds;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.Locale;
import java.util.Optional;

/**
 * Prefill/decode disaggregation (Splitwise, DistServe): prompts on a prefill pool, decode steps on
 * a decode pool, the KV cache moved between them (see {@link Deployment}). The pools are taken as
 * given: {@link Deployment#disaggregated} and {@link DeploymentSpec} build a decode pool that does
 * not run prefill ({@link RooflineModel#runsPrefill()} false).
 *
 * @param prefill the pool that prefills prompts
 * @param decode the pool that decodes the running batch
 * @param speculation speculative decoding on the decode pool, if on
 * @param price a price per chip-hour overriding the catalog's
 * @param poolLink the link that carries KV between the pools; by default the chips'
 */
public record PrefillDecodeDeployment(
    RooflineModel prefill,
    RooflineModel decode,
    Optional<Speculation> speculation,
    Optional<DollarsPerHour> price,
    Optional<BytesPerSecond> poolLink)
    implements Deployment {
  /**
   * Validates the components.
   *
   * @throws IllegalArgumentException when the pools serve different models or the pool link is not
   *     positive
   */
  public PrefillDecodeDeployment {
    Deployments.checkPoolLink(poolLink);
    Deployments.checkSameModel(decode, prefill);
    Deployments.checkOptions(decode, speculation, price);
  }

  /** The pools as given, without speculation, price override or pool link. */
  public PrefillDecodeDeployment(RooflineModel prefill, RooflineModel decode) {
    this(prefill, decode, Optional.empty(), Optional.empty(), Optional.empty());
  }

  @Override
  public Strategy strategy() {
    return Strategy.PD;
  }

  @Override
  public RooflineModel decodePool() {
    return decode;
  }

  @Override
  public ImmutableMap<String, RooflineModel> pools() {
    return ImmutableMap.of("decode", decode, "prefill", prefill);
  }

  @Override
  public PrefillDecodeDeployment withSpeculation(Speculation value) {
    return new PrefillDecodeDeployment(prefill, decode, Optional.of(value), price, poolLink);
  }

  @Override
  public PrefillDecodeDeployment withPrice(DollarsPerHour value) {
    return new PrefillDecodeDeployment(prefill, decode, speculation, Optional.of(value), poolLink);
  }

  /** This deployment with {@code value} as the link between the pools. */
  public PrefillDecodeDeployment withPoolLink(BytesPerSecond value) {
    return new PrefillDecodeDeployment(prefill, decode, speculation, price, Optional.of(value));
  }

  @Override
  public Optional<String> fitProblem(int isl, int osl) {
    Optional<String> problem = PoolFit.problem("", decode, 1, isl + osl);
    return problem.isPresent() ? problem : DisaggregatedPrefill.fitProblem(prefill, isl);
  }

  @Override
  public java.util.OptionalInt largestBatch(int context) {
    return SpeculativeDecoding.largestBatch(speculation, decode, context);
  }

  @Override
  public FrontierPoint point(int batch, Workload w) {
    int osl = w.outputTokens();
    Deployments.checkPoint(batch, w.inputTokens(), osl);
    // the history counts as prompt for contexts, memory and the KV sent to the decode pool
    int isl = w.promptContext();
    int context = isl + Math.max(1, osl / 2);
    double tpot = SpeculativeDecoding.decodeTpot(speculation, decode, batch, context);
    double prefillChips = DisaggregatedPrefill.chips(prefill, w, batch, tpot);
    double chips = decode.replicaChips() + prefillChips;
    TtftParts parts = ttftParts(batch, tpot, w, decode);
    double transfer = parts.transfer().seconds();
    double ttft = parts.total().seconds();
    double perChip = batch / tpot / chips;
    boolean fits =
        decode.memory(batch, isl + osl).fits()
            && DisaggregatedPrefill.fits(prefill, isl)
            && SpeculativeDecoding.fitsWithDraft(speculation, decode, batch, isl + osl);
    String note =
        String.format(
                Locale.ROOT,
                "prefill:decode chips %.2f:%d, KV transfer %s",
                prefillChips,
                decode.replicaChips(),
                Seconds.of(transfer))
            + speculation.map(s -> ", " + s).orElse("");
    return ServingCosts.costs(
        FrontierPoint.builder()
            .strategy(strategy().id())
            .batch(batch)
            .ttft(Seconds.of(ttft))
            .tpot(Seconds.of(tpot))
            .tokensPerSecondPerUser(1 / tpot)
            .tokensPerSecondPerChip(perChip)
            .fits(fits)
            .chipsTotal(chips)
            .note(note),
        batch / tpot,
        ServingCosts.dollarsPerHour(
            price, decode.chip(), decode.replicaChips(), prefill.chip(), prefillChips),
        ServingCosts.watts(decode.chip(), decode.replicaChips(), prefill.chip(), prefillChips));
  }

  /**
   * The TTFT of a request of {@code isl} prompt tokens joining a decode batch of {@code batch}
   * sequences that produce {@code osl} tokens each, in its parts ({@link TtftParts}):
   *
   * <ul>
   *   <li>admission: the decode pool's {@link Efficiency#admission()} (the request enters through
   *       the serving frontend once);
   *   <li>wait: half a running decode step, {@code E × tpot / 2} (E output tokens per sequence per
   *       step: 1, or a speculative verify pass's expected tokens), the mean residual of the step
   *       the decode pool runs when the request's KV arrives, before it joins the batch (and one
   *       whole step more under the decode engine's overlap scheduler, {@link
   *       Efficiency#schedulingLagSteps}), and none at batch 1, where the decode pool is idle
   *       ({@link TtftParts#stepWait}); the prefill pool, sized to the demand, is taken to start
   *       the prompt on arrival;
   *   <li>prefill: the prompt's prefill on the prefill pool, {@code prefill(1, isl)};
   *   <li>transfer: its KV cache to the decode pool, bytes / (link × prefill chips) plus a fixed
   *       set-up of one hop of the link's latency and the decode pool's engine hand-over ({@link
   *       Efficiency#pdHandover()}; {@link #kvTransferSeconds}).
   * </ul>
   *
   * @throws IllegalArgumentException when an argument is not positive
   */
  public TtftParts ttftParts(int batch, int isl, int osl) {
    Deployments.checkPoint(batch, isl, osl);
    int context = isl + Math.max(1, osl / 2);
    return ttftParts(
        batch,
        SpeculativeDecoding.decodeTpot(speculation, decode, batch, context),
        Workload.of(isl, osl),
        decode);
  }

  /**
   * The TTFT parts of a workload's request: its new tokens' prefill after its cached ones, and the
   * KV of its whole prompt context (history included) sent to the decode pool.
   */
  private TtftParts ttftParts(int batch, double tpot, Workload w, RooflineModel decodePool) {
    double perStep = speculation.map(Speculation::expectedTokensPerStep).orElse(1.0);
    return DisaggregatedPrefill.ttftParts(
        poolLink,
        prefill,
        decodePool,
        w,
        TtftParts.stepWait(batch, perStep * tpot, decodePool.efficiency().schedulingLagSteps()));
  }

  @Override
  public String toString() {
    return Deployments.describe(strategy(), decode + " + " + prefill, speculation);
  }
}
