package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import io.ridgeline.serving.Conversation;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.KvOffload;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.PointsAt;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Workload;
import io.ridgeline.serving.efficiency.ErrorBands;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.knowm.xchart.XYChart;

/**
 * What {@code ridgeline frontier} prints: the table, CSV, JSON and chart of its deployments. Every
 * deployment has a unique label ({@code colocated}, {@code pd}, {@code pd:groq-lpu}, …) that names
 * its rows in the table, its {@code deployment} in CSV and JSON and its series in the chart. The
 * efficiency's description is printed once (its line), not in every deployment's; the JSON keeps
 * each deployment's full description.
 */
final class FrontierOutput {
  private final EfficiencyOptions.Choice efficiency;
  private final int isl;
  private final int osl;
  private final List<String> labels;
  private final List<Deployment> deployments;
  private final List<ParetoFrontier> frontiers;
  private final Optional<AnchorOption.Factor> anchor;
  private final PriceOption prices;

  /** The workload with history (--cached, --prefix-hit), when the user gave one. */
  private final Optional<Workload> workload;

  /** Every point of every deployment, Pareto flags of the union. */
  private final List<FrontierPoint> points;

  /** The chart's axes and the SLOs (--ttft, --tpot) the table, JSON and chart mark. */
  private FrontierChart.Options options = FrontierChart.Options.DEFAULT;

  /** The label of each of {@link #points}. */
  private final List<String> pointLabels = new ArrayList<>();

  FrontierOutput(
      EfficiencyOptions.Choice efficiency,
      int isl,
      int osl,
      List<String> labels,
      List<Deployment> deployments,
      List<ParetoFrontier> frontiers,
      Optional<AnchorOption.Factor> anchor,
      PriceOption prices,
      Optional<Workload> workload) {
    this.efficiency = efficiency;
    this.workload = workload;
    this.isl = isl;
    this.osl = osl;
    this.labels = labels;
    this.deployments = deployments;
    this.frontiers = frontiers;
    this.anchor = anchor;
    this.prices = prices;
    List<FrontierPoint> all = new ArrayList<>();
    for (int i = 0; i < frontiers.size(); i++) {
      for (FrontierPoint p : frontiers.get(i).points()) {
        all.add(p);
        pointLabels.add(labels.get(i));
      }
    }
    // with several strategies, Pareto flags are those of the union (same order as the input)
    this.points = ParetoFrontier.of(all).points();
  }

  /** Sets the chart's axes and the SLOs the outputs mark. */
  void chartOptions(FrontierChart.Options options) {
    this.options = options;
  }

  /** The conversations of --turns, if any. */
  private Optional<Conversation> conversation = Optional.empty();

  /** Sets the conversations each point's mean turn comes from (--turns). */
  void conversation(Optional<Conversation> c) {
    this.conversation = c;
  }

  /** The chart title's subject when systems of several chips are compared (null otherwise). */
  private String compared;

  /**
   * The union of {@code outputs}, one per system of {@code systemLabels}, as one output: each
   * deployment labelled by its system ({@code h100-sxm x8}), followed by its strategy's label when
   * its system has several ({@code h100-sxm x8 pd}); Pareto flags across all. The efficiency line
   * is the first system's (a pool on an SRAM-only chip keeps its own in its description).
   */
  static FrontierOutput combine(List<String> systemLabels, List<FrontierOutput> outputs) {
    List<String> labels = new ArrayList<>();
    List<Deployment> deployments = new ArrayList<>();
    List<ParetoFrontier> frontiers = new ArrayList<>();
    for (int s = 0; s < outputs.size(); s++) {
      FrontierOutput o = outputs.get(s);
      for (int i = 0; i < o.labels.size(); i++) {
        labels.add(
            o.labels.size() == 1
                ? systemLabels.get(s)
                : systemLabels.get(s) + " " + o.labels.get(i));
      }
      deployments.addAll(o.deployments);
      frontiers.addAll(o.frontiers);
    }
    FrontierOutput first = outputs.get(0);
    FrontierOutput all =
        new FrontierOutput(
            first.efficiency,
            first.isl,
            first.osl,
            labels,
            deployments,
            frontiers,
            first.anchor,
            first.prices,
            first.workload);
    all.conversation = first.conversation;
    all.compared = first.first().model().id() + ": " + String.join(", ", systemLabels);
    return all;
  }

  /** The number of deployments. */
  int deploymentCount() {
    return deployments.size();
  }

  /** The Pareto flag of every point, in the order of the JSON's and the table's points. */
  List<Boolean> paretoFlags() {
    return points.stream().map(FrontierPoint::pareto).toList();
  }

