package io.ridgeline.serving;

import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.hardware.Chip;
import java.util.Optional;

/** Dollars and energy of a deployment's pools, added to its frontier points. */
final class ServingCosts {
  private ServingCosts() {}

  private static Optional<Double> pricePerHour(Optional<DollarsPerHour> price, Chip chip) {
    return price.or(chip::pricePerHour).map(DollarsPerHour::dollarsPerHour);
  }

  /** Dollars per hour of two pools, NaN when either price is unknown. */
  static double dollarsPerHour(
      Optional<DollarsPerHour> price, Chip a, double aChips, Chip b, double bChips) {
    return pricePerHour(price, a).map(p -> p * aChips).orElse(Double.NaN)
        + pricePerHour(price, b).map(p -> p * bChips).orElse(Double.NaN);
  }

  /** Dollars per hour of one pool of {@code chips} chips, NaN when its price is unknown. */
  static double dollarsPerHour(Optional<DollarsPerHour> price, Chip chip, double chips) {
    return pricePerHour(price, chip).map(p -> p * chips).orElse(Double.NaN);
  }

  /** Watts at TDP of one pool of {@code chips} chips, NaN when the TDP is unknown. */
  static double watts(Chip chip, double chips) {
    return chip.tdp().map(w -> w.watts() * chips).orElse(Double.NaN);
  }

  /** Watts at TDP of two pools, NaN when either TDP is unknown. */
  static double watts(Chip a, double aChips, Chip b, double bChips) {
    return a.tdp().map(w -> w.watts() * aChips).orElse(Double.NaN)
        + b.tdp().map(w -> w.watts() * bChips).orElse(Double.NaN);
  }

  /**
   * Completes the point of a single pool of {@code chips} chips of {@code pool}'s type: strategy,
   * chips, note, and the costs of {@code perChip × chips} tokens per second.
   */
  static FrontierPoint onePool(
      FrontierPoint.Builder b,
      Deployment.Strategy strategy,
      RooflineModel pool,
      Optional<DollarsPerHour> price,
      double perChip,
      double chips,
      String note) {
    double dollars = dollarsPerHour(price, pool.chip(), chips);
    double watts = watts(pool.chip(), chips);
    return costs(
        b.strategy(strategy.id()).chipsTotal(chips).note(note), perChip * chips, dollars, watts);
  }

  /**
   * Adds $ per million output tokens (dollars per hour / 3600 / tokens per second × 1e6) and tokens
   * per joule (tokens per second / watts at TDP), where prices and TDPs are known.
   */
  static FrontierPoint costs(
      FrontierPoint.Builder b, double tokensPerSecond, double dollarsPerHour, double watts) {
    double dollars = dollarsPerMillionTokens(dollarsPerHour, tokensPerSecond);
    if (!Double.isNaN(dollars)) {
      b.dollarsPerMillionTokens(dollars);
    }
    double joules = tokensPerJoule(tokensPerSecond, watts);
    if (!Double.isNaN(joules)) {
      b.tokensPerJoule(joules);
    }
    return b.build();
  }

  /**
   * Dollars per million tokens at {@code dollarsPerHour} serving {@code tokensPerSecond}: $/h /
   * 3600 / (tokens/s) × 1e6; NaN when the price is unknown (not finite) or no token is served.
   */
  static double dollarsPerMillionTokens(double dollarsPerHour, double tokensPerSecond) {
    return Double.isFinite(dollarsPerHour) && tokensPerSecond > 0
        ? dollarsPerHour / 3600 / tokensPerSecond * 1e6
        : Double.NaN;
  }

  /**
   * Tokens per joule at {@code watts} serving {@code tokensPerSecond}: (tokens/s) / W; NaN when the
   * power is unknown (not finite) or not positive.
   */
  static double tokensPerJoule(double tokensPerSecond, double watts) {
    return Double.isFinite(watts) && watts > 0 ? tokensPerSecond / watts : Double.NaN;
  }
}
