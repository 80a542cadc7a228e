package io.ridgeline.serving.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

final class PoissonQueueTest {
  @Test
  void meanWait_md1_handComputed() {
    // λ = 40/s, τ = 20 ms: ρ = 0.8, wait ρτ / (2(1 − ρ)) = 0.8 × 0.02 / 0.4 = 0.04 s
    assertThat(PoissonQueue.meanWait(40, 0.02)).isCloseTo(0.04, within(1e-12));
  }

  @Test
  void p99Wait_exponentialTail_handComputed() {
    // λ = 40/s, τ = 20 ms: ρ = 0.8, τ·ln(100ρ) / (1 − ρ) = 0.02 × ln 80 / 0.2 = 0.43820 s
    assertThat(PoissonQueue.p99Wait(40, 0.02)).isCloseTo(0.1 * Math.log(80), within(1e-12));
    assertThat(PoissonQueue.p99Wait(40, 0.02)).isCloseTo(0.43820, within(1e-5));
  }

  @Test
  void p99Wait_lightLoad_isZero() {
    // ρ = 0.5/s × 0.02 s = 1%: ln(100ρ) = 0
    assertThat(PoissonQueue.p99Wait(0.25, 0.02)).isZero();
  }

  @Test
  void waits_saturatedServer_areInfinite() {
    // ρ = 50/s × 0.02 s = 1: no steady state
    assertThat(PoissonQueue.meanWait(50, 0.02)).isInfinite();
    assertThat(PoissonQueue.p99Wait(60, 0.02)).isInfinite();
  }
}
