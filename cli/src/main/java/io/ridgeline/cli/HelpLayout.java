package io.ridgeline.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The layout of every command's help: at most {@value #WIDTH} columns, a one-line synopsis ({@code
 * ridgeline frontier [OPTIONS]}), the description as a summary line and one paragraph, the options
 * under headings (System, Precision, Workload, Objectives, Efficiency, Output, Help) and an
 * Examples section.
 *
 * <p>The groups are named here by option, not with picocli's {@code @ArgGroup}: the shared option
 * mixins ({@link SystemOptions}, {@link WorkloadOptions}, {@link EfficiencyOptions}) serve several
 * commands, and an argument group would change how every one of their fields is set (a group's
 * object exists only once one of its options is typed). An option no group names is listed under
 * "Options", so a new option is never hidden.
 */
final class HelpLayout {
  /** The widest help line, in columns: under 80, for a terminal of 80. */
  static final int WIDTH = 79;

  private static final String EXAMPLES = "examples";

  /** The heading of each group, and the options it lists in the help, in order. */
  private static final Map<String, List<String>> GROUPS = groups();

  private HelpLayout() {}

  private static Map<String, List<String>> groups() {
    Map<String, List<String>> g = new LinkedHashMap<>();
    g.put(
        "System",
        List.of(
            "--model",
            "--architecture",
            "--chip",
            "--chips",
            "--chip-set",
            "--count",
            "--tp",
            "--pp",
            "--ep",
            "--attention-dp",
            "--strategy",
            "--strategies",
            "--prefill-chip",
            "--prefill-count",
            "--decode-chip",
            "--decode-count",
            "--attention-chip",
            "--attention-count",
            "--ffn-chip",
            "--ffn-count",
            "--ffn-tp",
            "--ffn-pp",
            "--ffn-ep",
            "--afd-microbatches",
            "--pool-link-gbps",
            "--kv-offload",
            "--add",
            "--export",
            "--grid",
            "--cases"));
    g.put(
        "Precision",
        List.of(
            "--weights",
            "--attention-weights",
            "--expert-weights",
            "--dense-weights",
            "--embedding-weights",
            "--kv",
            "--activations"));
    g.put(
        "Workload",
        List.of(
            "--isl",
            "--osl",
            "--batch",
            "--max-batch",
            "--batches",
            "--context",
            "--prompt",
            "--cached",
            "--prefix-hit",
            "--rate",
            "--routing-skew",
            "--expert-imbalance",
            "--redundant-experts",
            "--spec-draft",
            "--spec-length",
            "--spec-acceptance"));
    g.put(
        "Objectives",
        List.of("--ttft", "--tpot", "--ttft-p99", "--tpot-p99", "--objective", "--price", "--top"));
    g.put(
        "Efficiency",
        List.of(
            "--efficiency",
            "--engine",
            "--engine-version",
            "--profile",
            "--eager-decode",
            "--synchronous-scheduler",
            "--anchor",
            "--evaluations",
            "--cross-validate"));
    g.put(
        "Output",
        List.of(
            "--json",
            "--csv",
            "--plot",
            "--log",
            "--log-x",
            "--log-y",
            "--out",
            "--format",
            "--summary",
            "--report",
            "--bands",
            "--rows",
            "--threads",
            "--no-progress"));
    g.put("Help", List.of("--help", "--version"));
    return g;
  }

  /**
   * Examples of each command (the root's help is its command list), as typed (a line ending in
   * {@code \} continues on the next).
   */
  static final Map<String, List<String>> EXAMPLES_BY_COMMAND =
      Map.ofEntries(
          Map.entry(
              "chips",
              List.of(
                  "ridgeline chips",
                  "ridgeline chips --export h100-sxm > my-chip.json",
                  "ridgeline chips --export 'h100-sxm*' --chip-set h100-sxm:bandwidth_gbps=2x")),
          Map.entry("models", List.of("ridgeline models", "ridgeline models --json")),
          Map.entry(
              "roofline",
              List.of(
                  "ridgeline roofline --model llama-3.1-8b --chip h100-sxm --batch 1 \\",
                  "    --context 1024",
                  "ridgeline roofline --model llama-3.1-70b --chip h100-sxm,b200 --count 8 \\",
                  "    --batch 64 --context 4096 --json")),
          Map.entry(
              "frontier",
              List.of(
                  "ridgeline frontier --model llama-3.1-70b --chip h100-sxm --count 8",
                  "ridgeline frontier --model llama-3.1-70b --chip h100-sxm,mi300x,b200 \\",
                  "    --count 8 --plot",
                  "ridgeline frontier --model llama-3.1-70b --chip h100-sxm --count 8 \\",
                  "    --strategy all --json")),
          Map.entry(
              "crossover",
              List.of("ridgeline crossover --model llama-3.1-8b --chip h100-sxm --batch 8")),
          Map.entry(
              "intensity",
              List.of("ridgeline intensity --model deepseek-v3 --chip h200-sxm --count 8")),
          Map.entry(
              "plan",
              List.of(
                  "ridgeline plan --model llama-3.1-70b --isl 1024 --osl 256 --rate 10 \\",
                  "    --ttft 500ms --tpot 50ms --chips h100-sxm,b200,mi300x")),
          Map.entry(
              "sweep", List.of("ridgeline sweep --grid examples/sweep-grid.json --out sweep.csv")),
          Map.entry("validate", List.of("ridgeline validate", "ridgeline validate --json")),
          Map.entry("calibrate", List.of("ridgeline calibrate --evaluations 200")),
          Map.entry(
              "serve",
              List.of(
                  "ridgeline serve",
                  "ridgeline serve --port 0",
                  "curl -s 'http://127.0.0.1:8080/api/frontier?model=llama-3.1-8b&chip=b200'")),
          Map.entry(
              "completion",
              List.of(
                  "source <(ridgeline completion bash)",
                  "ridgeline completion bash \\",
                  "    > ~/.local/share/bash-completion/completions/ridgeline")));

