package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

final class WorkloadTest {

  @Test
  void prefixHit_threeQuarters_leavesAQuarterToCompute() {
    // ⌊0.75 · 4096⌋ = 3072 hits; 1024 new tokens after 2000 history + 3072 hits = 5072 cached
    Workload w = Workload.of(4096, 256).withCachedTokens(2000).withPrefixHitRate(0.75);

    assertThat(w.prefixHitTokens()).isEqualTo(3072);
    assertThat(w.newTokens()).isEqualTo(1024);
    assertThat(w.cachedAtPrefill()).isEqualTo(5072);
    // decode runs from 2000 + 4096 = 6096 to 6096 + 256 = 6352 tokens of context
    assertThat(w.promptContext()).isEqualTo(6096);
    assertThat(w.finalContext()).isEqualTo(6352);
    assertThat(w).hasToString("isl 4096 (3072 prefix hits) after 2000 cached, osl 256");
  }

  @Test
  void prefixHit_nearOne_alwaysComputesTheLastToken() {
    // ⌊0.9999 · 100⌋ = 99 hits: the prompt's last token is computed
    assertThat(Workload.of(100, 1).withPrefixHitRate(0.9999).newTokens()).isEqualTo(1);
    assertThat(Workload.of(1, 1).withPrefixHitRate(0.5).newTokens()).isEqualTo(1);
  }

  @Test
  void plainRequest_hasNoCache() {
    Workload w = Workload.of(1024, 128);
    assertThat(w.hasCache()).isFalse();
    assertThat(w.newTokens()).isEqualTo(1024);
    assertThat(w.cachedAtPrefill()).isZero();
  }

  @Test
  void multiTurnAgent_turnK_cachesEarlierTurns() {
    // turns of 500 user/tool tokens and 200 answer tokens: turn 5 arrives after 4 · 700 = 2800
    int turn = 5;
    Workload w = Workload.of(500, 200).withCachedTokens((turn - 1) * (500 + 200));
    assertThat(w.cachedAtPrefill()).isEqualTo(2800);
    assertThat(w.finalContext()).isEqualTo(3500);
  }

  @Test
  void badFields_namedWithTheirValues() {
    assertThat(assertThrows(IllegalArgumentException.class, () -> Workload.of(0, 1)))
        .hasMessage("input tokens (isl) must be positive: 0");
    assertThat(
            assertThrows(
                IllegalArgumentException.class, () -> Workload.of(1, 1).withCachedTokens(-3)))
        .hasMessage("cached tokens must be non-negative: -3");
    assertThat(
            assertThrows(
                IllegalArgumentException.class,
                () -> Workload.of(1, 1).withPrefixHitRate(Double.NaN)))
        .hasMessage("prefix hit rate must be at least 0 and below 1: NaN");
    assertThat(
            assertThrows(
                IllegalArgumentException.class, () -> Workload.of(1, 1).withPrefixHitRate(1)))
        .hasMessage("prefix hit rate must be at least 0 and below 1: 1.0");
  }

  @Test
  void prefill_ofWorkload_isPrefillOfItsNewTokensAfterItsCache() {
    RooflineModel rm =
        IdealPools.of(
            io.ridgeline.models.Models.byId("llama-3.1-8b"), io.ridgeline.hardware.Chips.H100_SXM);
    Workload w = Workload.of(4096, 1).withCachedTokens(1000).withPrefixHitRate(0.5);
    // 2048 hits: 2048 new tokens after 1000 + 2048 = 3048 cached
    assertThat(rm.prefill(1, w)).isEqualTo(rm.prefill(1, 2048, 3048));
    assertThat(rm.prefill(1, Workload.of(4096, 1))).isEqualTo(rm.prefill(1, 4096));
  }
}
