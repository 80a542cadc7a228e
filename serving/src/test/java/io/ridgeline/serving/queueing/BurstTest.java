package io.ridgeline.serving.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

final class BurstTest {
  private static List<Burst.Request> same(int n, int isl, int osl) {
    return Collections.nCopies(n, new Burst.Request(isl, osl));
  }

  @Test
  void simulate_threeRequestsTwoRunning_handComputed() {
    // 3 requests of 2 prompt and 2 output tokens, at most 2 running, 2 prompt tokens per step,
    // every step 1 s:
    // step 1 (0-1 s): r0 prefilled (TTFT 1 s); r1 admitted but the chunk is full
    // step 2 (1-2 s): r0 decodes its 2nd token and finishes; r1 prefilled (TTFT 2 s)
    // step 3 (2-3 s): r2 admitted into r0's slot and prefilled (TTFT 3 s); r1 decodes, finishes
    // step 4 (3-4 s): r2 decodes and finishes
    // TTFT 1, 2, 3 s: median 2 s, p99 3 s; TPOT (2 − 1) / 1 = 1 s each; 6 tokens / 4 s = 1.5/s
    Burst b = Burst.simulate(same(3, 2, 2), 2, 100, 2, 0, (d, p) -> 1.0);
    assertThat(b.ttftSeconds()).containsExactly(1.0, 2.0, 3.0);
    assertThat(b.medianTtftSeconds()).isEqualTo(2.0);
    assertThat(b.p99TtftSeconds()).isEqualTo(3.0);
    assertThat(b.meanTtftSeconds()).isEqualTo(2.0);
    assertThat(b.medianTpotSeconds()).isEqualTo(1.0);
    assertThat(b.makespanSeconds()).isEqualTo(4.0);
    assertThat(b.outputTokens()).isEqualTo(6);
    assertThat(b.outputTokensPerSecond()).isEqualTo(1.5);
    assertThat(b.steps()).isEqualTo(4);
    assertThat(b.peakRunning()).isEqualTo(2);
  }

  @Test
  void simulate_stepTimeFromTheMix_chunkedPrefillAndAdmission_handComputed() {
    // step = 0.01 s + 1 ms per decoding sequence + 0.1 ms per prompt token; 2 requests of 300
    // prompt and 3 output tokens, chunk 200 tokens, both running, 0.5 s admission latency:
    // step 1: r0's first 200 tokens: 0.01 + 0.02 = 0.03 s (t 0.03)
    // step 2: r0's last 100 and r1's first 100: 0.03 s (t 0.06), r0 TTFT 0.06 + 0.5
    // step 3: r0 decodes, r1's last 200: 0.01 + 0.001 + 0.02 = 0.031 s (t 0.091), r1 TTFT 0.591
    // step 4: both decode: 0.012 s (t 0.103), r0 finishes: TPOT (0.103 − 0.06) / 2 = 0.0215 s
    // step 5: r1 decodes: 0.011 s (t 0.114), finishes: TPOT (0.114 − 0.091) / 2 = 0.0115 s
    Burst b =
        Burst.simulate(same(2, 300, 3), 4, 10_000, 200, 0.5, (d, p) -> 0.01 + 1e-3 * d + 1e-4 * p);
    assertThat(b.ttftSeconds()[0]).isCloseTo(0.56, within(1e-12));
    assertThat(b.ttftSeconds()[1]).isCloseTo(0.591, within(1e-12));
    assertThat(b.makespanSeconds()).isCloseTo(0.114, within(1e-12));
    assertThat(b.meanTpotSeconds()).isCloseTo((0.0215 + 0.0115) / 2, within(1e-12));
    assertThat(b.outputTokensPerSecond()).isCloseTo(6 / 0.114, within(1e-9));
  }

  @Test
  void simulate_kvCapacity_limitsWhatRuns() {
    // KV of 10 tokens, requests of 4 + 1 tokens: two run at once although 8 may
    Burst b = Burst.simulate(same(6, 4, 1), 8, 10, 100, 0, (d, p) -> 1.0);
    assertThat(b.peakRunning()).isEqualTo(2);
    // pairs finish at 1, 2, 3 s (one output token each: prefill is the whole request)
    assertThat(b.ttftSeconds()).containsExactly(1.0, 1.0, 2.0, 2.0, 3.0, 3.0);
    assertThat(b.medianTpotSeconds()).isZero();
  }

  @Test
  void p99_nearestRank() {
    // 200 requests, one per step of 1 s (chunk = prompt): TTFTs 1..200 s, p99 = the 198th
    Burst b = Burst.simulate(same(200, 5, 1), 1, 100, 5, 0, (d, p) -> 1.0);
    assertThat(b.p99TtftSeconds()).isEqualTo(198.0);
    assertThat(b.medianTtftSeconds()).isEqualTo(100.5);
  }