  private RooflineModel first() {
    return deployments.get(0).decodePool();
  }

  /** Every chip of every pool, in order of appearance. */
  private List<Chip> chips() {
    Map<String, Chip> chips = new LinkedHashMap<>();
    for (Deployment d : deployments) {
      d.pools().values().forEach(p -> chips.putIfAbsent(p.chip().id(), p.chip()));
    }
    return new ArrayList<>(chips.values());
  }

  /**
   * A deployment's description with its label and without the efficiency's description when it is
   * the one of the efficiency line (pools of SRAM-only chips keep their own).
   */
  String describe(int i) {
    String text = deployments.get(i).toString();
    String strategy = deployments.get(i).strategy().id() + ": ";
    if (text.startsWith(strategy)) {
      text = labels.get(i) + ": " + text.substring(strategy.length());
    }
    return text.replace("; " + efficiency.efficiency() + ")", ")");
  }

  /**
   * The lines before the data: efficiency, error band and warnings, anchor, prices; with {@code
   * deploymentLines}, each deployment's description first.
   */
  List<String> headerLines(boolean deploymentLines) {
    List<String> lines = new ArrayList<>();
    if (deploymentLines) {
      for (int i = 0; i < deployments.size(); i++) {
        lines.add(describe(i));
      }
    }
    lines.add(efficiency.line());
    lines.addAll(efficiency.bandLines(first().model(), chips()));
    anchor.ifPresent(f -> lines.add(f.line()));
    prices.line(chips()).ifPresent(lines::add);
    lines.addAll(fallbackWarnings());
    return lines;
  }

  void table(PrintWriter out) {
    table(out, Map.of());
  }

  /**
   * The table, with a row after the points for each system of {@code failures} (label to why) that
   * could not be built.
   */
  void table(PrintWriter out, Map<String, String> failures) {
    headerLines(true).forEach(out::println);
    out.printf(
        Locale.ROOT,
        "ISL %d, OSL %d; * = Pareto-optimal%s; MFU, BW: utilisation of the batch's chips in a"
            + " decode step%n",
        isl,
        osl,
        deployments.size() > 1 ? " across deployments" : "");
    workload.ifPresent(x -> out.println(WorkloadOptions.line(x)));
    conversation.ifPresent(c -> out.println(conversationLine(c)));
    int w =
        Math.max(
            10,
            java.util.stream.Stream.concat(labels.stream(), failures.keySet().stream())
                .mapToInt(String::length)
                .max()
                .orElse(0));
    if (options.hasSlo()) {
      out.println(sloLine());
    }
    // the SLO column only when an objective is given
    String slo = options.hasSlo() ? " %4s" : "%s";
    String head = "%-" + w + "s %6s %12s %12s %11s %11s %7s %9s %6s %6s" + slo + " %6s%n";
    out.printf(
        Locale.ROOT,
        head,
        "deployment",
        "batch",
        "TTFT",
        "TPOT",
        "tok/s/user",
        "tok/s/chip",
        "chips",
        "$/Mtok",
        "MFU",
        "BW",
        options.hasSlo() ? "SLO" : "",
        "");
    String row = "%-" + w + "s %6d %12s %12s %11.1f %11.1f %7.2f %9s %6s %6s" + slo + " %6s%n";
    for (int i = 0; i < points.size(); i++) {
      FrontierPoint p = points.get(i);
      out.printf(
          Locale.ROOT,
          row,
          pointLabels.get(i),
          p.batch(),
          p.ttft(),
          p.tpot(),
          p.tokensPerSecondPerUser(),
          p.tokensPerSecondPerChip(),
          p.chipsTotal(),
          p.dollarsPerMillionTokens().map(d -> String.format(Locale.ROOT, "%.3f", d)).orElse("-"),
          percent(p.mfu()),
          percent(p.bandwidthUtilisation()),
          options.hasSlo() ? (options.meets(p) ? "yes" : "no") : "",
          (p.pareto() ? "*" : "") + (p.fits() ? "" : " oom"));
    }
    failures.forEach((label, why) -> out.printf(Locale.ROOT, "%-" + w + "s %s%n", label, why));
    for (int i = 0; i < frontiers.size(); i++) {
      List<FrontierPoint> front = frontiers.get(i).frontier();
      if (!front.isEmpty() && !front.get(front.size() - 1).note().isEmpty()) {
        FrontierPoint top = front.get(front.size() - 1);
        out.println(labels.get(i) + " at batch " + top.batch() + ": " + top.note());
      }
    }
  }

