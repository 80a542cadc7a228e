package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.serving.plan.Planner;
import io.ridgeline.serving.sweep.Sweep;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * What a {@link Deployment} is to be: a strategy, the {@link PoolSpec}s of its pools, speculation,
 * a price, the link between pools and AFD's micro-batches. {@link #build} is the one factory of
 * deployments from specifications (the CLI, {@link Sweep} and {@link Planner} use it):
 *
 * <ul>
 *   <li><b>static</b>, <b>colocated</b>: {@link #pool()} built for one request of {@code isl + osl}
 *       tokens.
 *   <li><b>pd</b>: the decode pool is {@link #pool()} built at {@code isl + osl} and marked as not
 *       running prefill; the prefill pool is {@link #prefill()} (by default {@link #pool()} without
 *       a chip count, tp or pipeline depth, so sized on its own to hold one prompt) built at {@code
 *       isl}.
 *   <li><b>afd</b>, three pools: the attention pool is {@link #attention()} (by default {@link
 *       #pool()}) built at {@code isl + osl} and marked as not running prefill; the prefill pool is
 *       {@link #prefill()} (by default as under pd) built at {@code isl}; the FFN pool is {@link
 *       #ffn()} (by default the attention spec with one attention group), laid out without regard
 *       to the attention heads ({@link PoolSpec#runsAttention()} false). An FFN spec with a chip
 *       count or tp is used as given (tp alone: {@code tp × pp} chips); without either, the
 *       attention:FFN ratio is searched ({@link AfdRatio}): the fewest chips that hold the FFN
 *       weights and their doublings up to four times the attention pool's chips, keeping the count
 *       with the most tokens per second per chip at the largest batch.
 * </ul>
 *
 * <pre>{@code
 * PoolSpec h100 = PoolSpec.builder().model(Models.byId("llama-3.1-70b"))
 *     .chip(Chips.byId("h100-sxm")).count(8).build();
 * Deployment pd = DeploymentSpec.builder().strategy(Deployment.Strategy.PD).pool(h100).build()
 *     .build(1024, 1024);   // decode on 8 H100s, prefill on the fewest H100s that hold a prompt
 * }</pre>
 */
@Value.Immutable
@RidgelineStyle
public abstract class DeploymentSpec {
  DeploymentSpec() {} // subclassed only by the generated implementation

  /** The strategy. */
  public abstract Deployment.Strategy strategy();

  /** The only pool (static, colocated), the decode pool (pd), the default attention pool (afd). */
  public abstract PoolSpec pool();

  /** PD: the prefill pool; by default {@link #pool()} without count, tp and pipeline depth. */
  public abstract Optional<PoolSpec> prefill();

  /** AFD: the attention pool; by default {@link #pool()}. */
  public abstract Optional<PoolSpec> attention();

  /** AFD: the FFN pool; by default the attention pool's spec. */
  public abstract Optional<PoolSpec> ffn();

  /** Speculative decoding, if on. */
  public abstract Optional<Speculation> speculation();

  /** A price per chip-hour for every chip, overriding the catalog's. */
  public abstract Optional<DollarsPerHour> price();

  /** The link between the pools (pd, afd); by default the chips'. */
  public abstract Optional<BytesPerSecond> poolLink();

  /** Micro-batches in flight between the AFD pools. */
  @Value.Default
  public int afdMicroBatches() {
    return AttentionFfnDeployment.DEFAULT_MICRO_BATCHES;
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link DeploymentSpec}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableDeploymentSpec.Builder {
    Builder() {}
  }

  /**
   * The deployment for requests of {@code isl} prompt and {@code osl} output tokens (the sizes its
   * pools are laid out for; see {@link DeploymentSpec}).
   *
   * @throws IllegalArgumentException when a pool cannot be laid out or the deployment is invalid
   */
  public Deployment build(int isl, int osl) {
    checkArgument(isl > 0, "input tokens (isl) must be positive: %s", isl);
    checkArgument(osl > 0, "output tokens (osl) must be positive: %s", osl);
    int context = isl + osl;
    return switch (strategy()) {
      case STATIC -> new StaticDeployment(pool().build(1, context), speculation(), price());
      case COLOCATED -> new ColocatedDeployment(pool().build(1, context), speculation(), price());
      case PD -> {
        RooflineModel decode =
            PoolSpec.builder().from(pool()).runsPrefill(false).build().build(1, context);
        RooflineModel prefill = prefillSpec().build(1, isl);
        yield new PrefillDecodeDeployment(prefill, decode, speculation(), price(), poolLink());
      }
      case AFD -> attentionFfn(isl, osl);
    };
  }

  private AttentionFfnDeployment attentionFfn(int isl, int osl) {
    PoolSpec attentionSpec = attention().orElse(pool());
    RooflineModel attention =
        PoolSpec.builder().from(attentionSpec).runsPrefill(false).build().build(1, isl + osl);
    RooflineModel prefill = prefillSpec().build(1, isl);
    PoolSpec ffn =
        PoolSpec.builder()
            .from(
                ffn()
                    .orElseGet(
                        () ->
                            PoolSpec.builder()
                                .from(attentionSpec)
                                .count(Optional.empty())
                                .tensorParallel(Optional.empty())
                                .attentionDataParallel(1)
                                .build()))
            .runsAttention(false)
            .build();
    AttentionFfnDeployment template =
        new AttentionFfnDeployment(
            attention,
            attention,
            Optional.of(prefill),
            speculation(),
            price(),
            poolLink(),
            afdMicroBatches());
    if (ffn.count().isPresent() || ffn.tensorParallel().isPresent()) {
      PoolSpec sized =
          ffn.count().isPresent()
              ? ffn
              : PoolSpec.builder()
                  .from(ffn)
                  .count(ffn.tensorParallel().get() * ffn.pipelineParallel())
                  .build();
      return AfdRatio.withFfn(template, sized.build(1, isl + osl));
    }
    return AfdRatio.search(template, ffn, isl, osl);
  }

  /**
   * The prefill pool's spec: {@link #prefill()}, or {@link #pool()} without its chip count, tp and
   * pipeline depth, so that the layout policy sizes it for one prompt on its own (pp 1 where a
   * tensor-parallel group holds the weights): the decode pool's depth is set by what it holds at
   * its batch, not by a prompt.
   */
  private PoolSpec prefillSpec() {
    return prefill()
        .orElseGet(
            () ->
                PoolSpec.builder()
                    .from(pool())
                    .count(Optional.empty())
                    .tensorParallel(Optional.empty())
                    .pipelineParallel(1)
                    .build());
  }

  @Value.Check
  void check() {
    checkArgument(
        afdMicroBatches() >= 1, "AFD micro-batches must be at least 1: %s", afdMicroBatches());
    // checked for every strategy, as the deployment checked it before pools had roles
    Deployments.checkPoolLink(poolLink());
  }

  /**
   * The strategy and its pools, for example {@code "pd: decode llama-3.1-70b on 8× h100-sxm (…) +
   * prefill llama-3.1-70b on sized× h100-sxm (…)"}, with speculation, price and link when set.
   */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(strategy().id()).append(": ").append(pool());
    prefill().ifPresent(p -> b.append(" + prefill ").append(p));
    attention().ifPresent(p -> b.append(" + attention ").append(p));
    ffn().ifPresent(p -> b.append(" + ffn ").append(p));
    speculation().ifPresent(s -> b.append(", ").append(s));
    price().ifPresent(p -> b.append(", price ").append(p));
    poolLink().ifPresent(l -> b.append(", pool link ").append(l));
    return b.toString();
  }
}
