package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

final class HelpLayoutTest {

  /** Every command's name, the root's first ("" runs {@code ridgeline --help}). */
  private static List<String> commands() {
    List<String> names = new ArrayList<>(List.of(""));
    names.addAll(new CommandLine(new RidgelineCli()).getSubcommands().keySet());
    names.remove("help");
    return names;
  }

  private static String help(String command) {
    CliRun r = command.isEmpty() ? CliRun.of("--help") : CliRun.of(command, "--help");
    assertThat(r.code()).as(command + ": " + r.err()).isZero();
    return r.out();
  }

  @Test
  void help_everyCommand_fitsIn79ColumnsAndEverySubcommandHasExamples() {
    for (String c : commands()) {
      String text = help(c);
      for (String line : text.split("\n", -1)) {
        assertThat(line.codePointCount(0, line.length()))
            .as(c + " help line: " + line)
            .isLessThanOrEqualTo(HelpLayout.WIDTH);
      }
      if (!c.isEmpty()) {
        assertThat(text).as(c).contains("\nExamples:\n");
      }
    }
  }

  @Test
  void help_root_isAShortCommandList() {
    String text = help("");
    // 11 commands and help, the usage, description and help options
    assertThat(text.lines().count()).isLessThan(40);
    assertThat(text).contains("  frontier    Interactivity against throughput");
  }

  @Test
  void help_frontier_groupsOptionsUnderHeadings() {
    String text = help("frontier");
    assertThat(text)
        .startsWith("Usage: ridgeline frontier --model=<model> (--chip=<chip> | --system=SPEC...)")
        .contains("\n                          [OPTIONS]\n");
    int system = text.indexOf("\nSystem:\n");
    int workload = text.indexOf("\nWorkload:\n");
    int efficiency = text.indexOf("\nEfficiency:\n");
    int output = text.indexOf("\nOutput:\n");
    assertThat(List.of(system, workload, efficiency, output)).isSorted().doesNotContain(-1);
    // --chip listed under System, --json under Output
    assertThat(text.indexOf("--chip=<chip>", system)).isBetween(system, workload);
    assertThat(text.indexOf("--json", output)).isGreaterThan(output);
  }

  @Test
  void examples_everyOne_parses() {
    for (Map.Entry<String, List<String>> e : HelpLayout.EXAMPLES_BY_COMMAND.entrySet()) {
      for (String example : joined(e.getValue())) {
        if (!example.startsWith("ridgeline ")) {
          continue;
        }
        // the command line up to a shell redirection
        String line = example.split(" > ", 2)[0];
        String[] args = line.substring("ridgeline ".length()).trim().split(" +");
        CommandLine cl = new CommandLine(new RidgelineCli());
        cl.registerConverter(io.ridgeline.core.Precision.class, io.ridgeline.core.Precision::of);
        cl.parseArgs(args);
      }
    }
  }

  /** The examples with their continued lines ({@code \} at the end) joined. */
  private static List<String> joined(List<String> lines) {
    List<String> out = new ArrayList<>();
    StringBuilder b = new StringBuilder();
    for (String l : lines) {
      if (l.endsWith("\\")) {
        b.append(l, 0, l.length() - 1);
      } else {
        out.add(b.append(l).toString().replaceAll(" +", " "));
        b.setLength(0);
      }
    }
    return out;
  }

  @Test
  void completion_bash_printsTheScriptOfEveryCommand() {
    CliRun r = CliRun.of("completion", "bash");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("#!/usr/bin/env bash").contains("complete -F");
    assertThat(r.out()).contains("frontier").contains("--chip").contains("--ttft");
    CliRun fish = CliRun.of("completion", "fish");
    assertThat(fish.code()).isEqualTo(1);
    assertThat(fish.err())
        .isEqualTo("ridgeline: completion: the shell must be bash or zsh: 'fish'\n");
  }
}
