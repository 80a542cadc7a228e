package io.ridgeline.cli;

import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.plan.PlanConfiguration;
import io.ridgeline.serving.plan.PlanMiss;
import io.ridgeline.serving.plan.PlanRequest;
import io.ridgeline.serving.plan.PlanResult;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The plan chart: each reported configuration at its TPOT (x, ms) and TTFT p50 (y, ms) against the
 * objectives, drawn as red dashed lines (the lower-left box meets both), its legend entry giving
 * its rank, chips and $/Mtok; the closest misses per chip as grey crosses.
 */
final class PlanChart {
  private PlanChart() {}

  /** Configurations with a legend entry of their own; the rest share one. */
  static final int NAMED = 8;

  static XYChart of(PlanResult r) {
    PlanRequest q = r.request();
    double ttftSlo = q.ttftSlo().millis();
    double tpotSlo = q.tpotSlo().millis();
    XYChart chart =
        Charts.chart(
            String.format(
                Locale.ROOT,
                "Plan: %s, ISL %d / OSL %d; configurations by %s against TTFT ≤ %s, TPOT ≤ %s",
                q.model().id(),
                q.inputTokens(),
                q.outputTokens(),
                q.objective().id(),
                q.ttftSlo(),
                q.tpotSlo()),
            "TPOT (ms)",
            "TTFT p50 (ms)",
            false,
            false);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
    double xMax = tpotSlo;
    double yMax = ttftSlo;
    List<PlanConfiguration> cs = r.configurations();
    for (PlanConfiguration c : cs) {
      xMax = Math.max(xMax, c.tpot().millis());
      yMax = Math.max(yMax, c.ttftP50().millis());
    }
    List<double[]> misses = new ArrayList<>();
    for (PlanMiss m : r.closest()) {
      if (m.point().isPresent()) {
        FrontierPoint p = m.point().get();
        misses.add(new double[] {p.tpot().millis(), p.ttft().millis()});
      }
    }
    for (double[] m : misses) {
      xMax = Math.max(xMax, m[0]);
      yMax = Math.max(yMax, m[1]);
    }
    chart.getStyler().setXAxisMin(0.0);
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setXAxisMax(xMax * 1.15);
    chart.getStyler().setYAxisMax(yMax * 1.15);
    guide(
        chart,
        "TPOT objective " + q.tpotSlo(),
        new double[] {tpotSlo, tpotSlo},
        new double[] {0, yMax * 1.15});
    guide(
        chart,
        "TTFT objective " + q.ttftSlo(),
        new double[] {0, xMax * 1.15},
        new double[] {ttftSlo, ttftSlo});
    List<PlanConfiguration> rest = new ArrayList<>();
    for (int i = 0; i < cs.size(); i++) {
      PlanConfiguration c = cs.get(i);
      if (i >= NAMED) {
        rest.add(c);
        continue;
      }
      XYSeries s =
          chart.addSeries(
              String.format(
                  Locale.ROOT,
                  "#%d %s %s tp %d, %d chips, %s",
                  i + 1,
                  c.chipIds(),
                  c.strategy().id(),
                  c.tensorParallel(),
                  c.totalChips(),
                  c.dollarsPerMillionTokens()
                      .map(d -> String.format(Locale.ROOT, "$%.3f/Mtok", d))
                      .orElse("no price")),
              new double[] {c.tpot().millis()},
              new double[] {c.ttftP50().millis()});
      s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
      s.setMarkerColor(Charts.PALETTE[i % Charts.PALETTE.length]);
      s.setMarker(i == 0 ? SeriesMarkers.DIAMOND : SeriesMarkers.CIRCLE);
    }
    if (!rest.isEmpty()) {
      XYSeries s =
          chart.addSeries(
              "#" + (NAMED + 1) + " to #" + cs.size(),
              rest.stream().mapToDouble(c -> c.tpot().millis()).toArray(),
              rest.stream().mapToDouble(c -> c.ttftP50().millis()).toArray());
      s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
      s.setMarkerColor(new Color(120, 120, 120));
    }
    if (!misses.isEmpty()) {
      XYSeries s =
          chart.addSeries(
              "closest misses per chip",
              misses.stream().mapToDouble(m -> m[0]).toArray(),
              misses.stream().mapToDouble(m -> m[1]).toArray());
      s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
      s.setMarker(SeriesMarkers.CROSS);
      s.setMarkerColor(new Color(150, 150, 150));
    }
    return chart;
  }

  private static void guide(XYChart chart, String name, double[] x, double[] y) {
    XYSeries s = chart.addSeries(name, x, y);
    s.setMarker(SeriesMarkers.NONE);
    s.setLineColor(new Color(200, 0, 0));
    s.setLineStyle(Charts.line(2f, true));
  }
}
