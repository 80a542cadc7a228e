package io.ridgeline.serving.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Fixed systems ({@link PlanRequest#systems()}): the planner evaluates only them. */
final class PlanSystemTest {
  private static final Model LLAMA_70B = Models.byId("llama-3.1-70b");

  /** Llama-3.1-70B, ISL 1024, OSL 256 on at most 16 chips; TTFT 1 s, TPOT 50 ms; the systems. */
  private static PlanRequest request(PlanSystem... systems) {
    return PlanRequest.builder()
        .model(LLAMA_70B)
        .addChips(Chips.H100_SXM, Chips.B200)
        .addSystems(systems)
        .inputTokens(1024)
        .outputTokens(256)
        .totalChips(16)
        .ttftSlo(Seconds.of(1))
        .tpotSlo(Seconds.ofMillis(50))
        .top(100)
        .build();
  }

  @Test
  void plan_twoSystems_ranksOnlyTheirLayouts() {
    PlanResult r =
        Planner.plan(
            request(
                PlanSystem.of(Chips.H100_SXM, 8).withTensorParallel(8),
                PlanSystem.of(Chips.B200, 4)));
    assertThat(r.configurations()).isNotEmpty();
    for (PlanConfiguration c : r.configurations()) {
      // every pool on the system's chip; the decode (or attention) pool its count of chips
      Deployment d = c.deployment();
      d.pools().values().forEach(p -> assertThat(p.chip().id()).isEqualTo(c.chip().id()));
      int chips = d.decodePool().chips();
      if (c.chip().id().equals(Chips.H100_SXM.id())) {
        assertThat(chips).as(c.toString()).isEqualTo(8);
        assertThat(c.tensorParallel()).isEqualTo(8);
      } else {
        assertThat(c.chip().id()).isEqualTo(Chips.B200.id());
        assertThat(chips).as(c.toString()).isEqualTo(4);
      }
      // at most 16 chips: two 8-chip or four 4-chip colocated replicas
      assertThat(c.totalChips()).isLessThanOrEqualTo(16);
    }
    assertThat(r.configurations().stream().map(c -> c.chip().id()).distinct())
        .containsExactlyInAnyOrder(Chips.H100_SXM.id(), Chips.B200.id());
    // the closest misses: one per system at most
    assertThat(r.closest().size()).isLessThanOrEqualTo(2);
  }

  @Test
  void plan_systemStrategies_restrictTheStrategies() {
    PlanResult r =
        Planner.plan(
            request(
                PlanSystem.of(Chips.B200, 4)
                    .withStrategies(EnumSet.of(Deployment.Strategy.COLOCATED))));
    assertThat(r.configurations())
        .isNotEmpty()
        .allSatisfy(c -> assertThat(c.strategy()).isEqualTo(Deployment.Strategy.COLOCATED));
  }

  @Test
  void system_invalid_namesFieldAndValue() {
    assertThatThrownBy(() -> PlanSystem.of(Chips.B200, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("count must be positive: 0");
    assertThatThrownBy(() -> PlanSystem.of(Chips.B200, 4).withTensorParallel(8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not exceed the count: 8");
    assertThatThrownBy(() -> PlanSystem.of(Chips.B200, 4).withPipelineParallel(-1))
        .hasMessageContaining("pp must be positive: -1");
  }

  @Test
  void request_systemChipNotSearched_isRefused() {
    assertThatThrownBy(() -> request(PlanSystem.of(Chips.MI300X, 8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("system mi300x:8: its chip must be one of the request's chips");
  }

  @Test
  void system_toString_spellsTheSpec() {
    assertThat(PlanSystem.of(Chips.H100_SXM, 8).withTensorParallel(8))
        .hasToString("h100-sxm:8:tp=8");
    assertThat(
            PlanSystem.of(Chips.B200, 4)
                .withStrategies(Set.of(Deployment.Strategy.PD, Deployment.Strategy.COLOCATED)))
        .hasToString("b200:4:strategy=colocated,pd");
  }
}
