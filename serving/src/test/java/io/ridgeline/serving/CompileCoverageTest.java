package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every catalog model's colocated points compile on a reference set of chips and layouts, at the
 * calibrated default and at the roofline bound: the compiled path follows the object path's physics
 * ({@link CompiledSteps} checks the coefficients and the stage time), so a change to the object
 * path that the compiled path does not reproduce fails here instead of slowing sweeps and frontiers
 * down quietly. Colocated serving is the strategy with a compiled path; the others, and the
 * features the compiled path leaves to the object path by design (speculative decoding, KV offload,
 * pipeline parallelism, a MoE all-to-all across scale-up domains), are not in the set.
 */
final class CompileCoverageTest {
  private static final List<String> CHIPS =
      List.of("h100-sxm", "h200-sxm", "b200", "mi300x", "gb200");
  private static final Workload WORKLOAD = Workload.of(1024, 1024);

  @Test
  void colocated_everyCatalogModelOnTheReferenceChips_compiles() {
    List<String> slow = new ArrayList<>();
    Set<String> compiledModels = new LinkedHashSet<>();
    int systems = 0;
    for (Model m : Models.all()) {
      for (String id : CHIPS) {
        Chip chip = Chips.byId(id);
        for (RooflineModel pool : layouts(m, chip)) {
          for (Efficiency e : List.of(Efficiency.standard(chip), Efficiency.ideal())) {
            RooflineModel p = RooflineModel.builder().from(pool).efficiency(e).build();
            Optional<PointsAt.SlowPath> why =
                Deployment.of(Deployment.Strategy.COLOCATED, p).pointsAt(WORKLOAD).slowPath();
            systems++;
            if (why.isPresent()) {
              slow.add(p + ": " + why.get());
            } else {
              compiledModels.add(m.id());
            }
          }
        }
      }
    }
    assertThat(slow).as("colocated systems that fell back to the object path").isEmpty();
    // every catalog model fits on at least one reference chip with a one-stage layout
    assertThat(compiledModels).containsExactlyInAnyOrderElementsOf(Models.ids());
    assertThat(systems).isGreaterThan(300);
  }

  /**
   * The reference layouts of {@code m} on {@code chip}: the smallest tensor-parallel group of one
   * stage that holds a request of the workload; for a MoE model also the experts spread over that
   * group (ep = tp); for an MLA model (attention data parallelism's use case) also dp 2 of tp / 2.
   * None when no one-stage layout within the scale-up domain fits.
   */
  private static List<RooflineModel> layouts(Model m, Chip chip) {
    int domain = chip.scaleUp().map(u -> u.domainSize()).orElse(1);
    List<RooflineModel> out = new ArrayList<>();
    for (int tp = 1; tp <= Math.min(8, domain); tp *= 2) {
      if (m.tensorParallelProblem(tp).isPresent()) {
        continue;
      }
      RooflineModel pool =
          RooflineModel.builder().model(m).chip(chip).chips(tp).tensorParallel(tp).build();
      if (!pool.memory(1, WORKLOAD.finalContext()).fits()) {
        continue;
      }
      out.add(pool);
      if (tp > 1 && m.hasMoe()) {
        out.add(RooflineModel.builder().from(pool).expertParallel(tp).build());
      }
      if (tp > 2 && usesMla(m)) {
        out.add(
            RooflineModel.builder()
                .from(pool)
                .tensorParallel(tp / 2)
                .attentionDataParallel(2)
                .expertParallel(tp)
                .build());
      }
      break;
    }
    return out;
  }

  private static boolean usesMla(Model m) {
    return m.layerGroups().keySet().stream()
        .anyMatch(l -> l.attention().flatMap(a -> a.mla()).isPresent());
  }
}
