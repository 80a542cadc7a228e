package io.ridgeline.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.ridgeline.hardware.Chips;
import io.ridgeline.serving.efficiency.ErrorBands;
import io.ridgeline.validation.CaseFile;
import io.ridgeline.validation.CrossValidation;
import io.ridgeline.validation.CrossValidationJson;
import io.ridgeline.validation.Predictor;
import io.ridgeline.validation.Summary;
import io.ridgeline.validation.Validation;
import io.ridgeline.validation.ValidationCase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Writes the generated documentation: {@code docs/cli.md} from the picocli command definitions, and
 * the sections between {@code <!-- generated: NAME -->} and {@code <!-- end generated -->} in
 * {@code docs/validation.md} and the README (its accuracy line) from the shipped cross-validation
 * folds, case file and error bands. Deterministic: the same definitions and files give the same
 * bytes ({@code DocsTest} checks the committed files against it). {@link #REGENERATE} rewrites
 * them; {@link #main} does the same from the repository root given as its argument.
 */
final class DocsGenerator {
  /** The command that regenerates every generated page, from the repository root. */
  static final String REGENERATE =
      "mvn -B -o -q test -pl cli -am -Dtest=DocsTest -Dsurefire.failIfNoSpecifiedTests=false"
          + " -Dridgeline.docs.write=true";

  /** The pages with generated sections, from the repository root. */
  static final List<String> GENERATED_PAGES = List.of("README.md", "docs/validation.md");

  private static final Pattern GENERATED =
      Pattern.compile(
          "(<!-- generated: ([a-z-]+) -->\\n)(.*?)(<!-- end generated -->)", Pattern.DOTALL);

  private DocsGenerator() {}

  /** Writes docs/cli.md and docs/validation.md's generated sections under {@code root}. */
  public static void main(String[] args) {
    Path root = Path.of(args.length > 0 ? args[0] : ".");
    write(root.resolve("docs/cli.md"), cliReference());
    for (String page : GENERATED_PAGES) {
      Path file = root.resolve(page);
      write(file, withValidationTables(read(file)));
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file, UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void write(Path file, String text) {
    try {
      Files.writeString(file, text, UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ------------------------------------------------------------------ CLI reference

  /** The CLI reference: every subcommand with its description, options and parameters. */
  static String cliReference() {
    CommandSpec root = new CommandLine(new RidgelineCli()).getCommandSpec();
    StringBuilder b = new StringBuilder();
    b.append("# Command-line reference\n\n")
        .append(
            "<!-- Generated from the picocli command definitions by DocsGenerator; do not edit.")
        .append(" Regenerate: ")
        .append(REGENERATE)
        .append(" -->\n\n")
        .append("`./ridgeline COMMAND [OPTIONS]`: ")
        .append(text(root.usageMessage().description()))
        .append(" Every command also takes `-h`/`--help` and `-V`/`--version`.")
        .append(" What each command prints, and its JSON keys, is in [outputs](output.md);")
        .append(" the ranges every number must lie in are in [errors](errors.md).\n\n");
    List<CommandSpec> commands = new ArrayList<>();
    root.subcommands()
        .forEach(
            (name, cl) -> {
              CommandSpec spec = cl.getCommandSpec();
              if (spec.name().equals(name)
                  && !(spec.userObject() instanceof CommandLine.HelpCommand)) {
                commands.add(spec);
              }
            });
    for (CommandSpec c : commands) {
      b.append("* [`").append(c.name()).append("`](#").append(c.name()).append(")\n");
    }
    for (CommandSpec c : commands) {
      b.append("\n## ").append(c.name()).append("\n\n");
      b.append(text(c.usageMessage().description())).append("\n\n");
      b.append("```text\n").append(synopsis(c)).append("\n```\n\n");
      List<PositionalParamSpec> positionals = c.positionalParameters();
      List<OptionSpec> options = new ArrayList<>();
      for (OptionSpec o : c.options()) {
        if (!o.hidden() && !o.usageHelp() && !o.versionHelp()) {
          options.add(o);
        }
      }
      if (options.isEmpty() && positionals.isEmpty()) {
        continue;
      }
      b.append("| option | value | default | description |\n|---|---|---|---|\n");
      for (PositionalParamSpec p : positionals) {
        if (p.hidden()) {
          continue;
        }
        b.append("| ")
            .append(code(p.paramLabel()))
            .append(" | ")
            .append(arity(p.arity(), p.paramLabel()))
            .append(" | ")
            .append(defaultOf(p.defaultValue(), null))
            .append(" | ")
            .append(cell(text(p.description())))
            .append(" |\n");
      }
      for (OptionSpec o : options) {
        boolean flag = o.arity().max() == 0;
        b.append("| ")
            .append(code(String.join(", ", o.names())))
            .append(
                o.required() || chip(o)
                    ? (chip(o) && c.findOption("--system") != null
                        ? " (required unless --system)"
                        : " (required)")
                    : "")
            .append(" | ")
            .append(flag ? "" : arity(o.arity(), o.paramLabel()))
            .append(" | ")
            .append(flag ? "" : defaultOf(o.defaultValue(), o.initialValue()))
            .append(" | ")
            .append(cell(text(o.description())))
            .append(" |\n");
      }
    }
    return b.toString();
  }

  /**
   * Whether {@code o} is the systems' --chip: needed, but checked when the command runs (frontier
   * and roofline take --system instead), so picocli does not mark it required.
   */
  private static boolean chip(OptionSpec o) {
    return o.longestName().equals("--chip");
  }

  private static String synopsis(CommandSpec c) {
    StringBuilder b = new StringBuilder("ridgeline ").append(c.name());
    for (OptionSpec o : c.options()) {
      if (o.hidden() || o.usageHelp() || o.versionHelp() || !(o.required() || chip(o))) {
        continue;
      }
      if (chip(o) && c.findOption("--system") != null) {
        b.append(" (--chip ").append(o.paramLabel()).append(" | --system SPEC...)");
        continue;
      }
      b.append(' ').append(o.longestName());
      if (o.arity().max() > 0) {
        b.append(' ').append(o.paramLabel());
      }
    }
    for (PositionalParamSpec p : c.positionalParameters()) {
      if (!p.hidden()) {
        b.append(' ').append(p.paramLabel());
      }
    }
    return b.append(" [OPTIONS]").toString();
  }

  private static String arity(CommandLine.Range arity, String label) {
    String l = code(label);
    if (arity.min() == 1 && arity.max() == 1) {
      return l;
    }
    return l + " (" + arity + ")";
  }

  private static String defaultOf(String defaultValue, Object initial) {
    if (defaultValue != null) {
      return code(defaultValue);
    }
    if (initial == null || initial instanceof Boolean) {
      return "";
    }
    if (initial instanceof java.util.Collection<?> c && c.isEmpty()) {
      return "";
    }
    return code(String.valueOf(initial));
  }

  /** A description as one line of plain text: picocli's format escapes undone. */
  private static String text(String[] lines) {
    return String.join(" ", lines).replace("%n", " ").replace("%%", "%").strip();
  }

  private static String code(String s) {
    return s.isEmpty() ? "" : "`" + s.replace("|", "\\|") + "`";
  }

  private static String cell(String s) {
    return s.replace("|", "\\|");
  }

  // ------------------------------------------------------------------ validation tables

  /** {@code page} with each generated section replaced by its table; an unknown name fails. */
  static String withValidationTables(String page) {
    Map<String, String> tables = new LinkedHashMap<>();
    Matcher m = GENERATED.matcher(page);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(2);
      String table =
          tables.computeIfAbsent(
              name,
              n ->
                  switch (n) {
                    case "cross-validation" -> crossValidationTable();
                    case "error-bands" -> errorBandsTable();
                    case "headline" -> headline();
                    default ->
                        throw new IllegalArgumentException("unknown generated section: " + n);
                  });
      m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + table + m.group(4)));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * The median absolute percentage error of the shipped cases by group (overall, metric, chip
   * vendor, engine, mode): at the roofline bound (ideal), and the shipped cross-validation folds
   * replayed with today's model for each scheme.
   */
  static String crossValidationTable() {
    List<ValidationCase> cases = CaseFile.shipped();
    String text = CrossValidationJson.shipped().orElseThrow();
    CrossValidation.Report report =
        CrossValidation.replay(cases, CrossValidationJson.folds(text, "crossval.json"));
    Validation ideal = Validation.run(cases, Predictor.ideal());
    Map<String, Function<ValidationCase, String>> groups = new LinkedHashMap<>();
    groups.put("overall", c -> "all");
    groups.put("metric", c -> c.metric().id());
    groups.put("vendor", c -> Chips.byId(c.chip()).vendor());
    groups.put("engine", ValidationCase::engine);
    groups.put("mode", c -> c.mode().id());
    CrossValidation.Scheme loso = CrossValidation.Scheme.LEAVE_ONE_SOURCE_OUT;
    StringBuilder b = new StringBuilder();
    b.append(
            String.format(
                Locale.ROOT,
                "**Leave-one-source-out: %s median absolute percentage error** over %d rows"
                    + " (%d cases in the shipped file, %d skipped with their reasons by"
                    + " `./ridgeline validate`).%n%n",
                percent(report.summary(loso)),
                report.summary(loso).count(),
                cases.size(),
                cases.size() - ideal.predictions().size()))
        .append("| group | value | rows | ideal |");
    for (CrossValidation.Scheme s : CrossValidation.Scheme.values()) {
      b.append(' ').append(s.id()).append(" |");
    }
    b.append("\n|---|---|---:|---:|");
    for (int i = 0; i < CrossValidation.Scheme.values().length; i++) {
      b.append("---:|");
    }
    b.append('\n');
    for (Map.Entry<String, Function<ValidationCase, String>> g : groups.entrySet()) {
      Map<String, Summary> idealBy = ideal.by(g.getValue());
      Map<CrossValidation.Scheme, Map<String, Summary>> bySchemes = new LinkedHashMap<>();
      for (CrossValidation.Scheme s : CrossValidation.Scheme.values()) {
        bySchemes.put(s, report.by(s, g.getValue()));
      }
      for (Map.Entry<String, Summary> value :
          report.by(CrossValidation.Scheme.IN_SAMPLE, g.getValue()).entrySet()) {
        b.append("| ")
            .append(g.getKey())
            .append(" | ")
            .append(value.getKey())
            .append(" | ")
            .append(value.getValue().count())
            .append(" | ")
            .append(percent(idealBy.get(value.getKey())))
            .append(" |");
        for (CrossValidation.Scheme s : CrossValidation.Scheme.values()) {
          b.append(' ').append(percent(bySchemes.get(s).get(value.getKey()))).append(" |");
        }
        b.append('\n');
      }
    }
    return b.toString();
  }

  /** The README's accuracy line: the leave-one-source-out median of the shipped folds replayed. */
  static String headline() {
    List<ValidationCase> cases = CaseFile.shipped();
    String text = CrossValidationJson.shipped().orElseThrow();
    Summary loso =
        CrossValidation.replay(cases, CrossValidationJson.folds(text, "crossval.json"))
            .summary(CrossValidation.Scheme.LEAVE_ONE_SOURCE_OUT);
    return String.format(
        Locale.ROOT,
        "Calibrated estimates are within a median %.0f%% of published measurements on sources the"
            + " fit never saw%n(leave-one-source-out over %d rows; the tables and the method are in"
            + " [validation](docs/validation.md)).%n",
        100 * loso.medianApe(),
        loso.count());
  }

  /**
   * The built-in error bands: each estimate's typical error, its asymmetric band and the band's
   * realised coverage, and where they come from.
   */
  static String errorBandsTable() {
    ErrorBands bands = ErrorBands.builtIn();
    StringBuilder b =
        new StringBuilder(
            "| estimate | typical error (median APE) | band: measured / estimate − 1, 20th–80th"
                + " percentile | unseen rows inside the band |\n|---|---:|---:|---:|\n");
    for (ErrorBands.Estimate e : ErrorBands.Estimate.values()) {
      ErrorBands.Range r = bands.range(e);
      b.append("| ")
          .append(e.key())
          .append(" | ")
          .append(String.format(Locale.ROOT, "%.0f%%", 100 * bands.typical(e)))
          .append(" | ")
          .append(r)
          .append(" | ")
          .append(String.format(Locale.ROOT, "%.0f%%", 100 * r.coverage()))
          .append(" |\n");
    }
    b.append("\nSource: ").append(bands.source()).append(".\n");
    return b.toString();
  }

  private static String percent(Summary s) {
    return s == null || s.count() == 0
        ? "-"
        : String.format(Locale.ROOT, "%.1f%%", 100 * s.medianApe());
  }
}
