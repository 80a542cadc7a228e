package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.models.Model;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A serving system: one pool (static or colocated serving) or two (prefill/decode or attention/FFN
 * disaggregation, possibly of different chips), optional speculative decoding and a price. {@link
 * #point} gives the frontier point of a batch size. Each strategy is its own implementation with
 * named pools:
 *
 * <ul>
 *   <li>{@link StaticDeployment} (<b>static</b>): a replica prefills its batch's prompts together,
 *       then decodes them together (the issue-2 frontier).
 *   <li>{@link ColocatedDeployment} (<b>colocated</b>, today's engines: continuous batching with
 *       chunked prefill): in steady state each step decodes the batch and prefills the prompts of
 *       the requests that replace the finished ones, {@code batch × isl / osl} tokens on average;
 *       the step's weights are read once for both, so the prefill share adds its compute and
 *       activation/KV traffic. TPOT is that step; TTFT is the chunked prefill of one prompt ({@code
 *       ⌈isl / 8192⌉} steps of a decode step plus a chunk).
 *   <li>{@link PrefillDecodeDeployment} (<b>pd</b>, Splitwise, DistServe): decode replicas run the
 *       batch at mean context {@code isl + osl/2}; prefill replicas process prompts in chunks of up
 *       to 8,192 tokens; the prefill pool is sized to the decode pool's demand ({@code prefill
 *       replicas per decode replica = (batch / (TPOT × osl)) / (prompts per second of one prefill
 *       replica)}), and every chip of both pools counts. TTFT adds the KV transfer of one request
 *       from the prefill to the decode pool: {@code isl × KV bytes per token / link bandwidth} over
 *       the prefill replica's links.
 *   <li>{@link AttentionFfnDeployment} (<b>afd</b>, MegaScale-Infer, Step-3): decode attention
 *       (with the KV cache, projections, embeddings and head) on one pool, FFN/MoE on another; per
 *       FFN layer each token's hidden vector goes to the FFN pool and back. With m micro-batches in
 *       ping-pong the step takes {@code max(m × bottleneck, attention + transfer + FFN)} of one
 *       micro-batch; {@link AttentionFfnDeployment#afdBandwidthNeeded} is the link bandwidth at
 *       which the transfer stops being the bottleneck.
 * </ul>
 *
 * <p>The implementations are records: final, compared by value, validated in their compact
 * constructors, and a sealed interface can name them in {@code permits} (generated Immutables
 * subclasses could not be permitted without opening each type). {@link DeploymentSpec} builds a
 * deployment from pool specifications with the layout policy of {@code ridgeline frontier}.
 */
public sealed interface Deployment
    permits StaticDeployment, ColocatedDeployment, PrefillDecodeDeployment, AttentionFfnDeployment {
  /** Serving strategies. */
  enum Strategy {
    STATIC,
    COLOCATED,
    PD,
    AFD;

    /** Lower-case id. */
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Every strategy's id in declaration order, comma-separated: "static, colocated, pd, afd". */
    public static String ids() {
      return Arrays.stream(values()).map(Strategy::id).collect(Collectors.joining(", "));
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
      throw new IllegalArgumentException("unknown strategy '" + id + "'; known: " + ids());
    }
  }

  /** The strategy. */
  Strategy strategy();

  /** The model served. */
  default Model model() {
    return decodePool().model();
  }

  /**
   * The pool whose replicas hold the running batch and its KV cache, whose {@link #maxBatch} this
   * is: the only pool (static, colocated), the decode pool (pd) or the attention pool (afd).
   */
  RooflineModel decodePool();

  /** The pools by name ("pool"; "decode", "prefill"; "attention", "ffn"), for output. */
  ImmutableMap<String, RooflineModel> pools();

  /** Speculative decoding, if on. */
  Optional<Speculation> speculation();

  /** A price per chip-hour for every chip, overriding the catalog's. */
  Optional<DollarsPerHour> price();

  /** The link that carries KV (pd) or activations (afd) between pools; by default the chips'. */
  default Optional<BytesPerSecond> poolLink() {
    return Optional.empty();
  }

  /** This deployment with speculative decoding {@code speculation}. */
  Deployment withSpeculation(Speculation speculation);

  /** This deployment with the price {@code price} per chip-hour for every chip. */
  Deployment withPrice(DollarsPerHour price);

  /**
   * Why one request of {@code isl} + {@code osl} tokens does not fit, naming the pool; empty when
   * it fits.
   */
  Optional<String> fitProblem(int isl, int osl);

  /** The largest batch the decode (or attention) pool holds at {@code context}. */
  int maxBatch(int context);

  /**
   * The frontier point of {@code batch} requests of {@code isl} prompt and {@code osl} output
   * tokens.
   *
   * @throws IllegalArgumentException when an argument is not positive
   */
  FrontierPoint point(int batch, int isl, int osl);

  /**
   * Seconds to move one request's KV cache of {@code tokens} tokens from {@code prefill} to {@code
   * decode}: bytes over the prefill replica's links in parallel (this deployment's pool link if
   * set, else the chips' scale-out network, else their scale-up fabric), plus one hop of latency.
   */
  default double kvTransferSeconds(int tokens, RooflineModel prefill, RooflineModel decode) {
    return KvTransfer.seconds(poolLink(), tokens, prefill);
  }

  /** Seconds to move {@code kv} bytes over a {@code link}: bytes / bandwidth. */
  static double kvTransferSeconds(Bytes kv, BytesPerSecond link) {
    return KvTransfer.seconds(kv, link);
  }

  /**
   * A single pool under {@code strategy} (static or colocated).
   *
   * @throws IllegalArgumentException when {@code strategy} needs two pools
   */
  static Deployment of(Strategy strategy, RooflineModel pool) {
    return builder().strategy(strategy).primary(pool).build();
  }

  /** Prefill/decode disaggregation; the decode pool does not run prefill. */
  static Deployment disaggregated(RooflineModel prefill, RooflineModel decode) {
    return new PrefillDecodeDeployment(
        prefill, ImmutableRooflineModel.copyOf(decode).withRunsPrefill(false));
  }

  /** Attention/FFN disaggregation. */
  static Deployment attentionFfn(RooflineModel attention, RooflineModel ffn) {
    return new AttentionFfnDeployment(attention, ffn);
  }

  /**
   * A builder by strategy and pool position, for callers not yet on {@link DeploymentSpec}
   * (validation's predictor); new code uses the implementations' constructors or {@link
   * DeploymentSpec}.
   */
  static Builder builder() {
    return new Builder();
  }

  /**
   * Builds a {@link Deployment} from a strategy, its first pool (the only, decode or attention
   * pool) and, for pd and afd, its second (prefill or FFN) pool, taken as given.
   */
  final class Builder {
    private Strategy strategy;
    private RooflineModel first;
    private RooflineModel second;
    private Optional<Speculation> speculation = Optional.empty();
    private Optional<DollarsPerHour> price = Optional.empty();
    private Optional<BytesPerSecond> poolLink = Optional.empty();
    private int afdMicroBatches = AttentionFfnDeployment.DEFAULT_MICRO_BATCHES;

    private Builder() {}

    /** Sets the strategy. */
    public Builder strategy(Strategy value) {
      this.strategy = checkNotNull(value, "strategy");
      return this;
    }

    /** Sets the only pool (static, colocated), the decode pool (pd) or the attention pool (afd). */
    public Builder primary(RooflineModel value) {
      this.first = checkNotNull(value, "primary");
      return this;
    }

    /** Sets the prefill pool (pd) or the FFN pool (afd). */
    public Builder secondary(RooflineModel value) {
      this.second = checkNotNull(value, "secondary");
      return this;
    }

    /** Sets speculative decoding. */
    public Builder speculation(Speculation value) {
      return speculation(Optional.of(value));
    }

    /** Sets speculative decoding, or none. */
    public Builder speculation(Optional<Speculation> value) {
      this.speculation = checkNotNull(value, "speculation");
      return this;
    }

    /** Sets the price per chip-hour of every chip. */
    public Builder price(DollarsPerHour value) {
      this.price = Optional.of(value);
      return this;
    }

    /** Sets the link between the pools (pd, afd). */
    public Builder poolLink(BytesPerSecond value) {
      this.poolLink = Optional.of(value);
      return this;
    }

    /** Sets the micro-batches in flight between the AFD pools. */
    public Builder afdMicroBatches(int value) {
      this.afdMicroBatches = value;
      return this;
    }

    /**
     * The deployment.
     *
     * @throws IllegalArgumentException when the strategy or pool is missing, when pd or afd lacks
     *     its second pool or static or colocated has one, or when a value is out of range
     */
    public Deployment build() {
      checkArgument(strategy != null, "strategy is required");
      checkArgument(first != null, "the %s deployment needs its first pool", strategy.id());
      boolean two = strategy == Strategy.PD || strategy == Strategy.AFD;
      checkArgument(
          two == (second != null),
          "%s needs %s pool",
          strategy.id(),
          two ? "a second" : "exactly one");
      // every strategy checks the AFD and pool-link options, as the former Deployment did
      checkArgument(
          afdMicroBatches >= 1, "AFD micro-batches must be at least 1: %s", afdMicroBatches);
      Deployments.checkPoolLink(poolLink);
      switch (strategy) {
        case STATIC:
          return new StaticDeployment(first, speculation, price);
        case COLOCATED:
          return new ColocatedDeployment(first, speculation, price);
        case PD:
          return new PrefillDecodeDeployment(second, first, speculation, price, poolLink);
        default:
          return new AttentionFfnDeployment(
              first, second, speculation, price, poolLink, afdMicroBatches);
      }
    }
  }
}
