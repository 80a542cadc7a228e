package io.ridgeline.cli;

import com.google.common.base.Splitter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * One system of {@code --system CHIP[:COUNT][:FIELD=VALUE...]}: a chip with its own count,
 * parallelism and (in {@code frontier}) strategy, so that one table and one chart compare systems
 * of different sizes and strategies.
 *
 * <p>The grammar: fields separated by {@code :}; the first is the chip (an id or a chip JSON path,
 * as {@code --chip}); a bare whole number after it is the count; every other field is {@code
 * FIELD=VALUE}, FIELD the name of the command's option without its dashes: {@code count}, {@code
 * tp}, {@code pp}, {@code ep}, {@code attention-dp} and {@code strategy}. The values are parsed by
 * picocli as those options and checked against their ranges ({@link OptionLimits}), so a field is
 * read and bounded as its option: {@code h100-sxm:8}, {@code mi300x:4:tp=4}, {@code
 * b200:8:strategy=pd}, {@code h200-sxm:16:tp=8:pp=2}. A field the spec leaves out takes the
 * command's option (its --pp, --strategy, ...); {@code --chip}, {@code --count} and {@code --tp}
 * name a system themselves and are refused beside {@code --system}.
 *
 * @param text the spec as typed, for messages
 * @param chip the chip id or file
 * @param count the chip count, or null for the command's sizing
 * @param tp the tensor-parallel degree, or null
 * @param pp the pipeline stages, or null
 * @param ep the expert-parallel degree, or null
 * @param attentionDp the attention data-parallel groups, or null
 * @param strategy the strategy text ({@code --strategy}'s grammar), or null
 */
record SystemSpec(
    String text,
    String chip,
    Integer count,
    Integer tp,
    Integer pp,
    Integer ep,
    Integer attentionDp,
    String strategy) {

  /** The help of {@code --system}. */
  static final String HELP =
      "A system to compare, CHIP[:COUNT][:FIELD=VALUE...] with FIELD one of count, tp, pp, ep,"
          + " attention-dp, strategy (read as those options), e.g. mi300x:4:tp=4 or"
          + " b200:8:strategy=pd (repeatable; instead of --chip, --count and --tp).";

  /** The fields a spec may set: the options of the same name. */
  static final List<String> FIELDS = List.of("count", "tp", "pp", "ep", "attention-dp", "strategy");

  /** The options a spec's fields are parsed as (picocli's own conversion and messages). */
  @Command(name = "--system")
  static final class Fields {
    @Option(names = "--count")
    Integer count;

    @Option(names = "--tp")
    Integer tp;

    @Option(names = "--pp")
    Integer pp;

    @Option(names = "--ep")
    Integer ep;

    @Option(names = "--attention-dp")
    Integer attentionDp;

    @Option(names = "--strategy")
    String strategy;
  }

  /** The system of one chip of a {@code --chip} list: every field the command's own. */
  static SystemSpec ofChip(String chip) {
    return new SystemSpec(chip, chip, null, null, null, null, null, null);
  }

  /**
   * Parses one spec.
   *
   * @throws IllegalArgumentException in one line naming the spec, the field and the value when a
   *     field is unknown, repeated, not a number or out of its option's range
   */
  static SystemSpec parse(String text) {
    List<String> parts = Splitter.on(':').trimResults().splitToList(text);
    String chip = parts.get(0);
    if (chip.isEmpty()) {
      throw bad(text, "the chip is missing (CHIP[:COUNT][:FIELD=VALUE...], e.g. h100-sxm:8)");
    }
    List<String> args = new ArrayList<>();
    for (int i = 1; i < parts.size(); i++) {
      String part = parts.get(i);
      int eq = part.indexOf('=');
      String field;
      String value;
      if (eq < 0) {
        if (i != 1) {
          throw bad(
              text, "expected FIELD=VALUE (" + String.join(", ", FIELDS) + "): '" + part + "'");
        }
        // a bare second field is the count
        field = "count";
        value = part;
      } else {
        field = part.substring(0, eq).trim();
        value = part.substring(eq + 1).trim();
      }
      if (!FIELDS.contains(field)) {
        throw bad(text, "unknown field '" + field + "' (known: " + String.join(", ", FIELDS) + ")");
      }
      if (args.contains("--" + field)) {
        throw bad(text, "field '" + field + "' is given twice");
      }
      args.add("--" + field);
      args.add(value);
    }
    Fields f = new Fields();
    try {
      CommandLine.ParseResult parsed = new CommandLine(f).parseArgs(args.toArray(String[]::new));
      OptionLimits.check(parsed);
    } catch (CommandLine.ParameterException e) {
      throw bad(text, e.getMessage());
    } catch (IllegalArgumentException e) {
      throw bad(text, e.getMessage());
    }
    if (f.strategy != null && f.strategy.isBlank()) {
      throw bad(text, "--strategy must name a strategy: ''");
    }
    return new SystemSpec(text, chip, f.count, f.tp, f.pp, f.ep, f.attentionDp, f.strategy);
  }

  /**
   * The specs of every {@code --system}, in order; empty without one.
   *
   * @throws IllegalArgumentException when a spec is bad ({@link #parse}), or when {@code --chip},
   *     {@code --count} or {@code --tp} is given too (each names one system)
   */
  static List<SystemSpec> parseAll(List<String> texts, SystemOptions system) {
    if (texts == null || texts.isEmpty()) {
      return List.of();
    }
    for (String[] given :
        new String[][] {
          {"--chip", system.chip},
          {"--count", string(system.count)},
          {"--tp", string(system.tp)}
        }) {
      if (given[1] != null) {
        throw new IllegalArgumentException(
            "--system and "
                + given[0]
                + " are exclusive: each --system names its own chip, count and tp (e.g. --system"
                + " h100-sxm:8 --system mi300x:4:tp=4)");
      }
    }
    return texts.stream().map(SystemSpec::parse).toList();
  }

  private static String string(Integer n) {
    return n == null ? null : n.toString();
  }

  /**
   * What this spec sets beyond the chip and count, for a system's label: {@code " tp=4 pd"}; empty
   * for a plain chip.
   */
  String extras() {
    StringBuilder b = new StringBuilder();
    Optional.ofNullable(tp).ifPresent(v -> b.append(" tp=").append(v));
    Optional.ofNullable(pp).ifPresent(v -> b.append(" pp=").append(v));
    Optional.ofNullable(ep).ifPresent(v -> b.append(" ep=").append(v));
    Optional.ofNullable(attentionDp).ifPresent(v -> b.append(" attention-dp=").append(v));
    Optional.ofNullable(strategy).ifPresent(v -> b.append(' ').append(v));
    return b.toString();
  }

  /** The command's options for this system: its chip and every field it sets. */
  void applyTo(SystemOptions system, Defaults defaults) {
    system.select(chip);
    system.count = count != null ? count : defaults.count();
    system.tp = tp != null ? tp : defaults.tp();
    system.pp = pp != null ? pp : defaults.pp();
    system.ep = ep != null ? ep : defaults.ep();
    system.attentionDp = attentionDp != null ? attentionDp : defaults.attentionDp();
  }

  /** The command's own layout options, which a spec's missing fields take. */
  record Defaults(Integer count, Integer tp, int pp, int ep, int attentionDp) {
    static Defaults of(SystemOptions s) {
      return new Defaults(s.count, s.tp, s.pp, s.ep, s.attentionDp);
    }
  }

  private static IllegalArgumentException bad(String text, String why) {
    return new IllegalArgumentException("--system " + text + ": " + why);
  }
}
