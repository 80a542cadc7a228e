package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code plan --system SPEC}: the planner ranks only the given systems. */
final class PlanSystemCommandTest {

  /** Llama-3.1-70B, ISL 1024, OSL 256 on at most 16 chips, TTFT 1 s, TPOT 50 ms, and extra. */
  private static CliRun plan(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "plan",
                "--model",
                "llama-3.1-70b",
                "--isl",
                "1024",
                "--osl",
                "256",
                "--total-chips",
                "16",
                "--ttft",
                "1s",
                "--tpot",
                "50ms"));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void plan_twoSystems_ranksExactlyThoseTwo() throws Exception {
    CliRun r =
        plan(
            "--system",
            "h100-sxm:8:tp=8",
            "--system",
            "b200:4",
            "--strategies",
            "colocated",
            "--top",
            "50",
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = r.json();
    // the JSON lists the systems as typed, with their fields (null where searched)
    assertThat(j.get("systems")).hasSize(2);
    assertThat(j.get("systems").get(0).get("system").asText()).isEqualTo("h100-sxm:8:tp=8");
    assertThat(j.get("systems").get(0).get("tp").asInt()).isEqualTo(8);
    assertThat(j.get("systems").get(1).get("system").asText()).isEqualTo("b200:4");
    assertThat(j.get("systems").get(1).get("count").asInt()).isEqualTo(4);
    assertThat(j.get("systems").get(1).get("tp").isNull()).isTrue();
    Set<String> chips = new HashSet<>();
    for (JsonNode c : j.get("configurations")) {
      String chip = c.get("chip").asText();
      chips.add(chip);
      int perReplica = c.get("chips_per_replica").asInt();
      int total = c.get("total_chips").asInt();
      if (chip.equals("h100-sxm")) {
        // h100-sxm:8:tp=8: one replica is 8 chips at tp 8; 16 chips hold 1 or 2 replicas
        assertThat(perReplica).isEqualTo(8);
        assertThat(c.get("tp").asInt()).isEqualTo(8);
      } else {
        // b200:4: one replica is 4 chips (tp or ep searched within 4); 16 chips hold 1-4
        assertThat(chip).isEqualTo("b200");
        assertThat(perReplica).isEqualTo(4);
      }
      assertThat(total % perReplica).isZero();
      assertThat(total).isLessThanOrEqualTo(16);
    }
    assertThat(chips).containsExactlyInAnyOrder("h100-sxm", "b200");
  }

  @Test
  void plan_systemText_namesTheSystemsSearched() {
    CliRun r = plan("--system", "h100-sxm:8:tp=8", "--system", "b200:4:strategy=colocated");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("searched systems h100-sxm:8:tp=8, b200:4:strategy=colocated");
  }

  @Test
  void plan_badSpec_oneLineNamingTheField() {
    CliRun r = plan("--system", "b200:4:tq=2");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err()).contains("--system b200:4:tq=2").contains("unknown field 'tq'");

    CliRun strategy = plan("--system", "b200:4:strategy=pdd");
    assertThat(strategy.code()).isEqualTo(1);
    assertThat(strategy.err().strip().lines()).hasSize(1);
    assertThat(strategy.err()).contains("--system b200:4:strategy=pdd").contains("'pdd'");

    CliRun noCount = plan("--system", "b200");
    assertThat(noCount.code()).isEqualTo(1);
    assertThat(noCount.err()).contains("give the chip count, e.g. b200:8");

    CliRun tooWide = plan("--system", "b200:4:tp=8");
    assertThat(tooWide.code()).isEqualTo(1);
    assertThat(tooWide.err().strip().lines()).hasSize(1);
    assertThat(tooWide.err()).contains("--system b200:4:tp=8").contains("must not exceed");
  }

  @Test
  void plan_systemWithChips_isRefusedInOneLine() {
    CliRun r = plan("--system", "b200:4", "--chips", "h100-sxm");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err()).contains("--system and --chips are exclusive");
    // --chip is the same option
    CliRun synonym = plan("--system", "b200:4", "--chip", "h100-sxm");
    assertThat(synonym.code()).isEqualTo(1);
    assertThat(synonym.err()).contains("--system and --chips are exclusive");
  }
}
