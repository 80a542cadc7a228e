package io.ridgeline.core;

import static io.ridgeline.core.CoreFixtures.assertRelativelyClose;
import static io.ridgeline.core.CoreFixtures.magnitudes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Invariants of every quantity type: printing round-trips, non-finite and negative rejection. */
final class QuantityPropertyTest {

  /** One quantity type: its factory, parser, accessor and the name its messages use. */
  record Dimension<Q>(
      String what, DoubleFunction<Q> of, Function<String, Q> parse, ToDoubleFunction<Q> value) {

    String format(double x) {
      return of.apply(x).toString();
    }

    double roundTrip(double x) {
      return value.applyAsDouble(parse.apply(format(x)));
    }

    @Override
    public String toString() {
      return what;
    }
  }

  static Stream<Dimension<?>> dimensions() {
    return Stream.of(
        new Dimension<>("flops", Flops::of, Flops::parse, Flops::flops),
        new Dimension<>("bytes", Bytes::of, Bytes::parse, Bytes::bytes),
        new Dimension<>(
            "flops per second",
            FlopsPerSecond::of,
            FlopsPerSecond::parse,
            FlopsPerSecond::flopsPerSecond),
        new Dimension<>(
            "bytes per second",
            BytesPerSecond::of,
            BytesPerSecond::parse,
            BytesPerSecond::bytesPerSecond),
        new Dimension<>("seconds", Seconds::of, Seconds::parse, Seconds::seconds),
        new Dimension<>(
            "flops per byte", FlopsPerByte::of, FlopsPerByte::parse, FlopsPerByte::flopsPerByte),
        new Dimension<>("watts", Watts::of, Watts::parse, Watts::watts),
        new Dimension<>(
            "dollars per hour",
            DollarsPerHour::of,
            DollarsPerHour::parse,
            DollarsPerHour::dollarsPerHour));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dimensions")
  void parse_ofToString_roundTripsToSixSignificantDigits(Dimension<?> d) {
    // six significant digits: |error| <= 0.5e-5 relative, checked at 1e-5
    qt().forAll(magnitudes(-9, 18))
        .checkAssert(
            x -> {
              double back = d.roundTrip(x);
              assertRelativelyClose(back, x, 1e-5);
            });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dimensions")
  void parse_ofToString_nearPrefixCarry_roundTrips(Dimension<?> d) {
    // mantissas in [9.99999, 10) round up to 10.0000 at six digits and carry into the next
    // power of ten (and sometimes past 1000 into the next prefix)
    qt().forAll(integers().between(-9, 18), doubles().between(9.99999, 10.0))
        .checkAssert(
            (k, m) -> {
              double x = m * Math.pow(10, k);
              assertRelativelyClose(d.roundTrip(x), x, 1e-5);
            });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dimensions")
  void toString_anyValue_hasNoExponentOrLocaleDigits(Dimension<?> d) {
    qt().forAll(magnitudes(-9, 18))
        .checkAssert(
            x -> assertThat(d.format(x)).as("%s printed", x).matches("[0-9]+(\\.[0-9]+)? \\S+"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dimensions")
  void parse_ofZero_roundTripsExactly(Dimension<?> d) {
    assertThat(d.roundTrip(0.0)).isEqualTo(0.0);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dimensions")
  void of_negative_rejectedWithDimensionAndValue(Dimension<?> d) {
    qt().forAll(magnitudes(-9, 18))
        .checkAssert(
            x -> {
              double negative = -x;
              IllegalArgumentException e =
                  assertThrows(IllegalArgumentException.class, () -> d.of().apply(negative));
              assertThat(e)
                  .hasMessageContaining(d.what())
                  .hasMessageContaining("negative")
                  .hasMessageContaining(String.valueOf(negative));
            });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dimensions")
  void of_nonFinite_rejectedWithDimensionAndValue(Dimension<?> d) {
    for (double x : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> d.of().apply(x));
      assertThat(e)
          .hasMessageContaining(d.what())
          .hasMessageContaining("finite")
          .hasMessageContaining(String.valueOf(x));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dimensions")
  void parse_unknownUnit_namesDimensionAndText(Dimension<?> d) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> d.parse().apply("12 furlongs"));
    assertThat(e).hasMessageContaining(d.what()).hasMessageContaining("'12 furlongs'");
  }

  @Test
  void parse_unknownUnit_namesExpectedUnitSymbol() {
    assertThat(assertThrows(IllegalArgumentException.class, () -> Flops.parse("1 x")))
        .hasMessageContaining("FLOP:");
    assertThat(assertThrows(IllegalArgumentException.class, () -> Bytes.parse("1 x")))
        .hasMessageContaining("B:");
    assertThat(assertThrows(IllegalArgumentException.class, () -> FlopsPerSecond.parse("1 x")))
        .hasMessageContaining("FLOP/s:");
    assertThat(assertThrows(IllegalArgumentException.class, () -> BytesPerSecond.parse("1 x")))
        .hasMessageContaining("B/s:");
    assertThat(assertThrows(IllegalArgumentException.class, () -> FlopsPerByte.parse("1 x")))
        .hasMessageContaining("FLOP/B:");
    assertThat(assertThrows(IllegalArgumentException.class, () -> Watts.parse("1 x")))
        .hasMessageContaining("W:");
    assertThat(assertThrows(IllegalArgumentException.class, () -> DollarsPerHour.parse("1 x")))
        .hasMessageContaining("$/h:");
    assertThat(assertThrows(IllegalArgumentException.class, () -> Seconds.parse("1 x")))
        .hasMessageContaining("s, ms, µs, us or ns");
  }

  @Test
  void namedFactories_andAccessors_roundTrip() {
    qt().forAll(magnitudes(-6, 9))
        .checkAssert(
            x -> {
              assertRelativelyClose(Bytes.ofGigabytes(x).gigabytes(), x, 1e-15);
              assertRelativelyClose(BytesPerSecond.ofTerabytes(x).terabytes(), x, 1e-15);
              assertRelativelyClose(FlopsPerSecond.ofTera(x).tera(), x, 1e-15);
              assertRelativelyClose(Seconds.ofMillis(x).millis(), x, 1e-15);
            });
  }

  @Test
  void compareTo_consistentWithEquals() {
    qt().forAll(magnitudes(-9, 18), magnitudes(-9, 18))
        .checkAssert(
            (a, b) -> {
              Bytes x = Bytes.of(a);
              Bytes y = Bytes.of(b);
              assertThat(x.compareTo(y) == 0).isEqualTo(x.equals(y));
              assertThat(Integer.signum(x.compareTo(y)))
                  .isEqualTo(Integer.signum(Double.compare(a, b)));
            });
  }
}
