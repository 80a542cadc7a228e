package io.ridgeline.cli;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.PhaseResult;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Roofs;
import io.ridgeline.serving.sweep.IntensitySweep;
import java.awt.BasicStroke;
import java.awt.Color;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Roofline and frontier charts (XChart), saved as PNG or SVG.
 *
 * <pre>{@code
 * Charts.save(Charts.frontier(f, "llama-3.1-70b on 8× h100-sxm"), Path.of("frontier.svg"));
 * }</pre>
 */
public final class Charts {
  /** Slide size (16:10): readable when the image fills a projected slide. */
  static final int WIDTH = 1200;

  static final int HEIGHT = 750;

  /** Font sizes, points: axis titles, tick labels, legend, annotations. */
  static final float AXIS_TITLE_POINTS = 18f;

  static final float TICK_POINTS = 15f;
  static final float LEGEND_POINTS = 14f;
  static final float ANNOTATION_POINTS = 14f;

  /** Line width of a series, px. */
  static final float LINE_WIDTH = 2.5f;

  /** One colour per deployment on a frontier chart (colour-blind-safe Okabe-Ito hues). */
  static final Color[] PALETTE = {
    new Color(0, 114, 178),
    new Color(213, 94, 0),
    new Color(0, 158, 115),
    new Color(204, 121, 167),
    new Color(230, 159, 0),
    new Color(86, 180, 233),
    new Color(0, 0, 0)
  };

  private Charts() {}

  /**
   * An XY chart of the project's size and style: white background, slide-size fonts, optional log
   * axes.
   */
  static XYChart chart(String title, String xTitle, String yTitle, boolean logX, boolean logY) {
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(title)
            .xAxisTitle(xTitle)
            .yAxisTitle(yTitle)
            .build();
    XYStyler st = chart.getStyler();
    st.setXAxisLogarithmic(logX);
    st.setYAxisLogarithmic(logY);
    st.setChartBackgroundColor(Color.WHITE);
    st.setPlotBackgroundColor(Color.WHITE);
    st.setLegendBackgroundColor(Color.WHITE);
    st.setLegendBorderColor(new Color(200, 200, 200));
    st.setPlotBorderColor(new Color(120, 120, 120));
    st.setChartFontColor(Color.BLACK);
    st.setAxisTickLabelsColor(Color.BLACK);
    st.setChartTitleFont(st.getChartTitleFont().deriveFont(ChartRendering.TITLE_POINTS));
    st.setAxisTitleFont(st.getAxisTitleFont().deriveFont(AXIS_TITLE_POINTS));
    st.setAxisTickLabelsFont(st.getAxisTickLabelsFont().deriveFont(TICK_POINTS));
    st.setLegendFont(st.getLegendFont().deriveFont(LEGEND_POINTS));
    st.setAnnotationTextFont(st.getAnnotationTextFont().deriveFont(ANNOTATION_POINTS));
    st.setMarkerSize(9);
    st.setChartPadding(14);
    // solid grid lines: a dashed stroke becomes one filled shape per dash in SVG (300 kB a chart)
    st.setPlotGridLinesStroke(new BasicStroke(0.8f));
    st.setPlotGridLinesColor(new Color(230, 230, 230));
    return chart;
  }

  /** A dotted series line. */
  static BasicStroke dotted(float width) {
    return new BasicStroke(
        width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 10f, new float[] {1f, 6f}, 0f);
  }

  /**
   * A figure with three significant digits and no exponent: 0.0123, 1.23, 12.3, 1,230 (grouping
   * separators, {@link Locale#ROOT}).
   */
  static String figure(double v) {
    if (v == 0) {
      return "0";
    }
    double a = Math.abs(v);
    int digits =
        a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : Math.min(6, 2 - (int) Math.floor(Math.log10(a)));
    return String.format(Locale.ROOT, "%,." + digits + "f", v);
  }

  /** A series line, solid or dashed. */
  static BasicStroke line(float width, boolean dashed) {
    return dashed
        ? new BasicStroke(
            width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {10f, 6f}, 0f)
        : new BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
  }

  /**
   * A log-log roofline chart of {@code phases} (results of {@code model}): the datasheet and
   * calibrated roofs of every precision in use, their ridge points labelled, and each phase's work
   * under its own roof ({@link RooflineChart}, {@link Roofs}).
   */
  public static XYChart roofline(RooflineModel model, List<PhaseResult> phases) {
    return RooflineChart.of(model, Roofs.of(model, phases));
  }

