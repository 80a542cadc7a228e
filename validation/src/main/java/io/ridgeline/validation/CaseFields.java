package io.ridgeline.validation;

import io.ridgeline.serving.Limits;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.DoublePredicate;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Typed access to one record of a case file by column name, with errors that name the file, the
 * line, the column, the rule and the value found. A column the file's header does not have reads as
 * an empty cell (an optional run column of an older file: not stated).
 */
final class CaseFields {
  /** A plain decimal: digits, optionally a point and more digits (no sign, exponent or suffix). */
  private static final Pattern PLAIN_DECIMAL = Pattern.compile("[0-9]+(?:\\.[0-9]+)?");

  private final Map<String, Integer> index;
  private final List<String> values;
  private final String name;
  private final int line;

  /**
   * The fields {@code values} of line {@code line} of file {@code name}, whose header put column
   * {@code c} at {@code index.get(c)}.
   */
  CaseFields(Map<String, Integer> index, List<String> values, String name, int line) {
    this.index = index;
    this.values = values;
    this.name = name;
    this.line = line;
  }

  /** The cell of {@code column}, stripped; empty when the file has no such column. */
  String text(String column) {
    Integer i = index.get(column);
    return i == null ? "" : values.get(i).strip();
  }

  String required(String column) {
    String v = text(column);
    if (v.isEmpty()) {
      throw error(column, "a value", v);
    }
    return v;
  }

  Optional<String> optional(String column) {
    String v = text(column);
    return v.isEmpty() ? Optional.empty() : Optional.of(v);
  }