  void csv(PrintWriter out) {
    out.println(
        "strategy,batch,ttft_seconds,tpot_seconds,tokens_per_second_per_user,tokens_per_second_per_chip,chips_total,dollars_per_million_tokens,tokens_per_joule,fits,pareto,deployment,mfu,bandwidth_utilisation");
    for (int i = 0; i < points.size(); i++) {
      FrontierPoint p = points.get(i);
      out.printf(
          Locale.ROOT,
          "%s,%d,%s,%s,%s,%s,%s,%s,%s,%b,%b,%s,%s,%s%n",
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
          pointLabels.get(i),
          p.mfu().map(String::valueOf).orElse(""),
          p.bandwidthUtilisation().map(String::valueOf).orElse(""));
    }
  }

  /** A fraction as a percentage with one decimal, or "-" when not computed. */
  /** The line that says what each point of --turns is. */
  private static String conversationLine(Conversation c) {
    return String.format(
        Locale.ROOT,
        "conversations: %s; each point is the mean turn (%,d history tokens), its prefill of the"
            + " history it does not find in the prefix cache (hit rate in the note)",
        c,
        c.meanHistoryTokens());
  }

  /** The conversations of --turns in a JSON report (each point's note gives its hit rate). */
  static void putConversation(ObjectNode o, Conversation c) {
    ObjectNode n = o.putObject("conversation");
    n.put("turns", c.turns());
    n.put("new_tokens_per_turn", c.newTokensPerTurn());
    n.put("answer_tokens_per_turn", c.answerTokensPerTurn());
    n.put("think_s", c.thinkSeconds());
    n.put("mean_history_tokens", c.meanHistoryTokens());
  }

  private static String percent(Optional<Double> fraction) {
    return fraction.map(f -> String.format(Locale.ROOT, "%.1f%%", 100 * f)).orElse("-");
  }

  ObjectNode json() {
    ObjectNode o = Json.system(first(), efficiency);
    o.put("chips", first().chips());
    o.put("isl", isl);
    o.put("osl", osl);
    workload.ifPresent(x -> WorkloadOptions.put(o, x));
    conversation.ifPresent(c -> putConversation(o, c));
    Json.putContextWarning(
        o, first().model(), workload.orElse(Workload.of(isl, osl)).finalContext());
    if (first().kvOffload() != KvOffload.NONE) {
      // where the offloaded KV lives (the deployment lines name the policy too)
      o.put("kv_offload", first().kvOffload().id());
      o.put("kv_offload_tier", KvOffload.tier(first().chip()).map(t -> t.toString()).orElse(""));
    }
    anchor.ifPresent(f -> f.put(o));
    ArrayNode ds = o.putArray("deployments");
    deployments.forEach(d -> ds.add(d.toString()));
    ArrayNode ls = o.putArray("deployment_labels");
    labels.forEach(ls::add);
    ObjectNode priceNode = o.putObject("prices_per_hour");
    for (Chip c : chips()) {
      Chip priced = prices.apply(c);
      if (priced.pricePerHour().isPresent()) {
        priceNode.put(c.id(), priced.pricePerHour().get().dollarsPerHour());
      } else {
        priceNode.putNull(c.id());
      }
    }
    // the points the object path evaluated one by one, and why, per deployment
    o.put("slow_path_points", frontiers.stream().mapToInt(ParetoFrontier::slowPathPoints).sum());
    ObjectNode slow = o.putObject("slow_path");
    for (int i = 0; i < frontiers.size(); i++) {
      ParetoFrontier f = frontiers.get(i);
      if (f.slowPathPoints() > 0) {
        ObjectNode d = slow.putObject(labels.get(i));
        d.put("points", f.slowPathPoints());
        d.put("reason", f.slowPath().map(r -> r.name().toLowerCase(Locale.ROOT)).orElse(""));
        d.put("fallback", f.slowPath().map(r -> r.fallback()).orElse(false));
      }
    }
    if (options.hasSlo()) {
      ObjectNode slo = o.putObject("slo");
      Json.putOrNull(slo, "ttft_seconds", optional(options.ttftSeconds()));
      Json.putOrNull(slo, "tpot_seconds", optional(options.tpotSeconds()));
    }
    ArrayNode arr = o.putArray("points");
    for (int i = 0; i < points.size(); i++) {
      ObjectNode n = arr.addObject();
      point(n, points.get(i), pointLabels.get(i));
      if (options.hasSlo()) {
        n.put("meets_slo", options.meets(points.get(i)));
      }
    }
    return o;
  }