  @Test
  void closedLoop_twoClientsOneSlot_offsetsCarried_handComputed() {
    // 2 clients, 2 rounds, 1 running, requests of 2 + 2 tokens, chunk 2, steps of 1 s:
    // c0#0 steps 1-2 (TTFT 1 s), c1#0 steps 3-4 (TTFT 3 s), c0#1 sent at 2 s runs 5-6
    // (TTFT 5 − 2 = 3 s), c1#1 sent at 4 s runs 7-8 (TTFT 7 − 4 = 3 s)
    Burst all = Burst.closedLoop(2, 2, 0, same(1, 2, 2), 1, 100, 2, 0, (d, p) -> 1.0);
    assertThat(all.ttftSeconds()).containsExactly(1.0, 3.0, 3.0, 3.0);
    assertThat(all.makespanSeconds()).isEqualTo(8.0);
    assertThat(all.outputTokensPerSecond()).isEqualTo(8 / 8.0);
    // one warm-up round: the second round is measured, 4 tokens over 8 − 2 = 6 s
    Burst measured = Burst.closedLoop(2, 1, 1, same(1, 2, 2), 1, 100, 2, 0, (d, p) -> 1.0);
    assertThat(measured.ttftSeconds()).containsExactly(3.0, 3.0);
    assertThat(measured.requests()).isEqualTo(2);
    assertThat(measured.makespanSeconds()).isEqualTo(6.0);
    // a burst is one round of as many clients as requests
    Burst burst = Burst.simulate(same(4, 2, 2), 1, 100, 2, 0, (d, p) -> 1.0);
    Burst oneRound = Burst.closedLoop(4, 1, 0, same(1, 2, 2), 1, 100, 2, 0, (d, p) -> 1.0);
    assertThat(oneRound.ttftSeconds()).containsExactly(burst.ttftSeconds());
  }

  @Test
  void uniformLengths_lowDiscrepancy_handComputed() {
    // u_0 = 0.5, u_1 = frac(0.5 + 0.618034) = 0.118034: inputs 1000 × (0.5 + 0.5) = 1000 and
    // 1000 × (0.5 + 0.118034) = 618; outputs fixed ([1, 1])
    assertThat(Burst.uniformLengths(2, 1000, 0.5, 1.5, 100, 1, 1))
        .containsExactly(new Burst.Request(1000, 100), new Burst.Request(618, 100));
    // 1,000 draws over [0.8, 1] of 1,000: every one in [800, 1000], mean 900 within 1
    List<Burst.Request> rs = Burst.uniformLengths(1000, 10, 1, 1, 1000, 0.8, 1);
    assertThat(rs).allSatisfy(r -> assertThat(r.outputTokens()).isBetween(800, 1000));
    assertThat(rs.stream().mapToInt(Burst.Request::outputTokens).average().orElseThrow())
        .isCloseTo(900, within(1.0));
  }

  @Test
  void simulate_badInput_namesTheRule() {
    assertThatThrownBy(() -> Burst.simulate(List.of(), 1, 10, 1, 0, (d, p) -> 1.0))
        .hasMessageContaining("at least one request");
    assertThatThrownBy(() -> Burst.simulate(same(1, 8, 8), 1, 10, 1, 0, (d, p) -> 1.0))
        .hasMessage("a request of 16 tokens (input + output) does not fit a KV cache of 10 tokens");
    assertThatThrownBy(() -> Burst.simulate(same(1, 1, 1), 0, 10, 1, 0, (d, p) -> 1.0))
        .hasMessage("max running requests must be positive: 0");
    assertThatThrownBy(() -> Burst.simulate(same(1, 1, 1), 1, 10, 1, 0, (d, p) -> Double.NaN))
        .hasMessageContaining("step time must be positive and finite: NaN");
    assertThatThrownBy(() -> new Burst.Request(0, 1))
        .hasMessage("input tokens must be positive: 0");
  }

  @Test
  void medianTtft_nonDecreasingInRequests() {
    // a monotone step time: W + a·decoding + b·prompt tokens, with a concave term in the tokens
    qt().forAll(
            integers().between(1, 60),
            integers().between(1, 3000),
            integers().between(1, 300),
            integers().all())
        .checkAssert(
            (n, isl, osl, seed) -> {
              Random random = new Random(seed);
              int maxRunning = 1 + random.nextInt(64);
              double fixed = 1e-4 + random.nextDouble() * 1e-2;
              double perToken = random.nextDouble() * 1e-3;
              Burst.StepTime step =
                  (d, p) -> fixed + 1e-4 * d + perToken * 1e-3 * p + 1e-5 * Math.sqrt(p);
              long kv = (long) (isl + osl) * maxRunning;
              double before =
                  Burst.simulate(same(n, isl, osl), maxRunning, kv, 2048, 0, step)
                      .medianTtftSeconds();
              double after =
                  Burst.simulate(same(n + 1, isl, osl), maxRunning, kv, 2048, 0, step)
                      .medianTtftSeconds();
              assertThat(after).isGreaterThanOrEqualTo(before);
            });
  }

