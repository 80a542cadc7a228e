package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.RooflineModel;
import java.awt.Font;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;

/** Frontier chart labels that never overlap, log axes, and the SLO marks of {@code frontier}. */
final class FrontierChartTest {
  private static final Font FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 14);

  /**
   * Three frontiers that start at the same point and labels crowded on one spot: "batch 1" is drawn
   * once, and no two placed boxes overlap or leave the plot.
   */
  @Test
  void place_crowdedLabels_noTwoBoxesOverlap() {
    List<FrontierChart.Candidate> cs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      cs.add(new FrontierChart.Candidate("batch 1", 70.0, 10.0));
    }
    for (int b = 2; b <= 64; b *= 2) {
      cs.add(new FrontierChart.Candidate("batch " + b, 70.0 - b / 16.0, 10.0 + b));
    }
    FrontierChart.Frame frame = new FrontierChart.Frame(0, 80, 0, 100, false, false);
    List<FrontierChart.Placed> placed = FrontierChart.place(cs, frame, FONT);
    assertThat(placed).isNotEmpty();
    assertThat(placed.stream().filter(p -> p.text().equals("batch 1")).count()).isEqualTo(1);
    for (int i = 0; i < placed.size(); i++) {
      assertThat(placed.get(i).box().getMinX()).isGreaterThanOrEqualTo(0);
      assertThat(placed.get(i).box().getMaxY()).isLessThanOrEqualTo(FrontierChart.PLOT_HEIGHT);
      for (int j = i + 1; j < placed.size(); j++) {
        assertThat(placed.get(i).box().intersects(placed.get(j).box()))
            .as("%s and %s", placed.get(i).text(), placed.get(j).text())
            .isFalse();
      }
    }
  }

  /** Log axes: the frame spans the estimates, padded by 1.5× on each side. */
  @Test
  void of_logAxes_setsLogarithmicAxesOverTheEstimates() {
    ParetoFrontier f =
        ParetoFrontier.builder(RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.H100_SXM))
            .inputTokens(1024)
            .outputTokens(256)
            .maxBatch(64)
            .build();
    FrontierChart.Options log =
        new FrontierChart.Options(true, true, OptionalDouble.empty(), OptionalDouble.empty());
    XYChart chart =
        FrontierChart.of(
            List.of(Charts.FrontierSeries.of("colocated", f)), OptionalDouble.empty(), "t", log);
    assertThat(chart.getStyler().isXAxisLogarithmic()).isTrue();
    assertThat(chart.getStyler().isYAxisLogarithmic()).isTrue();
    double minUser =
        f.points().stream().mapToDouble(p -> p.tokensPerSecondPerUser()).min().orElseThrow();
    assertThat(chart.getStyler().getXAxisMin()).isEqualTo(minUser / 1.5);
  }

  /** --ttft/--tpot: JSON meets_slo per point, the table's SLO column, a bad value rejected. */
  @Test
  void frontier_slo_marksPointsInTableAndJson() throws Exception {
    String[] base = {
      "frontier",
      "--model",
      "llama-3.1-8b",
      "--chip",
      "h100-sxm",
      "--osl",
      "256",
      "--ttft",
      "0.2",
      "--tpot",
      "0.012"
    };
    List<String> args = new ArrayList<>(List.of(base));
    args.add("--json");
    JsonNode o = CliRun.of(args.toArray(String[]::new)).json();
    assertThat(o.get("slo").get("ttft_seconds").asDouble()).isEqualTo(0.2);
    int meeting = 0;
    for (JsonNode p : o.get("points")) {
      boolean meets =
          p.get("fits").asBoolean()
              && p.get("ttft_seconds").asDouble() <= 0.2
              && p.get("tpot_seconds").asDouble() <= 0.012;
      assertThat(p.get("meets_slo").asBoolean()).isEqualTo(meets);
      meeting += meets ? 1 : 0;
    }
    assertThat(meeting).isPositive().isLessThan(o.get("points").size());
    CliRun text = CliRun.of(base);
    assertThat(text.out()).contains(" SLO ").contains("SLO: TTFT <= 200 ms, TPOT <= 12 ms");
    CliRun bad =
        CliRun.of("frontier", "--model", "llama-3.1-8b", "--chip", "h100-sxm", "--tpot", "-1");
    assertThat(bad.code()).isNotZero();
    assertThat(bad.err()).startsWith("ridgeline: Invalid value for option '--tpot'");
  }
}
