package io.ridgeline.cli;

import io.ridgeline.serving.Limits;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The valid range of every numeric option, checked once after parsing and before a command runs
 * (docs/errors.md). A value outside its range is bad input (exit 1): one line naming the option,
 * the rule and the value typed. A value picocli cannot parse as a number is a malformed option
 * (exit 2). The bounds keep every product of sizes inside {@code long} and every result finite;
 * they are far above any real deployment.
 */
final class OptionLimits {
  private static final long MAX_CHIPS = Limits.MAX_CHIPS;
  private static final long MAX_BATCH = Limits.MAX_BATCH;
  private static final long MAX_TOKENS = Limits.MAX_TOKENS;

  /** An inclusive (or, where {@code openMin}, left-open) range of one option. */
  record Range(double min, boolean openMin, double max, String unit) {
    boolean contains(double v) {
      return Double.isFinite(v) && (openMin ? v > min : v >= min) && v <= max;
    }

    /**
     * The rule {@code v} breaks: "must be positive" (a count), "must be a positive number (UNIT)",
     * "must not be negative", "must be at least MIN", "must be at most MAX UNIT" or "must be a
     * finite number".
     */
    String broken(double v) {
      if (!Double.isFinite(v)) {
        return "must be a finite number";
      }
      if (v > max) {
        return "must be at most " + number(max) + unit;
      }
      if (min == 0) {
        return openMin
            ? "must be a positive number" + (unit.isEmpty() ? "" : " (" + unit.trim() + ")")
            : "must not be negative";
      }
      return min == 1 && !openMin ? "must be positive" : "must be at least " + number(min) + unit;
    }
  }

  /** Every numeric option of every command, with its range. */
  static final Map<String, Range> RANGES = ranges();

  private OptionLimits() {}

  private static Map<String, Range> ranges() {
    Map<String, Range> m = new LinkedHashMap<>();
    Range chips = new Range(1, false, MAX_CHIPS, "");
    for (String o :
        List.of(
            "--count",
            "--tp",
            "--pp",
            "--ep",
            "--attention-dp",
            "--prefill-count",
            "--decode-count",
            "--attention-count",
            "--ffn-count",
            "--ffn-tp",
            "--ffn-pp",
            "--ffn-ep")) {
      m.put(o, chips);
    }
    Range batch = new Range(1, false, MAX_BATCH, "");
    m.put("--batch", batch);
    m.put("--max-batch", batch);
    m.put("--batches", batch);
    Range tokens = new Range(1, false, MAX_TOKENS, " tokens");
    for (String o : List.of("--isl", "--osl", "--context", "--prompt")) {
      m.put(o, tokens);
    }
    m.put("--cached", new Range(0, false, MAX_TOKENS, " tokens"));
    m.put("--afd-microbatches", new Range(1, false, 1024, ""));
    m.put("--spec-length", new Range(1, false, 256, " tokens"));
    m.put("--spec-acceptance", new Range(0, false, 0.999, ""));
    m.put("--routing-skew", new Range(0, false, 10, ""));
    m.put("--redundant-experts", new Range(0, false, 4096, " experts"));
    m.put("--pool-link-gbps", new Range(0.001, false, 1e6, " GB/s"));
    m.put("--price", new Range(0, false, 1e6, " $/chip-hour"));
    // lower bounds keep every ratio to an objective or a rate finite (1 µs, 1 request per 11.6
    // days)
    m.put("--rate", new Range(1e-6, false, 1e9, " requests/s"));
    // the duration objectives, the options DurationOption bounds for a bare number
    for (String o : DurationOption.BARE_LIMITS.keySet()) {
      m.put(o, new Range(1e-6, false, 1e6, " s"));
    }
    m.put("--top", new Range(1, false, 10_000, ""));
    // a burst is simulated step by step: a million requests run in seconds to minutes
    m.put("--burst", new Range(1, false, 1_000_000, " requests"));
    m.put("--clients", new Range(1, false, 1_000_000, " clients"));
    m.put("--rounds", new Range(1, false, 1_000, ""));
    m.put("--warmup", new Range(0, false, 1_000, ""));
    m.put("--isl-range", new Range(0, false, 0.999, ""));
    // conversations: every turn's tokens are bounded again by Conversation (turns × (isl + osl))
    m.put("--turns", new Range(1, false, MAX_TOKENS, ""));
    m.put("--think", new Range(0, false, 1e6, " s"));
    m.put("--osl-range", new Range(0, false, 0.999, ""));
    // the search needs a simplex and a few steps: Calibration.fit takes at least 10
    m.put("--evaluations", new Range(10, false, 1_000_000, ""));
    return m;
  }

  /**
   * Checks every numeric option of the command {@code parsed} runs.
   *
   * @throws IllegalArgumentException naming the first option outside its range, its rule and value
   */
  static void check(CommandLine.ParseResult parsed) {
    CommandLine.ParseResult p = parsed;
    while (p.hasSubcommand()) {
      p = p.subcommand();
    }
    for (OptionSpec o : p.matchedOptions()) {
      Range r = RANGES.get(o.longestName());
      if (r == null) {
        continue;
      }
      for (String typed : o.originalStringValues()) {
        DurationOption.checkPlausible(o.longestName(), typed);
      }
      Object v = o.getValue();
      if (v instanceof Collection<?>) {
        for (Object e : (Collection<?>) v) {
          check(o.longestName(), r, e);
        }
      } else {
        check(o.longestName(), r, v);
      }
    }
  }

  /**
   * Checks a number an option carries inside a text value (as {@code --price CHIP=P} does) against
   * the option's range.
   *
   * @throws IllegalArgumentException naming the option, the rule and the value
   */
  static void checkValue(String option, double value) {
    check(option, RANGES.get(option), value);
  }

  private static void check(String option, Range r, Object value) {
    if (value instanceof io.ridgeline.core.Seconds s) {
      check(option, r, Double.valueOf(s.seconds()));
      return;
    }
    if (value instanceof Number n && !r.contains(n.doubleValue())) {
      throw new IllegalArgumentException(option + " " + r.broken(n.doubleValue()) + ": " + value);
    }
  }

  private static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return String.format(Locale.ROOT, "%,d", (long) v);
    }
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }
}