  /**
   * One deployment on a frontier chart: its unique label (the legend's, the table's and the
   * JSON's), its frontier and, for calibrated estimates, the same deployment's roofline bound.
   */
  public record FrontierSeries(
      String label, ParetoFrontier frontier, Optional<ParetoFrontier> bound) {
    /** A series without a bound. */
    public static FrontierSeries of(String label, ParetoFrontier frontier) {
      return new FrontierSeries(label, frontier, Optional.empty());
    }
  }

  /**
   * Interactivity (tokens/s per user, x) against throughput (tokens/s per chip, y): per deployment,
   * its Pareto frontier as a line with its batch sizes labelled at both ends where they overlap
   * nothing, its other fitting points as dots, its roofline bound (when given) as a faint dashed
   * line, and, when {@code throughputError} is given (the typical error of tokens/s per chip as a
   * fraction, from {@code ErrorBands}), error bars of ± that fraction on the frontier ({@link
   * FrontierChart}, linear axes, no SLO).
   */
  public static XYChart frontier(
      List<FrontierSeries> series, OptionalDouble throughputError, String title) {
    return FrontierChart.of(series, throughputError, title, FrontierChart.Options.DEFAULT);
  }

  /** A frontier chart of frontiers with the given labels, without bounds or error bars. */
  public static XYChart frontier(
      List<ParetoFrontier> frontiers, List<String> labels, String title) {
    checkArgument(frontiers.size() == labels.size(), "one label per frontier");
    List<FrontierSeries> series = new ArrayList<>();
    for (int i = 0; i < frontiers.size(); i++) {
      series.add(FrontierSeries.of(labels.get(i), frontiers.get(i)));
    }
    return frontier(series, OptionalDouble.empty(), title);
  }

  /**
   * Each decode phase's intensity (FLOP/B, log) against batch (log), with the chip's ridge point as
   * a horizontal line: a phase above it is compute-bound.
   */
  public static XYChart intensity(IntensitySweep sweep) {
    XYChart chart =
        chart(
            String.format(
                Locale.ROOT,
                "Decode intensity vs batch: %s on %s, context %d",
                sweep.model().model().id(),
                sweep.model().chip().id(),
                sweep.context()),
            "Batch (sequences per decode step)",
            "Arithmetic intensity (FLOP/B)",
            true,
            true);
    List<IntensitySweep.Row> rows = sweep.rows();
    double[] xs = rows.stream().mapToDouble(IntensitySweep.Row::batch).toArray();
    java.util.Map<String, double[]> series = new java.util.LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      for (PhaseResult p : rows.get(i).phases()) {
        if (p.bytes().bytes() > 0 && p.flops().flops() > 0) {
          series.computeIfAbsent(p.name(), k -> new double[rows.size()])[i] =
              p.intensity().flopsPerByte();
        }
      }
    }
    series.forEach(
        (name, ys) -> {
          boolean complete = java.util.Arrays.stream(ys).allMatch(y -> y > 0);
          if (complete) {
            chart.addSeries(name, xs, ys);
          }
        });
    double ridge = sweep.ridgePoint().flopsPerByte();
    double[] flat = new double[xs.length];
    java.util.Arrays.fill(flat, ridge);
    XYSeries r =
        chart.addSeries(String.format(Locale.ROOT, "ridge point %.0f FLOP/B", ridge), xs, flat);
    r.setMarker(SeriesMarkers.NONE);
    r.setLineColor(Color.DARK_GRAY);
    return chart;
  }

  /** A frontier chart of one frontier, labelled by its strategy. */
  public static XYChart frontier(ParetoFrontier frontier, String title) {
    String label = frontier.points().isEmpty() ? "frontier" : frontier.points().get(0).strategy();
    return frontier(List.of(frontier), List.of(label), title);
  }

  /**
   * Saves {@code chart} as PNG or SVG, by the file's extension; creates missing parent folders. The
   * title is wrapped and sized to fit the image; in SVG it is text.
   *
   * @throws IllegalArgumentException when the extension is neither {@code .png} nor {@code .svg}
   * @throws java.io.UncheckedIOException when the file cannot be written
   */
  public static Path save(XYChart chart, Path file) {
    return ChartRendering.save(chart, file);
  }
}
