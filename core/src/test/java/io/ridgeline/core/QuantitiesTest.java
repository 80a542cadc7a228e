package io.ridgeline.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Worked examples of the typed quantities: printing, parsing, validation and arithmetic. */
final class QuantitiesTest {

  // ---- toString -------------------------------------------------------------------------------

  @Test
  void toString_terabytesPerSecond_printsTbPerSecond() {
    assertThat(BytesPerSecond.ofTerabytes(3.35)).hasToString("3.35 TB/s");
  }

  @Test
  void toString_gigabytes_printsGb() {
    assertThat(Bytes.ofGigabytes(80)).hasToString("80 GB");
  }

  @Test
  void toString_gibibytes_printsDecimalGbToSixDigits() {
    // 80·2^30 = 85,899,345,920 B = 85.89934592 GB, six significant digits: 85.8993
    assertThat(Bytes.ofGibibytes(80)).hasToString("85.8993 GB");
  }

  @Test
  void toString_teraFlopsPerSecond_printsTflopPerSecond() {
    assertThat(FlopsPerSecond.ofTera(989.4)).hasToString("989.4 TFLOP/s");
  }

  @Test
  void toString_flops_printsPrefixedFlop() {
    // 2·8192³ = 1,099,511,627,776 FLOP = 1.09951 TFLOP to six digits
    assertThat(Flops.of(2.0 * 8192 * 8192 * 8192)).hasToString("1.09951 TFLOP");
    assertThat(Flops.ofTera(1.5)).hasToString("1.5 TFLOP");
  }

  @Test
  void toString_bandwidthBelowKilo_printsNoPrefix() {
    assertThat(BytesPerSecond.of(999)).hasToString("999 B/s");
    assertThat(BytesPerSecond.of(1000)).hasToString("1 kB/s");
  }

  @ParameterizedTest(name = "{0} s prints \"{1}\"")
  @CsvSource(
      delimiter = '|',
      value = {
        "0.0045   | 4.5 ms",
        "2.5e-6   | 2.5 µs",
        "1.2e-9   | 1.2 ns",
        "1e-12    | 0.001 ns",
        "0.25     | 250 ms",
        "1        | 1 s",
        "1234.5   | 1234.5 s",
        "0        | 0 s"
      })
  void toString_seconds_picksNsUsMsOrS(double seconds, String expected) {
    assertThat(Seconds.of(seconds)).hasToString(expected);
  }

  @Test
  void toString_flopsPerByte_printsUnprefixedSixDigits() {
    // 989.4e12 / 3.35e12 = 295.3432835... FLOP/B -> 295.343
    assertThat(FlopsPerByte.of(989.4e12 / 3.35e12)).hasToString("295.343 FLOP/B");
    // Intensities are never prefixed: 2730.67 FLOP/B, not 2.73067 kFLOP/B
    assertThat(FlopsPerByte.of(2730.6666)).hasToString("2730.67 FLOP/B");
  }

  @Test
  void toString_watts_printsPrefixedWatts() {
    assertThat(Watts.of(700)).hasToString("700 W");
    // 1.2 kW = 1200 W
    assertThat(Watts.ofKilowatts(1.2)).hasToString("1.2 kW");
  }

  @Test
  void toString_dollarsPerHour_printsUnprefixed() {
    assertThat(DollarsPerHour.of(4.916)).hasToString("4.916 $/h");
    assertThat(DollarsPerHour.of(1250)).hasToString("1250 $/h");
  }

  @Test
  void toString_zero_printsZeroWithoutPrefix() {
    assertThat(Bytes.ZERO).hasToString("0 B");
    assertThat(FlopsPerSecond.ZERO).hasToString("0 FLOP/s");
    assertThat(Seconds.ZERO).hasToString("0 s");
    assertThat(DollarsPerHour.ZERO).hasToString("0 $/h");
  }

  @Test
  void toString_beyondExa_staysInExa() {
    // 1e25 B = 1e7 EB: E is the largest prefix
    assertThat(Bytes.of(1e25)).hasToString("10000000 EB");
  }

  @Test
  void toString_tinyValue_printsPlainDecimalNotExponent() {
    assertThat(Bytes.of(1e-9)).hasToString("0.000000001 B");
  }

