package io.ridgeline.serving.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

final class ClosedLoopTest {
  @Test
  void median_byHand() {
    // odd: 3, 1, 2 sorted 1, 2, 3: the middle one, 2; even: 4, 1, 3, 2 sorted 1, 2, 3, 4:
    // (2 + 3) / 2 = 2.5; ties: 5, 5, 1, 5: (5 + 5) / 2 = 5
    assertThat(ClosedLoop.median(new double[] {3, 1, 2})).isEqualTo(2.0);
    assertThat(ClosedLoop.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
    assertThat(ClosedLoop.median(new double[] {5, 5, 1, 5})).isEqualTo(5.0);
  }

  @Test
  void median_isTheSortedMiddle() {
    // selection gives the sort's value to the bit, for any length, duplicates and order
    qt().forAll(integers().between(1, 400), integers().between(1, 50), integers().all())
        .checkAssert(
            (n, distinct, seed) -> {
              java.util.Random random = new java.util.Random(seed);
              double[] values = new double[n];
              for (int i = 0; i < n; i++) {
                values[i] = random.nextInt(distinct) * 0.1 + (random.nextBoolean() ? 1e-3 : 0);
              }
              double[] sorted = values.clone();
              java.util.Arrays.sort(sorted);
              int mid = n / 2;
              double expected = n % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
              assertThat(ClosedLoop.median(values)).isEqualTo(expected);
            });
  }

  @Test
  void throughput_littlesLaw_handComputed() {
    // 50 requests in a cycle of 2 s: 25 per second
    assertThat(ClosedLoop.throughput(50, 2.0)).isEqualTo(25.0);
  }

  @Test
  void queuedTtft_clientsBeyondBatch_handComputed() {
    // C = 100 clients, B = 50 running, TTFT₀ = 1 s, TPOT = 10 ms, osl = 101:
    // decoding (osl − 1)·TPOT = 1 s, cycle 2 s, X = 50 / 2 = 25 req/s,
    // response C / X = 4 s, TTFT = 4 − 1 = 3 s (2 s of queue + 1 s of prefill)
    assertThat(ClosedLoop.queuedTtft(100, 50, 1.0, 0.010, 101)).isCloseTo(3.0, within(1e-12));
    // C = 128, B = 54, TTFT₀ = 2 s, TPOT = 72 ms, osl = 800:
    // decoding 799 × 0.072 = 57.528 s, cycle 59.528 s, C / X = 128 × 59.528 / 54 = 141.10341 s,
    // TTFT = 141.10341 − 57.528 = 83.57541 s
    assertThat(ClosedLoop.queuedTtft(128, 54, 2.0, 0.072, 800)).isCloseTo(83.575407, within(1e-5));
  }

  @Test
  void queuedTtft_clientsFitTheBatch_nobodyWaits() {
    assertThat(ClosedLoop.queuedTtft(50, 50, 1.0, 0.010, 101)).isEqualTo(1.0);
    assertThat(ClosedLoop.queuedTtft(8, 54, 2.0, 0.072, 800)).isEqualTo(2.0);
  }

  @Test
  void roundsTtft_oneRoundAllAtOnce_handComputed() {
    // 4 prompts, 2 per step of 0.1 s, range ratio 1 (all arrive at 0): two finish at 0.1 s and
    // two at 0.2 s, mean 0.15 s
    assertThat(ClosedLoop.roundsTtft(4, 2, m -> 0.1, 0, 10, 1, 1, 0))
        .isCloseTo(0.15, within(1e-12));
    // a step of one prompt costs 0.06 s, of two 0.1 s: 3 prompts, 2 per step → 0.1, 0.1, 0.16
    assertThat(ClosedLoop.roundsTtft(3, 2, m -> m == 1 ? 0.06 : 0.1, 0, 10, 1, 1, 0))
        .isCloseTo((0.1 + 0.1 + 0.16) / 3, within(1e-12));
  }

  @Test
  void roundsTtft_driftingRounds_handComputed() {
    // 2 prompts, 1 per step of 0.1 s, decode 1 s, range ratio 0, 2 rounds:
    // round 0 arrives at once: 0.1 and 0.2 s, mean 0.15 s;
    // round 1 spreads over min(1, √1·1) × 1 s: arrivals 0 and 0.5 s, each served at once: 0.1 s;
    // mean over both rounds (0.15 + 0.1) / 2 = 0.125 s
    assertThat(ClosedLoop.roundsTtft(2, 1, m -> 0.1, 0, 1, 0, 2, 0))
        .isCloseTo(0.125, within(1e-12));
    // with a shared decode step of 0.02 s in spread rounds, round 1's steps take 0.12 s: the
    // prompt arriving at 0 finds the server starting (0.12 s), the one at 0.5 s waits half a step
    // (0.01 + 0.12 = 0.13 s); round 1 mean 0.125 s, both rounds (0.15 + 0.125) / 2 = 0.1375 s
    assertThat(ClosedLoop.roundsTtft(2, 1, m -> 0.1, 0.02, 1, 0, 2, 0))
        .isCloseTo(0.1375, within(1e-12));
  }

  @Test
  void roundsTtft_overlapScheduler_joinsTheStepAfterNext_handComputed() {
    // Under an overlap scheduler (lag 1) a step's prompts are those waiting when it was scheduled,
    // at the start of the step before it. Same runs as above, with a shared decode step of 0.02 s:
    // round 0 arrives at once (nobody decodes yet, all waiting when the first step is scheduled):
    // 0.1 and 0.2 s as without a lag. Round 1 (arrivals 0 and 0.5 s): the prompt at 0 finds the
    // server starting (0.12 s); the one at 0.5 s waits half the running decode step, then the
    // decode step scheduled without it, then its own: 0.01 + 0.02 + 0.12 = 0.15 s (0.13 s without
    // the lag). Mean (0.1 + 0.2 + 0.12 + 0.15) / 4 = 0.1425 s.
    assertThat(ClosedLoop.roundsTtft(2, 1, m -> 0.1, 0.02, 1, 0, 2, 1))
        .isCloseTo(0.1425, within(1e-12));
    // A prompt arriving during a prefill step: decode 0.1 s, so round 1's prompts arrive at 0 and
    // 0.05 s. The first runs 0 to 0.12 s; the second arrived after that step was scheduled (at
    // 0), so the step after it, scheduled at 0 too, holds nobody and runs the decode alone (0.12
    // to 0.14 s); the second's step follows, 0.14 to 0.26 s: TTFT 0.21 s. Without the lag it
    // joins the next step, 0.12 to 0.24 s: 0.19 s. Means (0.1 + 0.2 + 0.12 + 0.21) / 4 = 0.1575 s
    // and (0.1 + 0.2 + 0.12 + 0.19) / 4 = 0.1525 s.
    assertThat(ClosedLoop.roundsTtft(2, 1, m -> 0.1, 0.02, 0.1, 0, 2, 1))
        .isCloseTo(0.1575, within(1e-12));
    assertThat(ClosedLoop.roundsTtft(2, 1, m -> 0.1, 0.02, 0.1, 0, 2, 0))
        .isCloseTo(0.1525, within(1e-12));
    // without a shared decode step (a prefill pool) the lag costs nothing: an empty scheduled
    // step takes no time
    assertThat(ClosedLoop.roundsTtft(2, 1, m -> 0.1, 0, 0.1, 0, 2, 1))
        .isEqualTo(ClosedLoop.roundsTtft(2, 1, m -> 0.1, 0, 0.1, 0, 2, 0));
    assertThatThrownBy(() -> ClosedLoop.roundsTtft(1, 1, m -> 1, 0, 1, 1, 1, -1))
        .hasMessageContaining("scheduling lag steps must be >= 0: -1");
  }

  @Test
  void roundsTtft_lag_neverShortensATtft() {
    // property: with one prompt per step the lag only delays steps, so a lagged run's mean and
    // median TTFT are never below the unlagged ones, over prompt counts, step costs and decode
    // steps, for spread (range ratio 0) and nearly fixed (0.8) lengths. (With several prompts per
    // step a lag can also let more prompts gather into one step, which a step cost with a fixed
    // part makes cheaper per prompt: then a prompt can finish earlier.)
    qt().withFixedSeed(20261204L)
        .forAll(
            integers().between(1, 64),
            doubles().between(0.001, 0.2),
            doubles().between(0, 0.05),
            doubles().between(0.5, 10))
        .checkAssert(
            (prompts, prefill, decode, decoding) -> {
              IntToDoubleFunction step = m -> prefill * (0.5 + m);
              for (double ratio : new double[] {0, 0.8}) {
                assertThat(ClosedLoop.roundsTtft(prompts, 1, step, decode, decoding, ratio, 6, 1))
                    .isGreaterThanOrEqualTo(
                        ClosedLoop.roundsTtft(prompts, 1, step, decode, decoding, ratio, 6, 0)
                            - 1e-12);
                assertThat(
                        ClosedLoop.roundsMedianTtft(
                            prompts, 1, step, decode, decoding, ratio, 6, 1))
                    .isGreaterThanOrEqualTo(
                        ClosedLoop.roundsMedianTtft(prompts, 1, step, decode, decoding, ratio, 6, 0)
                            - 1e-12);
              }
            });
  }

  @Test
  void roundsMedianTtft_handComputed() {
    // one round of 4 prompts, 2 per step of 0.1 s, all at once: 0.1, 0.1, 0.2, 0.2 -> (0.1+0.2)/2
    assertThat(ClosedLoop.roundsMedianTtft(4, 2, m -> 0.1, 0, 10, 1, 1, 0))
        .isCloseTo(0.15, within(1e-12));
    // two rounds, range ratio 0, decode 1 s: round 1's prompts arrive at 0, 0.25, 0.5, 0.75 s and
    // each is served in its own 0.1 s step; TTFTs 0.1, 0.1, 0.2, 0.2, 0.1, 0.1, 0.1, 0.1: median
    // 0.1 s, while the mean is (0.6 + 0.4) / 8 = 0.125 s
    assertThat(ClosedLoop.roundsMedianTtft(4, 2, m -> 0.1, 0, 1, 0, 2, 0))
        .isCloseTo(0.1, within(1e-12));
    assertThat(ClosedLoop.roundsTtft(4, 2, m -> 0.1, 0, 1, 0, 2, 0))
        .isCloseTo(0.125, within(1e-12));
    // an odd count: 3 prompts, 1 per step of 0.1 s, one round at once: 0.1, 0.2, 0.3 -> 0.2
    assertThat(ClosedLoop.roundsMedianTtft(3, 1, m -> 0.1, 0, 10, 1, 1, 0))
        .isCloseTo(0.2, within(1e-12));
  }

  @Test
  void roundsMedianTtft_neverAboveTheFirstRoundsLastPrompt_andBadInputNamesTheRule() {
    // the median lies between the fastest and slowest prompt: at most the last prompt of the
    // burst round (prompts / perStep steps), at least one step
    for (int prompts = 1; prompts <= 64; prompts *= 2) {
      double median =
          ClosedLoop.roundsMedianTtft(prompts, 4, m -> 0.01 + 0.02 * m, 0.005, 5, 0.8, 10, 0);
      int steps = (prompts + 3) / 4;
      assertThat(median).isBetween(0.03 - 1e-12, steps * (0.09 + 0.005) + 0.005);
    }
    assertThatThrownBy(() -> ClosedLoop.roundsMedianTtft(1, 0, m -> 1, 0, 1, 1, 1, 0))
        .hasMessageContaining("prompts per step must be positive: 0");
  }

  @Test
  void roundsTtft_morePromptsPerRound_waitLonger() {
    double previous = 0;
    for (int prompts = 1; prompts <= 64; prompts *= 2) {
      double t = ClosedLoop.roundsTtft(prompts, 4, m -> 0.01 + 0.02 * m, 0.005, 5, 0.8, 10, 0);
      assertThat(t).isGreaterThanOrEqualTo(previous);
      previous = t;
    }
  }

  @Test
  void roundsTtft_badInput_namesTheRule() {
    assertThatThrownBy(() -> ClosedLoop.roundsTtft(0, 1, m -> 1, 0, 1, 1, 1, 0))
        .hasMessageContaining("prompts must be positive: 0");
    assertThatThrownBy(() -> ClosedLoop.roundsTtft(1, 1, m -> 1, 0, 1, 1.5, 1, 0))
        .hasMessageContaining("range ratio must be in [0, 1]: 1.5");
  }
}
