package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class MetricTest {
  @ParameterizedTest(name = "{0}: {1}, {2}, time {3}")
  @CsvSource({
    "TTFT_MS, TTFT, ms, true",
    "MEDIAN_TTFT_MS, TTFT, ms, true",
    "TPOT_MS, DECODE_SPEED, ms, true",
    "E2E_S, END_TO_END, s, true",
    "OUT_TOK_S_PER_USER, DECODE_SPEED, tokens/s, false",
    "OUT_TOK_S_PER_CHIP, THROUGHPUT, tokens/s, false",
    "TOTAL_TOK_S_PER_CHIP, THROUGHPUT, tokens/s, false",
    "INPUT_TOK_S_PER_CHIP, THROUGHPUT, tokens/s, false"
  })
  void quantityAndIsTime_everyMetric_followItsUnit(
      Metric m, Metric.Quantity quantity, String unit, boolean time) {
    assertThat(m.quantity()).isEqualTo(quantity);
    assertThat(m.unit()).isEqualTo(unit);
    assertThat(m.isTime()).isEqualTo(time);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"TPOT_MS, 0.22314355", "OUT_TOK_S_PER_CHIP, -0.22314355"})
  void lnSlowdown_timeOrRate_signFollowsIsTime(Metric m, double expected) {
    // predicted / measured = 1.25: ln 1.25 = 0.2231 slower for a time, faster for a rate
    assertThat(m.lnSlowdown(1.25)).isCloseTo(expected, within(1e-8));
  }
}
