package io.ridgeline.serving;

import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.Precisions;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Capacity planning under service-level objectives: the configurations that serve a workload within
 * a mean-TTFT and a mean-TPOT objective with the fewest chips or at the lowest cost.
 *
 * <pre>{@code
 * PlanResult r = Planner.plan(PlanRequest.builder()
 *     .model(Models.byId("llama-3.1-70b"))
 *     .addChips(Chips.H100_SXM, Chips.B200, Chips.MI300X)
 *     .inputTokens(1024).outputTokens(256).requestsPerSecond(10)
 *     .ttftSlo(Seconds.ofMillis(500)).tpotSlo(Seconds.ofMillis(50))
 *     .build());
 * r.configurations().get(0);   // e.g. b200 colocated tp 1 batch 256: 2 × 1 chips = 2 chips, …
 * r.failures();                // {MEMORY=…, TTFT=…, TPOT=…}
 * }</pre>
 *
 * <p><b>Search space</b>, for each chip: the {@linkplain PlanRequest#strategies() strategies}
 * (colocated and pd by default); tensor-parallel degrees 1, 2, 4, 8, … up to the chip's scale-up
 * domain that divide the model's heads ({@link Model#tensorParallelProblem} is empty), one pipeline
 * stage, plus the {@link Sizing#fewestChips} layout (at one request of ISL + OSL tokens) when none
 * of those holds even one request, which is how SRAM chips get their long pipelines; batch sizes 1,
 * 2, 4, … up to the largest that fits at ISL + OSL tokens ({@link Deployment#maxBatch}), and that
 * largest. Each layout and strategy is built by {@link DeploymentSpec#build} with the layout as
 * every pool's specification: under pd both pools have the same layout, the decode pool does not
 * run prefill (as in {@code ridgeline frontier} and {@link Sweep}), and the prefill pool is sized
 * to the decode pool's demand (see {@link Deployment}); pd is skipped on a chip without any
 * interconnect (its KV cannot move).
 *
 * <p><b>Meeting the objectives</b>: a candidate meets them when its point fits in memory and its
 * TTFT and TPOT are at most the objectives. <b>Sizing</b>: replicas = {@code ⌈rate × OSL /
 * (tokens/s per chip × chips per replica)⌉} (at least 1); total chips = {@code ⌈replicas × chips
 * per replica⌉}; price per hour = total chips × price per chip-hour (the request's override, else
 * the chip's, else unknown). Each chip, strategy and layout keeps its best batch; the survivors are
 * ranked by the {@linkplain PlanRequest#objective() objective} (ties: lower TPOT, then lower TTFT,
 * then chip, strategy, layout and batch) and the first {@link PlanRequest#top()} reported.
 *
 * <p><b>Failures</b> are counted over every evaluated candidate (see {@link
 * PlanResult#failures()}). Every figure is at the request's {@linkplain PlanRequest#efficiency()
 * efficiency}: by default the ideal roofline bound (100% of peak and bandwidth), which real engines
 * need more chips than; an engine profile's efficiency ({@code ridgeline plan}'s default) estimates
 * what they reach.
 *
 * <p>Cost: each candidate point is evaluated once; one {@link RooflineModel} per layout and one
 * {@link Deployment} per layout and strategy are reused across batch sizes, and a deployment's
 * largest batch is computed once. Llama-3.1-70B on three chip types evaluates a few hundred points.
 */
public final class Planner {
  private Planner() {}

  /**
   * Searches the request's space; see {@link Planner}. Never throws because nothing meets the
   * objectives: the result is then empty with its failure counts and closest misses.
   *
   * @throws IllegalArgumentException when a chip cannot run the request's precisions
   */
  public static PlanResult plan(PlanRequest request) {
    return new Search(request).run();
  }

  /** The ranking of configurations under {@code objective}; see {@link Planner}. */
  public static Comparator<PlanConfiguration> order(PlanRequest.Objective objective) {
    Comparator<PlanConfiguration> chips = Comparator.comparingLong(PlanConfiguration::totalChips);
    Comparator<PlanConfiguration> cost =
        Comparator.comparing((PlanConfiguration c) -> c.dollarsPerHour().isEmpty())
            .thenComparingDouble(
                c -> c.dollarsPerHour().map(DollarsPerHour::dollarsPerHour).orElse(0.0));
    Comparator<PlanConfiguration> ties =
        Comparator.comparingDouble((PlanConfiguration c) -> c.tpot().seconds())
            .thenComparingDouble(c -> c.ttft().seconds())
            .thenComparing(c -> c.chip().id())
            .thenComparing(PlanConfiguration::strategy)
            .thenComparingInt(PlanConfiguration::tensorParallel)
            .thenComparingInt(PlanConfiguration::pipelineParallel)
            .thenComparingInt(PlanConfiguration::batch);
    return objective == PlanRequest.Objective.CHIPS
        ? chips.thenComparing(cost).thenComparing(ties)
        : cost.thenComparing(chips).thenComparing(ties);
  }

  /** One search: its running counts and closest misses. */
  private static final class Search {
    private final PlanRequest request;
    private final Model model;
    private final Precisions precisions;
    private final int isl;
    private final int osl;
    private final int context;
    private final Comparator<PlanConfiguration> order;
    private final Map<PlanFailure, Integer> failures = new EnumMap<>(PlanFailure.class);
    private int candidates;
    // the closest misses of the chip being searched
    private PlanMiss latencyMiss;
    private PlanMiss memoryMiss;

    Search(PlanRequest request) {
      this.request = request;
      this.model = request.model();
      this.precisions = request.precisions().orElse(model.defaultPrecisions());
      // a request's history counts as prompt for pool sizing and memory
      this.isl = request.workload().promptContext();
      this.osl = request.outputTokens();
      this.context = request.workload().finalContext();
      this.order = order(request.objective());
      for (PlanFailure f : PlanFailure.values()) {
        failures.put(f, 0);
      }
    }

    PlanResult run() {
      List<PlanConfiguration> meeting = new ArrayList<>();
      List<PlanMiss> closest = new ArrayList<>();
      for (Chip chip : distinctChips()) {
        latencyMiss = null;
        memoryMiss = null;
        for (RooflineModel layout : layouts(chip)) {
          for (Deployment.Strategy strategy : request.strategies()) {
            if (strategy == Deployment.Strategy.PD && !hasLink(chip)) {
              continue;
            }
            best(deployment(strategy, layout)).ifPresent(meeting::add);
          }
        }
        if (latencyMiss != null) {
          closest.add(latencyMiss);
        } else if (memoryMiss != null) {
          closest.add(memoryMiss);
        }
      }
      meeting.sort(order);
      return PlanResult.builder()
          .request(request)
          .configurations(meeting.subList(0, Math.min(request.top(), meeting.size())))
          .meeting(meeting.size())
          .candidates(candidates)
          .failures(failures)
          .closest(closest)
          .build();
    }

    /** The request's chips, the first of each id. */
    private Collection<Chip> distinctChips() {
      Map<String, Chip> chips = new LinkedHashMap<>();
      request.chips().forEach(c -> chips.putIfAbsent(c.id().toLowerCase(Locale.ROOT), c));
      return chips.values();
    }

    /** The best batch of {@code d} that meets the objectives, counting every candidate. */
    private Optional<PlanConfiguration> best(Deployment d) {
      int largest = d.maxBatch(context);
      if (largest == 0) {
        candidates++;
        count(PlanFailure.MEMORY);
        memoryMiss = closer(memoryMiss, memoryMiss(d, Optional.empty()));
        return Optional.empty();
      }
      PlanConfiguration best = null;
      for (int batch : batches(largest)) {
        PlanConfiguration c = evaluate(d, batch);
        if (c != null && (best == null || order.compare(c, best) < 0)) {
          best = c;
        }
      }
      return Optional.ofNullable(best);
    }

    /** The configuration of {@code d} at {@code batch}, or null (counted) when it misses. */
    private PlanConfiguration evaluate(Deployment d, int batch) {
      FrontierPoint p = d.point(batch, request.workload());
      candidates++;
      if (!p.fits()) {
        count(PlanFailure.MEMORY);
        memoryMiss = closer(memoryMiss, memoryMiss(d, Optional.of(p)));
        return null;
      }
      boolean ttft = p.ttft().seconds() > request.ttftSlo().seconds();
      boolean tpot = p.tpot().seconds() > request.tpotSlo().seconds();
      if (!ttft && !tpot) {
        return configuration(d, p);
      }
      if (ttft) {
        count(PlanFailure.TTFT);
      }
      if (tpot) {
        count(PlanFailure.TPOT);
      }
      latencyMiss = closer(latencyMiss, latencyMiss(d, p));
      return null;
    }

    private void count(PlanFailure f) {
      failures.merge(f, 1, Integer::sum);
    }

    /** Flat tensor-parallel layouts, plus the fewest-chips layout when none of them fits. */
    private List<RooflineModel> layouts(Chip chip) {
      List<RooflineModel> out = new ArrayList<>();
      int domain = chip.scaleUp().map(u -> u.domainSize()).orElse(1);
      for (int tp = 1; tp <= Math.max(1, domain); tp *= 2) {
        if (tp > 1 && !hasLink(chip)) {
          break;
        }
        if (model.tensorParallelProblem(tp).isEmpty()) {
          out.add(layout(chip, tp));
        }
        if (tp > Integer.MAX_VALUE / 2) {
          break;
        }
      }
      boolean anyFits = out.stream().anyMatch(rm -> rm.memory(1, context).fits());
      if (!anyFits) {
        Sizing.fewestChips(out.get(0), 1, context)
            .ifPresent(
                rm -> {
                  if (out.stream()
                      .noneMatch(
                          f ->
                              f.tensorParallel() == rm.tensorParallel()
                                  && f.pipelineParallel() == rm.pipelineParallel())) {
                    out.add(rm);
                  }
                });
      }
      return out;
    }

    private RooflineModel layout(Chip chip, int tp) {
      return PoolSpec.builder()
          .model(model)
          .chip(chip)
          .precisions(precisions)
          .tensorParallel(tp)
          .count(tp)
          .efficiency(request.efficiency())
          .build()
          .build(1, context);
    }

    private static boolean hasLink(Chip chip) {
      return chip.scaleUp().isPresent() || chip.scaleOut().isPresent();
    }

    private Deployment deployment(Deployment.Strategy strategy, RooflineModel layout) {
      PoolSpec spec = PoolSpec.of(layout);
      return DeploymentSpec.builder()
          .strategy(strategy)
          .pool(spec)
          .prefill(spec)
          .price(request.price())
          .build()
          .build(isl, osl);
    }

    /** 1, 2, 4, … up to {@code largest}, and {@code largest}. */
    private static List<Integer> batches(int largest) {
      TreeSet<Integer> set = new TreeSet<>();
      for (long b = 1; b <= largest; b *= 2) {
        set.add((int) b);
      }
      set.add(largest);
      return new ArrayList<>(set);
    }

    private PlanConfiguration configuration(Deployment d, FrontierPoint p) {
      double required = request.outputTokensPerSecond();
      double perReplica = p.tokensPerSecondPerChip() * p.chipsTotal();
      long replicas = Math.max(1, (long) Math.ceil(required / perReplica));
      long total = (long) Math.ceil(replicas * p.chipsTotal());
      Optional<DollarsPerHour> perChip =
          request.price().or(() -> d.decodePool().chip().pricePerHour());
      Optional<DollarsPerHour> perHour = perChip.map(price -> price.times(total));
      return PlanConfiguration.builder()
          .deployment(d)
          .point(p)
          .replicas(replicas)
          .totalChips(total)
          .dollarsPerHour(perHour)
          .dollarsPerMillionTokens(perHour.map(h -> h.dollarsPerHour() / 3600 / required * 1e6))
          .build();
    }

    private PlanMiss latencyMiss(Deployment d, FrontierPoint p) {
      double ttft = p.ttft().seconds() / request.ttftSlo().seconds();
      double tpot = p.tpot().seconds() / request.tpotSlo().seconds();
      Set<PlanFailure> reasons = EnumSet.noneOf(PlanFailure.class);
      List<String> details = new ArrayList<>();
      if (ttft > 1) {
        reasons.add(PlanFailure.TTFT);
        details.add("TTFT " + p.ttft() + " > " + request.ttftSlo());
      }
      if (tpot > 1) {
        reasons.add(PlanFailure.TPOT);
        details.add("TPOT " + p.tpot() + " > " + request.tpotSlo());
      }
      return miss(d, Optional.of(p), reasons, Math.max(ttft, tpot), String.join(", ", details));
    }

    /**
     * A memory miss: the pool that is furthest over its capacity, for one request when {@code p} is
     * absent, else at its batch (for pd the prefill pool holds one pass of prompts, as in {@link
     * Deployment}).
     */
    private PlanMiss memoryMiss(Deployment d, Optional<FrontierPoint> p) {
      int batch = p.map(FrontierPoint::batch).orElse(1);
      MemoryUse worst = d.decodePool().memory(batch, context);
      String what =
          p.isPresent()
              ? "batch " + batch + " (" + context + " tokens each)"
              : "one request of " + context + " tokens";
      if (d instanceof PrefillDecodeDeployment pd) {
        int prompts = pd.prefill().promptsPerPrefillPass(isl);
        MemoryUse prefill = pd.prefill().memory(prompts, isl);
        if (ratio(prefill) > ratio(worst)) {
          worst = prefill;
          what =
              "a prefill pass of "
                  + prompts
                  + (prompts == 1 ? " prompt" : " prompts")
                  + " of "
                  + isl
                  + " tokens";
        }
      }
      String detail = "does not fit: " + what + " needs " + worst.needs();
      return miss(d, p, EnumSet.of(PlanFailure.MEMORY), ratio(worst), detail);
    }

    private static double ratio(MemoryUse m) {
      return m.pressure();
    }

    private static PlanMiss miss(
        Deployment d,
        Optional<FrontierPoint> p,
        Set<PlanFailure> reasons,
        double ratio,
        String detail) {
      return PlanMiss.builder()
          .chip(d.decodePool().chip())
          .strategy(d.strategy())
          .tensorParallel(d.decodePool().tensorParallel())
          .pipelineParallel(d.decodePool().pipelineParallel())
          .point(p)
          .reasons(reasons)
          .ratio(ratio)
          .detail(detail)
          .build();
    }

    /** The smaller violation; the earlier on a tie. */
    private static PlanMiss closer(PlanMiss current, PlanMiss candidate) {
      return current == null || candidate.ratio() < current.ratio() ? candidate : current;
    }
  }

  /** {@code value} to six significant digits, without trailing zeros, under {@code Locale.ROOT}. */
  static String number(double value) {
    return number(value, 6);
  }

  /** {@code value} to {@code digits} significant digits, plain notation, without trailing zeros. */
  static String number(double value, int digits) {
    if (!Double.isFinite(value)) {
      return String.valueOf(value);
    }
    return new BigDecimal(value)
        .round(new MathContext(digits))
        .stripTrailingZeros()
        .toPlainString();
  }
}
