package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.ImmutablePrecisions;
import io.ridgeline.core.Names;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.ImmutablePlanRequest;
import io.ridgeline.serving.PlanConfiguration;
import io.ridgeline.serving.PlanFailure;
import io.ridgeline.serving.PlanMiss;
import io.ridgeline.serving.PlanRequest;
import io.ridgeline.serving.PlanResult;
import io.ridgeline.serving.Planner;
import io.ridgeline.serving.Workload;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ridgeline plan}: the configurations that serve a workload within TTFT and TPOT objectives
 * with the fewest chips or at the lowest cost ({@link Planner}). Exits 3, after printing why, when
 * no configuration meets the objectives.
 */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    description = {
      "The fewest chips (or lowest cost) that serve a workload within TTFT and TPOT objectives.",
      "Finds the configurations (chip, strategy, tensor/pipeline parallelism, batch) that serve",
      "--rate requests/s of --isl prompt and --osl output tokens within a mean TTFT of --ttft",
      "and a mean TPOT of --tpot seconds, with the fewest chips (or the lowest cost), and say why",
      "the others fail (memory, TTFT, TPOT). Calibrated estimates by default (an engine profile",
      "fitted on the shipped validation cases); --efficiency ideal gives the roofline bounds."
    },
    exitCodeListHeading = "Exit status:%n",
    exitCodeList = {
      "0:at least one configuration meets the objectives",
      "1:bad input (one line on stderr)",
      "2:malformed option",
      "3:no configuration meets the objectives (why, on stdout)"
    })
final class PlanCommand implements Callable<Integer> {
  /** The exit status when nothing meets the objectives. */
  static final int NOTHING_MEETS = 3;

  @Spec CommandSpec spec;

  @Option(
      names = "--model",
      required = true,
      description = "Model id (see `ridgeline models`) or a path to a HuggingFace config.json.")
  String model;

  @Option(
      names = "--architecture",
      paramLabel = "FAMILY",
      description =
          "Read a --model config.json as this supported model_type (e.g. llama, qwen2_moe; see"
              + " `ridgeline models`), for a checkpoint whose own model_type is unknown.")
  String architecture;

  @Option(names = "--isl", required = true, description = "Input (prompt) tokens per request.")
  int isl;

  @Option(names = "--osl", required = true, description = "Output tokens per request.")
  int osl;

  @Option(names = "--rate", required = true, description = "Requests per second to serve.")
  double rate;

  @Option(
      names = "--ttft",
      required = true,
      description = "Objective on mean time to first token, seconds.")
  double ttft;

  @Option(
      names = "--tpot",
      required = true,
      description = "Objective on mean time per output token, seconds.")
  double tpot;

  @Option(
      names = "--chips",
      required = true,
      split = ",",
      description =
          "Chips to search, comma-separated ids (see `ridgeline chips`) or chip JSON files.")
  List<String> chips;

