package io.ridgeline.serving.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.longs;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.junit.jupiter.api.Test;

final class ShortestDecimalTest {
  private static String text(double v) {
    return ShortestDecimal.append(new StringBuilder(), v).toString();
  }

  @Test
  // the literals are the texts under test: 1.0E23 is the shortest text of the double nearest 1e23
  @SuppressWarnings("FloatingPointLiteralPrecision")
  void workedExamples_javaNineteensDoubleToString() {
    // each expected text is Java 25's Double.toString of the value (Schubfach)
    assertThat(text(1024.0)).isEqualTo("1024.0");
    assertThat(text(100.0)).isEqualTo("100.0");
    assertThat(text(0.015)).isEqualTo("0.015");
    assertThat(text(123.456)).isEqualTo("123.456");
    assertThat(text(0.1 + 0.2)).isEqualTo("0.30000000000000004");
    assertThat(text(1.0 / 3)).isEqualTo("0.3333333333333333");
    assertThat(text(1493.9282632400054)).isEqualTo("1493.9282632400054");
    // 10^-3 <= |v| < 10^7 plain, otherwise scientific
    assertThat(text(0.001)).isEqualTo("0.001");
    assertThat(text(Math.nextDown(0.001))).isEqualTo("9.999999999999998E-4");
    assertThat(text(6.693761839883914E-4)).isEqualTo("6.693761839883914E-4");
    assertThat(text(1.0E7)).isEqualTo("1.0E7");
    assertThat(text(Math.nextDown(1.0E7))).isEqualTo("9999999.999999998");
    assertThat(text(1.0E-5)).isEqualTo("1.0E-5");
    assertThat(text(-2.5E-300)).isEqualTo("-2.5E-300");
    assertThat(text(9007199254740992.0)).isEqualTo("9.007199254740992E15");
    // where Java 17 is longer: 9.999999999999999E22, 1.9999999999999998E23, 2.82879384806159008E17
    assertThat(text(1.0E23)).isEqualTo("1.0E23");
    assertThat(text(2.0E23)).isEqualTo("2.0E23");
    assertThat(text(2.82879384806159E17)).isEqualTo("2.82879384806159E17");
    // extremes: the least subnormal has two digits (4.9, not 5), the greatest double, the least
    // normal
    assertThat(text(Double.MIN_VALUE)).isEqualTo("4.9E-324");
    assertThat(text(Double.MAX_VALUE)).isEqualTo("1.7976931348623157E308");
    assertThat(text(Double.MIN_NORMAL)).isEqualTo("2.2250738585072014E-308");
    assertThat(text(0.0)).isEqualTo("0.0");
    assertThat(text(-0.0)).isEqualTo("-0.0");
    assertThat(text(Double.NaN)).isEqualTo("NaN");
    assertThat(text(Double.POSITIVE_INFINITY)).isEqualTo("Infinity");
    assertThat(text(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
  }

  @Test
  void append_appendsAfterWhatTheBuilderHolds() {
    assertThat(ShortestDecimal.append(new StringBuilder("x,"), 0.5).append(','))
        .hasToString("x,0.5,");
  }

  @Test
  void anyDouble_readsBackExactly_inNoMoreDigitsThanJava17_andShortest() {
    qt().withFixedSeed(20261202L)
        .withExamples(20_000)
        .forAll(longs().all())
        .checkAssert(
            bits -> {
              double v = Double.longBitsToDouble(bits);
              if (!Double.isFinite(v)) {
                return;
              }
              String s = text(v);
              assertThat(Double.doubleToRawLongBits(Double.parseDouble(s)))
                  .as("%s reads back", s)
                  .isEqualTo(bits);
              String java = Double.toString(v);
              assertThat(s.length())
                  .as("%s against %s", s, java)
                  .isLessThanOrEqualTo(java.length());
              assertThat(s.contains("E")).as("%s format", s).isEqualTo(java.contains("E"));
              assertNoShorterDecimalReadsBack(v, s);
            });
  }

  @Test
  void ordinaryMagnitudes_readBackExactly_andShortest() {
    // the sweep's figures: seconds, tokens per second, dollars, from 1e-7 to 1e9
    qt().withFixedSeed(20261203L)
        .withExamples(20_000)
        .forAll(doubles().between(1e-7, 1e9))
        .checkAssert(
            v -> {
              String s = text(v);
              assertThat(Double.parseDouble(s)).as(s).isEqualTo(v);
              assertNoShorterDecimalReadsBack(v, s);
            });
  }

  /** No decimal with one significant digit fewer (and at least two) reads back as {@code v}. */
  private static void assertNoShorterDecimalReadsBack(double v, String s) {
    if (v == 0) {
      return;
    }
    BigDecimal exact = new BigDecimal(v).abs();
    int digits = significantDigits(s);
    if (digits <= 2) {
      return; // the format's floor: at least two digits are considered (4.9E-324)
    }
    MathContext fewer = new MathContext(digits - 1, RoundingMode.FLOOR);
    MathContext fewerUp = new MathContext(digits - 1, RoundingMode.CEILING);
    for (BigDecimal d : new BigDecimal[] {exact.round(fewer), exact.round(fewerUp)}) {
      assertThat(d.doubleValue()).as("%s: %s has fewer digits", s, d).isNotEqualTo(Math.abs(v));
    }
  }

  private static int significantDigits(String s) {
    String mantissa = s.replace("-", "");
    int e = mantissa.indexOf('E');
    if (e >= 0) {
      mantissa = mantissa.substring(0, e);
    }
    String digits = mantissa.replace(".", "").replaceFirst("^0+", "").replaceFirst("0+$", "");
    return Math.max(1, digits.length());
  }
}