  @Test
  void throughput_neverAboveTheSteadyStateOfTheRunningLimit() {
    // affine step W + a·d + b·p: the steady state of B slots, each turning over every osl − 1
    // decode steps, runs B decodes and B·isl / (osl − 1) prompt tokens per step and yields
    // B·osl / (osl − 1) tokens per step
    qt().forAll(
            integers().between(1, 80),
            integers().between(1, 5000),
            integers().between(2, 400),
            integers().all())
        .checkAssert(
            (n, isl, osl, seed) -> {
              Random random = new Random(seed);
              int maxRunning = 1 + random.nextInt(64);
              double fixed = random.nextDouble() * 1e-2;
              double perDecode = random.nextDouble() * 1e-3;
              double perToken = 2e-6;
              Burst.StepTime step = (d, p) -> 1e-6 + fixed + perDecode * d + perToken * p;
              Burst b =
                  Burst.simulate(
                      same(n, isl, osl),
                      maxRunning,
                      (long) (isl + osl) * maxRunning,
                      8192,
                      0,
                      step);
              double slots = maxRunning;
              double steady =
                  slots
                      * osl
                      / (osl - 1)
                      / (1e-6 + fixed + perDecode * slots + perToken * slots * isl / (osl - 1));
              assertThat(b.outputTokensPerSecond()).isLessThanOrEqualTo(steady * (1 + 1e-9));
            });
  }

  @Test
  void closedLoop_steadyStepsAdvancedAtOnce_equalTheStepByStepSimulation() {
    // the steps of steady decoding (every running prompt prefilled, nobody admissible until a
    // request finishes) are advanced at once; every figure must equal the plain loop's, to the bit
    qt().forAll(
            integers().between(1, 12),
            integers().between(1, 3),
            integers().between(0, 2),
            integers().all())
        .checkAssert(
            (clients, rounds, warmup, seed) -> {
              Random random = new Random(seed);
              List<Burst.Request> lengths =
                  Burst.uniformLengths(
                      1 + random.nextInt(20),
                      1 + random.nextInt(3000),
                      0.2 + 0.8 * random.nextDouble(),
                      1,
                      1 + random.nextInt(300),
                      random.nextDouble(),
                      1);
              int maxRunning = 1 + random.nextInt(16);
              long kv = 3301L * (1 + random.nextInt(8));
              int chunk = 1 + random.nextInt(4096);
              double fixed = 1e-4 + random.nextDouble() * 1e-2;
              Burst.StepTime step = (d, p) -> fixed + 1e-4 * d + 1e-6 * p + 1e-5 * Math.sqrt(p);
              Burst fast =
                  Burst.closedLoop(
                      clients, rounds, warmup, lengths, maxRunning, kv, chunk, 0.01, step, true);
              Burst plain =
                  Burst.closedLoop(
                      clients, rounds, warmup, lengths, maxRunning, kv, chunk, 0.01, step, false);
              assertThat(fast.ttftSeconds()).containsExactly(plain.ttftSeconds());
              assertThat(fast.meanTpotSeconds()).isEqualTo(plain.meanTpotSeconds());
              assertThat(fast.medianTpotSeconds()).isEqualTo(plain.medianTpotSeconds());
              assertThat(fast.makespanSeconds()).isEqualTo(plain.makespanSeconds());
              assertThat(fast.outputTokens()).isEqualTo(plain.outputTokens());
              assertThat(fast.steps()).isEqualTo(plain.steps());
              assertThat(fast.peakRunning()).isEqualTo(plain.peakRunning());
            });
  }

  @Test
  void closedLoop_steadyDecoding_workedExample() {
    // 2 clients, 1 round, prompts of 2 tokens and 5 output tokens, 2 running, a chunk of 4, every
    // step 1 s: step 1 prefills both prompts (first tokens at 1 s), steps 2-5 decode the other 4
    // tokens (finish at 5 s): TTFT 1 s, TPOT (5 - 1) / 4 = 1 s, 5 steps, 10 tokens over 5 s
    Burst b =
        Burst.closedLoop(2, 1, 0, List.of(new Burst.Request(2, 5)), 2, 100, 4, 0, (d, p) -> 1.0);
    assertThat(b.ttftSeconds()).containsExactly(1.0, 1.0);
    assertThat(b.meanTpotSeconds()).isEqualTo(1.0);
    assertThat(b.steps()).isEqualTo(5);
    assertThat(b.makespanSeconds()).isEqualTo(5.0);
    assertThat(b.outputTokens()).isEqualTo(10);
  }
}
