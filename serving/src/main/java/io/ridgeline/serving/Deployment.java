package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkNotNull;

import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.models.Model;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * A serving system: one pool (static or colocated serving) or two (prefill/decode or attention/FFN
 * disaggregation, possibly of different chips), optional speculative decoding and a price. {@link
 * #point} gives the frontier point of a batch size. Each strategy is its own implementation with
 * named pools:
 *
 * <ul>
 *   <li>{@link StaticDeployment} (<b>static</b>): a replica prefills its batch's prompts together,
 *       then decodes them together ({@link ParetoFrontier#point}).
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
 *   <li>{@link AttentionFfnDeployment} (<b>afd</b>, MegaScale-Infer, Step-3): prompts on a prefill
 *       pool sized and charged as under pd (or, without one, on the decode pools themselves),
 *       decode attention (with the KV cache, projections, embeddings and head) on one pool, FFN/MoE
 *       on another with its own layout; per FFN layer each token's hidden vector goes to the FFN
 *       pool and back. With m micro-batches in ping-pong the step takes {@code max(m × bottleneck,
 *       attention + transfer + FFN)} of one micro-batch; {@link
 *       AttentionFfnDeployment#afdBandwidthNeeded} is the link bandwidth at which the transfer
 *       stops being the bottleneck.
 * </ul>
 *
 * <p>The implementations are records: final, compared by value, validated in their compact
 * constructors, and a sealed interface can name them in {@code permits} (generated Immutables
 * subclasses could not be permitted without opening each type). {@link DeploymentSpec} builds a
 * deployment from pool specifications with the layout policy of {@code ridgeline frontier}.
 */
public sealed interface Deployment
    permits SinglePoolDeployment, PrefillDecodeDeployment, AttentionFfnDeployment {
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

    /**
     * Whether the strategy serves from two pools linked by the interconnect (pd: prefill and
     * decode; afd: attention and FFN) rather than one (static, colocated).
     */
    public boolean disaggregated() {
      return switch (this) {
        case STATIC, COLOCATED -> false;
        case PD, AFD -> true;
      };
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

  /** The pools by name ("pool"; "decode", "prefill"; "attention", "ffn", "prefill"), for output. */
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

  /**
   * The largest batch the decode (or attention) pool holds at {@code context}; empty when not even
   * one sequence of {@code context} tokens fits.
   */
  OptionalInt largestBatch(int context);

  /**
   * The largest batch the decode (or attention) pool holds at {@code context}.
   *
   * @throws IllegalStateException when not even one sequence fits (a system that does not fit has
   *     no batch, not a batch of 0), naming the deployment; {@link #largestBatch} asks without
   *     throwing
   */
  default int maxBatch(int context) {
    OptionalInt b = largestBatch(context);
    if (b.isEmpty()) {
      throw new IllegalStateException(
          this
              + ": not even one sequence of "
              + context
              + " tokens fits in memory"
              + fitProblem(Math.max(1, context - 1), 1).map(p -> ": " + p).orElse(""));
    }
    return b.getAsInt();
  }

  /**
   * The frontier point of {@code batch} requests of {@code isl} prompt and {@code osl} output
   * tokens: {@link #point(int, Workload)} of {@link Workload#of}.
   *
   * @throws IllegalArgumentException when an argument is not positive
   */
  default FrontierPoint point(int batch, int isl, int osl) {
    return point(batch, Workload.of(isl, osl));
  }

  /**
   * The frontier point of {@code batch} requests of {@code workload}: prefill computes its new
   * tokens against its cached ones, decode runs at contexts from its prompt context to its final
   * one, and the KV of the whole conversation must fit.
   *
   * @throws IllegalArgumentException when the batch is not positive, or the strategy does not model
   *     a cached history yet (afd)
   */
  FrontierPoint point(int batch, Workload workload);

  /**
   * The points of {@code workload} for any batch, with what does not depend on the batch done once:
   * colocated serving compiled into per-operation coefficients ({@code CompiledColocated}), the
   * other strategies {@link #point(int, Workload)} per batch; {@link PointsAt#slowPath} says which
   * and why. Its points equal {@link #point(int, Workload)}'s (compiled: to the last digit or two).
   *
   * <pre>{@code
   * PointsAt at = deployment.pointsAt(Workload.of(1024, 1024));
   * for (int b = 1; b <= 1024; b++) at.point(b);
   * }</pre>
   *
   * @throws IllegalArgumentException when a length is out of range, or the batch-independent part
   *     fails
   */
  default PointsAt pointsAt(Workload workload) {
    return Deployments.at(this, workload);
  }

  /**
   * {@link #pointsAt(Workload)}, keeping in {@code scratch} what consecutive workloads of the same
   * pool and prompt share (the compiled prefill step and the TTFT chunk's pass), so that a run of
   * workloads that differ only in output length compiles the prefill once. {@code scratch} is the
   * block its points are then written to ({@link PointsAt#points}); one per thread.
   *
   * @throws IllegalArgumentException as {@link #pointsAt(Workload)} throws
   */
  default PointsAt pointsAt(Workload workload, PointBlock scratch) {
    return Deployments.at(this, workload, scratch.prefills);
  }

  /**
   * Why one request of {@code workload} does not fit: {@link #fitProblem(int, int)} with its
   * history counted in the prompt.
   */
  default Optional<String> fitProblem(Workload workload) {
    return fitProblem(workload.promptContext(), workload.outputTokens());
  }

  /**
   * How busy the chips that hold the running batch are over one decode step of {@code batch}
   * sequences at the mean context {@code isl + osl / 2} ({@link Utilisation}: MFU and
   * memory-bandwidth utilisation, fixed costs included): the one pool (static, colocated: its plain
   * decode step, without the prefill chunks a colocated step also carries), the decode pool (pd),
   * the attention and FFN pools weighted by their chips (afd). Speculative verify passes are not
   * counted.
   *
   * @throws IllegalArgumentException when an argument is not positive
   */
  default Utilisation decodeUtilisation(int batch, int isl, int osl) {
    Deployments.checkPoint(batch, isl, osl);
    RooflineModel pool = decodePool();
    return Utilisation.of(pool.decode(batch, isl + Math.max(1, osl / 2)), pool);
  }

  /**
   * Seconds to move one request's KV cache of {@code tokens} tokens from {@code prefill} to {@code
   * decode}: bytes over the prefill replica's links in parallel (this deployment's pool link if
   * set, else the link between the pools, {@link Links#between}), plus one hop of latency.
   */
  default double kvTransferSeconds(int tokens, RooflineModel prefill, RooflineModel decode) {
    return KvTransfer.seconds(poolLink(), tokens, prefill, decode);
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
    checkNotNull(strategy, "strategy");
    return switch (strategy) {
      case STATIC -> new StaticDeployment(pool);
      case COLOCATED -> new ColocatedDeployment(pool);
      case PD, AFD -> throw new IllegalArgumentException(strategy.id() + " needs a second pool");
    };
  }

  /** Prefill/decode disaggregation; the decode pool does not run prefill. */
  static Deployment disaggregated(RooflineModel prefill, RooflineModel decode) {
    return new PrefillDecodeDeployment(
        prefill, RooflineModel.builder().from(decode).runsPrefill(false).build());
  }

  /** Attention/FFN disaggregation. */
  static Deployment attentionFfn(RooflineModel attention, RooflineModel ffn) {
    return new AttentionFfnDeployment(attention, ffn);
  }
}
