package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.sweep.Crossover;
import io.ridgeline.serving.sweep.IntensitySweep;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/**
 * Every chart type rendered to PNG and SVG: the title fits the image (wrapped, never clipped), the
 * legend names every series once, the SVG carries the title as text and stays small.
 */
class ChartsTest {
  private static final RooflineModel RM =
      RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.H100_SXM);

  static List<Arguments> charts() {
    RooflineModel big = RooflineModel.of(Models.byId("llama-3.1-70b"), Chips.H100_SXM, 8);
    ParetoFrontier colocated =
        ParetoFrontier.builder(big).inputTokens(1024).outputTokens(1024).maxBatch(64).build();
    ParetoFrontier pd =
        ParetoFrontier.builder(
                Deployment.disaggregated(
                    RooflineModel.of(Models.byId("llama-3.1-70b"), Chips.H100_SXM, 2),
                    RooflineModel.of(Models.byId("llama-3.1-70b"), Chips.H100_SXM, 8)))
            .inputTokens(1024)
            .outputTokens(1024)
            .maxBatch(64)
            .build();
    ParetoFrontier bound =
        ParetoFrontier.builder(
                RooflineModel.builder().from(big).efficiency(Efficiency.ideal()).build())
            .inputTokens(1024)
            .outputTokens(1024)
            .maxBatch(64)
            .build();
    // a title far wider than the image: it must wrap, not clip
    String longTitle =
        "colocated: llama-3.1-70b on 8× h100-sxm (tp 8, weights bf16, kv bf16, compute bf16);"
            + " pd: llama-3.1-70b on 8× h100-sxm + 2× h100-sxm prefill; ISL 1024 / OSL 1024;"
            + " calibrated: default profile";
    XYChart frontier =
        Charts.frontier(
            List.of(
                new Charts.FrontierSeries("colocated", colocated, java.util.Optional.of(bound)),
                Charts.FrontierSeries.of("pd", pd)),
            OptionalDouble.of(0.28),
            longTitle);
    return List.of(
        Arguments.of("roofline", Charts.roofline(RM, RM.decode(8, 1024).phases())),
        Arguments.of("frontier", frontier),
        Arguments.of("frontier-single", Charts.frontier(colocated, "colocated")),
        Arguments.of("crossover", CrossoverChart.of(RM, Crossover.find(RM, 1))),
        Arguments.of(
            "intensity",
            Charts.intensity(IntensitySweep.of(RM, 4096, IntensitySweep.defaultBatches()))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("charts")
  void chart_titleFitsAndLegendNamesEverySeries(String name, XYChart chart, @TempDir Path dir)
      throws Exception {
    ChartRendering.TitleLayout title =
        ChartRendering.title(chart, chart.getStyler().getChartTitleFont());
    assertThat(title.width(ChartRendering.frc()))
        .isLessThanOrEqualTo(chart.getWidth() - 2.0 * ChartRendering.TITLE_MARGIN);
    assertThat(String.join(" ", title.lines())).isEqualTo(chart.getTitle());
    assertThat(title.lines()).hasSizeLessThanOrEqualTo(ChartRendering.MAX_TITLE_LINES);

    assertThat(chart.getStyler().isLegendVisible()).isTrue();
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, XYSeries> e : chart.getSeriesMap().entrySet()) {
      assertThat(e.getValue().isShowInLegend()).as(e.getKey()).isTrue();
      assertThat(e.getKey()).isNotBlank();
      names.add(e.getKey());
    }
    assertThat(names).doesNotHaveDuplicates().isNotEmpty();

    Path png = Charts.save(chart, dir.resolve(name + ".png"));
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(chart.getWidth());
    assertThat(image.getHeight()).isEqualTo(chart.getHeight());

    Path svg = Charts.save(chart, dir.resolve(name + ".svg"));
    String text = Files.readString(svg);
    // the title is text (its first line, XML-escaped), not glyph outlines
    assertThat(text).contains("<text").contains(xml(title.lines().get(0)));
    assertThat(Files.size(svg)).isLessThan(250_000);
  }

  @Test
  void frontierChart_namesEachDeployment() {
    XYChart chart = (XYChart) charts().get(1).get()[1];
    {
      List<String> names = List.copyOf(chart.getSeriesMap().keySet());
      assertThat(names).anyMatch(n -> n.startsWith("colocated (Pareto"));
      assertThat(names).anyMatch(n -> n.startsWith("pd (Pareto"));
      assertThat(names).anyMatch(n -> n.startsWith("colocated roofline bound (ideal"));
      // the error band: bars of ±28% on the calibrated frontier
      assertThat(names).anyMatch(n -> n.contains("±28%"));
    }
  }

  private static String xml(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** The crossover chart marks the crossover context (Llama-3.1-8B, one H100, batch 1). */
  @Test
  void crossoverChart_marksTheCrossoverAndMaxContext() {
    Crossover c = Crossover.find(RM, 1);
    XYChart chart = CrossoverChart.of(RM, c);
    assertThat(chart.getSeriesMap().keySet())
        .contains("decode attention", "decode FFN / MoE")
        .anyMatch(n -> n.startsWith("crossover at "))
        .anyMatch(n -> n.startsWith("max context "));
  }

  /** plan --plot writes a chart of the configurations against the objectives. */
  @Test
  void planPlot_writesTheChart(@TempDir Path dir) throws Exception {
    Path png = dir.resolve("plan.png");
    CliRun run =
        CliRun.of(
            "plan",
            "--model",
            "llama-3.1-8b",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--rate",
            "5",
            "--ttft",
            "0.5",
            "--tpot",
            "0.05",
            "--chips",
            "h100-sxm",
            "--plot",
            png.toString());
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("wrote " + png);
    assertThat(ImageIO.read(png.toFile()).getWidth()).isEqualTo(Charts.WIDTH);
  }
}
