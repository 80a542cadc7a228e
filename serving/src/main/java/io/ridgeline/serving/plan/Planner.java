package io.ridgeline.serving.plan;

import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import io.ridgeline.serving.Conversation;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.MemoryUse;
import io.ridgeline.serving.PrefillDecodeDeployment;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Workload;
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
 * p50 (and optionally p99) TTFT and TPOT objectives at a request rate with the fewest chips or at
 * the lowest cost, or, given a chip budget instead of a rate ({@link PlanRequest#totalChips()}),
 * the configurations on at most that many chips with the most output tokens per second per chip (or
 * the lowest cost per million tokens).
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
 * <p><b>Search space</b> ({@link PlanSpace}): for each chip and each of the request's precisions,
 * the layouts (tensor parallelism up to the scale-up domain; for MoE models expert and attention
 * data parallelism up to four domains; the fewest-chips pipeline where nothing flat fits), each
 * strategy's deployments on them (pd and afd also with a second chip of the request for the prefill
 * or FFN pool; colocated and pd also with the request's speculation), and batch sizes 1, 2, 4, … up
 * to the largest that fits at ISL + OSL tokens, and that largest. With {@linkplain
 * PlanRequest#systems() fixed systems}, only their layouts ({@link PlanSystem}), under their own
 * strategies or the request's, each pool on the system's chip.
 *
 * <p><b>Meeting the objectives</b>: a candidate fits in memory, its TPOT (at the full batch, p50
 * and p99 alike) meets the TPOT objectives, and the fleet sized for the rate by the queueing model
 * of {@link PlanFleet} (Poisson arrivals, M/D/1 prefill servers) meets the p50 and p99 TTFT
 * objectives. Under a chip budget the fleet is the one serving the highest rate within the TTFT
 * objectives on at most that many chips ({@link PlanFleet#onChips}; a candidate whose smallest
 * fleet needs more fails {@link PlanFailure#CHIPS}). Total chips and the price per hour are the
 * fleet's ({@link PlanFleet}). Each deployment keeps its best batch; the survivors are ranked by
 * the {@linkplain PlanRequest#objective() objective} (ties: lower TPOT, then lower TTFT, then chip,
 * strategy, layout and batch) and the first {@link PlanRequest#top()} reported.
 *
 * <p><b>Failures</b> are counted over every evaluated candidate (see {@link
 * PlanResult#failures()}). Every figure is at the request's {@linkplain PlanRequest#efficiency()
 * efficiency}, applied per chip: by default {@link
 * io.ridgeline.serving.efficiency.Efficiency#standard()}, the calibrated default profile (as {@code
 * ridgeline plan}), which estimates what engines reach; {@link
 * io.ridgeline.serving.efficiency.Efficiency#ideal()} gives the roofline bound (100% of peak and
 * bandwidth), which real engines need more chips than.
 *
 * <p>Cost: each candidate point is evaluated once; one {@link RooflineModel} per layout and one
 * {@link Deployment} per layout and strategy are reused across batch sizes, and a deployment's
 * largest batch is computed once. Llama-3.1-70B on three chip types evaluates 871 points (about 1 s
 * of CPU); DeepSeek-V3 on two, with speculation, 2,068 (about 5 s).
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
    // $/Mtok: at a fixed rate the same order as $/h; under a chip budget rates differ
    Comparator<PlanConfiguration> cost =
        Comparator.comparing((PlanConfiguration c) -> c.dollarsPerMillionTokens().isEmpty())
            .thenComparingDouble(c -> c.dollarsPerMillionTokens().orElse(0.0));
    Comparator<PlanConfiguration> throughput =
        Comparator.comparingDouble((PlanConfiguration c) -> -c.fleetTokensPerSecondPerChip());
    Comparator<PlanConfiguration> ties =
        Comparator.comparingDouble((PlanConfiguration c) -> c.tpot().seconds())
            .thenComparingDouble(c -> c.ttft().seconds())
            .thenComparing(c -> c.chip().id())
            .thenComparing(PlanConfiguration::strategy)
            .thenComparingInt(PlanConfiguration::tensorParallel)
            .thenComparingInt(PlanConfiguration::pipelineParallel)
            .thenComparingInt(PlanConfiguration::batch);
    return switch (objective) {
      case CHIPS -> chips.thenComparing(cost).thenComparing(ties);
      case COST -> cost.thenComparing(chips).thenComparing(ties);
      case THROUGHPUT -> throughput.thenComparing(cost).thenComparing(ties);
    };
  }

  /** One search: its running counts and closest misses. */
  private static final class Search {
    private final PlanRequest request;
    private final int isl;
    private final int context;
    private final Comparator<PlanConfiguration> order;
    private final Map<PlanFailure, Integer> failures = new EnumMap<>(PlanFailure.class);
    private int candidates;
    // the closest misses of the chip being searched
    private PlanMiss latencyMiss;
    private PlanMiss memoryMiss;

    Search(PlanRequest request) {
      this.request = request;
      // a request's history counts as prompt for pool sizing and memory
      this.isl = request.workload().promptContext();
      this.context = request.workload().finalContext();
      this.order = order(request.objective());
      for (PlanFailure f : PlanFailure.values()) {
        failures.put(f, 0);
      }
    }

    PlanResult run() {
      List<PlanConfiguration> meeting = new ArrayList<>();
      List<PlanMiss> closest = new ArrayList<>();
      PlanSpace space = new PlanSpace(request);
      if (!request.systems().isEmpty()) {
        for (PlanSystem system : request.systems()) {
          latencyMiss = null;
          memoryMiss = null;
          Set<Deployment.Strategy> strategies =
              system.strategies().isEmpty() ? request.strategies() : system.strategies();
          for (Precisions precisions : request.searchedPrecisions()) {
            for (RooflineModel layout : space.layouts(system, precisions)) {
              for (Deployment.Strategy strategy : strategies) {
                // a fixed system's pools stay on its own chip
                for (Deployment d : space.deployments(strategy, layout, List.of(system.chip()))) {
                  best(d).ifPresent(meeting::add);
                }
              }
            }
          }
          addClosest(closest);
        }
        return result(meeting, closest);
      }
      List<Chip> chips = new ArrayList<>(distinctChips());
      for (Chip chip : chips) {
        latencyMiss = null;
        memoryMiss = null;
        for (Precisions precisions : request.searchedPrecisions()) {
          for (RooflineModel layout : space.layouts(chip, precisions)) {
            for (Deployment.Strategy strategy : request.strategies()) {
              for (Deployment d : space.deployments(strategy, layout, chips)) {
                best(d).ifPresent(meeting::add);
              }
            }
          }
        }
        addClosest(closest);
      }
      return result(meeting, closest);
    }

    /** The closest miss of the chip or system just searched: a latency miss before a memory one. */
    private void addClosest(List<PlanMiss> closest) {
      if (latencyMiss != null) {
        closest.add(latencyMiss);
      } else if (memoryMiss != null) {
        closest.add(memoryMiss);
      }
    }

    private PlanResult result(List<PlanConfiguration> meeting, List<PlanMiss> closest) {
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
      int largest = d.largestBatch(context).orElse(0);
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

    /**
     * The configuration of {@code d} at {@code batch} with its fleet sized under load ({@link
     * PlanFleet}), or null (counted) when it misses.
     */
    private PlanConfiguration evaluate(Deployment d, int batch) {
      Workload w = request.workload();
      FrontierPoint p;
      if (request.conversation().isPresent()) {
        // the mean turn at the hit rate this batch leaves the prefix cache
        Conversation.Steady s = request.conversation().get().steadyState(d, batch);
        p = s.point();
        w = s.conversation().workload(s.hitRate());
      } else {
        p = d.point(batch, w);
      }
      if (!request.anchor().isNone()) {
        p = p.anchored(request.anchor());
      }
      candidates++;
      if (!p.fits()) {
        count(PlanFailure.MEMORY);
        memoryMiss = closer(memoryMiss, memoryMiss(d, Optional.of(p)));
        return null;
      }
      double tpot = p.tpot().seconds();
      Set<PlanFailure> missed = EnumSet.noneOf(PlanFailure.class);
      if (tpot > request.tpotSlo().seconds()) {
        missed.add(PlanFailure.TPOT);
      }
      if (request.tpotP99Slo().map(s -> tpot > s.seconds()).orElse(false)) {
        missed.add(PlanFailure.TPOT_P99);
      }
      PlanFleet.Sized fleet =
          request.totalChips().isPresent()
              ? PlanFleet.onChips(d, p, w, request, request.totalChips().getAsInt())
              : PlanFleet.size(d, p, w, request);
      if (request.totalChips().isPresent() && fleet.chips() > request.totalChips().getAsInt()) {
        count(PlanFailure.CHIPS);
        int budget = request.totalChips().getAsInt();
        String detail =
            "the smallest fleet ("
                + fleet.replicas()
                + (fleet.prefillReplicas() > 0 ? " + " + fleet.prefillReplicas() + " prefill" : "")
                + (fleet.replicas() + fleet.prefillReplicas() == 1 ? " replica" : " replicas")
                + ") needs "
                + fleet.chips()
                + " chips > "
                + budget;
        latencyMiss =
            closer(
                latencyMiss,
                miss(
                    d,
                    Optional.of(p),
                    EnumSet.of(PlanFailure.CHIPS),
                    fleet.chips() / (double) budget,
                    detail));
        return null;
      }
      if (fleet.ttftP50() > request.ttftSlo().seconds()) {
        missed.add(PlanFailure.TTFT);
      }
      if (request.ttftP99Slo().map(s -> fleet.ttftP99() > s.seconds()).orElse(false)) {
        missed.add(PlanFailure.TTFT_P99);
      }
      if (missed.isEmpty()) {
        return configuration(d, p, fleet);
      }
      missed.forEach(this::count);
      latencyMiss = closer(latencyMiss, latencyMiss(d, p, fleet, missed));
      return null;
    }

    private void count(PlanFailure f) {
      failures.merge(f, 1, Integer::sum);
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

    private PlanConfiguration configuration(Deployment d, FrontierPoint p, PlanFleet.Sized fleet) {
      // tokens per second the fleet serves: the request's rate, or the budget's highest
      double served = fleet.requestsPerSecond() * request.outputTokens();
      Optional<DollarsPerHour> perHour = fleet.dollarsPerHour();
      return PlanConfiguration.builder()
          .deployment(d)
          .point(p)
          .requestsPerSecond(fleet.requestsPerSecond())
          .outputTokensPerSecond(served)
          .replicas(fleet.replicas())
          .prefillReplicas(fleet.prefillReplicas())
          .totalChips(fleet.chips())
          .ttftP50(Seconds.of(fleet.ttftP50()))
          .ttftP99(Seconds.of(fleet.ttftP99()))
          .dollarsPerHour(perHour)
          .dollarsPerMillionTokens(perHour.map(h -> h.dollarsPerHour() / 3600 / served * 1e6))
          .build();
    }

    private PlanMiss latencyMiss(
        Deployment d, FrontierPoint p, PlanFleet.Sized fleet, Set<PlanFailure> reasons) {
      List<String> details = new ArrayList<>();
      double ratio = 0;
      for (PlanFailure f : reasons) {
        double value =
            switch (f) {
              case TTFT -> fleet.ttftP50();
              case TTFT_P99 -> fleet.ttftP99();
              case TPOT, TPOT_P99 -> p.tpot().seconds();
              case MEMORY, CHIPS -> throw notLatency(f);
            };
        Seconds slo =
            switch (f) {
              case TTFT -> request.ttftSlo();
              case TTFT_P99 -> request.ttftP99Slo().orElseThrow();
              case TPOT -> request.tpotSlo();
              case TPOT_P99 -> request.tpotP99Slo().orElseThrow();
              case MEMORY, CHIPS -> throw notLatency(f);
            };
        ratio = Math.max(ratio, value / slo.seconds());
        details.add(label(f) + " " + Seconds.of(value) + " > " + slo);
      }
      return miss(d, Optional.of(p), reasons, ratio, String.join(", ", details));
    }

    private static String label(PlanFailure f) {
      return switch (f) {
        case TTFT -> "TTFT p50";
        case TTFT_P99 -> "TTFT p99";
        case TPOT -> "TPOT";
        case TPOT_P99 -> "TPOT p99";
        case MEMORY, CHIPS -> throw notLatency(f);
      };
    }

    /** A memory or chip-budget failure where a latency one was expected: a bug of the caller. */
    private static IllegalArgumentException notLatency(PlanFailure f) {
      return new IllegalArgumentException("not a latency failure: " + f.id());
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
        int prompts = pd.prefill().prefillPassPrompts(isl, isl);
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
          .chipIds(PlanConfiguration.chipIds(d))
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
