package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.RidgelineStyle;
import org.immutables.value.Value;

/**
 * Achieved fractions of a chip's peak FLOP/s, memory bandwidth and interconnect bandwidth. {@link
 * #ideal()} is 100% of each: the roofline bound.
 */
@Value.Immutable
@RidgelineStyle
public abstract class Efficiency {
  /** Fraction of peak FLOP/s, in (0, 1]. */
  @Value.Parameter
  public abstract double compute();

  /** Fraction of memory bandwidth, in (0, 1]. */
  @Value.Parameter
  public abstract double memory();

  /** Fraction of interconnect bandwidth, in (0, 1]. */
  @Value.Parameter
  public abstract double network();

  /** 100% of peak and bandwidth. */
  public static Efficiency ideal() {
    return ImmutableEfficiency.of(1, 1, 1);
  }

  /**
   * Explicit fractions.
   *
   * @throws IllegalArgumentException when a fraction is outside (0, 1] or not finite
   */
  public static Efficiency of(double compute, double memory, double network) {
    return ImmutableEfficiency.of(compute, memory, network);
  }

  /** Whether every fraction is 1. */
  public boolean isIdeal() {
    return compute() == 1 && memory() == 1 && network() == 1;
  }

  @Value.Check
  void check() {
    in("compute efficiency", compute());
    in("memory efficiency", memory());
    in("network efficiency", network());
  }

  private static void in(String what, double v) {
    checkArgument(v > 0 && v <= 1, "%s must be in (0, 1]: %s", what, v);
  }

  @Override
  public String toString() {
    return isIdeal()
        ? "ideal"
        : String.format(
            java.util.Locale.ROOT,
            "compute %.0f%%, memory %.0f%%, network %.0f%%",
            100 * compute(),
            100 * memory(),
            100 * network());
  }
}
