package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

final class SummaryTest {
  @Test
  void ofRatios_threeRatios_handComputed() {
    // ratios 0.5, 1, 2: APE 0.5, 0, 1 -> median 0.5; geo mean (0.5·1·2)^(1/3) = 1;
    // within 25%: only 1.0 -> 1/3; within 50%: 0.5 and 1.0 -> 2/3
    Summary s = Summary.ofRatios(0.5, 1.0, 2.0);
    assertThat(s.count()).isEqualTo(3);
    assertThat(s.medianApe()).isCloseTo(0.5, within(1e-12));
    assertThat(s.geoMeanRatio()).isCloseTo(1.0, within(1e-12));
    assertThat(s.within25()).isCloseTo(1.0 / 3, within(1e-12));
    assertThat(s.within50()).isCloseTo(2.0 / 3, within(1e-12));
  }

  @Test
  void validation_tinySyntheticFile_summaryHandComputed() {
    // four static llama rows; the predictions are whatever the model says, so the summary is
    // checked against the ratios themselves: median of the sorted APEs' middle pair, exp(mean ln).
    String h = CaseFileTest.HEADER + "\n";
    String text =
        h
            + CaseFileTest.row(
                "P1-tpot",
                "llama-3.1-8b",
                "h100-sxm",
                "1",
                "1",
                "bf16",
                "bf16",
                "1024",
                "128",
                "static",
                "1",
                "tpot_ms",
                "10",
                "")
            + "\n"
            + CaseFileTest.row(
                "P2-tpot",
                "llama-3.1-8b",
                "h100-sxm",
                "1",
                "1",
                "bf16",
                "bf16",
                "1024",
                "128",
                "static",
                "1",
                "tpot_ms",
                "5",
                "")
            + "\n"
            + CaseFileTest.row(
                "P3-ttft",
                "llama-3.1-8b",
                "h100-sxm",
                "1",
                "1",
                "bf16",
                "bf16",
                "1024",
                "128",
                "static",
                "1",
                "ttft_ms",
                "40",
                "")
            + "\n"
            + CaseFileTest.row(
                "P4-ttft",
                "llama-3.1-8b",
                "h100-sxm",
                "1",
                "1",
                "bf16",
                "bf16",
                "1024",
                "128",
                "server",
                "",
                "ttft_ms",
                "40",
                "")
            + "\n";
    Validation v = Validation.run(CaseFile.parse(text, "tiny.csv"), Predictor.ideal());
    assertThat(v.predictions()).hasSize(3);
    assertThat(v.skipped()).hasSize(1);
    double r1 = v.predictions().get(0).ratio();
    double r2 = v.predictions().get(1).ratio();
    double r3 = v.predictions().get(2).ratio();
    assertThat(r2).isCloseTo(2 * r1, within(1e-12)); // same prediction, half the measurement
    double[] ape = {Math.abs(r1 - 1), Math.abs(r2 - 1), Math.abs(r3 - 1)};
    java.util.Arrays.sort(ape);
    Summary s = v.overall();
    assertThat(s.medianApe()).isCloseTo(ape[1], within(1e-12));
    assertThat(s.geoMeanRatio()).isCloseTo(Math.cbrt(r1 * r2 * r3), within(1e-12));
    assertThat(v.byMetric()).containsOnlyKeys(Metric.TPOT_MS, Metric.TTFT_MS);
    assertThat(v.byMetric().get(Metric.TPOT_MS).count()).isEqualTo(2);
    // grouped in the order of the ids, as the reports print them
    assertThat(v.byMetric().keySet()).containsExactly(Metric.TPOT_MS, Metric.TTFT_MS);
  }

  @Test
  void ofRatios_evenCount_medianIsMeanOfMiddlePair() {
    // APEs 0.1, 0.2, 0.3, 0.6 -> median (0.2 + 0.3) / 2 = 0.25; ln ratios of 1.1·0.8·1.3·0.4
    Summary s = Summary.ofRatios(1.1, 0.8, 1.3, 0.4);
    assertThat(s.medianApe()).isCloseTo(0.25, within(1e-12));
    assertThat(s.geoMeanRatio()).isCloseTo(Math.pow(1.1 * 0.8 * 1.3 * 0.4, 0.25), within(1e-12));
    assertThat(s.within25()).isCloseTo(0.5, within(1e-12));
    assertThat(s.within50()).isCloseTo(0.75, within(1e-12));
  }

  @Test
  void of_empty_isNaN() {
    assertThat(Summary.of(List.of()).count()).isZero();
    assertThat(Summary.of(List.of()).medianApe()).isNaN();
  }
}
