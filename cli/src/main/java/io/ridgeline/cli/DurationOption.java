package io.ridgeline.cli;

import io.ridgeline.core.Seconds;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * The duration options ({@code --ttft 200ms}): a number with a unit, one of {@code ns}, {@code us}
 * or {@code µs}, {@code ms}, {@code s} and {@code min}. A bare number is seconds, as it always was;
 * but a bare number at or above an option's plausibility bound ({@link #BARE_LIMITS}) is refused
 * with the unit it probably meant ({@code --ttft 200 means 200 s; did you mean 200ms?}). {@code m}
 * alone is refused as ambiguous (milli or minute).
 */
final class DurationOption {
  /**
   * The bound, in seconds, from which a bare number is taken for a forgotten unit, per option: a
   * p50 or p99 time to first token or per output token of 10 s or more is no interactive objective
   * (a 128k-token prompt prefills in a few seconds on one H100), while 200 is what a user who
   * thinks in milliseconds types. Write the unit ({@code --ttft 30s}) to mean it.
   */
  static final Map<String, Double> BARE_LIMITS =
      Map.of("--ttft", 10.0, "--tpot", 10.0, "--ttft-p99", 10.0, "--tpot-p99", 10.0);

  /** The help text's sentence on units, for the options of {@link #BARE_LIMITS}. */
  static final String UNITS_HELP =
      "A duration: 200ms, 0.2s, 150us; a bare number is seconds and must be under 10.";

  // a decimal number, optional blanks, then an optional unit made of letters (and µ)
  private static final Pattern TEXT =
      Pattern.compile(
          "\\s*([-+]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?)\\s*(\\S*)\\s*");

  private static final Map<String, Double> UNITS =
      Map.of("ns", 1e-9, "us", 1e-6, "µs", 1e-6, "μs", 1e-6, "ms", 1e-3, "s", 1.0, "min", 60.0);

  private DurationOption() {}

  /** The picocli converter: {@link DurationOption#parse(String)}. */
  static final class Converter implements CommandLine.ITypeConverter<Seconds> {
    @Override
    public Seconds convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /**
   * The duration {@code text} writes: {@code "200ms"} = 0.2 s, {@code "0.2s"} = 0.2 s, {@code
   * "150us"} = {@code "150µs"} = 150e-6 s, {@code "2min"} = 120 s, {@code "0.5"} = 0.5 s (a bare
   * number is seconds).
   *
   * @throws IllegalArgumentException quoting {@code text} when it is no number with a known unit,
   *     or is negative or not finite
   */
  static Seconds parse(String text) {
    Matcher m = TEXT.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration (write e.g. 200ms, 0.2s, 150us or 2min)");
    }
    double number = Double.parseDouble(m.group(1));
    String unit = m.group(2).toLowerCase(Locale.ROOT);
    if (unit.equals("m")) {
      throw new IllegalArgumentException(
          "'" + text + "': m is ambiguous; write " + m.group(1) + "ms or " + m.group(1) + "min");
    }
    Double scale = unit.isEmpty() ? Double.valueOf(1.0) : UNITS.get(unit);
    if (scale == null) {
      throw new IllegalArgumentException(
          "'" + text + "' has an unknown unit '" + m.group(2) + "' (use ns, us, µs, ms, s or min)");
    }
    // the product of a finite number and a unit may overflow (1e308min)
    double seconds = number * scale;
    if (!Double.isFinite(seconds) || seconds < 0) {
      throw new IllegalArgumentException("'" + text + "' is not a non-negative finite duration");
    }
    return Seconds.of(seconds);
  }

  /** Whether {@code text} is a bare number, without a unit. */
  static boolean bare(String text) {
    Matcher m = TEXT.matcher(text);
    return m.matches() && m.group(2).isEmpty();
  }

  /**
   * Checks the value typed for {@code option} against its plausibility bound: a bare number at or
   * above {@link #BARE_LIMITS}' bound is refused with the unit it probably meant.
   *
   * @throws IllegalArgumentException {@code "--ttft 200 means 200 s; did you mean 200ms? (write
   *     200ms or 200s)"}
   */
  static void checkPlausible(String option, String typed) {
    Double limit = BARE_LIMITS.get(option);
    if (limit == null || !bare(typed)) {
      return;
    }
    String number = typed.trim();
    if (parse(number).seconds() >= limit) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "%s %s means %s s; did you mean %sms? (write %sms or %ss)",
              option,
              number,
              number,
              number,
              number,
              number));
    }
  }
}