  // ---- parse -----------------------------------------------------------------------------------

  @Test
  void parse_whatToStringPrints_readsItBack() {
    assertThat(BytesPerSecond.parse("3.35 TB/s")).isEqualTo(BytesPerSecond.ofTerabytes(3.35));
    assertThat(Bytes.parse("80 GB")).isEqualTo(Bytes.ofGigabytes(80));
    assertThat(FlopsPerSecond.parse("989.4 TFLOP/s")).isEqualTo(FlopsPerSecond.ofTera(989.4));
    assertThat(Flops.parse("1.5 TFLOP")).isEqualTo(Flops.ofTera(1.5));
    assertThat(Watts.parse("700 W")).isEqualTo(Watts.of(700));
    assertThat(Watts.parse("1.2 kW")).isEqualTo(Watts.ofKilowatts(1.2));
    assertThat(DollarsPerHour.parse("4.916 $/h")).isEqualTo(DollarsPerHour.of(4.916));
    assertThat(FlopsPerByte.parse("295.343 FLOP/B").flopsPerByte()).isEqualTo(295.343);
  }

  @Test
  void parse_allPrefixes_scaleByPowersOfThousand() {
    assertThat(Bytes.parse("1 kB").bytes()).isEqualTo(1e3);
    assertThat(Bytes.parse("1 MB").bytes()).isEqualTo(1e6);
    assertThat(Bytes.parse("1 GB").bytes()).isEqualTo(1e9);
    assertThat(Bytes.parse("1 TB").bytes()).isEqualTo(1e12);
    assertThat(Bytes.parse("1 PB").bytes()).isEqualTo(1e15);
    assertThat(Bytes.parse("1 EB").bytes()).isEqualTo(1e18);
    assertThat(Bytes.parse("12 B").bytes()).isEqualTo(12);
  }

  @Test
  void parse_seconds_readsEveryTimeUnit() {
    // 4.5 ms = 4.5·1e-3 s, computed the same way as ofMillis
    assertThat(Seconds.parse("4.5 ms")).isEqualTo(Seconds.ofMillis(4.5));
    assertThat(Seconds.parse("2.5 µs")).isEqualTo(Seconds.ofMicros(2.5));
    assertThat(Seconds.parse("2.5 us")).isEqualTo(Seconds.ofMicros(2.5));
    assertThat(Seconds.parse("3 ns").seconds()).isCloseTo(3e-9, within(1e-24));
    assertThat(Seconds.parse("1234.5 s").seconds()).isEqualTo(1234.5);
  }

  @Test
  void parse_surroundingWhitespaceAndExponent_accepted() {
    assertThat(Bytes.parse("  80 GB  ")).isEqualTo(Bytes.ofGigabytes(80));
    assertThat(Bytes.parse("8e1 GB")).isEqualTo(Bytes.ofGigabytes(80));
  }

