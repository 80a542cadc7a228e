package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

final class DurationOptionTest {

  @Test
  void parse_units_convertToSeconds() {
    // 200 ms = 200e-3 s; 150 µs = 150e-6 s; 2 min = 2 × 60 s; 5e3 ns = 5e-6 s
    assertThat(DurationOption.parse("200ms").seconds()).isCloseTo(0.2, within(1e-15));
    assertThat(DurationOption.parse("0.2s").seconds()).isCloseTo(0.2, within(1e-15));
    assertThat(DurationOption.parse("150us").seconds()).isCloseTo(150e-6, within(1e-18));
    assertThat(DurationOption.parse("150µs").seconds()).isCloseTo(150e-6, within(1e-18));
    assertThat(DurationOption.parse("2min").seconds()).isEqualTo(120.0);
    assertThat(DurationOption.parse("5e3ns").seconds()).isCloseTo(5e-6, within(1e-18));
    assertThat(DurationOption.parse("30 MS").seconds()).isCloseTo(0.03, within(1e-15));
    assertThat(DurationOption.parse(".5").seconds()).isEqualTo(0.5);
  }

  @Test
  void parse_bareNumber_isSeconds() {
    assertThat(DurationOption.parse("0.5").seconds()).isEqualTo(0.5);
    assertThat(DurationOption.bare("0.5")).isTrue();
    assertThat(DurationOption.bare("0.5s")).isFalse();
  }

  @Test
  void parse_badText_namesTheText() {
    assertThatThrownBy(() -> DurationOption.parse("2m"))
        .hasMessage("'2m': m is ambiguous; write 2ms or 2min");
    assertThatThrownBy(() -> DurationOption.parse("2h"))
        .hasMessage("'2h' has an unknown unit 'h' (use ns, us, µs, ms, s or min)");
    assertThatThrownBy(() -> DurationOption.parse("fast"))
        .hasMessage("'fast' is not a duration (write e.g. 200ms, 0.2s, 150us or 2min)");
    assertThatThrownBy(() -> DurationOption.parse("-1ms"))
        .hasMessage("'-1ms' is not a non-negative finite duration");
    // 1e308 × 60 overflows a double
    assertThatThrownBy(() -> DurationOption.parse("1e308min"))
        .hasMessage("'1e308min' is not a non-negative finite duration");
  }

  @Test
  void checkPlausible_bareAtOrAboveTenSeconds_suggestsMilliseconds() {
    assertThatThrownBy(() -> DurationOption.checkPlausible("--ttft", "200"))
        .hasMessage("--ttft 200 means 200 s; did you mean 200ms? (write 200ms or 200s)");
    assertThatThrownBy(() -> DurationOption.checkPlausible("--tpot-p99", "10"))
        .hasMessage("--tpot-p99 10 means 10 s; did you mean 10ms? (write 10ms or 10s)");
    // under the bound, with a unit, or an option without a bound: accepted
    for (List<String> ok :
        List.of(
            List.of("--ttft", "9.9"),
            List.of("--ttft", "200s"),
            List.of("--ttft", "200ms"),
            List.of("--rate", "200"))) {
      DurationOption.checkPlausible(ok.get(0), ok.get(1));
    }
  }

  @Test
  void plan_bareTtftOf200_failsWithTheUnitItMeant() {
    CliRun r = plan("200", "30ms");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "ridgeline: --ttft 200 means 200 s; did you mean 200ms? (write 200ms or 200s)\n");
  }

  @Test
  void plan_millisecondObjectives_equalTheirSecondsAsBareNumbers() throws Exception {
    CliRun units = plan("200ms", "30ms", "--json");
    CliRun bare = plan("0.2", "0.03", "--json");
    assertThat(units.code()).as(units.err()).isZero();
    assertThat(units.json().get("configurations").size()).isPositive();
    assertThat(units.out()).isEqualTo(bare.out());
  }

  @Test
  void plan_badDuration_isAMalformedOption() {
    CliRun r = plan("200 parsecs", "30ms");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("ridgeline: Invalid value for option '--ttft'")
        .contains("parsecs");
  }

  private static CliRun plan(String ttft, String tpot, String... extra) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "plan",
                "--model",
                "llama-3.1-8b",
                "--isl",
                "1024",
                "--osl",
                "256",
                "--rate",
                "1",
                "--ttft",
                ttft,
                "--tpot",
                tpot,
                "--chips",
                "h100-sxm"));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }
}
