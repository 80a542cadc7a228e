package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.ridgeline.hardware.Chips;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.efficiency.Efficiency;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The output conventions of the command line: charts only on request, --plot checked first, the
 * efficiency described once, unique deployment labels, per-chip prices, whole help sentences and
 * one named convention for roofline's figures.
 */
class OutputConventionsTest {
  private static final String[] SMALL = {
    "frontier", "--model", "llama-3.1-8b", "--chip", "h100-sxm", "--max-batch", "4"
  };

  private static CliRun frontier(String... extra) {
    List<String> args = new ArrayList<>(List.of(SMALL));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void frontierTable_withoutPlot_writesNoChart() {
    Path dflt = Path.of("frontier-llama-3.1-8b-h100-sxm-x1.png");
    CliRun r = frontier();
    assertThat(r.code()).isZero();
    assertThat(r.out()).doesNotContain("wrote ");
    assertThat(Files.exists(dflt)).isFalse();
  }

  @Test
  void frontier_plotWithoutFile_namesItModelChipXCount() throws Exception {
    // --plot alone writes frontier-<model>-<chip>-x<count>.png in the working directory
    Path dflt = Path.of("frontier-llama-3.1-8b-h100-sxm-x1.png");
    try {
      CliRun r = frontier("--plot");
      assertThat(r.code()).isZero();
      assertThat(r.out()).endsWith("wrote " + dflt + System.lineSeparator());
      assertThat(Files.size(dflt)).isPositive();
    } finally {
      Files.deleteIfExists(dflt);
    }
  }

  @Test
  void frontier_badPlotExtension_failsBeforePrinting(@TempDir Path dir) {
    CliRun r = frontier("--plot", dir.resolve("chart.txt").toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.lastErrLine())
        .isEqualTo(
            "ridgeline: --plot must name a .png or .svg file: '" + dir.resolve("chart.txt") + "'");
  }

  @Test
  void roofline_badPlotExtension_failsBeforePrinting(@TempDir Path dir) {
    CliRun r =
        CliRun.of(
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--context",
            "8",
            "--plot",
            dir.resolve("r.jpg").toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
  }

  @Test
  void frontierTable_efficiencyDescribedOnce() {
    CliRun r = frontier("--strategy", "colocated,pd");
    String description = Efficiency.standard(Chips.H100_SXM).toString();
    // the efficiency line only; deployment lines leave it out
    assertThat(r.out().split(java.util.regex.Pattern.quote(description), -1)).hasSize(2);
    assertThat(r.out()).contains("colocated: llama-3.1-8b on 1× h100-sxm (tp 1, weights bf16,");
  }

  @Test
  void frontierJson_keepsTheFullDescriptionOfEachDeployment() throws Exception {
    JsonNode j = frontier("--json").json();
    assertThat(j.get("deployments").get(0).asText())
        .contains(Efficiency.standard(Chips.H100_SXM).toString());
  }

  @Test
  void frontier_twoPdDeployments_haveUniqueLabelsEverywhere(@TempDir Path dir) throws Exception {
    String[] strategies = {"--strategy", "pd,pd:h200-sxm,pd"};
    JsonNode j = frontier(strategies[0], strategies[1], "--json").json();
    Set<String> labels = new HashSet<>();
    j.get("points").forEach(p -> labels.add(p.get("deployment").asText()));
    assertThat(labels).containsExactlyInAnyOrder("pd", "pd:h200-sxm", "pd#2");
    assertThat(j.get("deployment_labels").toString())
        .isEqualTo("[\"pd\",\"pd:h200-sxm\",\"pd#2\"]");

    CliRun csv = frontier(strategies[0], strategies[1], "--csv");
    List<String> lines = csv.out().lines().toList();
    assertThat(lines.get(0)).endsWith(",pareto,deployment,mfu,bandwidth_utilisation");
    assertThat(lines).anyMatch(l -> l.contains(",pd:h200-sxm,"));

    CliRun table = frontier(strategies[0], strategies[1]);
    assertThat(table.out()).contains("pd:h200-sxm: llama-3.1-8b on");
    assertThat(table.out().lines()).anyMatch(l -> l.matches("^pd:h200-sxm +1 .*"));

    Path svg = dir.resolve("f.svg");
    assertThat(frontier(strategies[0], strategies[1], "--plot", svg.toString()).code()).isZero();
    String text = Files.readString(svg);
    assertThat(text).contains("<text");
  }

  @Test
  void frontierJson_colocatedAndPd_countsThePdPointsTheObjectPathEvaluated() throws Exception {
    JsonNode j = frontier("--strategy", "colocated,pd", "--json").json();
    int pd = 0;
    for (JsonNode p : j.get("points")) {
      pd += p.get("deployment").asText().equals("pd") ? 1 : 0;
    }
    // colocated compiles; pd has no compiled path: each of its points by the object path
    assertThat(pd).isPositive();
    assertThat(j.get("slow_path_points").asInt()).isEqualTo(pd);
    assertThat(j.get("slow_path").has("colocated")).isFalse();
    assertThat(j.get("slow_path").get("pd").get("points").asInt()).isEqualTo(pd);
    assertThat(j.get("slow_path").get("pd").get("reason").asText()).isEqualTo("strategy");
    assertThat(j.get("slow_path").get("pd").get("fallback").asBoolean()).isFalse();
  }

  @Test
  void frontier_strategyAll_includesStatic() throws Exception {
    JsonNode j = frontier("--strategy", "all", "--json").json();
    Set<String> strategies = new HashSet<>();
    j.get("points").forEach(p -> strategies.add(p.get("strategy").asText()));
    for (Deployment.Strategy s : Deployment.Strategy.values()) {
      assertThat(strategies).contains(s.id());
    }
  }

  @Test
  void frontier_pricePerChip_overridesOneChipAndNamesTheUnpriced() throws Exception {
    CliRun r = frontier("--strategy", "pd:groq-lpu", "--price", "h100-sxm=2");
    assertThat(r.code()).isZero();
    String line =
        r.out()
            .lines()
            .filter(l -> l.startsWith("prices per chip-hour:"))
            .findFirst()
            .orElseThrow();
    assertThat(line).contains("h100-sxm $2.00/h (--price)");
    if (Chips.byId("groq-lpu").pricePerHour().isEmpty()) {
      assertThat(line).contains("no price for groq-lpu");
    }
    JsonNode j = frontier("--price", "h100-sxm=2", "--json").json();
    assertThat(j.get("prices_per_hour").get("h100-sxm").asDouble()).isEqualTo(2.0);
    // $2/h on 1 chip: 2 / 3600 $/s over the point's tok/s/chip, per million tokens
    JsonNode p = j.get("points").get(0);
    assertThat(p.get("dollars_per_million_tokens").asDouble())
        .isCloseTo(
            2.0 / 3600 / p.get("tokens_per_second_per_chip").asDouble() * 1e6,
            org.assertj.core.data.Percentage.withPercentage(1e-6));
  }

  @Test
  void frontier_plainPrice_stillAppliesToEveryChip() throws Exception {
    JsonNode j = frontier("--price", "3", "--json").json();
    assertThat(j.get("prices_per_hour").get("h100-sxm").asDouble()).isEqualTo(3.0);
  }

  @Test
  void price_unknownChipOrBadNumber_oneLine() {
    assertThat(frontier("--price", "h100-sx=2").lastErrLine())
        .startsWith("ridgeline: unknown chip 'h100-sx'");
    assertThat(frontier("--price", "h100-sxm=-1").lastErrLine())
        .isEqualTo(
            "ridgeline: --price must be a non-negative number of dollars per chip-hour, or"
                + " CHIP=P: 'h100-sxm=-1'");
  }

  @Test
  void planObjectiveCost_saysWhichChipsHaveNoPrice() {
    CliRun r =
        CliRun.of(
            "plan",
            "--model",
            "llama-3.1-8b",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--rate",
            "1",
            "--ttft",
            "2",
            "--tpot",
            "0.2",
            "--chips",
            "h100-sxm,l40s",
            "--objective",
            "cost",
            "--price",
            "h100-sxm=2.5");
    assertThat(r.out()).contains("h100-sxm $2.50/h (--price)");
    if (Chips.byId("l40s").pricePerHour().isEmpty()) {
      assertThat(r.out())
          .contains(
              "objective cost: configurations of l40s have no price and are ranked after every"
                  + " priced one");
    }
  }

  @Test
  void topLevelHelp_everyCommandSummaryIsAWholeSentence() {
    CliRun r = CliRun.of("--help");
    Map<String, StringBuilder> summaries = new LinkedHashMap<>();
    String current = null;
    boolean commands = false;
    for (String line : r.out().lines().toList()) {
      if (line.startsWith("Commands:")) {
        commands = true;
      } else if (commands && line.matches("^  \\S.*")) {
        String[] parts = line.trim().split("\\s+", 2);
        current = parts[0];
        summaries.put(current, new StringBuilder(parts.length > 1 ? parts[1] : ""));
      } else if (commands && current != null) {
        summaries.get(current).append(' ').append(line.trim());
      }
    }
    assertThat(summaries).containsKeys("frontier", "roofline", "plan", "sweep", "crossover");
    summaries.forEach((cmd, text) -> assertThat(text.toString()).as(cmd).endsWith("."));
  }

  @Test
  void roofline_tableAndJson_nameTheSameConvention() throws Exception {
    String[] args = {
      "roofline",
      "--model",
      "llama-3.1-8b",
      "--chip",
      "h100-sxm",
      "--count",
      "2",
      "--batch",
      "1",
      "--context",
      "1024"
    };
    CliRun text = CliRun.of(args);
    assertThat(text.out()).contains("FLOPs and bytes are totals across all chips (2 chips)");
    List<String> withJson = new ArrayList<>(List.of(args));
    withJson.add("--json");
    JsonNode j = CliRun.of(withJson.toArray(String[]::new)).json();
    assertThat(j.get("phase_totals").asText())
        .isEqualTo("FLOPs and bytes are totals across all chips");
    // the table's decode_ffn FLOPs are the JSON's, formatted
    double ffn = 0;
    for (JsonNode p : j.get("phases")) {
      if (p.get("phase").asText().equals("decode_ffn")) {
        ffn = p.get("flops_total").asDouble();
      }
    }
    assertThat(text.out()).contains(io.ridgeline.core.Flops.of(ffn).toString());
  }
}
