package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.EfficiencyParameter;
import io.ridgeline.serving.efficiency.EngineProfile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class CalibrationTest {
  @Test
  void huber_isQuadraticThenLinear() {
    // 0.1²/2 = 0.005; beyond δ = 0.3: 0.3 × (1 − 0.15) = 0.255
    assertThat(Calibration.huber(0.1)).isCloseTo(0.005, within(1e-12));
    assertThat(Calibration.huber(-1)).isCloseTo(0.255, within(1e-12));
  }

  @Test
  void fitProfile_fewSyntheticRows_lowersLossWithinBounds() {
    // twelve static rows "measured" with the starting efficiency but 55% of memory bandwidth:
    // the start (80%) is off by far more than the parameters' prior costs to move (a few
    // hundredths per logit unit against ~0.07 of Huber loss per memory-bound row), and 60
    // evaluations (the 11-point first simplex and some 50 steps) must find a lower loss without
    // leaving any parameter's plausible range; the full refit is `./ridgeline calibrate`, not a
    // test
    Efficiency truth = Efficiency.builder().from(Calibration.start()).memory(0.55).build();
    Predictor p = Predictor.of(truth);
    List<ValidationCase> synthetic = new ArrayList<>();
    for (ValidationCase c : CaseFile.shipped()) {
      if (synthetic.size() == 12
          || c.mode() != Mode.STATIC
          || (c.metric() != Metric.TPOT_MS && c.metric() != Metric.OUT_TOK_S_PER_CHIP)) {
        continue;
      }
      Outcome o = p.predict(c);
      if (o instanceof Prediction prediction) {
        synthetic.add(withMeasured(c, prediction.predicted()));
      }
    }
    assertThat(synthetic).hasSize(12);
    assertThat(Calibration.loss(synthetic, truth)).isCloseTo(0, within(1e-9));
    double before = Calibration.loss(synthetic, Calibration.startProfile());
    EngineProfile fitted = Calibration.fitProfile(synthetic, 60);
    assertThat(Calibration.loss(synthetic, fitted)).isLessThan(before);
    for (EfficiencyParameter q : EfficiencyParameter.values()) {
      assertThat(q.get(fitted.efficiency()))
          .as(q.jsonKey())
          .isBetween(q.lower() * (1 - 1e-9), q.upper() * (1 + 1e-9));
    }
    assertThat(fitted.maxRunningRequests().getAsInt())
        .isBetween((int) Calibration.MIN_MAX_RUNNING, (int) Calibration.MAX_MAX_RUNNING);
  }

  /** A static row of point {@code point} and {@code source}: Llama-3.1-8B on one H100. */
  static ValidationCase synthetic(String point, Metric metric, double measured, String source) {
    return new ValidationCase(
        point + "-" + metric.id(),
        point,
        "llama-3.1-8b",
        "h100-sxm",
        java.util.OptionalInt.of(1),
        java.util.OptionalInt.empty(),
        java.util.OptionalInt.empty(),
        java.util.OptionalInt.of(1),
        java.util.OptionalInt.empty(),
        java.util.OptionalInt.empty(),
        java.util.OptionalInt.empty(),
        java.util.Optional.empty(),
        java.util.Optional.empty(),
        java.util.OptionalInt.of(1024),
        java.util.OptionalInt.of(128),
        Mode.STATIC,
        java.util.OptionalInt.of(1),
        java.util.Optional.empty(),
        "trtllm",
        metric,
        measured,
        "high",
        source,
        "",
        RunSetup.NOT_STATED,
        "",
        2);
  }

  private static ValidationCase withMeasured(ValidationCase c, double measured) {
    return copy(c, c.engine(), measured);
  }

  /** {@code c} with its engine and measured value replaced, every other field as it is. */
  static ValidationCase copy(ValidationCase c, String engine, double measured) {
    return new ValidationCase(
        c.caseId(),
        c.pointId(),
        c.model(),
        c.chip(),
        c.chips(),
        c.prefillChips(),
        c.decodeChips(),
        c.tp(),
        c.pp(),
        c.ep(),
        c.attentionDp(),
        c.weights(),
        c.kvCache(),
        c.isl(),
        c.osl(),
        c.mode(),
        c.load(),
        c.speculative(),
        engine,
        c.metric(),
        measured,
        c.confidence(),
        c.source(),
        c.url(),
        c.run(),
        c.notes(),
        c.line());
  }
}
