package io.ridgeline.serving.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.strings;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class Utf8TextTest {
  @Test
  void append_worked_example() {
    // "x=" (2 bytes) + 42 (2) + ',' (1) + "2× h100" (× is U+00D7: 2 bytes, so 8) + -7 (2) = 15
    Utf8Text t = new Utf8Text(4);
    t.append("x=").append(42).ascii(',').append("2× h100").append(-7);
    assertThat(t.length()).isEqualTo(15);
    assertThat(t.toString()).isEqualTo("x=42,2× h100-7");
  }

  @Test
  void appendInt_sameTextAsIntegerToString() {
    int[] edges = {0, 9, 10, 99, 100, 999_999_999, 1_000_000_000, Integer.MAX_VALUE, -1, -10};
    for (int v : edges) {
      assertThat(new Utf8Text(1).append(v).toString()).isEqualTo(Integer.toString(v));
    }
    assertThat(new Utf8Text(1).append(Integer.MIN_VALUE).toString())
        .isEqualTo(Integer.toString(Integer.MIN_VALUE));
    qt().forAll(integers().all())
        .checkAssert(v -> assertThat(new Utf8Text(1).append(v).toString()).isEqualTo("" + v));
  }

  @Test
  void appendText_sameBytesAsStringGetBytes() {
    // every code point class: ASCII, two-byte, three-byte, surrogate pairs, lone surrogates
    String[] edges = {"", "abc", "×µé", "€—", "\uD83D\uDE00", "a\uD800", "\uDC00b", "\uD800\uD800"};
    for (String s : edges) {
      assertThat(bytes(s)).as(s).isEqualTo(s.getBytes(StandardCharsets.UTF_8));
    }
    qt().forAll(strings().allPossible().ofLengthBetween(0, 40))
        .checkAssert(s -> assertThat(bytes(s)).isEqualTo(s.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void setLength_beyondTheText_namesTheRange() {
    Utf8Text t = new Utf8Text(1).append("ab");
    assertThatThrownBy(() -> t.setLength(3)).hasMessageContaining("length 3 outside [0, 2]");
  }

  @Test
  @SuppressWarnings("FloatingPointLiteralPrecision") // 1.0E23: the double nearest 1e23, on purpose
  void shortestDecimal_sameTextAsTheStringBuilderForm() {
    double[] values = {0.0, -0.0, 1024.0, 0.015, 1.0E23, 4.9E-324, Double.NaN, -1.0E-5};
    Utf8Text t = new Utf8Text(1);
    StringBuilder b = new StringBuilder();
    for (double v : values) {
      ShortestDecimal.append(t, v).ascii(',');
      ShortestDecimal.append(b, v).append(',');
    }
    assertThat(t.toString()).isEqualTo(b.toString());
  }

  private static byte[] bytes(String s) {
    Utf8Text t = new Utf8Text(1);
    t.append(s);
    byte[] out = new byte[t.length()];
    for (int i = 0; i < out.length; i++) {
      out[i] = t.byteAt(i);
    }
    return out;
  }
}
