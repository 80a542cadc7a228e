package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.EfficiencyParameter;
import io.ridgeline.serving.efficiency.EngineProfile;
import org.junit.jupiter.api.Test;

final class FitCoordinatesTest {
  @Test
  void prior_isHalfTheWeightedSquaredDistanceFromTheStart() {
    // weight 0.153 / 2² = 0.03825; distances 1, −2 and 0 logit units: 0.03825 × (1 + 4) / 2
    // = 0.095625; at the start it is 0, and it grows the same either way
    double[] start = {0.5, 1, -3};
    assertThat(FitCoordinates.PARAMETER_PRIOR).isCloseTo(0.153 / 4, within(1e-15));
    assertThat(FitCoordinates.prior(new double[] {1.5, -1, -3}, start))
        .isCloseTo(0.095625, within(1e-12));
    assertThat(FitCoordinates.prior(start, start)).isZero();
    assertThat(FitCoordinates.prior(new double[] {-0.5, 3, -3}, start))
        .isEqualTo(FitCoordinates.prior(new double[] {1.5, -1, -3}, start));
  }

  @Test
  void coordinates_roundTrip() {
    EngineProfile start = Calibration.startProfile();
    Efficiency e = start.efficiency();
    EngineProfile backProfile = FitCoordinates.fromCoordinates(FitCoordinates.toCoordinates(start));
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
    assertThat(FitCoordinates.DIMENSIONS).isEqualTo(searched + 1);
    double[] x = FitCoordinates.toCoordinates(Calibration.startProfile());
    for (int i = 0; i < x.length; i++) {
      x[i] += 3;
    }
    assertThat(FitCoordinates.fromCoordinates(x).efficiency().network())
        .isEqualTo(EfficiencyParameter.NETWORK.start())
        .isEqualTo(0.8);
  }

  @Test
  void logScale_positiveScalesOnly() {
    // fractions and hidden shares move linearly in their range; tokens, elements and times on a
    // log scale
    assertThat(FitCoordinates.logScale(EfficiencyParameter.MEMORY)).isFalse();
    assertThat(FitCoordinates.logScale(EfficiencyParameter.MOE_OVERLAP)).isFalse();
    assertThat(FitCoordinates.logScale(EfficiencyParameter.GEMM_HALF_TOKENS)).isTrue();
    assertThat(FitCoordinates.logScale(EfficiencyParameter.STEP_OVERHEAD)).isTrue();
    assertThat(FitCoordinates.logScale(EfficiencyParameter.ADMISSION)).isTrue();
  }
}