  @Test
  void parse_wrongPrefix_namesExpectedUnit() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Bytes.parse("80 GiB"));
    assertThat(e)
        .hasMessageContaining("bytes")
        .hasMessageContaining("B")
        .hasMessageContaining("80 GiB");
  }

  @Test
  void parse_otherDimensionsUnit_rejectedNamingExpectedUnit() {
    IllegalArgumentException bytes =
        assertThrows(IllegalArgumentException.class, () -> Bytes.parse("3.35 TB/s"));
    assertThat(bytes).hasMessageContaining("B:").hasMessageContaining("'3.35 TB/s'");

    IllegalArgumentException rate =
        assertThrows(IllegalArgumentException.class, () -> FlopsPerSecond.parse("989.4 TFLOP"));
    assertThat(rate).hasMessageContaining("FLOP/s").hasMessageContaining("'989.4 TFLOP'");

    IllegalArgumentException flops =
        assertThrows(IllegalArgumentException.class, () -> Flops.parse("989.4 TFLOP/s"));
    assertThat(flops).hasMessageContaining("FLOP").hasMessageContaining("'989.4 TFLOP/s'");
  }

  @Test
  void parse_prefixOnUnprefixedUnit_rejected() {
    IllegalArgumentException intensity =
        assertThrows(IllegalArgumentException.class, () -> FlopsPerByte.parse("3 kFLOP/B"));
    assertThat(intensity).hasMessageContaining("FLOP/B").hasMessageContaining("3 kFLOP/B");

    IllegalArgumentException price =
        assertThrows(IllegalArgumentException.class, () -> DollarsPerHour.parse("3 k$/h"));
    assertThat(price).hasMessageContaining("$/h").hasMessageContaining("3 k$/h");
  }

  @ParameterizedTest(name = "Bytes.parse(\"{0}\") is rejected")
  @ValueSource(strings = {"", "GB", "GB 80", "eighty GB", "80 gigabytes", "80 KB", "1,5 GB"})
  void parse_malformedBytes_namesUnit(String text) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Bytes.parse(text));
    assertThat(e)
        .hasMessageContaining("bytes")
        .hasMessageContaining("B")
        .hasMessageContaining("'" + text + "'");
  }

  @Test
  void parse_null_rejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Bytes.parse(null));
    assertThat(e).hasMessageContaining("bytes");
    assertThrows(IllegalArgumentException.class, () -> Seconds.parse(null));
  }

  @ParameterizedTest(name = "Seconds.parse(\"{0}\") is rejected")
  @ValueSource(strings = {"5 min", "5 h", "5", "5 S", "5 Ms", "ms"})
  void parse_unknownTimeUnit_listsTimeUnits(String text) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Seconds.parse(text));
    assertThat(e)
        .hasMessageContaining("seconds")
        .hasMessageContaining("ms")
        .hasMessageContaining(text);
  }

  @Test
  void parse_negativeNumber_rejectedAsNegative() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Bytes.parse("-5 GB"));
    assertThat(e).hasMessageContaining("must not be negative").hasMessageContaining("-5.0E9");
  }

  // ---- validation ------------------------------------------------------------------------------

  @Test
  void of_negative_rejectedNamingDimensionAndValue() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Bytes.of(-1));
    assertThat(e).hasMessage("bytes must not be negative: -1.0");
  }

  @Test
  void of_nan_rejectedNamingDimensionAndValue() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> FlopsPerSecond.of(Double.NaN));
    assertThat(e).hasMessage("flops per second must be finite: NaN");
  }

  @Test
  void of_infinity_rejectedNamingDimensionAndValue() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Seconds.of(Double.POSITIVE_INFINITY));
    assertThat(e).hasMessage("seconds must be finite: Infinity");
  }

  @Test
  void namedFactory_overflowToInfinity_rejected() {
    // 1e300 TB/s = 1e312 B/s, beyond Double.MAX_VALUE ≈ 1.8e308
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> BytesPerSecond.ofTerabytes(1e300));
    assertThat(e).hasMessageContaining("Infinity");
  }

  // ---- conversions -----------------------------------------------------------------------------

  @Test
  void ofGibibytes_eighty_isBinaryBytes() {
    // 80·1024³ = 80·1,073,741,824 = 85,899,345,920 B
    assertThat(Bytes.ofGibibytes(80).bytes()).isEqualTo(85_899_345_920.0);
  }

  @Test
  void namedFactories_decimalSi_scaleByPowersOfTen() {
    assertThat(Bytes.ofGigabytes(80).bytes()).isEqualTo(80e9);
    assertThat(Bytes.ofMegabytes(16).bytes()).isEqualTo(16e6);
    assertThat(Bytes.ofGigabytes(80).gigabytes()).isEqualTo(80);
    assertThat(BytesPerSecond.ofGigabytes(450).bytesPerSecond()).isEqualTo(450e9);
    assertThat(BytesPerSecond.ofTerabytes(3.35).terabytes()).isCloseTo(3.35, within(1e-12));
    assertThat(FlopsPerSecond.ofTera(989.4).tera()).isCloseTo(989.4, within(1e-12));
    assertThat(Flops.ofTera(2).flops()).isEqualTo(2e12);
    assertThat(Seconds.ofMillis(4.5).millis()).isCloseTo(4.5, within(1e-12));
    assertThat(Seconds.ofMicros(1).seconds()).isEqualTo(1e-6);
    assertThat(Watts.ofKilowatts(1.2).watts()).isEqualTo(1200);
  }

  @Test
  void units_jshellFactories_matchNamedFactories() {
    assertThat(Units.gb(80)).isEqualTo(Bytes.ofGigabytes(80));
    assertThat(Units.tbps(3.35)).isEqualTo(BytesPerSecond.ofTerabytes(3.35));
    assertThat(Units.gbps(450)).isEqualTo(BytesPerSecond.ofGigabytes(450));
    assertThat(Units.tflops(989.4)).isEqualTo(FlopsPerSecond.ofTera(989.4));
    assertThat(Units.ms(4.5)).isEqualTo(Seconds.ofMillis(4.5));
    assertThat(Units.us(2.5)).isEqualTo(Seconds.ofMicros(2.5));
  }

  // ---- arithmetic ------------------------------------------------------------------------------

  @Test
  void plus_twoAmounts_addsThem() {
    // 80 GB + 20 GB = 100 GB
    assertThat(Bytes.ofGigabytes(80).plus(Bytes.ofGigabytes(20))).isEqualTo(Bytes.ofGigabytes(100));
    // 1.5 ms + 2.5 ms = 4 ms
    assertThat(Seconds.ofMillis(1.5).plus(Seconds.ofMillis(2.5)).seconds())
        .isCloseTo(4e-3, within(1e-18));
    assertThat(Flops.of(1).plus(Flops.of(2))).isEqualTo(Flops.of(3));
    assertThat(Watts.of(700).plus(Watts.of(300))).isEqualTo(Watts.ofKilowatts(1));
    assertThat(DollarsPerHour.of(2).plus(DollarsPerHour.of(2.916)).dollarsPerHour())
        .isCloseTo(4.916, within(1e-12));
  }

  @Test
  void times_factor_scales() {
    // 3.35 TB/s · 0.8 = 2.68 TB/s
    assertThat(BytesPerSecond.ofTerabytes(3.35).times(0.8).bytesPerSecond())
        .isCloseTo(2.68e12, within(1.0));
    assertThat(Flops.of(3).times(0)).isEqualTo(Flops.ZERO);
    assertThat(FlopsPerByte.of(2).times(4)).isEqualTo(FlopsPerByte.of(8));
  }

  @Test
  void times_negativeFactor_rejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Bytes.of(2).times(-1));
    assertThat(e).hasMessageContaining("must not be negative").hasMessageContaining("-2.0");
  }

  @Test
  void times_infiniteFactor_rejected() {
    assertThrows(IllegalArgumentException.class, () -> Flops.of(2).times(Double.POSITIVE_INFINITY));
    // 0 · ∞ = NaN
    assertThrows(IllegalArgumentException.class, () -> Flops.ZERO.times(Double.POSITIVE_INFINITY));
  }

  @Test
  void dividedBy_positiveDivisor_divides() {
    // 80 GB / 8 = 10 GB
    assertThat(Bytes.ofGigabytes(80).dividedBy(8)).isEqualTo(Bytes.ofGigabytes(10));
    assertThat(Seconds.of(1).dividedBy(4)).isEqualTo(Seconds.of(0.25));
    assertThat(FlopsPerSecond.ofTera(989.4).dividedBy(2).tera()).isCloseTo(494.7, within(1e-9));
  }

  @ParameterizedTest(name = "divisor {0} is rejected")
  @ValueSource(doubles = {0.0, -1.0, Double.NaN, Double.POSITIVE_INFINITY})
  void dividedBy_nonPositiveOrNonFinite_rejectedNamingDivisor(double divisor) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Bytes.of(1).dividedBy(divisor));
    assertThat(e).hasMessageContaining("divisor").hasMessageContaining(String.valueOf(divisor));
  }

  @Test
  void flopsAt_rate_isFlopsOverRate() {
    // 117,440,512 FLOP / 989.4e12 FLOP/s = 1.18699e-7 s = 118.699 ns
    Seconds t = Flops.of(117_440_512).at(FlopsPerSecond.ofTera(989.4));
    assertThat(t.seconds()).isEqualTo(117_440_512 / 989.4e12);
    assertThat(t).hasToString("118.699 ns");
  }

  @Test
  void bytesAt_bandwidth_isBytesOverBandwidth() {
    // 80e9 B / 3.35e12 B/s = 0.0238806 s = 23.8806 ms
    Seconds t = Bytes.ofGigabytes(80).at(BytesPerSecond.ofTerabytes(3.35));
    assertThat(t.seconds()).isEqualTo(80e9 / 3.35e12);
    assertThat(t).hasToString("23.8806 ms");
  }

  @Test
  void flopsPer_bytes_isIntensity() {
    // 2·4096·14336 FLOP over 2·4096·14336 B = 1 FLOP/B
    assertThat(Flops.of(117_440_512).per(Bytes.of(117_440_512))).isEqualTo(FlopsPerByte.of(1));
    // 1,099,511,627,776 FLOP / 402,653,184 B = 2730.666... FLOP/B
    assertThat(Flops.of(1_099_511_627_776.0).per(Bytes.of(402_653_184)).flopsPerByte())
        .isCloseTo(8192.0 / 3, within(1e-9));
  }

  @Test
  void flopsPerSecondPer_bandwidth_isRidgePoint() {
    // 989.4e12 / 3.35e12 = 295.343 FLOP/B
    assertThat(FlopsPerSecond.ofTera(989.4).per(BytesPerSecond.ofTerabytes(3.35)).flopsPerByte())
        .isCloseTo(295.343, within(1e-3));
  }

  @Test
  void flopsAt_zeroRate_throwsInsteadOfInfinity() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Flops.of(1).at(FlopsPerSecond.ZERO));
    assertThat(e).hasMessageContaining("flops per second").hasMessageContaining("0.0");
  }

  @Test
  void bytesAt_zeroBandwidth_throwsInsteadOfInfinity() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Bytes.of(1).at(BytesPerSecond.ZERO));
    assertThat(e).hasMessageContaining("bytes per second").hasMessageContaining("0.0");
  }

  @Test
  void flopsPer_zeroBytes_throwsInsteadOfInfinity() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Flops.of(1).per(Bytes.ZERO));
    assertThat(e).hasMessageContaining("bytes moved");
    assertThrows(IllegalArgumentException.class, () -> Flops.ZERO.per(Bytes.ZERO));
  }

  @Test
  void flopsPerSecondPer_zeroBandwidth_throwsInsteadOfInfinity() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> FlopsPerSecond.ofTera(1).per(BytesPerSecond.ZERO));
    assertThat(e).hasMessageContaining("bandwidth");
  }

  @Test
  void minusOrZero_largerSubtrahend_isZero() {
    // 80 GB − 20 GB = 60 GB; 20 GB − 80 GB clamps to 0
    assertThat(Bytes.ofGigabytes(80).minusOrZero(Bytes.ofGigabytes(20)))
        .isEqualTo(Bytes.ofGigabytes(60));
    assertThat(Bytes.ofGigabytes(20).minusOrZero(Bytes.ofGigabytes(80))).isEqualTo(Bytes.ZERO);
  }

  @Test
  void max_twoValues_returnsLarger() {
    assertThat(Seconds.of(1).max(Seconds.of(2))).isEqualTo(Seconds.of(2));
    assertThat(Seconds.of(3).max(Seconds.of(2))).isEqualTo(Seconds.of(3));
    assertThat(Bytes.of(5).max(Bytes.of(5))).isEqualTo(Bytes.of(5));
  }

  // ---- value semantics -------------------------------------------------------------------------

  @Test
  void equals_sameValue_equalWithSameHash() {
    assertThat(Bytes.ofGigabytes(80)).isEqualTo(Bytes.of(80e9)).hasSameHashCodeAs(Bytes.of(80e9));
    assertThat(Bytes.of(1)).isNotEqualTo(Bytes.of(2));
  }

  @Test
  void equals_sameNumberOtherDimension_notEqual() {
    assertThat(Bytes.of(1)).isNotEqualTo(Flops.of(1));
    assertThat(Watts.of(1)).isNotEqualTo(DollarsPerHour.of(1));
    assertThat(Bytes.of(1)).isNotEqualTo(null);
  }

  @Test
  void compareTo_orderedByValue() {
    assertThat(Bytes.ofGigabytes(80)).isGreaterThan(Bytes.ofGigabytes(40));
    assertThat(Seconds.ofMillis(1)).isLessThan(Seconds.of(1));
    assertThat(FlopsPerSecond.ofTera(1)).isEqualByComparingTo(FlopsPerSecond.of(1e12));
  }
}
