package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.DeploymentSpec;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.ImmutableDeploymentSpec;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Speculation;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
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
      "Sweep batch sizes (1, 2, 4, ... up to the largest that fits, and that largest) and print",
      "TTFT, TPOT, tokens/s per user and tokens/s per chip, marking Pareto-optimal points (*), for",
      "a serving strategy: colocated (default), pd, afd, static, or all of them on one chart.",
      "The table view also writes a chart (default frontier-<model>-<chip>x<count>.png).",
      "Calibrated estimates by default (an engine profile fitted on the shipped validation",
      "cases, applied to every pool); --efficiency ideal gives the roofline bound."
    })
final class FrontierCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin SystemOptions system;

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

  /** The strategies of {@code --strategy all}: every one but static, in declaration order. */
  static List<Deployment.Strategy> all() {
    List<Deployment.Strategy> all = new ArrayList<>(List.of(Deployment.Strategy.values()));
    all.remove(Deployment.Strategy.STATIC);
    return all;
  }

  /** The ids --strategy takes, for its help: those of {@link #all()}, then static. */
  static final class StrategyIds implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      List<String> ids = new ArrayList<>();
      all().forEach(s -> ids.add(s.id()));
      ids.add(Deployment.Strategy.STATIC.id());
      return ids.iterator();
    }
  }

  @Option(names = "--prefill-chip", description = "PD/AFD: prefill pool chip (default: --chip).")
  String prefillChip;

  @Option(
      names = "--prefill-count",
      description = "PD/AFD: chips per prefill replica (default: sized to hold the model).")
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
      defaultValue = "3",
      description = "Speculative decoding: draft tokens γ (default: ${DEFAULT-VALUE}).")
  int specLength;

  @Option(
      names = "--spec-acceptance",
      defaultValue = "0.8",
      description = "Speculative decoding: acceptance α in [0, 1) (default: ${DEFAULT-VALUE}).")
  double specAcceptance;

  @Option(
      names = "--price",
      description =
          "Price per chip-hour in dollars, for every chip (default: the catalog's, where known).")
  Double price;

  @Option(names = "--csv", description = "Print CSV.")
  boolean csv;

  @Option(
      names = "--anchor",
      paramLabel = "FILE",
      description =
          "Measurements of your own deployment (a case file, format in cases.md): their mean"
              + " slowdown against the model scales every point (times divided, rates"
              + " multiplied by the factor).")
  Path anchor;

  /** The anchor's factor, once {@link #call} has read it. */
  private Optional<AnchorOption.Factor> anchorFactor = Optional.empty();

  @Option(names = "--plot", description = "Write the frontier chart here (.png or .svg).")
  Path plot;

  @Override
  public Integer call() {
    SystemOptions.positive("--isl", isl);
    SystemOptions.positive("--osl", osl);
    if (system.json && csv) {
      throw new IllegalArgumentException("--json and --csv are exclusive");
    }
    system.efficiency();
    Model m = Models.resolve(system.model);
    List<String> labels = new ArrayList<>();
    List<Deployment> deployments = deployments(m, labels);
    List<ParetoFrontier> frontiers = frontiers(deployments);
    anchorFactor = AnchorOption.factor(anchor, system.efficiency());
    if (anchorFactor.isPresent()) {
      frontiers = anchorFactor.get().apply(frontiers);
    }
    List<FrontierPoint> all = new ArrayList<>();
    frontiers.forEach(f -> all.addAll(f.points()));
    // with several strategies, Pareto flags are those of the union
    ParetoFrontier union = ParetoFrontier.of(all);
    RooflineModel first = deployments.get(0).decodePool();
    PrintWriter out = spec.commandLine().getOut();
    if (system.json) {
      out.println(Json.write(json(first, deployments, union)));
    } else if (csv) {
      spec.commandLine().getErr().println(system.efficiency().line());
      system.efficiency().bandLines(first).forEach(spec.commandLine().getErr()::println);
      anchorFactor.ifPresent(f -> spec.commandLine().getErr().println(f.line()));
      csv(out, union);
    } else {
      table(out, deployments, frontiers, union);
    }
    chart(m, first, deployments, frontiers, labels, out);
    return 0;
  }

  /** The strategies of --strategy ("all": every one but static), their chart labels in labels. */
  private List<Deployment> deployments(Model m, List<String> labels) {
    List<String> tokens = new ArrayList<>();
    if (strategy.equalsIgnoreCase("all")) {
      all().forEach(s -> tokens.add(s.id()));
    } else {
      tokens.addAll(List.of(strategy.split(",")));
    }
    List<Deployment> deployments = new ArrayList<>();
    for (String token : tokens) {
      // name, or pd:CHIP[:COUNT] for a decode pool of another chip (e.g. pd:groq-lpu:576)
      String[] parts = token.trim().split(":");
      Deployment.Strategy s = Deployment.Strategy.of(parts[0]);
      if (parts.length > 1 && s != Deployment.Strategy.PD) {
        throw new IllegalArgumentException(
            "--strategy " + token + ": only pd takes a decode chip (pd:CHIP[:COUNT])");
      }
      String dChip = parts.length > 1 ? parts[1] : decodeChip;
      Integer dCount =
          parts.length > 2 ? count(token, parts[2]) : parts.length > 1 ? null : decodeCount;
      deployments.add(deployment(s, m, dChip, dCount));
      labels.add(parts.length > 1 ? "pd, " + parts[1] + " decode" : s.id());
    }
    return deployments;
  }

  private List<ParetoFrontier> frontiers(List<Deployment> deployments) {
    List<ParetoFrontier> frontiers = new ArrayList<>();
    for (Deployment d : deployments) {
      ParetoFrontier.Builder b = ParetoFrontier.builder(d).inputTokens(isl).outputTokens(osl);
      if (maxBatch != null) {
        SystemOptions.positive("--max-batch", maxBatch);
        b.maxBatch(maxBatch);
      }
      frontiers.add(b.build());
    }
    return frontiers;
  }

  private ObjectNode json(RooflineModel first, List<Deployment> deployments, ParetoFrontier union) {
    ObjectNode o = Json.system(first, system.efficiency());
    o.put("chips", first.chips());
    o.put("isl", isl);
    o.put("osl", osl);
    anchorFactor.ifPresent(
        f -> {
          ObjectNode a = o.putObject("anchor");
          a.put("file", f.file().toString());
          a.put("rows", f.rows());
          a.put("slowdown", Math.exp(f.lnSlowdown()));
        });
    ArrayNode ds = o.putArray("deployments");
    deployments.forEach(d -> ds.add(d.toString()));
    ArrayNode arr = o.putArray("points");
    for (FrontierPoint p : union.points()) {
      ObjectNode n = arr.addObject();
      n.put("strategy", p.strategy());
      n.put("batch", p.batch());
      n.put("ttft_seconds", p.ttft().seconds());
      n.put("tpot_seconds", p.tpot().seconds());
      n.put("tokens_per_second_per_user", p.tokensPerSecondPerUser());
      n.put("tokens_per_second_per_chip", p.tokensPerSecondPerChip());
      n.put("chips_total", p.chipsTotal());
      if (p.dollarsPerMillionTokens().isPresent()) {
        n.put("dollars_per_million_tokens", p.dollarsPerMillionTokens().get());
      } else {
        n.putNull("dollars_per_million_tokens");
      }
      if (p.tokensPerJoule().isPresent()) {
        n.put("tokens_per_joule", p.tokensPerJoule().get());
      } else {
        n.putNull("tokens_per_joule");
      }
      putOptional(n, "mfu", p.mfu());
      putOptional(n, "bandwidth_utilisation", p.bandwidthUtilisation());
      n.put("fits", p.fits());
      n.put("pareto", p.pareto());
      n.put("note", p.note());
    }
    return o;
  }

  private static void putOptional(ObjectNode n, String key, Optional<Double> value) {
    if (value.isPresent()) {
      n.put(key, value.get());
    } else {
      n.putNull(key);
    }
  }

  private static void csv(PrintWriter out, ParetoFrontier union) {
    out.println(
        "strategy,batch,ttft_seconds,tpot_seconds,tokens_per_second_per_user,tokens_per_second_per_chip,chips_total,dollars_per_million_tokens,tokens_per_joule,fits,pareto,mfu,bandwidth_utilisation");
    for (FrontierPoint p : union.points()) {
      out.printf(
          Locale.ROOT,
          "%s,%d,%s,%s,%s,%s,%s,%s,%s,%b,%b,%s,%s%n",
          p.strategy(),
          p.batch(),
          p.ttft().seconds(),
          p.tpot().seconds(),
          p.tokensPerSecondPerUser(),
          p.tokensPerSecondPerChip(),
          p.chipsTotal(),
          p.dollarsPerMillionTokens().map(String::valueOf).orElse(""),
          p.tokensPerJoule().map(String::valueOf).orElse(""),
          p.fits(),
          p.pareto(),
          p.mfu().map(String::valueOf).orElse(""),
          p.bandwidthUtilisation().map(String::valueOf).orElse(""));
    }
  }

  private void table(
      PrintWriter out,
      List<Deployment> deployments,
      List<ParetoFrontier> frontiers,
      ParetoFrontier union) {
    deployments.forEach(out::println);
    out.println(system.efficiency().line());
    system.efficiency().bandLines(deployments.get(0).decodePool()).forEach(out::println);
    anchorFactor.ifPresent(f -> out.println(f.line()));
    out.printf(
        Locale.ROOT,
        "ISL %d, OSL %d; * = Pareto-optimal%s; MFU, BW: utilisation of the batch's chips in a"
            + " decode step%n",
        isl,
        osl,
        deployments.size() > 1 ? " across strategies" : "");
    out.printf(
        Locale.ROOT,
        "%-9s %6s %12s %12s %11s %11s %7s %9s %6s %6s %6s%n",
        "strategy",
        "batch",
        "TTFT",
        "TPOT",
        "tok/s/user",
        "tok/s/chip",
        "chips",
        "$/Mtok",
        "MFU",
        "BW",
        "");
    for (FrontierPoint p : union.points()) {
      out.printf(
          Locale.ROOT,
          "%-9s %6d %12s %12s %11.1f %11.1f %7.2f %9s %6s %6s %6s%n",
          p.strategy(),
          p.batch(),
          p.ttft(),
          p.tpot(),
          p.tokensPerSecondPerUser(),
          p.tokensPerSecondPerChip(),
          p.chipsTotal(),
          p.dollarsPerMillionTokens().map(d -> String.format(Locale.ROOT, "%.3f", d)).orElse("-"),
          percent(p.mfu()),
          percent(p.bandwidthUtilisation()),
          (p.pareto() ? "*" : "") + (p.fits() ? "" : " oom"));
    }
    for (ParetoFrontier f : frontiers) {
      List<FrontierPoint> front = f.frontier();
      if (!front.isEmpty() && !front.get(front.size() - 1).note().isEmpty()) {
        FrontierPoint top = front.get(front.size() - 1);
        out.println(top.strategy() + " at batch " + top.batch() + ": " + top.note());
      }
    }
  }

  private static String percent(Optional<Double> fraction) {
    return fraction.map(f -> String.format(Locale.ROOT, "%.1f%%", 100 * f)).orElse("-");
  }

  /** Writes the chart to --plot, or by default in the table view. */
  private void chart(
      Model m,
      RooflineModel first,
      List<Deployment> deployments,
      List<ParetoFrontier> frontiers,
      List<String> labels,
      PrintWriter out) {
    Path target = plot;
    if (target == null && !system.json && !csv) {
      target =
          Path.of(
              String.format(
                  Locale.ROOT, "frontier-%s-%sx%d.png", m.id(), first.chip().id(), first.chips()));
    }
    if (target == null) {
      return;
    }
    String title =
        String.format(
            Locale.ROOT,
            "%s, ISL %d / OSL %d",
            deployments.size() == 1
                ? deployments.get(0).toString()
                : m.id() + " (" + first.chip().id() + ")",
            isl,
            osl);
    Charts.save(Charts.frontier(frontiers, labels, title), target);
    (system.json || csv ? spec.commandLine().getErr() : out).println("wrote " + target);
  }

  private static Integer count(String token, String text) {
    try {
      int n = Integer.parseInt(text);
      SystemOptions.positive("--strategy " + token + " chip count", n);
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--strategy " + token + ": the chip count must be a whole number: '" + text + "'", e);
    }
  }

  /**
   * The deployment of strategy {@code s} from the options, through {@link DeploymentSpec}; {@code
   * decodeChip} and {@code decodeCount} (either may be null) describe a pd decode pool.
   */
  private Deployment deployment(
      Deployment.Strategy s, Model m, String decodeChip, Integer decodeCount) {
    ImmutableDeploymentSpec.Builder b =
        DeploymentSpec.builder().strategy(s).afdMicroBatches(afd.afdMicroBatches);
    if (price != null) {
      b.price(DollarsPerHour.of(price));
    }
    if (poolLinkGbps != null) {
      b.poolLink(BytesPerSecond.ofGigabytes(poolLinkGbps));
    }
    if (specDraft != null) {
      SystemOptions.positive("--spec-length", specLength);
      b.speculation(
          specDraft.equalsIgnoreCase("mtp")
              ? Speculation.mtp(specLength, specAcceptance)
              : Speculation.withDraft(Models.resolve(specDraft), specLength, specAcceptance));
    }
    switch (s) {
      case PD:
        Chip decodeC = SystemOptions.resolveChip(decodeChip != null ? decodeChip : system.chip);
        Chip prefillC = SystemOptions.resolveChip(prefillChip != null ? prefillChip : system.chip);
        // --count/--tp describe the decode pool unless it has a chip of its own
        boolean ownDecodeChip = decodeChip != null;
        Integer dCount = decodeCount != null ? decodeCount : ownDecodeChip ? null : system.count;
        Integer dTp = decodeCount != null || ownDecodeChip ? null : system.tp;
        b.pool(system.poolSpec(m, decodeC, dCount, dTp))
            .prefill(system.poolSpec(m, prefillC, prefillCount, null));
        break;
      case AFD:
        Chip attC =
            SystemOptions.resolveChip(afd.attentionChip != null ? afd.attentionChip : system.chip);
        Chip ffnC = SystemOptions.resolveChip(afd.ffnChip != null ? afd.ffnChip : system.chip);
        Integer attN =
            afd.attentionCount != null
                ? afd.attentionCount
                : afd.attentionChip == null ? system.count : null;
        Chip afdPrefillC =
            SystemOptions.resolveChip(prefillChip != null ? prefillChip : system.chip);
        b.pool(system.poolSpec(m, attC, attN, attN))
            .prefill(system.poolSpec(m, afdPrefillC, prefillCount, null))
            .ffn(afd.ffnSpec(system, m, ffnC));
        break;
      default:
        b.pool(system.poolSpec(m, SystemOptions.resolveChip(system.chip), system.count, system.tp));
    }
    return b.build().build(isl, osl);
  }
}