  OptionalInt count(String column) {
    String v = text(column);
    if (v.isEmpty()) {
      return OptionalInt.empty();
    }
    try {
      int i = Integer.parseInt(v);
      if (i > 0) {
        return OptionalInt.of(i);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw error(column, "a positive integer or nothing", v);
  }

  /** {@link #count}, at most {@code max}. */
  OptionalInt countUpTo(String column, int max) {
    String v = text(column);
    try {
      OptionalInt n = v.isEmpty() ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(v));
      if (n.isEmpty() || (n.getAsInt() >= 1 && n.getAsInt() <= max)) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw error(column, "an integer from 1 to " + max + " or nothing", v);
  }

  /**
   * Checks a disaggregated row's chips: with a prefill or a decode pool, {@code chips} (when given)
   * is the sum of the pools given (a row of one measured pool gives that pool's count in both).
   *
   * @throws IllegalArgumentException naming the file, line, column and the three counts otherwise
   */
  void checkPools() {
    OptionalInt chips = countUpTo("chips", Limits.MAX_CHIPS);
    OptionalInt prefill = countUpTo("prefill_chips", Limits.MAX_CHIPS);
    OptionalInt decode = countUpTo("decode_chips", Limits.MAX_CHIPS);
    if (chips.isEmpty() || (prefill.isEmpty() && decode.isEmpty())) {
      return;
    }
    // at most 2 × 2^16: no overflow
    int pools = prefill.orElse(0) + decode.orElse(0);
    if (chips.getAsInt() != pools) {
      throw error(
          "chips",
          "prefill_chips + decode_chips = "
              + pools
              + " (the pools given: prefill "
              + (prefill.isPresent() ? prefill.getAsInt() : "none")
              + ", decode "
              + (decode.isPresent() ? decode.getAsInt() : "none")
              + ")",
          text("chips"));
    }
  }

  Mode mode() {
    String v = text("mode");
    return Mode.find(v).orElseThrow(() -> error("mode", "one of " + Mode.known(), v));
  }

  Metric metric() {
    String v = text("metric");
    return Metric.find(v).orElseThrow(() -> error("metric", "one of " + Metric.known(), v));
  }

  double measured() {
    String v = text("measured");
    try {
      double d = Double.parseDouble(v);
      if (Double.isFinite(d)
          && d > 0
          && !v.endsWith("d")
          && !v.endsWith("f")
          && !v.endsWith("D")
          && !v.endsWith("F")) {
        return d;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw error("measured", "a positive decimal number", v);
  }

  /** The typed run columns ({@link CaseFile#RUN_COLUMNS}) of the record. */
  RunSetup runSetup() {
    OptionalDouble ttft = positiveMs("slo_ttft_ms");
    OptionalDouble tpot = positiveMs("slo_tpot_ms");
    if (ttft.isPresent() != tpot.isPresent()) {
      String empty = ttft.isPresent() ? "slo_tpot_ms" : "slo_ttft_ms";
      String given = ttft.isPresent() ? "slo_ttft_ms" : "slo_tpot_ms";
      throw error(empty, "given with '" + given + "' (both bounds or neither)", text(empty));
    }
    String version = text("engine_version");
    if (!version.isEmpty() && !RunSetup.VERSION.matcher(version).matches()) {
      throw error(
          "engine_version",
          "a version that starts with a digit followed by letters, digits, '.', '-', '+' or '_'"
              + " (e.g. 0.7.3), or nothing",
          version);
    }
    return new RunSetup(
        version.isEmpty() ? Optional.empty() : Optional.of(version),
        choice("scheduler", RunSetup.Scheduler::find, RunSetup.Scheduler.values()),
        choice("decode_launch", RunSetup.DecodeLaunch::find, RunSetup.DecodeLaunch.values()),
        countUpTo("max_batch_per_rank", RunSetup.MAX_BATCH_PER_RANK),
        countUpTo("prompts", RunSetup.MAX_PROMPTS),
        fraction("range_ratio"),
        ttft.isPresent()
            ? Optional.of(new RunSetup.Slo(ttft.getAsDouble(), tpot.getAsDouble()))
            : Optional.empty(),
        flag("load_per_chip"));
  }

  /** The value of a closed set of ids, or empty for an empty cell. */
  private <E extends Enum<E>> Optional<E> choice(
      String column, Function<String, Optional<E>> find, E[] known) {
    String v = text(column);
    if (v.isEmpty()) {
      return Optional.empty();
    }
    Optional<E> e = find.apply(v);
    if (e.isEmpty()) {
      throw error(column, "one of " + RunSetup.known(known) + " or nothing", v);
    }
    return e;
  }

  /** A plain decimal above 0 of milliseconds, or empty for an empty cell. */
  private OptionalDouble positiveMs(String column) {
    return plainDecimal(
        column, "a positive decimal number of ms or nothing", d -> Double.isFinite(d) && d > 0);
  }

  /** A plain decimal in [0, 1], or empty for an empty cell. */
  private OptionalDouble fraction(String column) {
    return plainDecimal(column, "a decimal number from 0 to 1 or nothing", d -> d >= 0 && d <= 1);
  }

  /** A {@link #PLAIN_DECIMAL} that meets {@code rule}, or empty for an empty cell. */
  private OptionalDouble plainDecimal(String column, String expected, DoublePredicate rule) {
    String v = text(column);
    if (v.isEmpty()) {
      return OptionalDouble.empty();
    }
    if (PLAIN_DECIMAL.matcher(v).matches()) {
      double d = Double.parseDouble(v);
      if (rule.test(d)) {
        return OptionalDouble.of(d);
      }
    }
    throw error(column, expected, v);
  }

  /** {@code true} or {@code false}; an empty cell is false. */
  private boolean flag(String column) {
    String v = text(column);
    if (v.isEmpty() || v.equals("false")) {
      return false;
    }
    if (v.equals("true")) {
      return true;
    }
    throw error(column, "true, false or nothing", v);
  }

  private IllegalArgumentException error(String column, String expected, String found) {
    return new IllegalArgumentException(
        name
            + " line "
            + line
            + ": field '"
            + column
            + "' must be "
            + expected
            + ", found '"
            + CsvRecords.shortened(found)
            + "'");
  }
}
