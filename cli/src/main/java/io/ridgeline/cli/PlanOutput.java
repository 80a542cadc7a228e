package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.hardware.Chip;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.KvOffload;
import io.ridgeline.serving.plan.PlanConfiguration;
import io.ridgeline.serving.plan.PlanFailure;
import io.ridgeline.serving.plan.PlanMiss;
import io.ridgeline.serving.plan.PlanRequest;
import io.ridgeline.serving.plan.PlanResult;
import io.ridgeline.serving.plan.PlanSystem;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The text and JSON reports of {@code ridgeline plan}. */
final class PlanOutput {
  /**
   * Why plan tries afd without speculation: the attention/FFN steps do not model a verify pass of γ
   * + 1 tokens per sequence (PlanSpace), so an afd configuration with speculation would be costed
   * as one without.
   */
  static final String AFD_SPECULATION =
      "speculation: afd is tried without it (its attention/FFN steps do not model verify passes);"
          + " colocated and pd are tried with and without";

  private PlanOutput() {}

  /**
   * The text report; {@code priceLines} (the prices used, the chips without one) follow the error
   * band.
   */
  static void table(
      PlanResult r, EfficiencyOptions.Choice efficiency, List<String> priceLines, PrintWriter out) {
    PlanRequest q = r.request();
    out.printf(
        Locale.ROOT,
        "%s: ISL %d, OSL %d, %s; objectives: TTFT p50 ≤ %s, TPOT p50 ≤ %s%s%s%n",
        q.model().id(),
        q.inputTokens(),
        q.outputTokens(),
        q.totalChips().isPresent()
            ? "on at most " + q.load() + ", each configuration at the highest rate it sustains"
            : q.load(),
        q.ttftSlo(),
        q.tpotSlo(),
        q.ttftP99Slo().map(s -> ", TTFT p99 ≤ " + s).orElse(""),
        q.tpotP99Slo().map(s -> ", TPOT p99 ≤ " + s).orElse(""));
    if (q.workload().hasCache()) {
      out.println(WorkloadOptions.line(q.workload()));
    }
    q.conversation()
        .ifPresent(
            c ->
                out.println(
                    "conversations: "
                        + c
                        + "; a request is a turn, each configuration at its mean turn with the"
                        + " prefix-cache hits its batch leaves (after the table)"));
    out.printf(
        Locale.ROOT,
        "searched %s with %s%s (%s): %d candidates, %d configurations meet the objectives; best %d"
            + " by %s%n",
        q.systems().isEmpty()
            ? String.join(", ", q.chips().stream().map(Chip::id).distinct().toList())
            : "systems "
                + String.join(", ", q.systems().stream().map(PlanSystem::toString).toList()),
        String.join(", ", q.strategies().stream().map(Deployment.Strategy::id).toList()),
        q.speculation().map(s -> ", with and without speculative " + s).orElse(""),
        efficiency.ideal() ? "ideal roofline bounds" : efficiency.description(),
        r.candidates(),
        r.meeting(),
        r.configurations().size(),
        q.objective().description());
    if (q.speculation().isPresent() && q.strategies().contains(Deployment.Strategy.AFD)) {
      out.println(AFD_SPECULATION);
    }
    if (q.kvOffload() != KvOffload.NONE) {
      out.println(
          "kv offload "
              + q.kvOffload()
              + " on "
              + String.join(
                  ", ",
                  q.chips().stream()
                      .filter(c -> KvOffload.tier(c).isPresent())
                      .map(c -> c.id() + " (" + KvOffload.tier(c).get() + ")")
                      .distinct()
                      .toList())
              + "; the other chips keep KV in their main tier");
    }
    out.println(
        "queueing: Poisson arrivals, M/D/1 prefill servers (TTFT p50 from the mean wait, p99 from"
            + " the exponential tail), TPOT at the full batch");
    efficiency.bandLines(q.model(), q.chips()).forEach(out::println);
    priceLines.forEach(out::println);
    configurationTable(r, out);
    if (q.conversation().isPresent()) {
      int k = 1;
      for (PlanConfiguration c : r.configurations()) {
        out.println("configuration " + k++ + ": " + c.point().note());
      }
    }
    out.println(failureLine(r));
    if (!r.closest().isEmpty()) {
      out.println("closest miss per chip:");
      r.closest().forEach(m -> out.println("  " + m));
    }
    int i = 1;
    for (PlanConfiguration c : r.configurations()) {
      out.println("launch sketch " + i++ + ": " + c.chipIds() + " " + c.strategy().id());
      for (Map.Entry<String, List<String>> e : LaunchSketch.of(c).entrySet()) {
        e.getValue().forEach(line -> out.println("  " + e.getKey() + ": " + line));
      }
    }
  }

