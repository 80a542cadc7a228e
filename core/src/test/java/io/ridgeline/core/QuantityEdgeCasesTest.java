package io.ridgeline.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class QuantityEdgeCasesTest {
  @Test
  void toString_roundingCarry_stepsUpThePrefix() {
    // 999,999.9 B rounds to 1,000,000 at six significant digits: print 1 MB, not 1000 kB
    assertThat(Bytes.of(999_999.9).toString()).isEqualTo("1 MB");
    assertThat(Bytes.of(999.9999).toString()).isEqualTo("1 kB");
    assertThat(Seconds.of(0.9999999).toString()).isEqualTo("1 s");
    assertThat(Seconds.of(0.0009999999).toString()).isEqualTo("1 ms");
  }

  @Test
  void negativeZero_isZero() {
    assertThat(Bytes.of(-0.0)).isEqualTo(Bytes.ZERO);
    assertThat(Bytes.ZERO.times(-3)).isEqualTo(Bytes.ZERO);
    assertThat(Bytes.of(-0.0).compareTo(Bytes.ZERO)).isZero();
  }

  @Test
  void unknown_noKnownIds_saysNone() {
    assertThat(Names.unknown("chip", "x", List.of()).getMessage())
        .isEqualTo("unknown chip 'x'; known: none");
  }
}
