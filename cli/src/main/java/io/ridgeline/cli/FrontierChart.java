package io.ridgeline.cli;

import io.ridgeline.core.Seconds;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.ParetoFrontier;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The frontier chart: interactivity (tokens/s per user, x) against throughput (tokens/s per chip,
 * y), one colour per deployment or system with a legend; each frontier as a line, its other fitting
 * points as dots, its roofline bound (calibrated estimates) as a faint dashed line; batch labels
 * placed where they overlap nothing, or left out; the axes span the estimates (a bound that runs
 * past them is clipped, and its legend says so); optional log axes; optional SLO guide lines.
 */
final class FrontierChart {
  private FrontierChart() {}

  /**
   * How to draw: log axes, and the SLOs whose guide lines and marks the chart shows.
   *
   * @param logX interactivity on a log axis
   * @param logY throughput on a log axis
   * @param ttftSeconds the TTFT objective: points meeting it (and the TPOT one) are ringed
   * @param tpotSeconds the TPOT objective: a vertical guide at 1 / TPOT tokens/s per user
   */
  record Options(
      boolean logX, boolean logY, OptionalDouble ttftSeconds, OptionalDouble tpotSeconds) {
    static final Options DEFAULT =
        new Options(false, false, OptionalDouble.empty(), OptionalDouble.empty());

    /** Whether an SLO is given. */
    boolean hasSlo() {
      return ttftSeconds.isPresent() || tpotSeconds.isPresent();
    }

    /** Whether {@code p} meets every SLO given (TTFT and TPOT at most their objectives). */
    boolean meets(FrontierPoint p) {
      return p.fits()
          && (ttftSeconds.isEmpty() || p.ttft().seconds() <= ttftSeconds.getAsDouble())
          && (tpotSeconds.isEmpty() || p.tpot().seconds() <= tpotSeconds.getAsDouble());
    }
  }

  /** The plot area's approximate size in px (the image less axis labels, titles and padding). */
  static final int PLOT_WIDTH = Charts.WIDTH - 150;

  static final int PLOT_HEIGHT = Charts.HEIGHT - 190;

  /**
   * Data coordinates to plot-area pixels, x right and y down, on linear or log axes.
   *
   * @param x0 smallest x
   * @param x1 largest x
   * @param y0 smallest y
   * @param y1 largest y
   */
  record Frame(double x0, double x1, double y0, double y1, boolean logX, boolean logY) {
    double px(double x) {
      return PLOT_WIDTH * fraction(x, x0, x1, logX);
    }

    double py(double y) {
      return PLOT_HEIGHT * (1 - fraction(y, y0, y1, logY));
    }

    double x(double px) {
      return value(px / PLOT_WIDTH, x0, x1, logX);
    }

    double y(double py) {
      return value(1 - py / PLOT_HEIGHT, y0, y1, logY);
    }

    private static double fraction(double v, double lo, double hi, boolean log) {
      return log ? Math.log(v / lo) / Math.log(hi / lo) : (v - lo) / (hi - lo);
    }

    private static double value(double f, double lo, double hi, boolean log) {
      return log ? lo * Math.pow(hi / lo, f) : lo + f * (hi - lo);
    }
  }

  /** A label wanted at a data point. */
  record Candidate(String text, double x, double y) {}

  /** A placed label: its text, centre in data coordinates, and box in plot pixels. */
  record Placed(String text, double x, double y, Rectangle2D box) {}

  /** Offsets tried from the point, px (right-up first, then around the point). */
  private static final double[][] OFFSETS = {
    {1, -1}, {1, 1}, {-1, -1}, {-1, 1}, {0, -1.6}, {0, 1.6}, {1.8, 0}, {-1.8, 0}
  };