  private static String failureLine(PlanResult r) {
    return "failures over "
        + r.candidates()
        + " candidates: "
        + java.util.Arrays.stream(PlanFailure.values())
            // a chip budget's failure only where there is one
            .filter(f -> f != PlanFailure.CHIPS || r.request().totalChips().isPresent())
            .map(f -> f.id() + " " + r.failures().getOrDefault(f, 0))
            .collect(Collectors.joining(", "))
        + " (a candidate can miss several)";
  }

  /**
   * The configurations, one row each, under a header: tok/s/chip is the fleet's (its output tokens
   * per second over its chips), total tok/s the fleet's output tokens per second.
   */
  private static void configurationTable(PlanResult r, PrintWriter out) {
    int w =
        Math.max(
            5, r.configurations().stream().mapToInt(c -> c.chipIds().length()).max().orElse(5));
    String head =
        "%-"
            + w
            + "s  %-9s %3s %3s %3s %3s %-4s %-9s %6s %9s %11s %9s %11s %11s %11s %10s %10s %11s"
            + " %9s %9s%n";
    out.printf(
        Locale.ROOT,
        head,
        "chips",
        "strategy",
        "tp",
        "pp",
        "ep",
        "dp",
        "spec",
        "w/kv",
        "batch",
        "replicas",
        "total chips",
        "req/s",
        "TTFT p50",
        "TTFT p99",
        "TPOT",
        "tok/s/user",
        "tok/s/chip",
        "total tok/s",
        "$/h",
        "$/Mtok");
    String row =
        "%-"
            + w
            + "s  %-9s %3d %3d %3d %3d %-4s %-9s %6d %9s %11d %9s %11s %11s %11s %10.1f %10.1f"
            + " %11.0f %9s %9s%n";
    for (PlanConfiguration c : r.configurations()) {
      out.printf(
          Locale.ROOT,
          row,
          c.chipIds(),
          c.strategy().id(),
          c.tensorParallel(),
          c.pipelineParallel(),
          c.expertParallel(),
          c.attentionDataParallel(),
          c.speculation().isPresent() ? "yes" : "-",
          c.precisions().weights() + "/" + c.precisions().kvCache(),
          c.batch(),
          c.replicas() + (c.prefillReplicas() > 0 ? "+" + c.prefillReplicas() : ""),
          c.totalChips(),
          number(c.requestsPerSecond(), 4),
          c.ttftP50(),
          c.ttftP99(),
          c.tpot(),
          c.tokensPerSecondPerUser(),
          c.fleetTokensPerSecondPerChip(),
          c.outputTokensPerSecond(),
          c.dollarsPerHour()
              .map(d -> String.format(Locale.ROOT, "%.2f", d.dollarsPerHour()))
              .orElse("-"),
          c.dollarsPerMillionTokens().map(d -> String.format(Locale.ROOT, "%.3f", d)).orElse("-"));
    }
  }

