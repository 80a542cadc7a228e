package io.ridgeline.cli;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Precision;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.IntensitySweep;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.RooflineModel;
import java.awt.Color;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Roofline and frontier charts (XChart), saved as PNG or SVG.
 *
 * <pre>{@code
 * Charts.save(Charts.frontier(f, "llama-3.1-70b on 8× h100-sxm"), Path.of("frontier.png"));
 * }</pre>
 */
public final class Charts {
  private static final int WIDTH = 900;
  private static final int HEIGHT = 600;

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
    chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(12f));
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
   * Interactivity (tokens/s per user, x) against throughput (tokens/s per chip, y): every fitting
   * point, with the Pareto frontier drawn as a line.
   */
  public static XYChart frontier(
      List<ParetoFrontier> frontiers, List<String> labels, String title) {
    checkArgument(frontiers.size() == labels.size(), "one label per frontier");
    XYChart chart =
        chart(
            title,
            "Interactivity (output tokens/s per user)",
            "Throughput (output tokens/s per chip)",
            false,
            false);
    for (int i = 0; i < frontiers.size(); i++) {
      List<FrontierPoint> front = frontiers.get(i).frontier();
      List<FrontierPoint> all = new ArrayList<>();
      for (FrontierPoint p : frontiers.get(i).points()) {
        if (p.fits()) {
          all.add(p);
        }
      }
      if (all.isEmpty()) {
        continue;
      }
      String prefix = labels.get(i).isEmpty() ? "" : labels.get(i) + ": ";
      XYSeries pts = chart.addSeries(prefix + "batch sizes", x(all), y(all));
      pts.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
      XYSeries line = chart.addSeries(prefix + "Pareto frontier", x(front), y(front));
      line.setMarker(SeriesMarkers.NONE);
    }
    return chart;
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

  /** A frontier chart of one frontier. */
  public static XYChart frontier(ParetoFrontier frontier, String title) {
    return frontier(List.of(frontier), List.of(""), title);
  }

  private static double[] x(List<FrontierPoint> ps) {
    return ps.stream().mapToDouble(FrontierPoint::tokensPerSecondPerUser).toArray();
  }

  private static double[] y(List<FrontierPoint> ps) {
    return ps.stream().mapToDouble(FrontierPoint::tokensPerSecondPerChip).toArray();
  }

  /**
   * Saves {@code chart} as PNG or SVG, by the file's extension; creates missing parent folders.
   *
   * @throws IllegalArgumentException when the extension is neither {@code .png} nor {@code .svg}
   * @throws UncheckedIOException when the file cannot be written
   */
  public static Path save(XYChart chart, Path file) {
    String name =
        file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
    checkArgument(
        name.endsWith(".png") || name.endsWith(".svg"),
        "plot file must end in .png or .svg: %s",
        file);
    // whole or absent, also under concurrent writers of one file (AtomicFiles)
    AtomicFiles.writeStream(
        file,
        out -> {
          if (name.endsWith(".png")) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
          } else {
            VectorGraphicsEncoder.saveVectorGraphic(
                chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
          }
          return null;
        });
    return file;
  }
}