  @Option(
      names = "--strategies",
      split = ",",
      defaultValue = "colocated,pd",
      completionCandidates = SearchableIds.class,
      description = "Strategies to search: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  List<String> strategies;

  @Option(
      names = "--objective",
      defaultValue = "chips",
      description =
          "chips (fewest, then cost) or cost (lowest $/h; chips without a price are ranked"
              + " last, and the output names them) (default: ${DEFAULT-VALUE}).")
  String objective;

  @Option(
      names = "--top",
      defaultValue = "5",
      description = "Configurations to report (default: ${DEFAULT-VALUE}).")
  int top;

  @Option(
      names = "--price",
      paramLabel = "P|CHIP=P",
      description =
          "Price per chip-hour in dollars: P for every chip, CHIP=P for one (repeatable or"
              + " comma-separated; default: the catalog's, where known).")
  List<String> price;

  @Option(
      names = "--weights",
      description = "Precision of every weight (default: the checkpoint's).")
  Precision weights;

  @Option(names = "--kv", description = "KV-cache precision (default: the checkpoint's).")
  Precision kv;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Mixin EfficiencyOptions efficiencyOptions;

  @Mixin WorkloadOptions workload;

  @Override
  public Integer call() {
    SystemOptions.positive("--isl", isl);
    SystemOptions.positive("--osl", osl);
    SystemOptions.positive("--top", top);
    positive("--rate", rate, "requests/s");
    positive("--ttft", ttft, "s");
    positive("--tpot", tpot, "s");
    PriceOption prices = PriceOption.parse(price);
    List<Chip> catalog = new ArrayList<>();
    for (String id : chips) {
      if (!id.isBlank()) {
        catalog.add(SystemOptions.resolveChip(id.trim()));
      }
    }
    List<Chip> resolved = catalog.stream().map(prices::apply).toList();
    if (resolved.isEmpty()) {
      throw new IllegalArgumentException(
          "--chips must name at least one chip, e.g. --chips h100-sxm,b200");
    }
    Set<Deployment.Strategy> searched = searched();
    EfficiencyOptions.Choice efficiency = efficiencyOptions.resolve();
    Model m = SystemOptions.resolveModels(List.of(model), architecture).get(0);
    SystemOptions.warn(m, spec);
    ImmutablePlanRequest.Builder b =
        PlanRequest.builder()
            .model(m)
            .chips(resolved)
            .inputTokens(isl)
            .outputTokens(osl)
            .cachedTokens(workload.apply(Workload.of(isl, osl)).cachedTokens())
            .prefixHitRate(workload.prefixHit)
            .requestsPerSecond(rate)
            .ttftSlo(Seconds.of(ttft))
            .tpotSlo(Seconds.of(tpot))
            .strategies(searched)
            .objective(PlanRequest.Objective.of(objective))
            .top(top)
            .efficiency(efficiency.efficiency());
    if (weights != null || kv != null) {
      b.precisions(precisions(m));
    }
    PlanResult r = Planner.plan(b.build());
    PrintWriter out = spec.commandLine().getOut();
    List<String> priceLines = priceLines(prices, catalog, r.request().objective());
    if (json) {
      ObjectNode o = json(r, efficiency);
      ObjectNode perHour = o.putObject("prices_per_hour");
      for (Chip c : resolved) {
        if (c.pricePerHour().isPresent()) {
          perHour.put(c.id(), c.pricePerHour().get().dollarsPerHour());
        } else {
          perHour.putNull(c.id());
        }
      }
      ArrayNode unpriced = o.putArray("unpriced_chips");
      prices.unpriced(catalog).forEach(unpriced::add);
      out.println(Json.write(o));
    } else if (!r.found()) {
      out.println(r.summary());
      out.println(efficiency.line());
      efficiency.bandLines(r.request().model(), r.request().chips()).forEach(out::println);
      priceLines.forEach(out::println);
    } else {
      table(r, efficiency, priceLines, out);
    }
    return r.found() ? 0 : NOTHING_MEETS;
  }

  private Precisions precisions(Model m) {
    Precisions p = m.defaultPrecisions();
    if (weights != null) {
      p = p.withAllWeights(weights);
    }
    return kv == null ? p : ImmutablePrecisions.builder().from(p).kvCache(kv).build();
  }

  /** The strategies of --strategies, at least one. */
  private Set<Deployment.Strategy> searched() {
    Set<Deployment.Strategy> searched = EnumSet.noneOf(Deployment.Strategy.class);
    for (String s : strategies) {
      if (!s.isBlank()) {
        searched.add(strategy(s.trim()));
      }
    }
    if (searched.isEmpty()) {
      throw new IllegalArgumentException(
          "--strategies must name at least one of " + String.join(", ", searchable()));
    }
    return searched;
  }

  /** The ids --strategies takes, for its help: {@link #searchable()}. */
  static final class SearchableIds implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return searchable().iterator();
    }
  }

  /** The ids of the strategies the planner searches: every one but afd, in declaration order. */
  static List<String> searchable() {
    return Arrays.stream(Deployment.Strategy.values())
        .filter(s -> s != Deployment.Strategy.AFD)
        .map(Deployment.Strategy::id)
        .toList();
  }

  /** A strategy the planner searches, by id; the message lists those and the closest. */
  private static Deployment.Strategy strategy(String id) {
    List<String> known = searchable();
    for (String k : known) {
      if (k.equalsIgnoreCase(id)) {
        return Deployment.Strategy.of(k);
      }
    }
    if (id.equalsIgnoreCase(Deployment.Strategy.AFD.id())) {
      throw new IllegalArgumentException(
          "strategy "
              + Deployment.Strategy.AFD.id()
              + " is not searched by plan; known: "
              + String.join(", ", known));
    }
    String hint = Names.closest(id, known).map(c -> "; did you mean '" + c + "'?").orElse(";");
    throw new IllegalArgumentException(
        "unknown strategy '" + id + "'" + hint + " known: " + String.join(", ", known));
  }

  private static void positive(String option, double value, String unit) {
    if (!(value > 0) || !Double.isFinite(value)) {
      throw new IllegalArgumentException(
          option + " must be a positive number (" + unit + "): " + value);
    }
  }

  /**
   * The prices used (where each came from) and the chips without one; under {@code --objective
   * cost}, a line saying that those are ranked last.
   */
  private static List<String> priceLines(
      PriceOption prices, List<Chip> catalog, PlanRequest.Objective objective) {
    List<String> lines = new ArrayList<>();
    prices.line(catalog).ifPresent(lines::add);
    List<String> unpriced = prices.unpriced(catalog);
    if (objective == PlanRequest.Objective.COST && !unpriced.isEmpty()) {
      lines.add(
          "objective cost: configurations of "
              + String.join(", ", unpriced)
              + " have no price and are ranked after every priced one");
    }
    return lines;
  }

  private static void table(
      PlanResult r, EfficiencyOptions.Choice efficiency, List<String> priceLines, PrintWriter out) {
    PlanRequest q = r.request();
    out.printf(
        Locale.ROOT,
        "%s: ISL %d, OSL %d, %s requests/s (%s output tok/s); objectives: mean TTFT ≤ %s, mean TPOT"
            + " ≤ %s%n",
        q.model().id(),
        q.inputTokens(),
        q.outputTokens(),
        number(q.requestsPerSecond()),
        number(q.outputTokensPerSecond()),
        q.ttftSlo(),
        q.tpotSlo());
    if (q.workload().hasCache()) {
      out.println(WorkloadOptions.line(q.workload()));
    }
    out.printf(
        Locale.ROOT,
        "searched %s with %s (%s): %d candidates, %d configurations meet the objectives; best %d by"
            + " %s%n",
        String.join(", ", q.chips().stream().map(Chip::id).distinct().toList()),
        String.join(", ", q.strategies().stream().map(Deployment.Strategy::id).toList()),
        efficiency.ideal() ? "ideal roofline bounds" : efficiency.description(),
        r.candidates(),
        r.meeting(),
        r.configurations().size(),
        q.objective() == PlanRequest.Objective.CHIPS ? "fewest chips" : "lowest cost");
    efficiency.bandLines(q.model(), q.chips()).forEach(out::println);
    priceLines.forEach(out::println);
    configurationTable(r, out);
    out.printf(
        Locale.ROOT,
        "failures over %d candidates: memory %d, ttft %d, tpot %d (a candidate can miss both TTFT"
            + " and TPOT)%n",
        r.candidates(),
        r.failures().get(PlanFailure.MEMORY),
        r.failures().get(PlanFailure.TTFT),
        r.failures().get(PlanFailure.TPOT));
    if (!r.closest().isEmpty()) {
      out.println("closest miss per chip:");
      r.closest().forEach(m -> out.println("  " + m));
    }
  }

  /** The configurations, one row each, under a header. */
  private static void configurationTable(PlanResult r, PrintWriter out) {
    int w =
        Math.max(
            4, r.configurations().stream().mapToInt(c -> c.chip().id().length()).max().orElse(4));
    String head = "%-" + w + "s  %-9s %3s %4s %6s %13s %9s %11s %13s %13s %11s %10s %9s%n";
    out.printf(
        Locale.ROOT,
        head,
        "chip",
        "strategy",
        "tp",
        "pp",
        "batch",
        "chips/replica",
        "replicas",
        "total chips",
        "TTFT",
        "TPOT",
        "tok/s/chip",
        "$/h",
        "$/Mtok");
    String row = "%-" + w + "s  %-9s %3d %4d %6d %13.2f %9d %11d %13s %13s %11.1f %10s %9s%n";
    for (PlanConfiguration c : r.configurations()) {
      out.printf(
          Locale.ROOT,
          row,
          c.chip().id(),
          c.strategy().id(),
          c.tensorParallel(),
          c.pipelineParallel(),
          c.batch(),
          c.chipsPerReplica(),
          c.replicas(),
          c.totalChips(),
          c.ttft(),
          c.tpot(),
          c.tokensPerSecondPerChip(),
          c.dollarsPerHour()
              .map(d -> String.format(Locale.ROOT, "%.2f", d.dollarsPerHour()))
              .orElse("-"),
          c.dollarsPerMillionTokens().map(d -> String.format(Locale.ROOT, "%.3f", d)).orElse("-"));
    }
  }

  private static ObjectNode json(PlanResult r, EfficiencyOptions.Choice efficiency) {
    PlanRequest q = r.request();
    ObjectNode o = Json.object();
    o.put("model", q.model().id());
    o.put("isl", q.inputTokens());
    o.put("osl", q.outputTokens());
    if (q.workload().hasCache()) {
      WorkloadOptions.put(o, q.workload());
    }
    o.put("rate_requests_per_second", q.requestsPerSecond());
    o.put("output_tokens_per_second", q.outputTokensPerSecond());
    o.put("ttft_slo_seconds", q.ttftSlo().seconds());
    o.put("tpot_slo_seconds", q.tpotSlo().seconds());
    o.put("objective", q.objective().id());
    ArrayNode chipIds = o.putArray("chips");
    q.chips().stream().map(Chip::id).distinct().forEach(chipIds::add);
    ArrayNode strategyIds = o.putArray("strategies");
    q.strategies().forEach(s -> strategyIds.add(s.id()));
    o.put("efficiency", efficiency.description());
    efficiency.putBand(o, q.model(), q.chips());
    o.put("candidates", r.candidates());
    o.put("meeting", r.meeting());
    configurations(r, o.putArray("configurations"));
    ObjectNode failures = o.putObject("failures");
    for (PlanFailure f : PlanFailure.values()) {
      failures.put(f.id(), r.failures().getOrDefault(f, 0));
    }
    closest(r, o.putArray("closest"));
    return o;
  }

  private static void configurations(PlanResult r, ArrayNode configs) {
    for (PlanConfiguration c : r.configurations()) {
      ObjectNode n = configs.addObject();
      n.put("chip", c.chip().id());
      n.put("strategy", c.strategy().id());
      n.put("tp", c.tensorParallel());
      n.put("pp", c.pipelineParallel());
      n.put("batch", c.batch());
      n.put("chips_per_replica", c.chipsPerReplica());
      n.put("replicas", c.replicas());
      n.put("total_chips", c.totalChips());
      n.put("ttft_seconds", c.ttft().seconds());
      n.put("tpot_seconds", c.tpot().seconds());
      n.put("tokens_per_second_per_chip", c.tokensPerSecondPerChip());
      if (c.dollarsPerHour().isPresent()) {
        n.put("dollars_per_hour", c.dollarsPerHour().get().dollarsPerHour());
      } else {
        n.putNull("dollars_per_hour");
      }
      if (c.dollarsPerMillionTokens().isPresent()) {
        n.put("dollars_per_million_tokens", c.dollarsPerMillionTokens().get());
      } else {
        n.putNull("dollars_per_million_tokens");
      }
    }
  }

  private static void closest(PlanResult r, ArrayNode closest) {
    for (PlanMiss m : r.closest()) {
      ObjectNode n = closest.addObject();
      n.put("chip", m.chip().id());
      n.put("strategy", m.strategy().id());
      n.put("tp", m.tensorParallel());
      n.put("pp", m.pipelineParallel());
      if (m.point().isPresent()) {
        n.put("batch", m.point().get().batch());
        n.put("ttft_seconds", m.point().get().ttft().seconds());
        n.put("tpot_seconds", m.point().get().tpot().seconds());
      } else {
        n.putNull("batch");
        n.putNull("ttft_seconds");
        n.putNull("tpot_seconds");
      }
      ArrayNode reasons = n.putArray("reasons");
      m.reasons().forEach(f -> reasons.add(f.id()));
      n.put("violation_ratio", m.ratio());
      n.put("detail", m.detail());
    }
  }

  private static String number(double v) {
    return new java.math.BigDecimal(v)
        .round(new java.math.MathContext(6))
        .stripTrailingZeros()
        .toPlainString();
  }
}
