package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

/** Asserts that a compiled point is the object path's point, field by field. */
public final class SamePoints {
  /**
   * Relative difference allowed between compiled and object doubles: a few units in the last place.
   */
  public static final double RELATIVE = 1e-12;

  private SamePoints() {}

  /** Every field equal, doubles to {@link #RELATIVE}. */
  public static void assertSamePoint(FrontierPoint actual, FrontierPoint expected, String what) {
    assertThat(actual.batch()).as(what).isEqualTo(expected.batch());
    assertThat(actual.fits()).as(what + " fits").isEqualTo(expected.fits());
    assertThat(actual.strategy()).as(what).isEqualTo(expected.strategy());
    assertThat(actual.note()).as(what).isEqualTo(expected.note());
    assertThat(actual.pareto()).as(what).isEqualTo(expected.pareto());
    close(what + " ttft", actual.ttft().seconds(), expected.ttft().seconds());
    close(what + " tpot", actual.tpot().seconds(), expected.tpot().seconds());
    close(what + " per user", actual.tokensPerSecondPerUser(), expected.tokensPerSecondPerUser());
    close(what + " per chip", actual.tokensPerSecondPerChip(), expected.tokensPerSecondPerChip());
    close(what + " chips", actual.chipsTotal(), expected.chipsTotal());
    close(what, actual.dollarsPerMillionTokens(), expected.dollarsPerMillionTokens());
    close(what, actual.tokensPerJoule(), expected.tokensPerJoule());
    close(what, actual.mfu(), expected.mfu());
    close(what, actual.bandwidthUtilisation(), expected.bandwidthUtilisation());
  }

  private static void close(String what, Optional<Double> actual, Optional<Double> expected) {
    assertThat(actual.isPresent()).as(what).isEqualTo(expected.isPresent());
    actual.ifPresent(a -> close(what, a, expected.get()));
  }

  static void close(String what, double actual, double expected) {
    assertThat(Math.abs(actual - expected))
        .as("%s: %s vs %s", what, actual, expected)
        .isLessThanOrEqualTo(RELATIVE * Math.abs(expected));
  }
}
