package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --system CHIP[:COUNT][:FIELD=VALUE...]} in frontier and roofline. */
final class SystemSpecTest {

  private static CliRun frontier(String... extra) {
    List<String> args =
        new ArrayList<>(List.of("frontier", "--model", "llama-3.1-70b", "--max-batch", "4"));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void parse_chipCountAndFields() {
    SystemSpec s = SystemSpec.parse("mi300x:4:tp=4:pp=1:strategy=pd");
    assertThat(s.chip()).isEqualTo("mi300x");
    assertThat(s.count()).isEqualTo(4);
    assertThat(s.tp()).isEqualTo(4);
    assertThat(s.pp()).isEqualTo(1);
    assertThat(s.strategy()).isEqualTo("pd");
    assertThat(s.extras()).isEqualTo(" tp=4 pp=1 pd");
    assertThat(SystemSpec.parse("h100-sxm").count()).isNull();
    assertThat(SystemSpec.parse("h100-sxm:count=8").count()).isEqualTo(8);
  }

  @Test
  void parse_badField_oneLineNamingFieldAndValue() {
    assertThatThrownBy(() -> SystemSpec.parse("mi300x:4:tp=four"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--system mi300x:4:tp=four: ")
        .hasMessageContaining("--tp")
        .hasMessageContaining("four");
    assertThatThrownBy(() -> SystemSpec.parse("mi300x:0"))
        .hasMessage("--system mi300x:0: --count must be positive: 0");
    assertThatThrownBy(() -> SystemSpec.parse("mi300x:4:size=2"))
        .hasMessage(
            "--system mi300x:4:size=2: unknown field 'size' (known: count, tp, pp, ep,"
                + " attention-dp, strategy)");
    assertThatThrownBy(() -> SystemSpec.parse("mi300x:4:8"))
        .hasMessageStartingWith("--system mi300x:4:8: expected FIELD=VALUE");
    assertThatThrownBy(() -> SystemSpec.parse("mi300x:4:count=8"))
        .hasMessage("--system mi300x:4:count=8: field 'count' is given twice");
    assertThatThrownBy(() -> SystemSpec.parse(":4"))
        .hasMessageStartingWith("--system :4: the chip is missing");
  }

  @Test
  void frontier_mixedSystems_oneTableLabelledBySpec() {
    // three systems of different counts, degrees and strategies: batches 1, 2, 4 each
    CliRun r =
        frontier(
            "--system",
            "h100-sxm:8",
            "--system",
            "mi300x:4:tp=4",
            "--system",
            "b200:8:strategy=pd");
    assertThat(r.code()).as(r.err()).isZero();
    for (String system : List.of("h100-sxm x8", "mi300x x4 tp=4", "b200 x8 pd")) {
      // the table's rows: the label, then the batch
      assertThat(r.out().lines().filter(l -> l.matches(system + " +[0-9].*")).count())
          .as(system + " in\n" + r.out())
          .isEqualTo(3);
    }
  }

  @Test
  void frontier_systemJson_namesEachSystem(@TempDir Path dir) throws Exception {
    Path chart = dir.resolve("mixed.png");
    CliRun r =
        frontier(
            "--system",
            "h100-sxm:8",
            "--system",
            "h100-sxm:8:tp=4",
            "--json",
            "--plot",
            chart.toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode systems = r.json().get("systems");
    assertThat(systems).hasSize(2);
    assertThat(systems.get(0).get("system").asText()).isEqualTo("h100-sxm x8");
    assertThat(systems.get(1).get("system").asText()).isEqualTo("h100-sxm x8 tp=4");
    // tp 4 on 8 chips: two replicas
    assertThat(systems.get(1).get("tp").asInt()).isEqualTo(4);
    assertThat(systems.get(1).get("chips").asInt()).isEqualTo(8);
    assertThat(chart).isNotEmptyFile();
  }

  @Test
  void frontier_systemBesideChipOrCount_isRefused() {
    CliRun withChip = frontier("--chip", "h100-sxm", "--system", "mi300x:4");
    assertThat(withChip.code()).isEqualTo(1);
    assertThat(withChip.err())
        .startsWith("ridgeline: --system and --chip are exclusive")
        .doesNotContain("Exception");
    CliRun withCount = frontier("--count", "8", "--system", "mi300x:4");
    assertThat(withCount.err()).startsWith("ridgeline: --system and --count are exclusive");
    CliRun bad = frontier("--system", "mi300x:4:tp=x");
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err().lines().count()).isEqualTo(1);
    assertThat(bad.err()).startsWith("ridgeline: --system mi300x:4:tp=x: ");
  }

  @Test
  void frontier_neitherChipNorSystem_saysWhatToGive() {
    CliRun r = frontier();
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            "ridgeline: give --chip CHIP (see `ridgeline chips`) or --system"
                + " CHIP[:COUNT][:FIELD=VALUE...]"
                + System.lineSeparator());
  }

  @Test
  void roofline_systems_oneEntryEach_andOneSystemIsTheChipReport() throws Exception {
    CliRun two =
        CliRun.of(
            "roofline",
            "--model",
            "llama-3.1-70b",
            "--batch",
            "1",
            "--context",
            "1024",
            "--system",
            "h100-sxm:8",
            "--system",
            "h100-sxm:8:tp=4",
            "--json");
    assertThat(two.code()).as(two.err()).isZero();
    JsonNode systems = two.json().get("systems");
    assertThat(systems.get(0).get("system").asText()).isEqualTo("h100-sxm x8");
    assertThat(systems.get(0).get("tp").asInt()).isEqualTo(8);
    assertThat(systems.get(1).get("system").asText()).isEqualTo("h100-sxm x8 tp=4");
    assertThat(systems.get(1).get("tp").asInt()).isEqualTo(4);
    assertThat(systems.get(1).get("replicas").asInt()).isEqualTo(2);
    CliRun one =
        CliRun.of(
            "roofline",
            "--model",
            "llama-3.1-70b",
            "--batch",
            "1",
            "--context",
            "1024",
            "--system",
            "h100-sxm:8",
            "--json");
    CliRun chip =
        CliRun.of(
            "roofline",
            "--model",
            "llama-3.1-70b",
            "--batch",
            "1",
            "--context",
            "1024",
            "--chip",
            "h100-sxm",
            "--count",
            "8",
            "--json");
    assertThat(one.out()).isEqualTo(chip.out());
    CliRun strategy =
        CliRun.of(
            "roofline",
            "--model",
            "llama-3.1-70b",
            "--batch",
            "1",
            "--context",
            "1024",
            "--system",
            "h100-sxm:8:strategy=pd");
    assertThat(strategy.err())
        .startsWith("ridgeline: --system h100-sxm:8:strategy=pd: roofline reports one pool");
  }
}
