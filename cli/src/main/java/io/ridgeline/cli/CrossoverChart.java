package io.ridgeline.cli;

import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.sweep.Crossover;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The crossover chart (log-log): one decode step's attention time (full, sliding and linear
 * attention, {@link Crossover#ATTENTION_PHASES}) and FFN/MoE time ({@link Crossover#FFN_PHASES})
 * against the context, contexts 2^k from 16 tokens to past the crossover and the model's max
 * context, with vertical guides at the crossover and at the max context.
 */
final class CrossoverChart {
  private CrossoverChart() {}

  /** The smallest context drawn, tokens. */
  static final int FIRST_CONTEXT = 16;

  /**
   * The contexts drawn: powers of two from 16 to 4 × the larger of the crossover and the max
   * context (at least 2^17), within the search limit.
   */
  static List<Integer> contexts(RooflineModel model, Crossover c) {
    long last = 1 << 17;
    if (c.context().isPresent()) {
      last = Math.max(last, 4L * c.context().get());
    }
    if (model.model().maxContext().isPresent()) {
      last = Math.max(last, 4L * model.model().maxContext().get());
    }
    last = Math.min(last, Crossover.SEARCH_LIMIT);
    List<Integer> out = new ArrayList<>();
    for (long x = FIRST_CONTEXT; x <= last; x *= 2) {
      out.add((int) x);
    }
    return out;
  }

  static XYChart of(RooflineModel model, Crossover c) {
    XYChart chart =
        Charts.chart(
            String.format(
                Locale.ROOT,
                "Decode step time vs context: %s on %d× %s, batch %d",
                model.model().id(),
                model.chips(),
                model.chip().id(),
                c.batch()),
            "Context (tokens in each sequence's KV cache)",
            "Time per decode step (ms)",
            true,
            true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    List<Integer> contexts = contexts(model, c);
    double[] xs = contexts.stream().mapToDouble(Integer::doubleValue).toArray();
    double[] attention = new double[xs.length];
    double[] ffn = new double[xs.length];
    for (int i = 0; i < xs.length; i++) {
      List<PhaseResult> phases = model.decode(c.batch(), contexts.get(i)).phases();
      attention[i] = millis(phases, Crossover.ATTENTION_PHASES);
      ffn[i] = millis(phases, Crossover.FFN_PHASES);
    }
    double lo = Double.MAX_VALUE;
    double hi = 0;
    for (int i = 0; i < xs.length; i++) {
      for (double v : new double[] {attention[i], ffn[i]}) {
        if (v > 0) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
    }
    if (hi == 0) {
      return chart;
    }
    double y0 = lo / 2;
    double y1 = hi * 3;
    chart.getStyler().setYAxisMin(y0);
    chart.getStyler().setYAxisMax(y1);
    line(chart, "decode attention", xs, attention, Charts.PALETTE[0]);
    line(chart, "decode FFN / MoE", xs, ffn, Charts.PALETTE[1]);
    c.context()
        .ifPresent(
            x ->
                guide(
                    chart,
                    String.format(Locale.ROOT, "crossover at %,d tokens", x),
                    x,
                    y0,
                    y1,
                    Color.BLACK,
                    false));
    model
        .model()
        .maxContext()
        .ifPresent(
            x ->
                guide(
                    chart,
                    String.format(Locale.ROOT, "max context %,d tokens", x),
                    x,
                    y0,
                    y1,
                    new Color(120, 120, 120),
                    true));
    return chart;
  }

  /** The summed time of {@code kinds} in ms; 0 where none runs. */
  private static double millis(List<PhaseResult> phases, Set<PhaseKind> kinds) {
    double s = 0;
    for (PhaseResult p : phases) {
      if (kinds.contains(p.kind())) {
        s += p.seconds().seconds();
      }
    }
    return s * 1e3;
  }

  private static void line(XYChart chart, String name, double[] xs, double[] ys, Color colour) {
    List<Double> x = new ArrayList<>();
    List<Double> y = new ArrayList<>();
    for (int i = 0; i < xs.length; i++) {
      if (ys[i] > 0) { // log axes: a phase that takes no time is left out
        x.add(xs[i]);
        y.add(ys[i]);
      }
    }
    if (x.isEmpty()) {
      return;
    }
    XYSeries s = chart.addSeries(name, x, y);
    s.setMarker(SeriesMarkers.CIRCLE);
    s.setLineColor(colour);
    s.setMarkerColor(colour);
    s.setLineStyle(Charts.line(Charts.LINE_WIDTH, false));
  }

  private static void guide(
      XYChart chart, String name, double x, double y0, double y1, Color colour, boolean dashed) {
    XYSeries s = chart.addSeries(name, new double[] {x, x}, new double[] {y0, y1});
    s.setMarker(SeriesMarkers.NONE);
    s.setLineColor(colour);
    s.setLineStyle(Charts.line(2f, dashed));
  }
}
