package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --chip A,B,C} in frontier and roofline: one system per chip. */
final class ChipListTest {

  private static CliRun frontier(String chips, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "frontier",
                "--model",
                "llama-3.1-70b",
                "--chip",
                chips,
                "--count",
                "2",
                "--max-batch",
                "4"));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void frontier_threeChips_printsEverySystemOnOneTable() {
    CliRun r = frontier("h100-sxm,mi300x,b200");
    assertThat(r.code()).as(r.err()).isZero();
    // batches 1, 2, 4 per system: three rows each, labelled CHIP xCOUNT
    for (String system : List.of("h100-sxm x2", "mi300x x2", "b200 x2")) {
      assertThat(r.out().lines().filter(l -> l.startsWith(system + " ")).count())
          .as(system)
          .isEqualTo(3);
    }
    assertThat(r.out()).contains("* = Pareto-optimal across deployments");
  }

  @Test
  void frontier_systemThatDoesNotFit_isNamedOnItsRow() {
    // 70B in bf16 is 141 GB: 70.6 GB per chip on two chips, over an L4's 24 GB
    CliRun r = frontier("h100-sxm,l4");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .containsPattern("(?m)^l4 x2 +llama-3.1-70b does not fit on 2× l4: one request needs");
    assertThat(r.out().lines().filter(l -> l.startsWith("h100-sxm x2 ")).count()).isEqualTo(3);
  }

  @Test
  void frontier_noSystemFits_failsWithEveryReason() {
    CliRun r = frontier("l4,a100-sxm-40gb");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .startsWith("ridgeline: l4 x2: llama-3.1-70b does not fit on 2× l4")
        .contains("; a100-sxm-40gb x2: llama-3.1-70b does not fit on 2× a100-sxm-40gb");
  }

  @Test
  void frontier_jsonOfSeveralChips_hasOneEntryPerSystem() throws Exception {
    CliRun many = frontier("h100-sxm,l4,b200", "--json");
    CliRun one = frontier("h100-sxm", "--json");
    assertThat(many.code()).as(many.err()).isZero();
    JsonNode systems = many.json().get("systems");
    assertThat(systems).hasSize(3);
    assertThat(systems.get(0).get("system").asText()).isEqualTo("h100-sxm x2");
    assertThat(systems.get(1).get("fits").asBoolean()).isFalse();
    assertThat(systems.get(1).get("error").asText()).contains("does not fit on 2× l4");
    // an entry is the one-chip JSON, plus system, fits and pareto_across_systems on its points
    JsonNode h100 = systems.get(0).deepCopy();
    ((com.fasterxml.jackson.databind.node.ObjectNode) h100).remove(List.of("system", "fits"));
    for (JsonNode p : h100.get("points")) {
      assertThat(p.get("pareto_across_systems").isBoolean()).isTrue();
      ((com.fasterxml.jackson.databind.node.ObjectNode) p).remove("pareto_across_systems");
    }
    assertThat(h100).isEqualTo(one.json());
    // the one-chip JSON keeps its shape: no systems key
    assertThat(one.json().has("systems")).isFalse();
    // b200 x2 decodes faster than h100-sxm x2 at every batch: no h100 point is Pareto across both
    for (JsonNode p : systems.get(0).get("points")) {
      assertThat(p.get("pareto_across_systems").asBoolean()).isFalse();
    }
  }

  @Test
  void frontier_plotOfSeveralChips_writesOneChart(@TempDir Path dir) {
    Path png = dir.resolve("compare.png");
    CliRun r = frontier("h100-sxm,b200", "--plot", png.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(png).exists();
    assertThat(r.out()).contains("wrote " + png);
  }

  @Test
  void roofline_twoChips_printsBothReportsAndJsonEntries() throws Exception {
    String[] args = {
      "roofline",
      "--model",
      "llama-3.1-8b",
      "--chip",
      "h100-sxm,mi300x",
      "--batch",
      "1",
      "--context",
      "1024"
    };
    CliRun text = CliRun.of(args);
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("llama-3.1-8b on 1× h100-sxm")
        .contains("llama-3.1-8b on 1× mi300x");
    List<String> json = new ArrayList<>(List.of(args));
    json.add("--json");
    CliRun j = CliRun.of(json.toArray(String[]::new));
    JsonNode systems = j.json().get("systems");
    assertThat(systems).hasSize(2);
    assertThat(systems.get(1).get("system").asText()).isEqualTo("mi300x x1");
    assertThat(systems.get(1).get("chip").asText()).isEqualTo("mi300x");
  }

  @Test
  void crossover_chipList_isRefused() {
    CliRun r =
        CliRun.of(
            "crossover", "--model", "llama-3.1-8b", "--chip", "h100-sxm,b200", "--batch", "8");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            "ridgeline: --chip takes one chip here (frontier and roofline take a list):"
                + " 'h100-sxm,b200'\n");
  }
}
