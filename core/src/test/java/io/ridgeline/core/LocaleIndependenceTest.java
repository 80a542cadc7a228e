package io.ridgeline.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Printing and parsing do not depend on the default locale. Surefire already runs every test under
 * hi-IN; this class also tries locales with a decimal comma and with native digits, so the check
 * holds when a test is run from an IDE.
 */
final class LocaleIndependenceTest {
  private Locale saved;

  @BeforeEach
  void saveLocale() {
    saved = Locale.getDefault();
  }

  @AfterEach
  void restoreLocale() {
    Locale.setDefault(saved);
  }

  @ParameterizedTest(name = "default locale {0}")
  @ValueSource(
      strings = {"hi-IN", "de-DE", "fr-FR", "ar-EG", "th-TH-u-nu-thai", "hi-IN-u-nu-deva", "tr-TR"})
  void toStringAndParse_anyDefaultLocale_useRootFormat(String tag) {
    Locale.setDefault(Locale.forLanguageTag(tag));
    assertThat(BytesPerSecond.ofTerabytes(3.35)).hasToString("3.35 TB/s");
    assertThat(Bytes.ofGibibytes(80)).hasToString("85.8993 GB");
    assertThat(Seconds.of(2.5e-6)).hasToString("2.5 µs");
    assertThat(DollarsPerHour.of(4.916)).hasToString("4.916 $/h");
    assertThat(Bytes.of(1_234_567_890)).hasToString("1.23457 GB");
    assertThat(BytesPerSecond.parse("3.35 TB/s")).isEqualTo(BytesPerSecond.ofTerabytes(3.35));
    assertThat(Precision.of("int8")).isEqualTo(Precision.INT8);
    assertThat(Precision.INT8).hasToString("int8");
    assertThat(Bound.COMMUNICATION).hasToString("communication");
    assertThat(Names.closest("INT4", List.of("int4", "int8"))).contains("int4");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Bytes.of(-1.5));
    assertThat(e).hasMessageContaining("-1.5");
  }
}
