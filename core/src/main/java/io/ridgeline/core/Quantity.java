package io.ridgeline.core;

import static com.google.common.base.Preconditions.checkArgument;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Base of the typed quantities: one SI {@code double} per instance, never NaN or infinite, and
 * never negative (every dimension Ridgeline uses is a count, a size, a rate or a duration).
 *
 * <p>Subclasses are final and compare by value within their own dimension.
 */
abstract class Quantity {
  private static final String[] PREFIXES = {"", "k", "M", "G", "T", "P", "E"};
  private static final String[] TIME_UNITS = {"ns", "µs", "ms", "s"};
  private static final MathContext SIGNIFICANT = new MathContext(6);

  /** The value in the dimension's SI base unit. */
  final double value;

  Quantity(double value, String what) {
    if (!(value >= 0) || value == Double.POSITIVE_INFINITY) { // the messages box only when thrown
      checkArgument(Double.isFinite(value), "%s must be finite: %s", what, value);
      checkArgument(value >= 0, "%s must not be negative: %s", what, value);
    }
    this.value = value + 0.0; // turns -0.0 into 0.0
  }

  /** The unit symbol printed after the (prefixed) number, for example {@code "B/s"}. */
  abstract String unit();

  /** Whether {@link #toString()} uses decimal SI prefixes (k, M, G, T, P, E). */
  boolean prefixed() {
    return true;
  }

  // the class is the unit: 1 s and 1 B hold the same value and must differ, so instanceof
  // Quantity would be wrong
  @SuppressWarnings("EqualsGetClass")
  @Override
  public final boolean equals(Object other) {
    return other != null
        && other.getClass() == getClass()
        && Double.compare(((Quantity) other).value, value) == 0;
  }

  @Override
  public final int hashCode() {
    return Double.hashCode(value) * 31 + getClass().hashCode();
  }

  /** The value with a decimal SI prefix and its unit, six significant digits, Locale.ROOT. */
  @Override
  public String toString() {
    if (!prefixed() || value == 0) {
      return number(value) + " " + unit();
    }
    int index = 0;
    double scaled = value;
    // step up while the value, rounded to the printed digits, reaches 1000
    while (rounded(scaled) >= 1000 && index < PREFIXES.length - 1) {
      scaled /= 1000;
      index++;
    }
    return number(scaled) + " " + PREFIXES[index] + unit();
  }

  private static double rounded(double x) {
    return new BigDecimal(x).round(SIGNIFICANT).doubleValue();
  }

  static String number(double x) {
    BigDecimal d = new BigDecimal(x).round(SIGNIFICANT).stripTrailingZeros();
    String s = d.toPlainString();
    return s.equals("-0") ? "0" : s;
  }

  /** Formats seconds as ns, µs, ms or s. */
  static String formatSeconds(double seconds) {
    if (seconds == 0 || rounded(seconds) >= 1) {
      return number(seconds) + " s";
    }
    double scaled = seconds * 1e9;
    int index = 0;
    while (rounded(scaled) >= 1000 && index < TIME_UNITS.length - 1) {
      scaled /= 1000;
      index++;
    }
    return number(scaled) + " " + TIME_UNITS[index];
  }

  private static final Pattern TEXT =
      Pattern.compile("\\s*([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*(\\S*)\\s*");

  /**
   * Parses {@code "<number> [prefix]<unit>"} as printed by {@link #toString()} into the SI value.
   *
   * @throws IllegalArgumentException naming {@code what} when the text is not such a quantity
   */
  static double parse(String text, String unit, boolean prefixed, String what) {
    checkArgument(text != null, "%s text must not be null", what);
    Matcher m = TEXT.matcher(text);
    checkArgument(m.matches(), "%s must look like '<number> <unit>' in %s: '%s'", what, unit, text);
    double number = Double.parseDouble(m.group(1));
    String suffix = m.group(2);
    if (suffix.equals(unit)) {
      return number;
    }
    if (prefixed && suffix.endsWith(unit) && suffix.length() == unit.length() + 1) {
      String prefix = suffix.substring(0, 1);
      for (int i = 1; i < PREFIXES.length; i++) {
        if (PREFIXES[i].equals(prefix)) {
          return number * Math.pow(1000, i);
        }
      }
    }
    throw new IllegalArgumentException(
        String.format(
            Locale.ROOT,
            "%s must be in %s%s: '%s'",
            what,
            prefixed ? "[k|M|G|T|P|E]" : "",
            unit,
            text));
  }

  static double parseSeconds(String text) {
    checkArgument(text != null, "seconds text must not be null");
    Matcher m = TEXT.matcher(text);
    checkArgument(m.matches(), "seconds must look like '<number> s|ms|µs|us|ns': '%s'", text);
    double number = Double.parseDouble(m.group(1));
    switch (m.group(2)) {
      case "s":
        return number;
      case "ms":
        return number * 1e-3;
      case "µs":
      case "us":
        return number * 1e-6;
      case "ns":
        return number * 1e-9;
      default:
        throw new IllegalArgumentException(
            "seconds must be in s, ms, µs, us or ns: '" + text + "'");
    }
  }
}
