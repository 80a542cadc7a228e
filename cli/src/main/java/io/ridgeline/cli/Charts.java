package io.ridgeline.cli;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Precision;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.sweep.IntensitySweep;
import java.awt.BasicStroke;
import java.awt.Color;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Roofline and frontier charts (XChart), saved as PNG or SVG.
 *
 * <pre>{@code
 * Charts.save(Charts.frontier(f, "llama-3.1-70b on 8× h100-sxm"), Path.of("frontier.svg"));
 * }</pre>
 */
public final class Charts {
  private static final int WIDTH = 900;
  private static final int HEIGHT = 600;

  /** One colour per deployment on a frontier chart (colour-blind-safe Okabe-Ito hues). */
  private static final Color[] PALETTE = {
    new Color(0, 114, 178),
    new Color(213, 94, 0),
    new Color(0, 158, 115),
    new Color(204, 121, 167),
    new Color(230, 159, 0),
    new Color(86, 180, 233),
    new Color(0, 0, 0)
  };

  private Charts() {}

  /** An XY chart of the project's size and title font, with optional log axes. */
  private static XYChart chart(
      String title, String xTitle, String yTitle, boolean logX, boolean logY) {
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(title)
            .xAxisTitle(xTitle)
            .yAxisTitle(yTitle)
            .build();
    chart.getStyler().setXAxisLogarithmic(logX);
    chart.getStyler().setYAxisLogarithmic(logY);
    chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(14f));
    // solid grid lines: a dashed stroke becomes one filled shape per dash in SVG (300 kB a chart)
    chart.getStyler().setPlotGridLinesStroke(new BasicStroke(0.5f));
    chart.getStyler().setPlotGridLinesColor(new Color(225, 225, 225));
    return chart;
  }

  /**
   * A log-log roofline: the chip's roof for {@code precision} (attainable TFLOP/s against FLOP/B on
   * the main memory tier) and each phase with work as a point at its intensity and achieved TFLOP/s
   * (FLOPs / time).
   */
  public static XYChart roofline(
      RooflineModel model, List<PhaseResult> phases, Precision precision) {
    ComputeTarget t = model.target();
    double ridge = t.ridgePoint(precision).flopsPerByte();
    XYChart chart =
        chart(
            String.format(
                Locale.ROOT,
                "Roofline: %s on %d× %s, %s (ridge %.0f FLOP/B)",
                model.model().id(),
                model.chips(),
                model.chip().id(),
                precision.id(),
                ridge),
            "Arithmetic intensity (FLOP/B)",
            "Attainable TFLOP/s per chip",
            true,
            true);
    double lo = ridge / 1000;
    double hi = ridge * 100;
    for (PhaseResult p : phases) {
      double x = p.intensity().flopsPerByte();
      if (x > 0) {
        lo = Math.min(lo, x / 2);
        hi = Math.max(hi, x * 2);
      }
    }
    int n = 64;
    double[] xs = new double[n];
    double[] ys = new double[n];
    for (int i = 0; i < n; i++) {
      xs[i] = lo * Math.pow(hi / lo, i / (n - 1.0));
      ys[i] =
          t.attainable(io.ridgeline.core.FlopsPerByte.of(xs[i]), precision).flopsPerSecond() / 1e12;
    }
    XYSeries roof = chart.addSeries("roof (" + precision.id() + ")", xs, ys);
    roof.setMarker(SeriesMarkers.NONE);
    roof.setLineColor(Color.DARK_GRAY);
    for (PhaseResult p : phases) {
      double x = p.intensity().flopsPerByte();
      double s = p.seconds().seconds();
      if (x <= 0 || s <= 0 || p.flops().flops() <= 0) {
        continue;
      }
      double achieved = p.flops().flops() / s / 1e12;
      XYSeries pt =
          chart.addSeries(
              p.name() + " (" + p.bound() + ")", new double[] {x}, new double[] {achieved});
      pt.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    }
    return chart;
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
   * its Pareto frontier as a line with its batch sizes written at both ends, its other fitting
   * points as dots, its roofline bound (when given) as a faint dashed line, and, when {@code
   * throughputError} is given (the typical error of tokens/s per chip as a fraction, from {@code
   * ErrorBands}), error bars of ± that fraction on the frontier.
   */
  public static XYChart frontier(
      List<FrontierSeries> series, OptionalDouble throughputError, String title) {
    XYChart chart =
        chart(
            title,
            "Interactivity (output tokens/s per user)",
            "Throughput (output tokens/s per chip)",
            false,
            false);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    chart.getStyler().setErrorBarsColor(new Color(150, 150, 150));
    chart
        .getStyler()
        .setAnnotationTextFont(chart.getStyler().getAnnotationTextFont().deriveFont(10f));
    for (int i = 0; i < series.size(); i++) {
      FrontierSeries s = series.get(i);
      List<FrontierPoint> front = s.frontier().frontier();
      if (front.isEmpty()) {
        continue;
      }
      Color color = PALETTE[i % PALETTE.length];
      XYSeries line =
          throughputError.isPresent()
              ? chart.addSeries(
                  s.label() + " (Pareto, ±" + percent(throughputError.getAsDouble()) + ")",
                  x(front),
                  y(front),
                  front.stream()
                      .mapToDouble(p -> p.tokensPerSecondPerChip() * throughputError.getAsDouble())
                      .toArray())
              : chart.addSeries(s.label() + " (Pareto)", x(front), y(front));
      line.setMarker(SeriesMarkers.CIRCLE);
      line.setLineColor(color);
      line.setMarkerColor(color);
      List<FrontierPoint> others = new ArrayList<>();
      for (FrontierPoint p : s.frontier().points()) {
        if (p.fits() && !p.pareto()) {
          others.add(p);
        }
      }
      if (!others.isEmpty()) {
        XYSeries dots = chart.addSeries(s.label() + " (dominated)", x(others), y(others));
        dots.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        dots.setMarker(SeriesMarkers.DIAMOND);
        dots.setMarkerColor(color);
      }
      label(chart, front.get(0));
      if (front.size() > 1) {
        label(chart, front.get(front.size() - 1));
      }
      s.bound()
          .map(ParetoFrontier::frontier)
          .filter(b -> !b.isEmpty())
          .ifPresent(b -> bound(chart, s, b, color));
    }
    return chart;
  }

  /** The roofline bound of a deployment: a faint dashed line without markers. */
  private static void bound(
      XYChart chart, FrontierSeries s, List<FrontierPoint> front, Color color) {
    XYSeries b = chart.addSeries(s.label() + " roofline bound (ideal)", x(front), y(front));
    b.setMarker(SeriesMarkers.NONE);
    // the deployment's colour, faded: a reference, not an estimate
    b.setLineColor(new Color(color.getRed(), color.getGreen(), color.getBlue(), 90));
    b.setLineStyle(SeriesLines.DASH_DASH);
  }

  /** "batch N" next to a frontier point. */
  private static void label(XYChart chart, FrontierPoint p) {
    chart.addAnnotation(
        new AnnotationText(
            "batch " + p.batch(), p.tokensPerSecondPerUser(), p.tokensPerSecondPerChip(), false));
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
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

  private static double[] x(List<FrontierPoint> ps) {
    return ps.stream().mapToDouble(FrontierPoint::tokensPerSecondPerUser).toArray();
  }

  private static double[] y(List<FrontierPoint> ps) {
    return ps.stream().mapToDouble(FrontierPoint::tokensPerSecondPerChip).toArray();
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