  /** Lays out the help of {@code cl} and of every subcommand. */
  static void install(CommandLine cl) {
    cl.setUsageHelpWidth(WIDTH);
    CommandSpec spec = cl.getCommandSpec();
    CommandLine.Model.UsageMessageSpec usage = spec.usageMessage();
    if (spec.subcommands().isEmpty()) {
      usage.customSynopsis(synopsis(spec));
    }
    usage.description(paragraphs(usage.description()));
    if (!spec.positionalParameters().isEmpty()) {
      usage.parameterListHeading("%nArguments:%n");
    }
    Map<String, CommandLine.IHelpSectionRenderer> sections = cl.getHelpSectionMap();
    sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING, help -> "");
    sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST, HelpLayout::options);
    List<String> examples = EXAMPLES_BY_COMMAND.get(spec.name());
    if (examples != null) {
      sections.put(EXAMPLES, help -> "%nExamples:%n".formatted() + indent(examples));
      List<String> keys = new ArrayList<>(cl.getHelpSectionKeys());
      int at = keys.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_EXIT_CODE_LIST_HEADING);
      keys.add(at < 0 ? keys.size() : at, EXAMPLES);
      // on this command only (CommandLine.setHelpSectionKeys also sets every subcommand's)
      usage.sectionKeys(keys);
    }
    cl.getSubcommands().values().forEach(HelpLayout::install);
  }

  /**
   * {@code Usage: ridgeline frontier --model=<model> --chip=<chip> [OPTIONS]}: the command, its
   * required options and {@code [OPTIONS]}, wrapped under the command at {@link #WIDTH} columns
   * (picocli's full synopsis of every option ran to 30 lines).
   */
  private static String[] synopsis(CommandSpec spec) {
    List<String> tokens = new ArrayList<>();
    for (OptionSpec o : spec.options()) {
      if (o.longestName().equals("--chip") && spec.findOption("--system") != null) {
        // --chip is needed unless --system names the systems (checked when the command runs)
        tokens.add("(--chip=" + o.paramLabel() + " | --system=SPEC...)");
      } else if (o.required() || o.longestName().equals("--chip")) {
        tokens.add(o.longestName() + "=" + o.paramLabel());
      }
    }
    for (CommandLine.Model.PositionalParamSpec p : spec.positionalParameters()) {
      tokens.add(p.paramLabel());
    }
    tokens.add("[OPTIONS]");
    // after the synopsis heading "Usage: "
    String head = spec.qualifiedName();
    int indent = "Usage: ".length() + head.length();
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder(head);
    for (String t : tokens) {
      int width = line.length() + (lines.isEmpty() ? "Usage: ".length() : 0);
      if (width + 1 + t.length() > WIDTH) {
        lines.add(line.toString());
        line = new StringBuilder(" ".repeat(indent));
      }
      line.append(' ').append(t);
    }
    lines.add(line.toString());
    return new String[] {String.join("%n", lines) + "%n"};
  }

  /**
   * The description as its first line (the command list's summary) and the rest joined into one
   * paragraph, which picocli wraps at the help's width (lines broken by hand wrap raggedly).
   */
  private static String[] paragraphs(String[] lines) {
    if (lines.length <= 2) {
      return lines;
    }
    List<String> rest = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      rest.add(lines[i].strip());
    }
    return new String[] {lines[0], String.join(" ", rest)};
  }

  private static String indent(List<String> lines) {
    StringBuilder b = new StringBuilder();
    for (String l : lines) {
      b.append("  ").append(l).append(System.lineSeparator());
    }
    return b.toString();
  }

  /** The options under their groups' headings, each group in the order {@link #GROUPS} gives. */
  private static String options(CommandLine.Help help) {
    List<OptionSpec> visible = new ArrayList<>();
    for (OptionSpec o : help.commandSpec().options()) {
      if (!o.hidden()) {
        visible.add(o);
      }
    }
    StringBuilder b = new StringBuilder();
    List<OptionSpec> listed = new ArrayList<>();
    for (Map.Entry<String, List<String>> g : GROUPS.entrySet()) {
      List<OptionSpec> in = new ArrayList<>();
      for (String name : g.getValue()) {
        for (OptionSpec o : visible) {
          if (o.longestName().equals(name) && !listed.contains(o)) {
            in.add(o);
          }
        }
      }
      if (g.getKey().equals("Help")) {
        // anything no group names, before the help options
        List<OptionSpec> other = new ArrayList<>(visible);
        other.removeAll(listed);
        other.removeAll(in);
        b.append(section(help, "Options", other));
      }
      listed.addAll(in);
      b.append(section(help, g.getKey(), in));
    }
    return b.toString();
  }

  private static String section(CommandLine.Help help, String heading, List<OptionSpec> options) {
    if (options.isEmpty()) {
      return "";
    }
    CommandLine.Help.Layout layout = help.createDefaultLayout();
    CommandLine.Help.IParamLabelRenderer labels = help.createDefaultParamLabelRenderer();
    for (OptionSpec o : options) {
      layout.addOption(o, labels);
    }
    return "%n%s:%n".formatted(heading) + layout;
  }
}
