package io.ridgeline.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

final class PrecisionTest {

  @Test
  void bytesPerElement_fp4_includesOneFp8ScalePerSixteen() {
    // NVFP4: 16 values · 0.5 B + one 1-byte E4M3 scale = 9 B per 16 elements; 9/16 = 0.5625
    assertThat(Precision.FP4.bytesPerElement()).isEqualTo((16 * 0.5 + 1) / 16).isEqualTo(0.5625);
  }

  @Test
  void bytesPerElement_mxfp4_includesOneE8m0ScalePerThirtyTwo() {
    // MXFP4: 32 values · 0.5 B + one 1-byte E8M0 scale = 17 B per 32 elements; 17/32 = 0.53125
    assertThat(Precision.MXFP4.bytesPerElement()).isEqualTo((32 * 0.5 + 1) / 32).isEqualTo(0.53125);
  }

  @ParameterizedTest(name = "{0}: {1} B/element, {2}-bit values")
  @CsvSource({
    "FP32, 4.0, 32",
    "TF32, 4.0, 32",
    "BF16, 2.0, 16",
    "FP16, 2.0, 16",
    "FP8, 1.0, 8",
    "INT8, 1.0, 8",
    "FP4, 0.5625, 4",
    "MXFP4, 0.53125, 4",
    "INT4, 0.5, 4"
  })
  void bytesPerElement_eachPrecision_matchesFormat(Precision p, double bytes, int bits) {
    assertThat(p.bytesPerElement()).isEqualTo(bytes);
    assertThat(p.valueBits()).isEqualTo(bits);
  }

  @Test
  void bytes_elements_timesBytesPerElement() {
    // 4096·14336 = 58,720,256 BF16 elements · 2 B = 117,440,512 B
    assertThat(Precision.BF16.bytes(4096.0 * 14336)).isEqualTo(Bytes.of(117_440_512));
    // 16 FP4 elements = 9 B; 32 MXFP4 elements = 17 B
    assertThat(Precision.FP4.bytes(16)).isEqualTo(Bytes.of(9));
    assertThat(Precision.MXFP4.bytes(32)).isEqualTo(Bytes.of(17));
  }

  @Test
  void peakKey_mxfp4_isFp4() {
    assertThat(Precision.MXFP4.peakKey()).isEqualTo(Precision.FP4);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Precision.class, names = "MXFP4", mode = EnumSource.Mode.EXCLUDE)
  void peakKey_otherPrecisions_isItself(Precision p) {
    assertThat(p.peakKey()).isSameAs(p);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "FP32, false",
    "TF32, false",
    "BF16, false",
    "FP16, false",
    "FP8, true",
    "INT8, false",
    "FP4, true",
    "MXFP4, true",
    "INT4, false"
  })
  void narrowFloat_eachPrecision_onlyFloatFormatsBelowSixteenBits(Precision p, boolean narrow) {
    // the formats engines quantize GEMM inputs to (W8A8, W4A4); integer formats are weight-only
    assertThat(p.narrowFloat()).isEqualTo(narrow);
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"bf16", "BF16", "Bf16", " bf16 "})
  void of_anyCaseOrPadding_findsPrecision(String id) {
    assertThat(Precision.of(id)).isEqualTo(Precision.BF16);
    assertThat(Precision.find(id)).contains(Precision.BF16);
  }

  @Test
  void of_unknownId_listsAllIds() {
    NoSuchElementException e =
        assertThrows(NoSuchElementException.class, () -> Precision.of("fp6"));
    assertThat(e)
        .hasMessageContaining("'fp6'")
        .hasMessageContaining("fp32, tf32, bf16, fp16, fp8, int8, fp4, mxfp4, int4");
  }

  @Test
  void find_unknownOrNull_isEmpty() {
    assertThat(Precision.find("fp6")).isEmpty();
    assertThat(Precision.find(null)).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Precision.class)
  void toString_anyPrecision_isLowerCaseIdAndParsesBack(Precision p) {
    assertThat(p.toString())
        .isEqualTo(p.id())
        .isEqualTo(p.name().toLowerCase(java.util.Locale.ROOT));
    assertThat(Precision.of(p.toString())).isSameAs(p);
  }

  @Test
  void ids_listsEveryPrecisionInOrder() {
    assertThat(Precision.ids()).isEqualTo("fp32, tf32, bf16, fp16, fp8, int8, fp4, mxfp4, int4");
  }
}
