package io.ridgeline.cli;

import io.ridgeline.models.Model;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.RooflineModel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The multi-system path of {@code ridgeline frontier} ({@link FrontierCommand}): one system per
 * chip of {@code --chip}, or per {@code --system}, on one table, CSV and chart ({@link
 * FrontierSystems}).
 */
final class FrontierComparison {
  private FrontierComparison() {}

  /**
   * Prints the systems of {@code specs} for the options of {@code c}: each system's deployments
   * labelled {@code CHIP xCOUNT} and what its spec sets ({@code mi300x x4 tp=4}, {@code b200 x8
   * pd}; and the strategy, with several); a system that cannot be built (it does not fit) is named
   * with why, and the others are still printed. Each spec is applied to {@code c}'s options in turn
   * (its chip, count, degrees and strategy), and the first system that reads an anchor sets {@code
   * c}'s anchor factor.
   */
  static Integer compare(FrontierCommand c, List<SystemSpec> specs) {
    SystemOptions system = c.system;
    Model m = system.model();
    SystemOptions.warnContext(m, c.request().finalContext(), c.spec);
    FrontierSystems systems = new FrontierSystems();
    if (system.chip == null) {
      system.useChips(specs.stream().map(SystemSpec::chip).toList());
    }
    SystemSpec.Defaults defaults = SystemSpec.Defaults.of(system);
    String strategyDefault = c.strategy;
    for (SystemSpec s : specs) {
      s.applyTo(system, defaults);
      c.strategy = s.strategy() != null ? s.strategy() : strategyDefault;
      String id = s.chip();
      List<String> strategyLabels = new ArrayList<>();
      List<Deployment> deployments;
      List<ParetoFrontier> frontiers;
      try {
        system.efficiency();
        deployments = c.deployments(m, strategyLabels, false);
        frontiers = c.frontiers(deployments);
      } catch (IllegalArgumentException e) {
        systems.failed(
            systems.unique(id + (system.count != null ? " x" + system.count : "") + s.extras()),
            RidgelineCli.message(e));
        continue;
      }
      if (c.anchorFactor.isEmpty()) {
        c.anchorFactor =
            AnchorOption.factor(
                c.anchor, system.efficiency(), AnchorOption.system(m, deployments, system));
        if (c.anchorFactor.isPresent()) {
          c.warnAnchor(c.anchorFactor.get(), m, deployments);
        }
      }
      if (c.anchorFactor.isPresent()) {
        frontiers = c.anchorFactor.get().apply(frontiers);
      }
      List<ParetoFrontier> bounds =
          c.plot != null && system.efficiency().banded() && c.anchorFactor.isEmpty()
              ? c.frontiers(c.deployments(m, new ArrayList<>(), true))
              : List.of();
      // the chip's id (a chip file's, not its path; CHIP* for a what-if) and its count
      RooflineModel decode = deployments.get(0).decodePool();
      String label = systems.unique(decode.chip().id() + " x" + decode.chips() + s.extras());
      FrontierOutput one =
          new FrontierOutput(
              system.efficiency(),
              c.isl,
              c.osl,
              strategyLabels,
              deployments,
              frontiers,
              c.anchorFactor,
              c.prices,
              c.workload.used() ? Optional.of(c.request()) : Optional.empty());
      one.chartOptions(c.chartOptions());
      one.conversation(c.conversation);
      systems.add(label, one, bounds);
    }
    PrintWriter out = c.spec.commandLine().getOut();
    PrintWriter err = c.spec.commandLine().getErr();
    // every system failed: one line with every reason
    FrontierOutput all = systems.combined();
    all.chartOptions(c.chartOptions());
    if (system.json) {
      out.println(Json.write(systems.json(m, c.isl, c.osl)));
    } else if (c.csv) {
      all.headerLines(false).forEach(err::println);
      all.csv(out);
      systems.failureLines().forEach(err::println);
    } else {
      all.table(out, systems.failures());
    }
    if (c.plot != null) {
      Path target =
          c.plot.toString().isEmpty()
              ? Path.of("frontier-" + m.id() + "-" + systems.fileLabel() + ".png")
              : c.plot;
      Charts.save(all.chart(systems.bounds()), target);
      (system.json || c.csv ? err : out).println("wrote " + target);
    }
    return 0;
  }
}
