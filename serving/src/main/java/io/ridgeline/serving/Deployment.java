package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Seconds;
import io.ridgeline.core.TensorClass;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Interconnect;
import io.ridgeline.models.Model;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * A serving system: one pool (static or colocated serving) or two (prefill/decode or attention/FFN
 * disaggregation, possibly of different chips), optional speculative decoding and a price. {@link
 * #point} gives the frontier point of a batch size.
 *
 * <ul>
 *   <li><b>static</b>: a replica prefills its batch's prompts together, then decodes them together
 *       (the issue-2 frontier).
 *   <li><b>colocated</b> (today's engines: continuous batching with chunked prefill): in steady
 *       state each step decodes the batch and prefills the prompts of the requests that replace the
 *       finished ones, {@code batch × isl / osl} tokens on average; the step's weights are read
 *       once for both, so the prefill share adds its compute and activation/KV traffic. TPOT is
 *       that step; TTFT is the chunked prefill of one prompt ({@code ⌈isl / 8192⌉} steps of a
 *       decode step plus a chunk).
 *   <li><b>pd</b> (Splitwise, DistServe): decode replicas run the batch at mean context {@code isl
 *       + osl/2}; prefill replicas process prompts in chunks of up to 8,192 tokens; the prefill
 *       pool is sized to the decode pool's demand ({@code prefill replicas per decode replica =
 *       (batch / (TPOT × osl)) / (prompts per second of one prefill replica)}), and every chip of
 *       both pools counts. TTFT adds the KV transfer of one request from the prefill to the decode
 *       pool: {@code isl × KV bytes per token / link bandwidth} over the prefill replica's links.
 *   <li><b>afd</b> (MegaScale-Infer, Step-3): decode attention (with the KV cache, projections,
 *       embeddings and head) on one pool, FFN/MoE on another; per FFN layer each token's hidden
 *       vector goes to the FFN pool and back. With m micro-batches in ping-pong the step takes
 *       {@code max(m × bottleneck, attention + transfer + FFN)} of one micro-batch; {@link
 *       #afdBandwidthNeeded} is the link bandwidth at which the transfer stops being the
 *       bottleneck.
 * </ul>
 */
@Value.Immutable
@RidgelineStyle
public abstract class Deployment {
  /** Serving strategies. */
  public enum Strategy {
    STATIC,
    COLOCATED,
    PD,
    AFD;

    /** Lower-case id. */
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The strategy with this id.
     *
     * @throws IllegalArgumentException listing the ids when there is none
     */
    public static Strategy of(String id) {
      for (Strategy s : values()) {
        if (s.id().equalsIgnoreCase(id)) {
          return s;
        }
      }
      throw new IllegalArgumentException(
          "unknown strategy '" + id + "'; known: static, colocated, pd, afd");
    }
  }

  /** The strategy. */
  public abstract Strategy strategy();

  /** The decode pool (static, colocated, pd) or the attention pool (afd). */
  public abstract RooflineModel primary();

  /** The prefill pool (pd) or the FFN pool (afd). */
  public abstract Optional<RooflineModel> secondary();

  /** Speculative decoding, if on. */
  public abstract Optional<Speculation> speculation();

  /** A price per chip-hour for every chip, overriding the catalog's. */
  public abstract Optional<DollarsPerHour> price();

  /** Micro-batches in flight between the AFD pools. */
  @Value.Default
  public int afdMicroBatches() {
    return 2;
  }

  /** The link that carries KV (pd) or activations (afd) between pools; by default the chips'. */
  public abstract Optional<BytesPerSecond> poolLink();

  /** A single pool under {@code strategy} (static or colocated). */
  public static Deployment of(Strategy strategy, RooflineModel pool) {
    return ImmutableDeployment.builder().strategy(strategy).primary(pool).build();
  }

  /** Prefill/decode disaggregation. */
  public static Deployment disaggregated(RooflineModel prefill, RooflineModel decode) {
    return ImmutableDeployment.builder()
        .strategy(Strategy.PD)
        .primary(ImmutableRooflineModel.copyOf(decode).withRunsPrefill(false))
        .secondary(prefill)
        .build();
  }

  /** Attention/FFN disaggregation. */
  public static Deployment attentionFfn(RooflineModel attention, RooflineModel ffn) {
    return ImmutableDeployment.builder()
        .strategy(Strategy.AFD)
        .primary(attention)
        .secondary(ffn)
        .build();
  }

  /** A new builder. */
  public static ImmutableDeployment.Builder builder() {
    return ImmutableDeployment.builder();
  }

  /** The model served. */
  public Model model() {
    return primary().model();
  }

  /**
   * Why one request of {@code isl} + {@code osl} tokens does not fit, naming the pool; empty when
   * it fits.
   */
  public Optional<String> fitProblem(int isl, int osl) {
    int context = isl + osl;
    if (strategy() == Strategy.AFD) {
      if (afdFits(1, context)) {
        return Optional.empty();
      }
      RooflineModel att = primary();
      RooflineModel ffn = secondary().orElseThrow();
      return Optional.of(
          model().id()
              + " does not fit the AFD pools: attention on "
              + att.replicaChips()
              + "× "
              + att.chip().id()
              + " holds the attention weights, head and KV; FFN on "
              + ffn.replicaChips()
              + "× "
              + ffn.chip().id()
              + " holds "
              + Bytes.of(ffnWeightBytes(ffn))
              + " of FFN weights per chip of "
              + ffn.memory(1, 1).capacity()
              + "; add chips to the pool that overflows");
    }
    Optional<String> decode = poolProblem("", primary(), 1, context);
    if (decode.isPresent() || strategy() != Strategy.PD) {
      return decode;
    }
    return poolProblem("prefill pool: ", secondary().orElseThrow(), 1, isl);
  }

  private static Optional<String> poolProblem(
      String label, RooflineModel pool, int batch, int context) {
    MemoryUse one = pool.memory(batch, context);
    if (one.fits()) {
      return Optional.empty();
    }
    return Optional.of(
        label
            + pool.model().id()
            + " does not fit on "
            + pool.replicaChips()
            + "× "
            + pool.chip().id()
            + ": one request needs "
            + one.total()
            + " per chip, capacity "
            + one.capacity()
            + "; use more chips (--count/--tp/--pp) or lower precision");
  }

  private double ffnWeightBytes(RooflineModel ffn) {
    Map<TensorClass, Double> params = model().parametersByClass();
    return (params.get(TensorClass.EXPERTS)
                * ffn.precisions().weights(TensorClass.EXPERTS).bytesPerElement()
            + params.get(TensorClass.DENSE_FFN)
                * ffn.precisions().weights(TensorClass.DENSE_FFN).bytesPerElement())
        / ffn.replicaChips();
  }

  /** The largest batch the decode (or attention) pool holds at {@code context}. */
  public int maxBatch(int context) {
    if (strategy() == Strategy.AFD) {
      return BatchSearch.largest(b -> afdFits(b, context));
    }
    if (speculation().isPresent() && speculation().get().draft().isPresent()) {
      return BatchSearch.largest(
          b -> primary().memory(b, context).fits() && fitsWithDraft(b, context));
    }
    return primary().maxBatch(context);
  }

  /**
   * The frontier point of {@code batch} requests of {@code isl} prompt and {@code osl} output
   * tokens.
   *
   * @throws IllegalArgumentException when an argument is not positive
   */
  public FrontierPoint point(int batch, int isl, int osl) {
    checkArgument(batch > 0, "batch must be positive: %s", batch);
    checkArgument(isl > 0, "input tokens (isl) must be positive: %s", isl);
    checkArgument(osl > 0, "output tokens (osl) must be positive: %s", osl);
    switch (strategy()) {
      case STATIC:
        return staticPoint(batch, isl, osl);
      case COLOCATED:
        return colocated(batch, isl, osl);
      case PD:
        return disaggregated(batch, isl, osl);
      default:
        return afd(batch, isl, osl);
    }
  }

  // ---- strategies ----

  private FrontierPoint staticPoint(int batch, int isl, int osl) {
    FrontierPoint p = ParetoFrontier.point(primary(), batch, isl, osl);
    if (speculation().isEmpty()) {
      return finish(
          ImmutableFrontierPoint.builder().from(p),
          p.tokensPerSecondPerChip(),
          primary().replicaChips(),
          "");
    }
    double tpot = speculativeTpot(primary(), batch, isl + osl / 2);
    double request = p.ttft().seconds() + (osl - 1) * tpot;
    double perChip = (double) batch * osl / request / primary().replicaChips();
    return finish(
        ImmutableFrontierPoint.builder()
            .from(p)
            .tpot(Seconds.of(tpot))
            .tokensPerSecondPerUser(1 / tpot)
            .tokensPerSecondPerChip(perChip)
            .fits(p.fits() && fitsWithDraft(batch, isl + osl)),
        perChip,
        primary().replicaChips(),
        speculation().get().toString());
  }

  private FrontierPoint colocated(int batch, int isl, int osl) {
    RooflineModel rm = primary();
    int context = isl + Math.max(1, osl / 2);
    double decode =
        speculation().isPresent()
            ? speculativeTpot(rm, batch, context)
            : rm.decode(batch, context).seconds().seconds();
    // prefill share of a step: batch/osl prompts on average, weights already streamed by the decode
    // part
    double prefillShare = prefillWithoutWeights(rm, (double) batch / osl, isl);
    double tpot = decode + prefillShare;
    int chunk = Math.min(isl, RooflineModel.PREFILL_CHUNK_TOKENS);
    int chunks = (isl + chunk - 1) / chunk;
    // TTFT = its chunks, each a step with the running batch's decode, + the request's admission
    double ttft =
        chunks * (decode + prefillWithoutWeights(rm, (double) chunk / isl, isl))
            + rm.efficiency().admission().seconds();
    double perChip = batch / tpot / rm.replicaChips();
    return finish(
        ImmutableFrontierPoint.builder()
            .batch(batch)
            .ttft(Seconds.of(ttft))
            .tpot(Seconds.of(tpot))
            .tokensPerSecondPerUser(1 / tpot)
            .tokensPerSecondPerChip(perChip)
            .fits(rm.memory(batch, isl + osl).fits() && fitsWithDraft(batch, isl + osl)),
        perChip,
        rm.replicaChips(),
        speculation().map(Speculation::toString).orElse(""));
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

  private FrontierPoint disaggregated(int batch, int isl, int osl) {
    RooflineModel decode = primary();
    RooflineModel prefill = secondary().orElseThrow();
    int context = isl + Math.max(1, osl / 2);
    double tpot =
        speculation().isPresent()
            ? speculativeTpot(decode, batch, context)
            : decode.decode(batch, context).seconds().seconds();
    int promptsPerPass = prefill.promptsPerPrefillPass(isl);
    double pass = prefill.prefill(promptsPerPass, isl).seconds().seconds();
    double prefillRate = promptsPerPass / pass; // prompts per second per prefill replica
    double demand = batch / (tpot * osl); // requests per second per decode replica
    double ratio = demand / prefillRate; // prefill replicas per decode replica
    double chips = decode.replicaChips() + ratio * prefill.replicaChips();
    double transfer = kvTransferSeconds(isl, prefill, decode);
    double ttft =
        prefill.prefill(1, isl).seconds().seconds()
            + transfer
            + decode.efficiency().admission().seconds();
    double perChip = batch / tpot / chips;
    boolean fits =
        decode.memory(batch, isl + osl).fits()
            && prefill.memory(promptsPerPass, isl).fits()
            && fitsWithDraft(batch, isl + osl);
    double dollarsPerHour =
        dollarsPerHour(
            decode.chip(), decode.replicaChips(), prefill.chip(), ratio * prefill.replicaChips());
    double watts =
        watts(decode.chip(), decode.replicaChips(), prefill.chip(), ratio * prefill.replicaChips());
    String note =
        String.format(
                Locale.ROOT,
                "prefill:decode chips %.2f:%d, KV transfer %s",
                ratio * prefill.replicaChips(),
                decode.replicaChips(),
                Seconds.of(transfer))
            + speculation().map(s -> ", " + s).orElse("");
    return costs(
        ImmutableFrontierPoint.builder()
            .strategy("pd")
            .batch(batch)
            .ttft(Seconds.of(ttft))
            .tpot(Seconds.of(tpot))
            .tokensPerSecondPerUser(1 / tpot)
            .tokensPerSecondPerChip(perChip)
            .fits(fits)
            .chipsTotal(chips)
            .note(note),
        batch / tpot,
        dollarsPerHour,
        watts);
  }

  /**
   * Seconds to move one request's KV cache of {@code tokens} tokens from the prefill to the decode
   * pool: bytes over the prefill replica's links in parallel (the pool link if set, else the chips'
   * scale-out network, else their scale-up fabric), plus one hop of latency.
   */
  public double kvTransferSeconds(int tokens, RooflineModel prefill, RooflineModel decode) {
    Bytes kv = prefill.model().cacheBytesPerSequence(tokens, prefill.precisions().kvCache(), 1);
    Optional<Interconnect> net = prefill.chip().scaleOut().or(() -> prefill.chip().scaleUp());
    BytesPerSecond link =
        poolLink()
            .or(() -> net.map(Interconnect::bandwidthPerDirection))
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "chip "
                            + prefill.chip().id()
                            + " has no interconnect to move KV to the decode pool; set a pool link"));
    double latency = poolLink().isPresent() ? 0 : net.map(i -> i.latency().seconds()).orElse(0.0);
    return kvTransferSeconds(kv, link.times(prefill.replicaChips())) + latency;
  }

  /** Seconds to move {@code kv} bytes over a {@code link}: bytes / bandwidth. */
  public static double kvTransferSeconds(Bytes kv, BytesPerSecond link) {
    return kv.at(link).seconds();
  }

  private FrontierPoint afd(int batch, int isl, int osl) {
    RooflineModel att = primary();
    RooflineModel ffn = secondary().orElseThrow();
    int context = isl + Math.max(1, osl / 2);
    int m = Math.min(afdMicroBatches(), batch);
    // m micro-batches of ⌈batch / m⌉ sequences (the last may be short; costed as full)
    int micro = (batch + m - 1) / m;
    double ta = side(att.decode(micro, context), false);
    double tf = side(ffn.decode(micro, context), true);
    double tx = afdTransferSeconds(micro);
    double bottleneck = Math.max(ta, Math.max(tf, tx));
    double step = Math.max(m * bottleneck, ta + tf + tx);
    double ttft =
        side(att.prefill(1, isl), false)
            + side(ffn.prefill(1, isl), true)
            + afdTransferSeconds(isl)
            + att.efficiency().admission().seconds();
    double chips = att.replicaChips() + ffn.replicaChips();
    double perChip = batch / step / chips;
    double needed = afdBandwidthNeeded(micro, Math.max(ta, tf));
    double dollarsPerHour =
        dollarsPerHour(att.chip(), att.replicaChips(), ffn.chip(), ffn.replicaChips());
    double watts = watts(att.chip(), att.replicaChips(), ffn.chip(), ffn.replicaChips());
    String note =
        String.format(
            Locale.ROOT,
            "attention %s, FFN %s, transfer %s per micro-batch of %d; link needed %s per attention chip",
            Seconds.of(ta),
            Seconds.of(tf),
            Seconds.of(tx),
            micro,
            BytesPerSecond.of(needed / att.replicaChips()));
    return costs(
        ImmutableFrontierPoint.builder()
            .strategy("afd")
            .batch(batch)
            .ttft(Seconds.of(ttft))
            .tpot(Seconds.of(step))
            .tokensPerSecondPerUser(1 / step)
            .tokensPerSecondPerChip(perChip)
            .fits(afdFits(batch, isl + osl))
            .chipsTotal(chips)
            .note(note),
        batch / step,
        dollarsPerHour,
        watts);
  }

  /** The time of a step's attention side (ffn = false) or FFN side (ffn = true). */
  private static double side(StepResult step, boolean ffn) {
    double s = 0;
    for (PhaseResult p : step.phases()) {
      if (p.kind().mixed()) {
        for (OperationResult o : p.operations()) {
          boolean ffnOp = o.operation().role().ffnSide();
          if (ffnOp == ffn) {
            s += o.seconds().seconds();
          }
        }
      } else if (p.kind().ffn() == ffn) {
        s += p.seconds().seconds();
      }
    }
    return step.passes() * (s + step.p2pSeconds().seconds());
  }

  /**
   * Bytes of hidden vectors crossing between the AFD pools for {@code tokens} tokens: there and
   * back per FFN layer.
   */
  private double afdTransferBytes(double tokens) {
    long ffnLayers = model().layers().stream().filter(l -> l.ffn().isPresent()).count();
    return 2.0
        * tokens
        * model().hiddenSize()
        * ffnLayers
        * primary().precisions().activations().bytesPerElement();
  }

  private double afdTransferSeconds(double tokens) {
    RooflineModel att = primary();
    BytesPerSecond link = afdLink().times(att.replicaChips());
    long ffnLayers = model().layers().stream().filter(l -> l.ffn().isPresent()).count();
    double latency =
        poolLink().isPresent() ? 0 : afdInterconnect().map(i -> i.latency().seconds()).orElse(0.0);
    return afdTransferBytes(tokens) / link.bytesPerSecond() + 2 * ffnLayers * latency;
  }

  /**
   * The aggregate link bandwidth (B/s, all attention chips together) at which moving {@code micro}
   * tokens' activations takes no longer than {@code computeSeconds}: below it the transfer is AFD's
   * bottleneck.
   */
  public double afdBandwidthNeeded(int micro, double computeSeconds) {
    return afdTransferBytes(micro) / Math.max(computeSeconds, 1e-12);
  }

  private Optional<Interconnect> afdInterconnect() {
    RooflineModel att = primary();
    RooflineModel ffn = secondary().orElseThrow();
    boolean sameDomain =
        att.chip().id().equals(ffn.chip().id())
            && att.chip()
                .scaleUp()
                .map(u -> att.replicaChips() + ffn.replicaChips() <= u.domainSize())
                .orElse(false);
    return sameDomain ? att.chip().scaleUp() : att.chip().scaleOut().or(() -> att.chip().scaleUp());
  }

  private BytesPerSecond afdLink() {
    return poolLink()
        .or(() -> afdInterconnect().map(Interconnect::bandwidthPerDirection))
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "chip "
                        + primary().chip().id()
                        + " has no interconnect to reach the FFN pool; set a pool link"));
  }

  /**
   * Whether {@code batch} sequences fit: attention weights, head and KV on the attention pool; FFN
   * weights on the FFN pool.
   */
  private boolean afdFits(int batch, int context) {
    RooflineModel att = primary();
    RooflineModel ffn = secondary().orElseThrow();
    Map<TensorClass, Double> params = model().parametersByClass();
    double attWeights =
        (params.get(TensorClass.ATTENTION)
                    * att.precisions().weights(TensorClass.ATTENTION).bytesPerElement()
                + params.get(TensorClass.EMBEDDINGS)
                    * att.precisions().weights(TensorClass.EMBEDDINGS).bytesPerElement())
            / att.replicaChips();
    double kv =
        model()
                .cacheBytesPerSequence(context, att.precisions().kvCache(), att.tensorParallel())
                .bytes()
            * batch
            / (att.attentionDataParallel() * att.pipelineParallel());
    double attCapacity = att.memory(1, 1).capacity().bytes();
    double ffnWeights = ffnWeightBytes(ffn);
    double ffnCapacity = ffn.memory(1, 1).capacity().bytes();
    return attWeights + kv <= attCapacity && ffnWeights <= ffnCapacity;
  }

  // ---- speculation ----

  /**
   * Mean time per output token with speculation: (verify + γ drafts) / expected tokens per step.
   */
  private double speculativeTpot(RooflineModel rm, int batch, int context) {
    Speculation s = speculation().orElseThrow();
    double verify = rm.decode(batch, context, s.length() + 1).seconds().seconds();
    double draft;
    if (s.draft().isPresent()) {
      draft =
          RooflineModel.builder()
              .from(rm)
              .model(s.draft().get())
              .precisions(s.draft().get().defaultPrecisions())
              .build()
              .decode(batch, context)
              .seconds()
              .seconds();
    } else {
      // MTP: one extra decoder layer and the LM head per draft token
      StepResult step = rm.decode(batch, context);
      double other =
          step.phases().stream()
              .filter(p -> p.kind() == PhaseKind.DECODE_OTHER)
              .mapToDouble(p -> p.seconds().seconds())
              .sum();
      double layers = step.seconds().seconds() - step.passes() * other;
      draft = layers / rm.model().layerCount() + step.passes() * other;
    }
    return (verify + s.length() * draft) / s.expectedTokensPerStep();
  }

  private boolean fitsWithDraft(int batch, int context) {
    if (speculation().isEmpty() || speculation().get().draft().isEmpty()) {
      return true;
    }
    RooflineModel rm = primary();
    Model draft = speculation().get().draft().get();
    MemoryUse target = rm.memory(batch, context);
    double draftBytes =
        draft.weightBytes(draft.defaultPrecisions()).bytes() / rm.replicaChips()
            // cacheBytesPerSequence is already one chip's share over tp; dp groups and stages split
            // the rest
            + draft
                    .cacheBytesPerSequence(context, rm.precisions().kvCache(), rm.tensorParallel())
                    .bytes()
                * batch
                / (rm.attentionDataParallel() * rm.pipelineParallel());
    return target.total().bytes() + draftBytes <= target.capacity().bytes();
  }

  // ---- cost and energy ----

  private Optional<Double> pricePerHour(Chip chip) {
    return price().or(chip::pricePerHour).map(DollarsPerHour::dollarsPerHour);
  }

  /** Dollars per hour of two pools, NaN when either price is unknown. */
  private double dollarsPerHour(Chip a, double aChips, Chip b, double bChips) {
    return pricePerHour(a).map(p -> p * aChips).orElse(Double.NaN)
        + pricePerHour(b).map(p -> p * bChips).orElse(Double.NaN);
  }

  /** Watts at TDP of two pools, NaN when either TDP is unknown. */
  private static double watts(Chip a, double aChips, Chip b, double bChips) {
    return a.tdp().map(w -> w.watts() * aChips).orElse(Double.NaN)
        + b.tdp().map(w -> w.watts() * bChips).orElse(Double.NaN);
  }

  private FrontierPoint finish(
      ImmutableFrontierPoint.Builder b, double perChip, double chips, String note) {
    RooflineModel rm = primary();
    double dollars = pricePerHour(rm.chip()).map(p -> p * chips).orElse(Double.NaN);
    double watts = rm.chip().tdp().map(w -> w.watts() * chips).orElse(Double.NaN);
    return costs(
        b.strategy(strategy().id()).chipsTotal(chips).note(note), perChip * chips, dollars, watts);
  }

  /**
   * Adds $ per million output tokens (dollars per hour / 3600 / tokens per second × 1e6) and tokens
   * per joule (tokens per second / watts at TDP), where prices and TDPs are known.
   */
  private static FrontierPoint costs(
      ImmutableFrontierPoint.Builder b,
      double tokensPerSecond,
      double dollarsPerHour,
      double watts) {
    if (Double.isFinite(dollarsPerHour) && tokensPerSecond > 0) {
      b.dollarsPerMillionTokens(dollarsPerHour / 3600 / tokensPerSecond * 1e6);
    }
    if (Double.isFinite(watts) && watts > 0) {
      b.tokensPerJoule(tokensPerSecond / watts);
    }
    return b.build();
  }

  @Value.Check
  void check() {
    checkArgument(
        (strategy() == Strategy.PD || strategy() == Strategy.AFD) == secondary().isPresent(),
        "%s needs %s pool",
        strategy().id(),
        strategy() == Strategy.PD || strategy() == Strategy.AFD ? "a second" : "exactly one");
    checkArgument(
        afdMicroBatches() >= 1, "AFD micro-batches must be at least 1: %s", afdMicroBatches());
    poolLink()
        .ifPresent(
            l ->
                checkArgument(
                    l.bytesPerSecond() > 0, "pool link bandwidth must be positive: %s", l));
    secondary()
        .ifPresent(
            s ->
                checkArgument(
                    s.model().id().equals(primary().model().id()),
                    "both pools must serve the same model: %s vs %s",
                    primary().model().id(),
                    s.model().id()));
  }

  @Override
  public String toString() {
    String pools = secondary().map(s -> primary() + " + " + s).orElse(primary().toString());
    return strategy().id() + ": " + pools + speculation().map(s -> ", speculative " + s).orElse("");
  }
}
