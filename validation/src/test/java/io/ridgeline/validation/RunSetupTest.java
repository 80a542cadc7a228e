package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

final class RunSetupTest {
  @Test
  void notStated_givesTheDefaults() {
    RunSetup n = RunSetup.NOT_STATED;
    assertThat(n.rangeRatioOrDefault()).isEqualTo(RunSetup.DEFAULT_RANGE_RATIO);
    assertThat(n.cycles(OptionalInt.of(64))).isEqualTo(RunSetup.DEFAULT_CYCLES);
    assertThat(n.slo()).isEmpty();
    assertThat(n.loadPerChip()).isFalse();
    assertThat(n.eagerDecode()).isFalse();
    assertThat(n.synchronousScheduler()).isFalse();
    assertThat(RunSetup.builder().build()).isEqualTo(n);
  }

  @Test
  void cycles_promptsOverLoad_atLeastOne() {
    // 1280 prompts over 64 clients = 20 rounds; 100 prompts over 64 clients = 1 round (floor)
    RunSetup r = RunSetup.builder().prompts(1280).rangeRatio(0.5).build();
    assertThat(r.rangeRatioOrDefault()).isEqualTo(0.5);
    assertThat(r.cycles(OptionalInt.of(64))).isEqualTo(20);
    assertThat(RunSetup.builder().prompts(100).build().cycles(OptionalInt.of(64))).isEqualTo(1);
    // without a load the prompt count says nothing about rounds
    assertThat(r.cycles(OptionalInt.empty())).isEqualTo(RunSetup.DEFAULT_CYCLES);
  }

  @Test
  void slo_inSecondsFromMilliseconds() {
    // 2,000 ms → 2 s; 200 ms → 0.2 s; 450 ms → 0.45 s
    RunSetup.Slo s = new RunSetup.Slo(2000, 200);
    assertThat(s.ttftSeconds()).isEqualTo(2.0);
    assertThat(s.tpotSeconds()).isCloseTo(0.2, within(1e-15));
    assertThat(new RunSetup.Slo(450, 40).ttftSeconds()).isCloseTo(0.45, within(1e-15));
  }

  @Test
  void enums_findTheirIdsExactly() {
    assertThat(RunSetup.Scheduler.find("synchronous")).hasValue(RunSetup.Scheduler.SYNCHRONOUS);
    assertThat(RunSetup.Scheduler.find("Synchronous")).isEmpty();
    assertThat(RunSetup.DecodeLaunch.find("eager")).hasValue(RunSetup.DecodeLaunch.EAGER);
    assertThat(RunSetup.DecodeLaunch.GRAPHS).hasToString("graphs");
    assertThat(RunSetup.known(RunSetup.Scheduler.values())).isEqualTo("overlap, synchronous");
  }

  @Test
  void constructor_badValues_nameTheAttributeRuleAndValue() {
    assertThat(
            assertThrows(
                IllegalArgumentException.class, () -> RunSetup.builder().rangeRatio(1.5).build()))
        .hasMessage("range ratio must be in [0, 1]: 1.5");
    assertThat(
            assertThrows(
                IllegalArgumentException.class, () -> RunSetup.builder().prompts(0).build()))
        .hasMessage("prompts must be from 1 to 1000000: 0");
    assertThat(
            assertThrows(
                IllegalArgumentException.class,
                () -> RunSetup.builder().maxBatchPerRank(-3).build()))
        .hasMessage("max batch per rank must be from 1 to 1048576: -3");
    assertThat(
            assertThrows(
                IllegalArgumentException.class,
                () -> RunSetup.builder().engineVersion("v1.0").build()))
        .hasMessageContaining("engine version must start with a digit")
        .hasMessageEndingWith(": 'v1.0'");
    assertThat(assertThrows(IllegalArgumentException.class, () -> new RunSetup.Slo(Double.NaN, 40)))
        .hasMessage("SLO TTFT must be positive: NaN ms");
    assertThat(assertThrows(IllegalArgumentException.class, () -> new RunSetup.Slo(450, 0)))
        .hasMessage("SLO TPOT must be positive: 0.0 ms");
  }
}
