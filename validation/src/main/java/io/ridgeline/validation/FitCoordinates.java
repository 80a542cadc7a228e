package io.ridgeline.validation;

import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.EfficiencyParameter;
import io.ridgeline.serving.efficiency.EngineProfile;
import io.ridgeline.serving.efficiency.Profiles;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The coordinates {@link Calibration}'s search moves in, and the prior on them: one coordinate per
 * searched parameter ({@link EfficiencyParameter#fitted()}) and one for the running-request cap,
 * each the logit of the value's place in its plausible range ({@link EfficiencyParameter#lower()}
 * to {@link EfficiencyParameter#upper()}; {@link Calibration#MIN_MAX_RUNNING} to {@link
 * Calibration#MAX_MAX_RUNNING} for the cap), of its logarithm for a positive scale ({@link
 * #logScale}): every point of the search is a valid, physical profile, and one unit moves a
 * parameter across a fixed share of its range.
 */
final class FitCoordinates {
  private FitCoordinates() {}

  /**
   * Weight of the parameters' prior: σ_r² / σ_z², with σ_r² = 0.153 the within-source variance of
   * the shipped rows' ln slowdowns ({@link FitObjective}) the weight was set from, and σ_z = 2
   * logit units (see {@link Calibration}'s class javadoc).
   */
  static final double PARAMETER_PRIOR = 0.03825;

  /**
   * The searched parameters ({@link EfficiencyParameter#fitted()}) in their order; the others keep
   * their {@link EfficiencyParameter#start()}.
   */
  private static final List<EfficiencyParameter> SEARCHED =
      Arrays.stream(EfficiencyParameter.values())
          .filter(EfficiencyParameter::fitted)
          .collect(Collectors.toUnmodifiableList());

  /**
   * Index of the running-request cap among the coordinates: just before admission, the other
   * coordinates being the {@link #SEARCHED} parameters in order. The order sets the search's path,
   * and so the fitted profiles.
   */
  private static final int CAP = SEARCHED.indexOf(EfficiencyParameter.ADMISSION);

  /** The coordinates: every searched efficiency parameter and the running-request cap. */
  static final int DIMENSIONS = SEARCHED.size() + 1;

  /** The coordinate of searched parameter {@code p}. */
  private static int index(EfficiencyParameter p) {
    int i = SEARCHED.indexOf(p);
    return i < CAP ? i : i + 1;
  }

  /**
   * Whether the search moves {@code p} on a log scale: every parameter but the fractions and hidden
   * shares is a positive scale (tokens, elements, times).
   */
  static boolean logScale(EfficiencyParameter p) {
    return switch (p.unit()) {
      case FRACTION, HIDDEN_SHARE -> false;
      case TOKENS, ELEMENTS, MICROSECONDS, MILLISECONDS -> true;
    };
  }

  /**
   * The parameters' prior at coordinates {@code x}: {@value #PARAMETER_PRIOR} × Σ (x − start)² / 2.
   */
  static double prior(double[] x, double[] start) {
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      double z = x[i] - start[i];
      sum += z * z;
    }
    return PARAMETER_PRIOR * sum / 2;
  }

  /**
   * Coordinates of {@code p}: a logit scaled to each searched parameter's plausible range, of the
   * log for the positive scales ({@link #logScale}, and the cap); values outside a range (an
   * infinite cap included) are clamped just inside it.
   */
  static double[] toCoordinates(EngineProfile p) {
    double[] x = new double[DIMENSIONS];
    for (EfficiencyParameter q : SEARCHED) {
      x[index(q)] = toCoordinate(q.get(p.efficiency()), q.lower(), q.upper(), logScale(q));
    }
    x[CAP] =
        toCoordinate(
            p.maxRunningRequests().isPresent()
                ? p.maxRunningRequests().getAsInt()
                : Double.MAX_VALUE,
            Calibration.MIN_MAX_RUNNING,
            Calibration.MAX_MAX_RUNNING,
            true);
    return x;
  }

  /**
   * The profile at transformed coordinates {@code x} (inverse of {@link #toCoordinates}; the
   * parameters that are not searched at their start), named {@value Profiles#DEFAULT} with an empty
   * source.
   */
  static EngineProfile fromCoordinates(double[] x) {
    Efficiency e =
        EfficiencyParameter.efficiency(
            q -> {
              if (!q.fitted()) {
                return q.start();
              }
              double v = fromCoordinate(x[index(q)], q.lower(), q.upper(), logScale(q));
              return q.unit() == EfficiencyParameter.Unit.FRACTION ? Math.min(1, v) : v;
            });
    double cap =
        fromCoordinate(x[CAP], Calibration.MIN_MAX_RUNNING, Calibration.MAX_MAX_RUNNING, true);
    // the predictor runs whole requests: the searched real number rounded down
    return new EngineProfile(Profiles.DEFAULT, e, (int) Math.max(1, Math.floor(cap)), "");
  }

  /**
   * The logit of {@code v}'s place in [lo, hi] (of their logs when {@code log}), clamped inside.
   */
  private static double toCoordinate(double v, double lower, double upper, boolean log) {
    double lo = log ? Math.log(lower) : lower;
    double hi = log ? Math.log(upper) : upper;
    double y = log ? Math.log(Math.max(v, 1e-12)) : v;
    double u = Math.min(Math.max((y - lo) / (hi - lo), 1e-6), 1 - 1e-6);
    return Math.log(u / (1 - u));
  }

  /** The inverse of {@link #toCoordinate}. */
  private static double fromCoordinate(double x, double lower, double upper, boolean log) {
    double lo = log ? Math.log(lower) : lower;
    double hi = log ? Math.log(upper) : upper;
    double y = lo + (hi - lo) / (1 + Math.exp(-x));
    return log ? Math.exp(y) : y;
  }
}
