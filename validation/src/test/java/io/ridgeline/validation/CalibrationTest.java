package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.EfficiencyParameter;
import io.ridgeline.serving.efficiency.EngineProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

final class CalibrationTest {
  @Test
  void minimize_quadratic_findsMinimum() {
    // f = (x − 1)² + 2(y + 2)² + 0.5(z − 3)², minimum at (1, −2, 3)
    double[] m =
        Calibration.minimize(
            x -> Math.pow(x[0] - 1, 2) + 2 * Math.pow(x[1] + 2, 2) + 0.5 * Math.pow(x[2] - 3, 2),
            new double[] {0, 0, 0},
            1.0,
            2000);
    assertThat(m[0]).isCloseTo(1, within(1e-3));
    assertThat(m[1]).isCloseTo(-2, within(1e-3));
    assertThat(m[2]).isCloseTo(3, within(1e-3));
  }

  @Test
  void minimize_tenDimensionalRosenbrock_convergesWithinTwoThousandEvaluations() {
    // f = Σ_{i<9} 100 (x_{i+1} − x_i²)² + (1 − x_i)², minimum 0 at (1, …, 1), from the origin
    // (f = 9). With the dimension-adaptive coefficients (n = 10: expansion 1.2, contraction 0.7,
    // shrink 0.9) the search ends at f ≈ 0.002 within 2,000 evaluations; with the standard
    // 2, ½, ½ it ended at 0.19, x still 0.54 from the minimum
    ToDoubleFunction<double[]> rosenbrock =
        x -> {
          double s = 0;
          for (int i = 0; i + 1 < x.length; i++) {
            s += 100 * Math.pow(x[i + 1] - x[i] * x[i], 2) + Math.pow(1 - x[i], 2);
          }
          return s;
        };
    double[] m = Calibration.minimize(rosenbrock, new double[10], 1.0, 2000);
    assertThat(rosenbrock.applyAsDouble(m)).isLessThan(0.01);
    for (double v : m) {
      assertThat(v).isCloseTo(1, within(0.1));
    }
  }

  @Test
  void prior_isHalfTheWeightedSquaredDistanceFromTheStart() {
    // weight 0.153 / 2² = 0.03825; distances 1, −2 and 0 logit units: 0.03825 × (1 + 4) / 2
    // = 0.095625; at the start it is 0, and it grows the same either way
    double[] start = {0.5, 1, -3};
    assertThat(Calibration.PARAMETER_PRIOR).isCloseTo(0.153 / 4, within(1e-15));
    assertThat(Calibration.prior(new double[] {1.5, -1, -3}, start))
        .isCloseTo(0.095625, within(1e-12));
    assertThat(Calibration.prior(start, start)).isZero();
    assertThat(Calibration.prior(new double[] {-0.5, 3, -3}, start))
        .isEqualTo(Calibration.prior(new double[] {1.5, -1, -3}, start));
  }

  @Test
  void huber_isQuadraticThenLinear() {
    // 0.1²/2 = 0.005; beyond δ = 0.3: 0.3 × (1 − 0.15) = 0.255
    assertThat(Calibration.huber(0.1)).isCloseTo(0.005, within(1e-12));
    assertThat(Calibration.huber(-1)).isCloseTo(0.255, within(1e-12));
  }

  @Test
  void coordinates_roundTrip() {
    EngineProfile start = Calibration.startProfile();
    Efficiency e = start.efficiency();
    EngineProfile backProfile = Calibration.fromCoordinates(Calibration.toCoordinates(start));
    Efficiency back = backProfile.efficiency();
    // the cap comes back as a real number rounded down, as the predictor rounded it: 255 or 256
    assertThat(backProfile.maxRunningRequests().getAsInt())
        .isBetween(
            start.maxRunningRequests().getAsInt() - 1, start.maxRunningRequests().getAsInt());
    assertThat(back.compute()).isCloseTo(e.compute(), within(1e-6));
    assertThat(back.memory()).isCloseTo(e.memory(), within(1e-6));
    assertThat(back.gemmHalfTokens()).isCloseTo(e.gemmHalfTokens(), within(1e-4));
    assertThat(back.stepOverhead().seconds()).isCloseTo(e.stepOverhead().seconds(), within(1e-9));
  }

  @Test
  void coordinates_heldParameterIsNotSearched() {
    // network is held at its sourced 0.8: no coordinate moves it, and a profile's other value
    // round-trips to the held one; the search has one coordinate per searched parameter + the cap
    assertThat(EfficiencyParameter.NETWORK.fitted()).isFalse();
    long searched =
        java.util.Arrays.stream(EfficiencyParameter.values())
            .filter(EfficiencyParameter::fitted)
            .count();
    assertThat(Calibration.DIMENSIONS).isEqualTo(searched + 1);
    double[] x = Calibration.toCoordinates(Calibration.startProfile());
    for (int i = 0; i < x.length; i++) {
      x[i] += 3;
    }
    assertThat(Calibration.fromCoordinates(x).efficiency().network())
        .isEqualTo(EfficiencyParameter.NETWORK.start())
        .isEqualTo(0.8);
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
        "",
        2);
  }

  private static ValidationCase withMeasured(ValidationCase c, double measured) {
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
        c.engine(),
        c.metric(),
        measured,
        c.confidence(),
        c.source(),
        c.url(),
        c.notes(),
        c.line());
  }
}