  /**
   * Labels placed so that no two boxes overlap and none leaves the plot: each candidate (in order)
   * tries the offsets around its point and takes the first free place; a candidate with the same
   * text as a placed label within two label heights is the same label (one "batch 1" for three
   * frontiers that start together); one with no free place is left out.
   */
  static List<Placed> place(List<Candidate> candidates, Frame frame, Font font) {
    List<Placed> placed = new ArrayList<>();
    List<Rectangle2D> markers = new ArrayList<>();
    for (Candidate c : candidates) {
      markers.add(box(frame.px(c.x()), frame.py(c.y()), 10, 10));
    }
    for (Candidate c : candidates) {
      Rectangle2D text = font.getStringBounds(c.text(), ChartRendering.frc());
      double w = text.getWidth() + 4;
      double h = text.getHeight() + 2;
      double px = frame.px(c.x());
      double py = frame.py(c.y());
      boolean duplicate =
          placed.stream()
              .anyMatch(
                  p ->
                      p.text().equals(c.text())
                          && Math.abs(frame.px(p.x()) - px) < 3 * h
                          && Math.abs(frame.py(p.y()) - py) < 3 * h);
      if (duplicate) {
        continue;
      }
      for (double[] o : OFFSETS) {
        double cx = px + o[0] * (w / 2 + 6);
        double cy = py + o[1] * (h / 2 + 4);
        Rectangle2D b = box(cx, cy, w, h);
        boolean inside =
            b.getMinX() >= 0
                && b.getMinY() >= 0
                && b.getMaxX() <= PLOT_WIDTH
                && b.getMaxY() <= PLOT_HEIGHT;
        if (inside
            && placed.stream().noneMatch(p -> p.box().intersects(b))
            && markers.stream().noneMatch(m -> m.intersects(b))) {
          placed.add(new Placed(c.text(), frame.x(cx), frame.y(cy), b));
          break;
        }
      }
    }
    return placed;
  }

  private static Rectangle2D box(double cx, double cy, double w, double h) {
    return new Rectangle2D.Double(cx - w / 2, cy - h / 2, w, h);
  }

  /**
   * The frame of the estimates: every fitting point of every frontier (not the bounds), padded by
   * 8% (linear axes start at 0), with the TPOT guide inside it.
   */
  static Frame frame(List<Charts.FrontierSeries> series, Options options) {
    double x0 = Double.MAX_VALUE;
    double x1 = 0;
    double y0 = Double.MAX_VALUE;
    double y1 = 0;
    for (Charts.FrontierSeries s : series) {
      for (FrontierPoint p : s.frontier().points()) {
        if (p.fits() && p.tokensPerSecondPerUser() > 0 && p.tokensPerSecondPerChip() > 0) {
          x0 = Math.min(x0, p.tokensPerSecondPerUser());
          x1 = Math.max(x1, p.tokensPerSecondPerUser());
          y0 = Math.min(y0, p.tokensPerSecondPerChip());
          y1 = Math.max(y1, p.tokensPerSecondPerChip());
        }
      }
    }
    if (x1 == 0) {
      return new Frame(options.logX() ? 1 : 0, 10, options.logY() ? 1 : 0, 10, false, false);
    }
    if (options.tpotSeconds().isPresent()) {
      double guide = 1 / options.tpotSeconds().getAsDouble();
      x0 = Math.min(x0, guide);
      x1 = Math.max(x1, guide);
    }
    return new Frame(
        options.logX() ? x0 / 1.5 : 0,
        options.logX() ? x1 * 1.5 : x1 * 1.08,
        options.logY() ? y0 / 1.5 : 0,
        options.logY() ? y1 * 1.5 : y1 * 1.08,
        options.logX(),
        options.logY());
  }

  static XYChart of(
      List<Charts.FrontierSeries> series,
      OptionalDouble throughputError,
      String title,
      Options options) {
    XYChart chart =
        Charts.chart(
            title,
            "Interactivity (output tokens/s per user)" + (options.logX() ? ", log" : ""),
            "Throughput (output tokens/s per chip)" + (options.logY() ? ", log" : ""),
            options.logX(),
            options.logY());
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    chart.getStyler().setErrorBarsColor(new Color(150, 150, 150));
    Frame frame = frame(series, options);
    chart.getStyler().setXAxisMin(frame.x0());
    chart.getStyler().setXAxisMax(frame.x1());
    chart.getStyler().setYAxisMin(frame.y0());
    chart.getStyler().setYAxisMax(frame.y1());
    List<Candidate> labels = new ArrayList<>();
    List<FrontierPoint> meeting = new ArrayList<>();
    for (int i = 0; i < series.size(); i++) {
      Charts.FrontierSeries s = series.get(i);
      List<FrontierPoint> front = s.frontier().frontier();
      if (front.isEmpty()) {
        continue;
      }
      Color color = Charts.PALETTE[i % Charts.PALETTE.length];
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
      line.setLineStyle(Charts.line(Charts.LINE_WIDTH, false));
      List<FrontierPoint> others = new ArrayList<>();
      for (FrontierPoint p : s.frontier().points()) {
        if (p.fits() && !p.pareto()) {
          others.add(p);
        }
        if (options.hasSlo() && options.meets(p)) {
          meeting.add(p);
        }
      }
      if (!others.isEmpty()) {
        XYSeries dots = chart.addSeries(s.label() + " (dominated)", x(others), y(others));
        dots.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        dots.setMarker(SeriesMarkers.DIAMOND);
        dots.setMarkerColor(color);
      }
      labels.add(label(front.get(0)));
      if (front.size() > 1) {
        labels.add(label(front.get(front.size() - 1)));
      }
      s.bound()
          .map(ParetoFrontier::frontier)
          .filter(b -> !b.isEmpty())
          .ifPresent(b -> bound(chart, s, b, color, frame));
    }
    if (options.hasSlo()) {
      slo(chart, options, meeting, frame);
    }
    for (Placed p : place(labels, frame, chart.getStyler().getAnnotationTextFont())) {
      chart.addAnnotation(new AnnotationText(p.text(), p.x(), p.y(), false));
    }
    return chart;
  }

