package io.ridgeline.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import org.junit.jupiter.api.Test;

/** Expected distinct experts under uniform and Zipf routing. */
final class RoutingTest {
  private static final double TINY = 1e-9;

  @Test
  void expectedDistinctExperts_uniformMixtral_matchesClosedForm() {
    Routing r = Routing.uniform();
    // E·(1 − (1 − k/E)^B) with E = 8, k = 2: batch 1 → 8·(1 − 6/8) = 2
    assertThat(r.expectedDistinctExperts(8, 2, 1)).isCloseTo(2.0, within(1e-12));
    // batch 8 → 8·(1 − 0.75^8) = 8·(1 − 0.100112915…) = 7.199096679…
    assertThat(r.expectedDistinctExperts(8, 2, 8)).isCloseTo(7.19909668, within(1e-8));
    // batch 64 → 8·(1 − 0.75^64) = 8 − 8·1.0e-8 ≈ 7.99999992
    assertThat(r.expectedDistinctExperts(8, 2, 64))
        .isCloseTo(8.0, within(1e-6))
        .isLessThanOrEqualTo(8.0);
    // no tokens touch no experts
    assertThat(r.expectedDistinctExperts(8, 2, 0)).isZero();
  }

  @Test
  void expectedDistinctExperts_zipf_touchesFewerExpertsThanUniform() {
    // DeepSeek-V3 shape: 256 experts, top-8, batch 64; uniform touches 256·(1 − (248/256)^64) ≈ 222
    double uniform = Routing.uniform().expectedDistinctExperts(256, 8, 64);
    assertThat(uniform).isCloseTo(256 * (1 - Math.pow(248.0 / 256, 64)), within(1e-9));
    double mild = Routing.zipf(0.3).expectedDistinctExperts(256, 8, 64);
    double skewed = Routing.zipf(1.0).expectedDistinctExperts(256, 8, 64);
    assertThat(mild).isLessThan(uniform);
    assertThat(skewed).isLessThan(mild);
    // at one token every routing touches exactly k experts
    assertThat(Routing.zipf(1.0).expectedDistinctExperts(256, 8, 1)).isCloseTo(8.0, within(1e-6));
  }

  @Test
  void zipf_zeroExponent_isUniform() {
    assertThat(Routing.zipf(0)).isEqualTo(Routing.uniform());
    assertThat(Routing.zipf(0).expectedDistinctExperts(128, 4, 17))
        .isEqualTo(Routing.uniform().expectedDistinctExperts(128, 4, 17));
  }

  @Test
  void zipf_negativeOrNonFinite_throwsNamingValue() {
    assertThatThrownBy(() -> Routing.zipf(-0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("routing zipf exponent must be in [0, 10.0]: -0.5");
    assertThatThrownBy(() -> Routing.zipf(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Routing.zipf(Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void expectedDistinctExperts_topKAboveExperts_throwsInsteadOfLooping() {
    assertThatThrownBy(() -> Routing.zipf(1).expectedDistinctExperts(2, 3, 1))
        .hasMessageContaining("experts per token (3) must be in [1, 2]");
    assertThatThrownBy(() -> Routing.zipf(11)).hasMessageContaining("must be in [0, 10.0]: 11.0");
    // the largest exponent still gives a finite answer in [k, E]
    double touched = Routing.zipf(10).expectedDistinctExperts(512, 8, 64);
    assertThat(touched).isBetween(8.0, 512.0);
  }

  @Test
  void expectedDistinctExperts_negativeTokens_throws() {
    assertThatThrownBy(() -> Routing.uniform().expectedDistinctExperts(8, 2, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tokens must be finite and >= 0: -1");
  }

  @Test
  void expectedDistinctExperts_anyRouting_betweenTopKAndExpertsAndNonDecreasingInTokens() {
    qt().forAll(
            integers().between(1, 512), // experts E
            integers().between(0, 511), // picks k = 1 + this mod E, so 1 <= k <= E
            integers().between(1, 4096), // tokens B
            doubles().between(0, 3)) // Zipf exponent s (0 = uniform)
        .checkAssert(
            (experts, kPick, tokens, s) -> {
              int k = 1 + kPick % experts;
              Routing r = s == 0 ? Routing.uniform() : Routing.zipf(s);
              double one = r.expectedDistinctExperts(experts, k, 1);
              double b = r.expectedDistinctExperts(experts, k, tokens);
              // one token touches its k experts
              assertThat(one).isCloseTo(k, within(k * TINY));
              // B tokens touch between k and E
              assertThat(b)
                  .isGreaterThanOrEqualTo(k * (1 - TINY))
                  .isLessThanOrEqualTo(experts * (1 + TINY));
              // more tokens never touch fewer experts
              assertThat(r.expectedDistinctExperts(experts, k, tokens + 1))
                  .isGreaterThanOrEqualTo(b);
              assertThat(r.expectedDistinctExperts(experts, k, 2.0 * tokens))
                  .isGreaterThanOrEqualTo(b);
            });
  }

  @Test
  void expectedDistinctExperts_zipf_neverAboveUniform() {
    // with Σ q_i = k fixed, Σ 1 − (1 − q_i)^B is concave in q and largest at q_i = k/E
    qt().forAll(
            integers().between(1, 512),
            integers().between(0, 511),
            integers().between(1, 4096),
            doubles().between(0.01, 3))
        .checkAssert(
            (experts, kPick, tokens, s) -> {
              int k = 1 + kPick % experts;
              double uniform = Routing.uniform().expectedDistinctExperts(experts, k, tokens);
              double zipf = Routing.zipf(s).expectedDistinctExperts(experts, k, tokens);
              assertThat(zipf).isLessThanOrEqualTo(uniform + experts * TINY);
            });
  }

  @Test
  void expectedDistinctExperts_fractionalTokens_shareOfOneTokensExpertsWhateverTheSkew() {
    // a step carrying half a token of a prompt (Qwen1.5-MoE: 60 experts, top-4) touches half of
    // one token's 4 experts = 2; before, Σ 1 − (1 − q_i)^0.5, convex in q_i, gave a Zipf-1 router
    // more experts than a uniform one (60 × (1 − √(1 − 4/60)) = 2.03), slowing skewed decode at
    // small batch
    assertThat(Routing.uniform().expectedDistinctExperts(60, 4, 0.5)).isEqualTo(2.0);
    assertThat(Routing.zipf(1).expectedDistinctExperts(60, 4, 0.5)).isEqualTo(2.0);
    for (double tokens : new double[] {1, 1.5, 3, 17, 256}) {
      assertThat(Routing.zipf(1).expectedDistinctExperts(60, 4, tokens))
          .as("%s tokens", tokens)
          .isLessThanOrEqualTo(Routing.uniform().expectedDistinctExperts(60, 4, tokens) + 1e-9);
    }
  }
}