  private static Optional<Double> optional(OptionalDouble v) {
    return v.isPresent() ? Optional.of(v.getAsDouble()) : Optional.empty();
  }

  /** For example {@code "SLO: TTFT <= 200 ms, TPOT <= 30 ms (column SLO: meets both)"}. */
  String sloLine() {
    List<String> parts = new ArrayList<>();
    options.ttftSeconds().ifPresent(t -> parts.add("TTFT <= " + Seconds.of(t)));
    options.tpotSeconds().ifPresent(t -> parts.add("TPOT <= " + Seconds.of(t)));
    long meeting = points.stream().filter(options::meets).count();
    return String.format(
        Locale.ROOT,
        "SLO: %s (column SLO: meets %s); %d of %d points meet %s",
        String.join(", ", parts),
        parts.size() > 1 ? "both" : "it",
        meeting,
        points.size(),
        parts.size() > 1 ? "both" : "it");
  }

  /**
   * A warning for each deployment whose compiled step does not reproduce the object path ({@link
   * io.ridgeline.serving.PointsAt.SlowPath#NOT_REPRODUCED}, a defect): its points are the object
   * path's, evaluated one by one. The by-design slow paths (a strategy without a compiled path,
   * speculative decoding, pipeline parallelism, ...) are counted in the JSON, not warned about: a
   * frontier's few points take milliseconds either way.
   */
  List<String> fallbackWarnings() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < frontiers.size(); i++) {
      ParetoFrontier f = frontiers.get(i);
      if (f.slowPath().equals(Optional.of(PointsAt.SlowPath.NOT_REPRODUCED))) {
        out.add(
            "warning: "
                + labels.get(i)
                + ": "
                + f.slowPath().get().description()
                + " (please report it); its "
                + f.slowPathPoints()
                + " points are the object path's");
      }
    }
    return out;
  }

  private static void point(ObjectNode n, FrontierPoint p, String label) {
    n.put("strategy", p.strategy());
    n.put("deployment", label);
    n.put("batch", p.batch());
    n.put("ttft_seconds", p.ttft().seconds());
    n.put("tpot_seconds", p.tpot().seconds());
    n.put("tokens_per_second_per_user", p.tokensPerSecondPerUser());
    n.put("tokens_per_second_per_chip", p.tokensPerSecondPerChip());
    n.put("chips_total", p.chipsTotal());
    Json.putOrNull(n, "dollars_per_million_tokens", p.dollarsPerMillionTokens());
    Json.putOrNull(n, "tokens_per_joule", p.tokensPerJoule());
    Json.putOrNull(n, "mfu", p.mfu());
    Json.putOrNull(n, "bandwidth_utilisation", p.bandwidthUtilisation());
    n.put("fits", p.fits());
    n.put("pareto", p.pareto());
    n.put("note", p.note());
  }

  /**
   * The chart: each deployment's frontier under its label; {@code bounds} (one per deployment, or
   * empty) as faint roofline-bound lines; error bars of the typical tok/s/chip error when the
   * estimates are calibrated.
   */
  XYChart chart(List<ParetoFrontier> bounds) {
    List<Charts.FrontierSeries> series = new ArrayList<>();
    for (int i = 0; i < frontiers.size(); i++) {
      series.add(
          new Charts.FrontierSeries(
              labels.get(i),
              frontiers.get(i),
              bounds.isEmpty() ? Optional.empty() : Optional.of(bounds.get(i))));
    }
    OptionalDouble band =
        efficiency.banded()
            ? OptionalDouble.of(
                ErrorBands.builtIn().typical(ErrorBands.Estimate.TOKENS_PER_SECOND_PER_CHIP))
            : OptionalDouble.empty();
    return FrontierChart.of(series, band, title(), options);
  }

  /** The chart title: what runs where, the workload and the efficiency, without the profile. */
  String title() {
    String what =
        compared != null
            ? compared
            : deployments.size() == 1
                ? describe(0)
                : String.format(
                    Locale.ROOT,
                    "%s on %d× %s: %s",
                    first().model().id(),
                    first().chips(),
                    first().chip().id(),
                    String.join(", ", labels));
    String eff = efficiency.description();
    int paren = eff.indexOf(" (");
    if (efficiency.ideal()) {
      eff = "ideal (roofline bound)";
    } else if (paren > 0) {
      eff = eff.substring(0, paren);
    }
    return String.format(Locale.ROOT, "%s; ISL %d / OSL %d; %s", what, isl, osl, eff);
  }
}