  /** "batch N" at a frontier point. */
  private static Candidate label(FrontierPoint p) {
    return new Candidate(
        "batch " + p.batch(), p.tokensPerSecondPerUser(), p.tokensPerSecondPerChip());
  }

  /** The TPOT guide line and the points meeting every SLO, ringed. */
  private static void slo(XYChart chart, Options options, List<FrontierPoint> meeting, Frame f) {
    if (options.tpotSeconds().isPresent()) {
      double tpot = options.tpotSeconds().getAsDouble();
      double x = 1 / tpot;
      XYSeries guide =
          chart.addSeries(
              String.format(
                  Locale.ROOT,
                  "TPOT ≤ %s (≥ %s tok/s/user: right of the line)",
                  duration(tpot),
                  Charts.figure(x)),
              new double[] {x, x},
              new double[] {f.y0() > 0 ? f.y0() : 0, f.y1()});
      guide.setMarker(SeriesMarkers.NONE);
      guide.setLineColor(new Color(200, 0, 0));
      guide.setLineStyle(Charts.line(2f, true));
    }
    String what =
        options.ttftSeconds().isPresent() && options.tpotSeconds().isPresent()
            ? "meets TTFT ≤ "
                + duration(options.ttftSeconds().getAsDouble())
                + " and TPOT ≤ "
                + duration(options.tpotSeconds().getAsDouble())
            : options.ttftSeconds().isPresent()
                ? "meets TTFT ≤ " + duration(options.ttftSeconds().getAsDouble())
                : "meets TPOT ≤ " + duration(options.tpotSeconds().getAsDouble());
    if (meeting.isEmpty()) {
      what = "no point " + what;
      XYSeries none = chart.addSeries(what, new double[] {f.x1()}, new double[] {f.y1()});
      none.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
      none.setMarker(SeriesMarkers.NONE);
      return;
    }
    XYSeries ring = chart.addSeries(what, x(meeting), y(meeting));
    ring.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    ring.setMarker(SeriesMarkers.CROSS);
    ring.setMarkerColor(new Color(200, 0, 0));
  }

  /**
   * The roofline bound of a deployment: a faint dashed line without markers; its legend says when
   * it runs past the axes.
   */
  private static void bound(
      XYChart chart, Charts.FrontierSeries s, List<FrontierPoint> front, Color color, Frame f) {
    boolean clipped =
        front.stream()
            .anyMatch(
                p -> p.tokensPerSecondPerUser() > f.x1() || p.tokensPerSecondPerChip() > f.y1());
    XYSeries b =
        chart.addSeries(
            s.label() + " roofline bound (ideal" + (clipped ? ", clipped at the axes)" : ")"),
            x(front),
            y(front));
    b.setMarker(SeriesMarkers.NONE);
    // the deployment's colour, faded: a reference, not an estimate
    b.setLineColor(new Color(color.getRed(), color.getGreen(), color.getBlue(), 110));
    b.setLineStyle(SeriesLines.DASH_DASH);
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
  }

  private static double[] x(List<FrontierPoint> ps) {
    return ps.stream().mapToDouble(FrontierPoint::tokensPerSecondPerUser).toArray();
  }

  private static double[] y(List<FrontierPoint> ps) {
    return ps.stream().mapToDouble(FrontierPoint::tokensPerSecondPerChip).toArray();
  }

  /** For example {@code 200 ms}. */
  private static String duration(double seconds) {
    return Seconds.of(seconds).toString();
  }
}
