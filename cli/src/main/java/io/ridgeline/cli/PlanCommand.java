package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import io.ridgeline.serving.Conversation;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.KvOffload;
import io.ridgeline.serving.Workload;
import io.ridgeline.serving.plan.PlanRequest;
import io.ridgeline.serving.plan.PlanResult;
import io.ridgeline.serving.plan.PlanSystem;
import io.ridgeline.serving.plan.Planner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
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
      "Finds the configurations (chips, strategy colocated/pd/afd with pools of one or two chip",
      "types, tensor/pipeline/expert/attention-data parallelism, precision, speculation, batch)",
      "that serve --rate requests/s of --isl prompt and --osl output tokens within p50 (and",
      "optionally p99) TTFT and TPOT objectives under a queueing model of the rate (Poisson",
      "arrivals, M/D/1 prefill servers; see docs/guide.md), with the fewest chips (or the lowest",
      "cost); or, with --total-chips N instead of --rate, the configurations on at most N chips",
      "with the most output tok/s per chip. Says why the others fail and prints launch sketches",
      "for the engines that run on each chip. Calibrated estimates by default; --efficiency",
      "ideal gives the roofline bounds."
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

  @Option(
      names = "--rate",
      description = "Requests per second to serve: the fewest chips for it (or --total-chips).")
  Double rate;

  @Option(
      names = "--total-chips",
      paramLabel = "N",
      description =
          "Instead of --rate: the best configurations on at most N chips, each serving the highest"
              + " rate within the objectives, ranked by output tok/s per chip (or $/Mtok).")
  Integer totalChips;

  @Option(
      names = "--ttft",
      required = true,
      converter = DurationOption.Converter.class,
      paramLabel = "DURATION",
      description = {
        "Objective on the p50 time to first token under load.",
        DurationOption.UNITS_HELP
      })
  Seconds ttft;

  @Option(
      names = "--tpot",
      required = true,
      converter = DurationOption.Converter.class,
      paramLabel = "DURATION",
      description = {"Objective on the p50 time per output token.", DurationOption.UNITS_HELP})
  Seconds tpot;

  @Option(
      names = "--ttft-p99",
      converter = DurationOption.Converter.class,
      paramLabel = "DURATION",
      description = "Objective on the p99 time to first token under load (optional).")
  Seconds ttftP99;

  @Option(
      names = "--tpot-p99",
      converter = DurationOption.Converter.class,
      paramLabel = "DURATION",
      description = "Objective on the p99 time per output token (optional).")
  Seconds tpotP99;

  @Option(
      names = "--spec-draft",
      description =
          "Also try speculative decoding (colocated, pd): a draft model id, or mtp; needs"
              + " --spec-acceptance.")
  String specDraft;

  @Option(
      names = "--spec-length",
      description = "Speculative decoding: draft tokens γ (default: 3); needs --spec-draft.")
  Integer specLength;

  @Option(
      names = "--spec-acceptance",
      description = "Speculative decoding: the acceptance α in [0, 1) you measured.")
  Double specAcceptance;

  @Option(
      names = {"--chips", "--chip"},
      split = ",",
      defaultValue = DEFAULT_CHIPS,
      description =
          "Chips to search, comma-separated ids (see `ridgeline chips`) or chip JSON files"
              + " (default: ${DEFAULT-VALUE}).")
  List<String> chips;

  /**
   * The chips searched when {@code --chips} is not given: the current data-center accelerators of
   * the three GPU vendors' catalog entries with a published on-demand price (NVIDIA H100, H200,
   * B200; AMD MI300X), so that "the best configurations on N chips" is one command.
   */
  static final String DEFAULT_CHIPS = "h100-sxm,h200-sxm,b200,mi300x";

  @Option(
      names = "--system",
      paramLabel = "SPEC",
      description =
          "Plan only on this system, CHIP:COUNT[:FIELD=VALUE...] with FIELD one of tp, pp, ep,"
              + " attention-dp, strategy (ids of --strategies, comma-separated), e.g. h100-sxm:8:tp=8"
              + " or b200:4:strategy=colocated; fields left out are searched within the count"
              + " (repeatable; instead of --chips).")
  List<String> systems;

  @Option(
      names = "--strategies",
      split = ",",
      defaultValue = "colocated,pd,afd",
      completionCandidates = PlanSearch.SearchableIds.class,
      description = "Strategies to search: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  List<String> strategies;

  @Option(
      names = "--objective",
      description =
          "chips (fewest, then cost), cost (lowest $/Mtok; chips without a price are ranked"
              + " last, by chips, and the output names them) or throughput (most tok/s per chip)"
              + " (default: chips with --rate, throughput with --total-chips).")
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
      split = ",",
      description =
          "Precisions of every weight to search, comma-separated (default: the checkpoint's).")
  List<Precision> weights;

  @Option(
      names = "--kv",
      split = ",",
      description = "KV-cache precisions to search, comma-separated (default: the checkpoint's).")
  List<Precision> kv;

  @Option(
      names = "--kv-offload",
      paramLabel = "POLICY",
      defaultValue = "none",
      description =
          "KV kept in the slower offload tier of the chips that have one (GH200/GB200 LPDDR5X):"
              + " none (default), history (cached KV fetched back at prefill), spill (KV beyond"
              + " HBM read there every step), all; chips without such a tier keep KV in HBM.")
  String kvOffload;

  @Option(
      names = "--anchor",
      paramLabel = "FILE",
      description =
          "Measurements of your own deployment (a case file, format in cases.md): their mean"
              + " slowdown against the model scales every candidate's times before the"
              + " objectives are checked.")
  Path anchor;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Option(
      names = "--plot",
      paramLabel = "FILE",
      description =
          "Write a chart (.png or .svg): each configuration's TPOT and TTFT against the"
              + " objectives.")
  Path plot;

  @Option(
      names = "--save",
      paramLabel = "DIR",
      description =
          "Write one script per configuration into DIR (config-N.sh): the launch commands per"
              + " engine, the matching benchmark (vllm bench serve, sglang.bench_serving) and"
              + " the step that turns its result into a case file for --anchor.")
  Path save;

  @Option(names = "--force", description = "With --save: write into a folder that is not empty.")
  boolean force;

  @Mixin ChipSetOption chipSet;

  @Mixin EfficiencyOptions efficiencyOptions;

  @Mixin WorkloadOptions workload;

  @Mixin ConversationOptions conversations;

  @Override
  public Integer call() {
    if (plot != null) {
      ChartRendering.checkPlotFile(plot);
    }
    if (force && save == null) {
      throw new IllegalArgumentException("--force applies to --save DIR");
    }
    if (save != null) {
      PlanSave.check(save, force);
    }
    SystemOptions.positive("--isl", isl);
    SystemOptions.positive("--osl", osl);
    SystemOptions.positive("--top", top);
    if ((rate == null) == (totalChips == null)) {
      throw new IllegalArgumentException(
          "give exactly one of --rate R (the fewest chips serving R requests/s) and --total-chips"
              + " N (the best configurations on N chips)");
    }
    if (rate != null) {
      positive("--rate", rate, "requests/s");
    } else {
      SystemOptions.positive("--total-chips", totalChips);
    }
    positive("--ttft", ttft.seconds(), "s");
    positive("--tpot", tpot.seconds(), "s");
    if (ttftP99 != null) {
      positive("--ttft-p99", ttftP99.seconds(), "s");
    }
    if (tpotP99 != null) {
      positive("--tpot-p99", tpotP99.seconds(), "s");
    }
    PriceOption prices = PriceOption.parse(price);
    List<SystemSpec> systemSpecs =
        PlanSearch.systemSpecs(
            systems, spec.commandLine().getParseResult().hasMatchedOption("--chips"));
    List<String> chipIds =
        systemSpecs.isEmpty()
            ? chips
            : systemSpecs.stream().map(SystemSpec::chip).distinct().toList();
    List<Chip> catalog = new ArrayList<>();
    for (String id : chipIds) {
      if (!id.isBlank()) {
        catalog.add(chipSet.resolve(id.trim(), chipIds));
      }
    }
    List<Chip> resolved = catalog.stream().map(prices::apply).toList();
    List<PlanSystem> planSystems = new ArrayList<>();
    for (SystemSpec s : systemSpecs) {
      planSystems.add(PlanSearch.planSystem(s, resolved.get(chipIds.indexOf(s.chip()))));
    }
    if (resolved.isEmpty()) {
      throw new IllegalArgumentException(
          "--chips must name at least one chip, e.g. --chips h100-sxm,b200");
    }
    Optional<Conversation> conversation = conversations.conversation(isl, osl, workload);
    Set<Deployment.Strategy> searched = PlanSearch.searched(strategies);
    if (conversation.isPresent()
        && !spec.commandLine().getParseResult().hasMatchedOption("--strategies")) {
      // conversations are modelled on colocated deployments: the default search is colocated only
      searched = EnumSet.of(Deployment.Strategy.COLOCATED);
    }
    EfficiencyOptions.Choice efficiency = efficiencyOptions.resolve();
    Optional<AnchorOption.Factor> anchored =
        AnchorOption.factor(anchor, efficiency, Optional.empty());
    Model m = SystemOptions.resolveModels(List.of(model), architecture).get(0);
    SystemOptions.warn(m, spec);
    // the anchor's chips against the searched chips' ids (a chip file by its id, not its path)
    anchored.ifPresent(
        f -> SystemOptions.warn(f.warnings(m.id(), catalog.stream().map(Chip::id).toList()), spec));
    SystemOptions.warnContext(
        m,
        ConversationOptions.sizing(conversation, workload.apply(Workload.of(isl, osl)))
            .finalContext(),
        spec);
    PlanRequest.Builder b =
        PlanRequest.builder()
            .model(m)
            .chips(resolved)
            .inputTokens(isl)
            .outputTokens(osl)
            .cachedTokens(workload.apply(Workload.of(isl, osl)).cachedTokens())
            .prefixHitRate(workload.prefixHit)
            .ttftSlo(ttft)
            .tpotSlo(tpot)
            .strategies(searched)
            .systems(planSystems)
            .top(top)
            .efficiency(efficiency.efficiency())
            .conversation(conversation);
    if (rate != null) {
      b.requestsPerSecond(rate);
    } else {
      b.totalChips(totalChips);
    }
    if (objective != null) {
      b.objective(PlanRequest.Objective.of(objective));
    }
    if (weights != null || kv != null) {
      b.precisionChoices(PlanSearch.precisionChoices(m, weights, kv));
    }
    if (ttftP99 != null) {
      b.ttftP99Slo(ttftP99);
    }
    if (tpotP99 != null) {
      b.tpotP99Slo(tpotP99);
    }
    PlanSearch.speculation(specDraft, specLength, specAcceptance, model, architecture)
        .ifPresent(b::speculation);
    anchored.ifPresent(f -> b.anchor(f.anchoring()));
    b.kvOffload(KvOffload.of(kvOffload));
    PlanResult r = Planner.plan(b.build());
    PrintWriter out = spec.commandLine().getOut();
    List<String> priceLines = new ArrayList<>();
    anchored.ifPresent(f -> priceLines.add(f.line()));
    priceLines.addAll(priceLines(prices, catalog, r.request().objective()));
    if (json) {
      ObjectNode o = PlanOutput.json(r, efficiency);
      anchored.ifPresent(f -> f.put(o));
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
      PlanOutput.table(r, efficiency, priceLines, out);
    }
    if (plot != null) {
      Charts.save(PlanChart.of(r), plot);
      (json ? spec.commandLine().getErr() : out).println("wrote " + plot);
    }
    if (save != null && r.found()) {
      for (Path f : PlanSave.write(save, r, commandLine())) {
        (json ? spec.commandLine().getErr() : out).println("wrote " + f);
      }
    }
    return r.found() ? 0 : NOTHING_MEETS;
  }

  /**
   * This plan's command line without --save and --force, for the scripts' {@code --anchor} line:
   * {@code ./ridgeline plan ARGS}, an argument with a blank or a quote single-quoted.
   */
  private String commandLine() {
    List<String> args = new ArrayList<>();
    List<String> typed = spec.commandLine().getParseResult().originalArgs();
    // the arguments after the command's name (the root's parse result holds them all)
    for (int i = typed.indexOf(spec.name()) + 1; i < typed.size(); i++) {
      String a = typed.get(i);
      if (a.equals("--save")) {
        i++;
      } else if (!a.startsWith("--save=") && !a.equals("--force")) {
        args.add(a.matches("[\\w@%+=:,./-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
      }
    }
    return "./ridgeline plan " + String.join(" ", args);
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
    boolean rankedByPrice =
        switch (objective) {
          case COST -> true;
          case CHIPS, THROUGHPUT -> false;
        };
    if (rankedByPrice && !unpriced.isEmpty()) {
      lines.add(
          "objective cost: configurations of "
              + String.join(", ", unpriced)
              + " have no price and are ranked after every priced one, among themselves by fewest"
              + " chips");
    }
    return lines;
  }
}
