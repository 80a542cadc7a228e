package io.ridgeline.serving.plan;

import io.ridgeline.core.Precisions;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.DeploymentSpec;
import io.ridgeline.serving.KvOffload;
import io.ridgeline.serving.PoolSpec;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Sizing;
import io.ridgeline.serving.Speculation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The candidates a {@link Planner plan} evaluates: layouts of a chip at a precision, and the
 * deployments built on a layout.
 *
 * <p><b>Layouts</b> (one replica of {@code n} chips, {@code n} = 1, 2, 4, … one scale-up domain):
 * tensor parallelism {@code tp = n} where it divides the heads; for a MoE model also up to four
 * domains over the scale-out network, and beside {@code tp n} the expert-parallel layouts {@code tp
 * n, ep n} and {@code attention-dp n, ep n} (each chip attends its own sequences, the experts
 * spread over all n: the DeepSeek serving recipe). When none of them holds one request of ISL + OSL
 * tokens, the fewest-chips tensor × pipeline layout ({@link Sizing#fewestChips}) is added: SRAM
 * chips get their long pipelines so.
 *
 * <p><b>Deployments</b> of a layout: colocated and static on it; pd with the layout as decode pool
 * and a prefill pool of the same layout (and, when {@link PlanRequest#heterogeneous()}, each other
 * chip of the request sized to the fewest chips that hold a prompt); afd with the layout as
 * attention and prefill pool and an FFN pool on the same chip (and each other chip) sized by the
 * attention:FFN ratio search ({@code AfdRatio}); colocated and pd once more with the request's
 * speculation, if any (afd steps do not model it). pd and afd are skipped on chips without any
 * interconnect.
 */
final class PlanSpace {
  private final PlanRequest request;
  private final Model model;
  // the prompt context, history included: pools are laid out for the KV they hold
  private final int isl;
  private final int osl;

  PlanSpace(PlanRequest request) {
    this.request = request;
    this.model = request.model();
    this.isl = request.workload().promptContext();
    this.osl = request.outputTokens();
  }

  /** The layouts of {@code chip} at {@code precisions}; see {@link PlanSpace}. */
  List<RooflineModel> layouts(Chip chip, Precisions precisions) {
    int context = isl + osl;
    List<RooflineModel> out = new ArrayList<>();
    int domain = Math.max(1, chip.scaleUp().map(u -> u.domainSize()).orElse(1));
    boolean moe = model.hasMoe();
    int largest = hasLink(chip) ? (moe && chip.scaleOut().isPresent() ? 4 * domain : domain) : 1;
    for (int n = 1; n <= largest; n *= 2) {
      boolean tpOk = model.tensorParallelProblem(n).isEmpty();
      if (tpOk && n <= domain) {
        out.add(layout(chip, precisions, n, n, 1, 1));
      }
      if (moe && n > 1) {
        if (tpOk) {
          out.add(layout(chip, precisions, n, n, 1, n));
        }
        out.add(layout(chip, precisions, n, 1, n, n));
      }
      if (n > Integer.MAX_VALUE / 2) {
        break;
      }
    }
    if (out.stream().noneMatch(rm -> rm.memory(1, context).fits())) {
      Sizing.fewestChips(out.get(0), 1, context)
          .filter(
              rm ->
                  out.stream()
                      .noneMatch(
                          f ->
                              f.tensorParallel() == rm.tensorParallel()
                                  && f.pipelineParallel() == rm.pipelineParallel()))
          .ifPresent(out::add);
    }
    return out;
  }

  /**
   * The layouts of a fixed {@code system} at {@code precisions}: those of {@link #layouts(Chip,
   * Precisions)} on its chip that have its count and agree with its fixed degrees, and the pool of
   * its count with its fixed degrees and the pool defaults for the others ({@link PoolSpec}), each
   * (tp, pp, ep, attention-dp) once.
   *
   * @throws IllegalArgumentException naming the system when none of them can be laid out
   */
  List<RooflineModel> layouts(PlanSystem system, Precisions precisions) {
    List<RooflineModel> out = new ArrayList<>();
    for (RooflineModel rm : layouts(system.chip(), precisions)) {
      if (system.matches(
          rm.chips(),
          rm.tensorParallel(),
          rm.pipelineParallel(),
          rm.expertParallel(),
          rm.attentionDataParallel())) {
        out.add(rm);
      }
    }
    try {
      RooflineModel own =
          PoolSpec.builder()
              .model(model)
              .chip(system.chip())
              .precisions(precisions)
              .count(system.count())
              .tensorParallel(
                  system.tensorParallel().isPresent()
                      ? Optional.of(system.tensorParallel().getAsInt())
                      : Optional.empty())
              .pipelineParallel(system.pipelineParallel().orElse(1))
              .attentionDataParallel(system.attentionDataParallel().orElse(1))
              .expertParallel(system.expertParallel().orElse(1))
              .efficiency(request.efficiency())
              .kvOffload(offload(system.chip()))
              .build()
              .build(1, isl + osl);
      boolean known =
          out.stream()
              .anyMatch(
                  f ->
                      f.tensorParallel() == own.tensorParallel()
                          && f.pipelineParallel() == own.pipelineParallel()
                          && f.expertParallel() == own.expertParallel()
                          && f.attentionDataParallel() == own.attentionDataParallel());
      if (!known) {
        out.add(own);
      }
    } catch (IllegalArgumentException e) {
      if (out.isEmpty()) {
        throw new IllegalArgumentException("system " + system + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  private RooflineModel layout(Chip chip, Precisions p, int chips, int tp, int dp, int ep) {
    return PoolSpec.builder()
        .model(model)
        .chip(chip)
        .precisions(p)
        .count(chips)
        .tensorParallel(tp)
        .attentionDataParallel(dp)
        .expertParallel(ep)
        .efficiency(request.efficiency())
        .kvOffload(offload(chip))
        .build()
        .build(1, isl + osl);
  }

  /** The request's KV offload policy on {@code chip}, none where the chip has no slower tier. */
  private KvOffload offload(Chip chip) {
    return KvOffload.tier(chip).isPresent() ? request.kvOffload() : KvOffload.NONE;
  }

  static boolean hasLink(Chip chip) {
    return chip.scaleUp().isPresent() || chip.scaleOut().isPresent();
  }

  /** The deployments of {@code strategy} on {@code layout}; see {@link PlanSpace}. */
  List<Deployment> deployments(
      Deployment.Strategy strategy, RooflineModel layout, List<Chip> chips) {
    List<Deployment> out = new ArrayList<>();
    boolean disaggregated = strategy.disaggregated();
    if (disaggregated && !hasLink(layout.chip())) {
      return out;
    }
    PoolSpec spec = PoolSpec.of(layout);
    List<Optional<PoolSpec>> others = new ArrayList<>();
    others.add(Optional.empty());
    if (disaggregated && request.heterogeneous()) {
      for (Chip c : chips) {
        if (!c.id().equalsIgnoreCase(layout.chip().id()) && hasLink(c)) {
          others.add(Optional.of(other(spec, c)));
        }
      }
    }
    for (Optional<PoolSpec> other : others) {
      try {
        out.add(build(strategy, spec, other, Optional.empty()));
        if (request.speculation().isPresent() && speculationModelled(strategy)) {
          out.add(build(strategy, spec, other, request.speculation()));
        }
      } catch (IllegalArgumentException e) {
        // another chip that cannot hold its pool (or run the precisions): not a candidate
        if (other.isEmpty()) {
          throw e;
        }
      }
    }
    return out;
  }

  /**
   * Whether a deployment of {@code strategy} is tried with speculation: afd is not, since its
   * attention/FFN steps do not model a verify pass of γ + 1 tokens per sequence.
   */
  private static boolean speculationModelled(Deployment.Strategy strategy) {
    return switch (strategy) {
      case STATIC, COLOCATED, PD -> true;
      case AFD -> false;
    };
  }

  /**
   * {@code spec} on chip {@code c}, sized by the layout policy (no count, tp or parallelism: not
   * the pipeline depth that {@code spec}'s chip needed to hold the weights either, so a GPU prefill
   * pool for an SRAM decode pool is the fewest GPUs that hold a prompt, not one per SRAM stage).
   */
  private PoolSpec other(PoolSpec spec, Chip c) {
    return PoolSpec.builder()
        .from(spec)
        .chip(c)
        .kvOffload(offload(c))
        .count(Optional.empty())
        .tensorParallel(Optional.empty())
        .pipelineParallel(1)
        .attentionDataParallel(1)
        .expertParallel(1)
        .build();
  }

  private Deployment build(
      Deployment.Strategy strategy,
      PoolSpec spec,
      Optional<PoolSpec> other,
      Optional<Speculation> speculation) {
    // pd: the prefill pool on the other chip; afd: the FFN pool, on the other chip or sized
    PoolSpec prefill =
        switch (strategy) {
          case PD -> other.orElse(spec);
          case STATIC, COLOCATED, AFD -> spec;
        };
    Optional<PoolSpec> ffn =
        switch (strategy) {
          case AFD ->
              Optional.of(
                  other.orElseGet(
                      () ->
                          PoolSpec.builder()
                              .from(spec)
                              .count(Optional.empty())
                              .tensorParallel(Optional.empty())
                              .attentionDataParallel(1)
                              .build()));
          case STATIC, COLOCATED, PD -> Optional.empty();
        };
    return DeploymentSpec.builder()
        .strategy(strategy)
        .pool(spec)
        .prefill(prefill)
        .ffn(ffn)
        .price(request.price())
        .speculation(speculation)
        .build()
        .build(isl, osl);
  }
}