  static ObjectNode json(PlanResult r, EfficiencyOptions.Choice efficiency) {
    PlanRequest q = r.request();
    ObjectNode o = Json.object();
    o.put("model", q.model().id());
    o.put("isl", q.inputTokens());
    o.put("osl", q.outputTokens());
    if (q.workload().hasCache()) {
      WorkloadOptions.put(o, q.workload());
    }
    q.conversation().ifPresent(c -> FrontierOutput.putConversation(o, c));
    // the rate mode sets the first two, the budget mode the third; the others are null
    putOrNull(o, "rate_requests_per_second", q.requestsPerSecond());
    putOrNull(o, "output_tokens_per_second", q.outputTokensPerSecond());
    if (q.totalChips().isPresent()) {
      o.put("total_chips_budget", q.totalChips().getAsInt());
    } else {
      o.putNull("total_chips_budget");
    }
    o.put("ttft_slo_seconds", q.ttftSlo().seconds());
    o.put("tpot_slo_seconds", q.tpotSlo().seconds());
    putSeconds(o, "ttft_p99_slo_seconds", q.ttftP99Slo());
    putSeconds(o, "tpot_p99_slo_seconds", q.tpotP99Slo());
    o.put("objective", q.objective().id());
    ArrayNode chipIds = o.putArray("chips");
    q.chips().stream().map(Chip::id).distinct().forEach(chipIds::add);
    if (!q.systems().isEmpty()) {
      systems(q, o.putArray("systems"));
    }
    ArrayNode strategyIds = o.putArray("strategies");
    q.strategies().forEach(s -> strategyIds.add(s.id()));
    if (q.speculation().isPresent()) {
      o.put("speculation", q.speculation().get().toString());
      if (q.strategies().contains(Deployment.Strategy.AFD)) {
        o.put("speculation_skipped", AFD_SPECULATION);
      }
    } else {
      o.putNull("speculation");
    }
    if (q.kvOffload() != KvOffload.NONE) {
      // applied on the chips with a slower tier (the others keep KV in HBM)
      o.put("kv_offload", q.kvOffload().id());
    }
    o.put("efficiency", efficiency.description());
    efficiency.putBand(o, q.model(), q.chips());
    Json.putContextWarning(o, q.model(), q.workload().finalContext());
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

  /** The fixed systems of --system, each as its spec and its fields (null where searched). */
  private static void systems(PlanRequest q, ArrayNode systems) {
    for (PlanSystem s : q.systems()) {
      ObjectNode n = systems.addObject();
      n.put("system", s.toString());
      n.put("chip", s.chip().id());
      n.put("count", s.count());
      putOrNull(n, "tp", s.tensorParallel());
      putOrNull(n, "pp", s.pipelineParallel());
      putOrNull(n, "ep", s.expertParallel());
      putOrNull(n, "attention_dp", s.attentionDataParallel());
      ArrayNode only = n.putArray("strategies");
      (s.strategies().isEmpty() ? q.strategies() : s.strategies()).forEach(t -> only.add(t.id()));
    }
  }

  private static void putOrNull(ObjectNode o, String key, java.util.OptionalInt v) {
    if (v.isPresent()) {
      o.put(key, v.getAsInt());
    } else {
      o.putNull(key);
    }
  }

  private static void putOrNull(ObjectNode o, String key, java.util.OptionalDouble v) {
    if (v.isPresent()) {
      o.put(key, v.getAsDouble());
    } else {
      o.putNull(key);
    }
  }

  private static void putSeconds(
      ObjectNode o, String key, java.util.Optional<io.ridgeline.core.Seconds> s) {
    if (s.isPresent()) {
      o.put(key, s.get().seconds());
    } else {
      o.putNull(key);
    }
  }

  private static void configurations(PlanResult r, ArrayNode configs) {
    for (PlanConfiguration c : r.configurations()) {
      ObjectNode n = configs.addObject();
      n.put("chip", c.chip().id());
      ObjectNode pools = n.putObject("pools");
      c.deployment().pools().forEach((name, p) -> pools.put(name, p.chip().id()));
      n.put("strategy", c.strategy().id());
      n.put("tp", c.tensorParallel());
      n.put("pp", c.pipelineParallel());
      n.put("ep", c.expertParallel());
      n.put("attention_dp", c.attentionDataParallel());
      if (r.request().conversation().isPresent()) {
        n.put("note", c.point().note());
      }
      if (c.speculation().isPresent()) {
        n.put("speculation", c.speculation().get().toString());
      } else {
        n.putNull("speculation");
      }
      n.put("batch", c.batch());
      n.put("weights", c.precisions().weights().id());
      n.put("kv_cache", c.precisions().kvCache().id());
      n.put("chips_per_replica", c.chipsPerReplica());
      n.put("replicas", c.replicas());
      n.put("prefill_replicas", c.prefillReplicas());
      n.put("total_chips", c.totalChips());
      n.put("ttft_seconds", c.ttft().seconds());
      n.put("ttft_p50_seconds", c.ttftP50().seconds());
      n.put("ttft_p99_seconds", c.ttftP99().seconds());
      n.put("tpot_seconds", c.tpot().seconds());
      // one replica at full load (frontier point), per chip
      n.put("tokens_per_second_per_chip", c.tokensPerSecondPerChip());
      n.put("tokens_per_second_per_user", c.tokensPerSecondPerUser());
      // the fleet at the rate it serves: total, then per chip of the whole fleet
      n.put("fleet_requests_per_second", c.requestsPerSecond());
      n.put("fleet_output_tokens_per_second", c.outputTokensPerSecond());
      n.put("fleet_tokens_per_second_per_chip", c.fleetTokensPerSecondPerChip());
      if (c.dollarsPerHour().isPresent()) {
        n.put("dollars_per_hour", c.dollarsPerHour().get().dollarsPerHour());
      } else {
        n.putNull("dollars_per_hour");
      }
      Json.putOrNull(n, "dollars_per_million_tokens", c.dollarsPerMillionTokens());
      ObjectNode launch = n.putObject("launch");
      LaunchSketch.of(c)
          .forEach(
              (engine, lines) -> {
                ArrayNode a = launch.putArray(engine);
                lines.forEach(a::add);
              });
    }
  }

  private static void closest(PlanResult r, ArrayNode closest) {
    for (PlanMiss m : r.closest()) {
      ObjectNode n = closest.addObject();
      n.put("chip", m.chip().id());
      n.put("chips", m.chipIds());
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

  static String number(double v) {
    return number(v, 6);
  }

  private static String number(double v, int digits) {
    return new BigDecimal(v).round(new MathContext(digits)).stripTrailingZeros().toPlainString();
  }
}
