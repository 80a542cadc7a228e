package io.ridgeline.cli;

import io.ridgeline.core.Seconds;
import io.ridgeline.models.Model;
import io.ridgeline.serving.Conversation;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Workload;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ridgeline frontier}: interactivity against throughput across batch sizes and strategies.
 */
@Command(
    name = "frontier",
    mixinStandardHelpOptions = true,
    description = {
      "Interactivity against throughput over batch sizes, marking the Pareto frontier.",
      "Sweeps batch sizes (1, 2, 4, ... up to the largest that fits, and that largest) and prints",
      "TTFT, TPOT, tokens/s per user and tokens/s per chip, marking Pareto-optimal points (*), for",
      "a serving strategy: colocated (default), pd, afd, static, or all of them on one chart.",
      "--plot writes a chart (--plot alone: frontier-<model>-<chip>-x<count>.png).",
      "Calibrated estimates by default (an engine profile fitted on the shipped validation",
      "cases, applied to every pool); --efficiency ideal gives the roofline bound."
    })
final class FrontierCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin SystemOptions system;

  @Mixin WorkloadOptions workload;

  @Mixin BurstOptions burst;

  @Mixin ConversationOptions conversations;

  /** The conversations of --turns, set when the command runs. */
  Optional<Conversation> conversation = Optional.empty();

  @Option(
      names = "--isl",
      defaultValue = "1024",
      description = "Input (prompt) tokens per request (default: ${DEFAULT-VALUE}).")
  int isl;

  @Option(
      names = "--osl",
      defaultValue = "1024",
      description = "Output tokens per request (default: ${DEFAULT-VALUE}).")
  int osl;

  @Option(names = "--system", paramLabel = "SPEC", description = SystemSpec.HELP)
  List<String> systems;

  @Option(names = "--max-batch", description = "Largest batch to sweep.")
  Integer maxBatch;

  @Option(
      names = "--strategy",
      defaultValue = "colocated",
      completionCandidates = StrategyIds.class,
      description =
          "${COMPLETION-CANDIDATES}, all, or a comma-separated list; pd:CHIP[:COUNT] puts decode"
              + " on another chip (default: ${DEFAULT-VALUE}).")
  String strategy;

  /** The strategies of {@code --strategy all}: every one, in declaration order. */
  static List<Deployment.Strategy> all() {
    return List.of(Deployment.Strategy.values());
  }

  /** The ids --strategy takes, for its help: those of {@link #all()}. */
  static final class StrategyIds implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return all().stream().map(Deployment.Strategy::id).iterator();
    }
  }

  @Option(names = "--prefill-chip", description = "PD/AFD: prefill pool chip (default: --chip).")
  String prefillChip;

  @Option(
      names = "--prefill-count",
      description =
          "PD/AFD: chips per prefill replica (default: sized to hold the model). The prefill pool"
              + " is laid out on its own, without --pp: pp 1 where a tensor-parallel group holds"
              + " the weights.")
  Integer prefillCount;

  @Option(names = "--decode-chip", description = "PD: decode pool chip (default: --chip).")
  String decodeChip;

  @Option(
      names = "--decode-count",
      description = "PD: chips per decode replica (default: --count).")
  Integer decodeCount;

  @Mixin AfdOptions afd;

  @Option(
      names = "--pool-link-gbps",
      description =
          "PD/AFD: link between pools per chip, GB/s per direction (default: the chips' own).")
  Double poolLinkGbps;

  @Option(names = "--spec-draft", description = "Speculative decoding: a draft model id, or mtp.")
  String specDraft;

  @Option(
      names = "--spec-length",
      description = "Speculative decoding: draft tokens γ (default: 3); needs --spec-draft.")
  Integer specLength;

  @Option(
      names = "--spec-acceptance",
      description =
          "Speculative decoding: acceptance α in [0, 1) (default: 0.8); needs --spec-draft.")
  Double specAcceptance;

  @Option(
      names = "--price",
      paramLabel = "P|CHIP=P",
      description =
          "Price per chip-hour in dollars: P for every chip, CHIP=P for one (repeatable or"
              + " comma-separated; default: the catalog's, where known).")
  List<String> price;

  PriceOption prices = PriceOption.NONE;

  @Option(names = "--csv", description = "Print CSV.")
  boolean csv;

  @Option(
      names = "--anchor",
      paramLabel = "FILE",
      description =
          "Measurements of your own deployment: a case file (format in cases.md), or the"
              + " result file of vllm bench serve --save-result, SGLang bench_serving,"
              + " GenAI-Perf/AIPerf or GuideLLM, read as measured on this system; their"
              + " slowdown against the model scales every point (times divided, rates"
              + " multiplied by the factor).")
  Path anchor;

  /** The anchor's factor, once {@link #call} has read it. */
  Optional<AnchorOption.Factor> anchorFactor = Optional.empty();

  @Option(
      names = "--plot",
      arity = "0..1",
      fallbackValue = "",
      paramLabel = "FILE",
      description =
          "Write the frontier chart (.png or .svg; with no FILE,"
              + " frontier-<model>-<chip>-x<count>.png).")
  Path plot;

  @Option(
      names = "--ttft",
      converter = DurationOption.Converter.class,
      paramLabel = "DURATION",
      description = {
        "TTFT objective: the table (column SLO) and JSON (meets_slo) mark the points meeting every objective given; the chart marks them.",
        DurationOption.UNITS_HELP
      })
  Seconds ttft;

  @Option(
      names = "--tpot",
      converter = DurationOption.Converter.class,
      paramLabel = "DURATION",
      description = {
        "TPOT objective: as --ttft; the chart draws its guide line at 1 / TPOT tokens/s per user.",
        DurationOption.UNITS_HELP
      })
  Seconds tpot;

  @Option(names = "--log", description = "Chart: both axes logarithmic.")
  boolean logBoth;

  @Option(names = "--log-x", description = "Chart: interactivity on a logarithmic axis.")
  boolean logX;

  @Option(names = "--log-y", description = "Chart: throughput on a logarithmic axis.")
  boolean logY;

  /** Prints the anchor's warnings for {@code m} on the chips of {@code deployments} on stderr. */
  void warnAnchor(AnchorOption.Factor f, Model m, List<Deployment> deployments) {
    java.util.Set<String> chipIds = new java.util.TreeSet<>();
    for (Deployment d : deployments) {
      d.pools().values().forEach(p -> chipIds.add(p.chip().id()));
    }
    SystemOptions.warn(f.warnings(m.id(), chipIds), spec);
  }

  /**
   * The chart's axes and the objectives of --ttft and --tpot (their bounds checked with every
   * numeric option, {@code OptionLimits}).
   */
  FrontierChart.Options chartOptions() {
    return new FrontierChart.Options(
        logBoth || logX,
        logBoth || logY,
        ttft == null ? OptionalDouble.empty() : OptionalDouble.of(ttft.seconds()),
        tpot == null ? OptionalDouble.empty() : OptionalDouble.of(tpot.seconds()));
  }

  @Override
  public Integer call() {
    FrontierChart.Options chartOptions = chartOptions();
    SystemOptions.positive("--isl", isl);
    SystemOptions.positive("--osl", osl);
    conversation = conversations.conversation(isl, osl, workload, burst);
    if (system.json && csv) {
      throw new IllegalArgumentException("--json and --csv are exclusive");
    }
    if (plot != null && !plot.toString().isEmpty()) {
      ChartRendering.checkPlotFile(plot);
    }
    prices = PriceOption.parse(price);
    List<SystemSpec> specs = SystemSpec.parseAll(systems, system);
    if (!specs.isEmpty()) {
      return FrontierComparison.compare(this, specs);
    }
    List<String> chipIds = system.chipIds();
    boolean bursting = burst.used();
    if (bursting && (chipIds.size() > 1 || anchor != null)) {
      throw new IllegalArgumentException(
          burst.option()
              + " simulates one system, unanchored: drop "
              + (anchor != null ? "--anchor" : "the other chips of --chip"));
    }
    if (chipIds.size() > 1) {
      return FrontierComparison.compare(this, chipIds.stream().map(SystemSpec::ofChip).toList());
    }
    system.efficiency();
    Model m = system.model();
    List<String> labels = new ArrayList<>();
    List<Deployment> deployments = deployments(m, labels, false);
    List<ParetoFrontier> frontiers = frontiers(deployments);
    SystemOptions.warnContext(m, request().finalContext(), spec);
    anchorFactor =
        AnchorOption.factor(
            anchor, system.efficiency(), AnchorOption.system(m, deployments, system));
    if (anchorFactor.isPresent()) {
      frontiers = anchorFactor.get().apply(frontiers);
      warnAnchor(anchorFactor.get(), m, deployments);
    }
    FrontierOutput output =
        new FrontierOutput(
            system.efficiency(),
            isl,
            osl,
            labels,
            deployments,
            frontiers,
            anchorFactor,
            prices,
            workload.used() ? Optional.of(request()) : Optional.empty());
    output.chartOptions(chartOptions);
    output.conversation(conversation);
    List<BurstOptions.Row> bursts =
        bursting ? burst.run(deployments, labels, maxBatch, isl, osl) : List.of();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (system.json) {
      var json = output.json();
      if (bursting) {
        burst.put(json, bursts);
      }
      out.println(Json.write(json));
    } else if (csv) {
      output.headerLines(false).forEach(err::println);
      output.csv(out);
      if (bursting) {
        burst.table(err, bursts);
      }
    } else {
      output.table(out);
      if (bursting) {
        burst.table(out, bursts);
      }
    }
    if (plot != null) {
      Path target = plot.toString().isEmpty() ? defaultPlot(m, deployments.get(0)) : plot;
      List<ParetoFrontier> bounds =
          system.efficiency().banded() && anchorFactor.isEmpty()
              ? frontiers(deployments(m, new ArrayList<>(), true))
              : List.of();
      Charts.save(output.chart(bounds), target);
      (system.json || csv ? err : out).println("wrote " + target);
    }
    return 0;
  }

  /** frontier-MODEL-CHIP-xCOUNT.png, of the first deployment's decode pool. */
  static Path defaultPlot(Model m, Deployment first) {
    RooflineModel pool = first.decodePool();
    return Path.of(
        String.format(
            Locale.ROOT, "frontier-%s-%s-x%d.png", m.id(), pool.chip().id(), pool.chips()));
  }

  /**
   * The deployments of --strategy, their unique labels in {@code labels}; with {@code ideal}, every
   * pool at the roofline bound ({@link FrontierDeployments#deployments}).
   */
  List<Deployment> deployments(Model m, List<String> labels, boolean ideal) {
    return new FrontierDeployments(this).deployments(m, labels, ideal);
  }

  /** The frontier of each deployment for {@link #request()}, up to --max-batch. */
  List<ParetoFrontier> frontiers(List<Deployment> deployments) {
    List<ParetoFrontier> frontiers = new ArrayList<>();
    for (Deployment d : deployments) {
      ParetoFrontier.Builder b = ParetoFrontier.builder(d).workload(request());
      conversation.ifPresent(b::conversation);
      if (maxBatch != null) {
        SystemOptions.positive("--max-batch", maxBatch);
        b.maxBatch(maxBatch);
      }
      frontiers.add(b.build());
    }
    return frontiers;
  }

  /**
   * The request the command sizes pools and warns for: the mean turn of --turns without hits, else
   * --isl/--osl with --cached and --prefix-hit.
   */
  Workload request() {
    return ConversationOptions.sizing(conversation, workload.apply(Workload.of(isl, osl)));
  }
}
