package io.ridgeline.cli;

import io.ridgeline.core.FlopsPerByte;
import io.ridgeline.core.Precision;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Roofs;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The roofline chart (log-log, per chip): for every precision the phases compute in, its datasheet
 * roof (solid) and its calibrated roofs (dashed; a second memory fraction, attention's, dotted), in
 * one colour per precision, each ridge point marked and labelled with its FLOP/B; each phase's work
 * as a point in its roof's colour, under that roof ({@link Roofs}).
 */
final class RooflineChart {
  private RooflineChart() {}

  /** Marker shapes, one per point in turn. */
  private static final Marker[] MARKERS = {
    SeriesMarkers.CIRCLE,
    SeriesMarkers.DIAMOND,
    SeriesMarkers.SQUARE,
    SeriesMarkers.TRIANGLE_UP,
    SeriesMarkers.TRIANGLE_DOWN,
    SeriesMarkers.CROSS,
    SeriesMarkers.PLUS,
    SeriesMarkers.OVAL,
    SeriesMarkers.RECTANGLE
  };

  /** Samples along a roof (log-spaced; the ridge itself is added). */
  private static final int SAMPLES = 48;

  static XYChart of(RooflineModel model, Roofs roofs) {
    boolean calibrated = roofs.roofs().stream().anyMatch(r -> r.kind() == Roofs.Kind.CALIBRATED);
    String title =
        String.format(
            Locale.ROOT,
            "Roofline per chip: %s on %d× %s; %s",
            model.model().id(),
            model.chips(),
            model.chip().id(),
            calibrated
                ? "datasheet roofs (solid) and calibrated roofs (dashed)"
                : "datasheet roofs (the roofline bound)");
    XYChart chart =
        Charts.chart(
            title, "Arithmetic intensity (FLOP/B)", "Attainable TFLOP/s per chip", true, true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
    Map<Precision, Color> colours = new LinkedHashMap<>();
    for (Roofs.Roof r : roofs.roofs()) {
      colours.computeIfAbsent(
          r.precision(), p -> Charts.PALETTE[colours.size() % Charts.PALETTE.length]);
    }
    double lo = Double.MAX_VALUE;
    double hi = 0;
    for (Roofs.Roof r : roofs.roofs()) {
      lo = Math.min(lo, r.ridge().flopsPerByte() / 300);
      hi = Math.max(hi, r.ridge().flopsPerByte() * 30);
    }
    for (Roofs.Point p : roofs.points()) {
      if (p.drawable()) {
        lo = Math.min(lo, p.intensity().flopsPerByte() / 3);
        hi = Math.max(hi, p.intensity().flopsPerByte() * 3);
      }
    }
    List<double[]> ridges = new ArrayList<>();
    for (Roofs.Roof r : roofs.roofs()) {
      roof(chart, r, colours.get(r.precision()), lo, hi);
      ridges.add(new double[] {r.ridge().flopsPerByte(), r.peak().flopsPerSecond() / 1e12});
    }
    int i = 0;
    for (Roofs.Point p : roofs.points()) {
      if (!p.drawable()) {
        continue;
      }
      XYSeries s =
          chart.addSeries(
              String.format(
                  Locale.ROOT,
                  "%s: %s FLOP/B, %s TFLOP/s",
                  p.label(),
                  Charts.figure(p.intensity().flopsPerByte()),
                  Charts.figure(p.achieved().flopsPerSecond() / 1e12)),
              new double[] {p.intensity().flopsPerByte()},
              new double[] {p.achieved().flopsPerSecond() / 1e12});
      s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
      s.setMarker(MARKERS[i++ % MARKERS.length]);
      s.setMarkerColor(colours.get(p.roof().precision()));
    }
    // the ridge points: a marker on the knee and its FLOP/B just below it
    double[] xs = ridges.stream().mapToDouble(r -> r[0]).toArray();
    double[] ys = ridges.stream().mapToDouble(r -> r[1]).toArray();
    XYSeries knees = chart.addSeries("ridge points (FLOP/B)", xs, ys);
    knees.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    knees.setMarker(SeriesMarkers.CIRCLE);
    knees.setMarkerColor(Color.BLACK);
    // the axes: every roof from lo to hi, every point; ridge labels placed where they overlap
    // nothing (FrontierChart.place)
    double y0 = Double.MAX_VALUE;
    double y1 = 0;
    for (Roofs.Roof r : roofs.roofs()) {
      y0 = Math.min(y0, r.attainable(FlopsPerByte.of(lo)).flopsPerSecond() / 1e12);
      y1 = Math.max(y1, r.peak().flopsPerSecond() / 1e12);
    }
    for (Roofs.Point p : roofs.points()) {
      if (p.drawable()) {
        y0 = Math.min(y0, p.achieved().flopsPerSecond() / 1e12);
      }
    }
    y0 /= 1.5;
    y1 *= 2;
    chart.getStyler().setXAxisMin(lo);
    chart.getStyler().setXAxisMax(hi);
    chart.getStyler().setYAxisMin(y0);
    chart.getStyler().setYAxisMax(y1);
    List<FrontierChart.Candidate> labels = new ArrayList<>();
    for (double[] r : ridges) {
      labels.add(new FrontierChart.Candidate(String.format(Locale.ROOT, "%.0f", r[0]), r[0], r[1]));
    }
    FrontierChart.Frame frame = new FrontierChart.Frame(lo, hi, y0, y1, true, true);
    for (FrontierChart.Placed p :
        FrontierChart.place(labels, frame, chart.getStyler().getAnnotationTextFont())) {
      chart.addAnnotation(new AnnotationText(p.text(), p.x(), p.y(), false));
    }
    return chart;
  }

  /** One roof from {@code lo} to {@code hi} FLOP/B, its ridge among the samples. */
  private static void roof(XYChart chart, Roofs.Roof r, Color colour, double lo, double hi) {
    List<Double> xs = new ArrayList<>();
    for (int k = 0; k < SAMPLES; k++) {
      xs.add(lo * Math.pow(hi / lo, k / (SAMPLES - 1.0)));
    }
    xs.add(r.ridge().flopsPerByte());
    xs.sort(Double::compare);
    double[] x = xs.stream().mapToDouble(Double::doubleValue).toArray();
    double[] y = new double[x.length];
    for (int k = 0; k < x.length; k++) {
      y[k] = r.attainable(FlopsPerByte.of(x[k])).flopsPerSecond() / 1e12;
    }
    XYSeries s =
        chart.addSeries(
            String.format(
                Locale.ROOT,
                "%s %s%s: %s TFLOP/s, %s TB/s, ridge %.0f",
                r.precision().id(),
                r.kind().id(),
                r.kernels().equals(Roofs.ALL) ? "" : " (" + r.kernels() + ")",
                Charts.figure(r.peak().flopsPerSecond() / 1e12),
                Charts.figure(r.bandwidth().bytesPerSecond() / 1e12),
                r.ridge().flopsPerByte()),
            x,
            y);
    s.setMarker(SeriesMarkers.NONE);
    s.setLineColor(colour);
    boolean datasheet = r.kind() == Roofs.Kind.DATASHEET;
    boolean attention = r.kernels().startsWith("attention");
    s.setLineStyle(
        datasheet
            ? Charts.line(3f, false)
            : attention ? Charts.dotted(Charts.LINE_WIDTH) : Charts.line(Charts.LINE_WIDTH, true));
  }
}
