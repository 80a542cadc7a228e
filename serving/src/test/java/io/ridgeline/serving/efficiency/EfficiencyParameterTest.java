package io.ridgeline.serving.efficiency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ridgeline.core.Seconds;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

final class EfficiencyParameterTest {
  @Test
  void ideal_everyParameter_isTheIdealEfficiency() {
    assertThat(EfficiencyParameter.efficiency(EfficiencyParameter::ideal))
        .isEqualTo(Efficiency.ideal());
    for (EfficiencyParameter p : EfficiencyParameter.values()) {
      assertThat(p.get(Efficiency.ideal())).as(p.jsonKey()).isEqualTo(p.ideal());
    }
  }

  @Test
  void setThenGet_inItsUnit_roundTrips() {
    // 2 ms of admission is 0.002 s; 5 µs per kernel is 5e-6 s
    Efficiency e = EfficiencyParameter.efficiency(EfficiencyParameter::start);
    for (EfficiencyParameter p : EfficiencyParameter.values()) {
      assertThat(p.get(e)).as(p.jsonKey()).isCloseTo(p.start(), within(1e-9 * p.start()));
    }
    Efficiency.Builder b = Efficiency.builder().from(Efficiency.ideal());
    EfficiencyParameter.ADMISSION.set(b, 2);
    EfficiencyParameter.KERNEL_OVERHEAD.set(b, 5);
    Efficiency set = b.build();
    assertThat(set.admission().seconds()).isCloseTo(0.002, within(1e-15));
    assertThat(set.kernelOverhead().seconds()).isCloseTo(5e-6, within(1e-18));
  }

  @Test
  void start_everyParameter_isInsideItsRange() {
    for (EfficiencyParameter p : EfficiencyParameter.values()) {
      assertThat(p.start()).as(p.jsonKey()).isBetween(p.lower(), p.upper());
      assertThat(p.problem(p.start())).as(p.jsonKey()).isEmpty();
    }
  }

  @Test
  void problem_fractionAboveOneOrNegativeTime_namesTheRule() {
    assertThat(EfficiencyParameter.MEMORY.problem(1.5)).contains("in (0, 1]");
    assertThat(EfficiencyParameter.STEP_OVERHEAD.problem(-1)).contains("finite and >= 0");
    assertThat(EfficiencyParameter.STEP_OVERHEAD.problem(Double.NaN)).contains("finite and >= 0");
  }

  @Test
  void moeOverlap_hiddenShare_idealZeroRangeZeroToNinetyPercentLinearScale() {
    EfficiencyParameter p = EfficiencyParameter.MOE_OVERLAP;
    assertThat(p.jsonKey()).isEqualTo("moe_overlap");
    assertThat(p.ideal()).isEqualTo(0);
    assertThat(Profiles.required(p)).isFalse();
    assertThat(p.lower()).isEqualTo(0);
    assertThat(p.upper()).isEqualTo(0.9);
    assertThat(p.problem(0)).isEmpty();
    assertThat(p.problem(1)).contains("in [0, 1)");
    assertThat(p.problem(-0.1)).contains("in [0, 1)");
    assertThat(Efficiency.ideal().moeOverlap()).isEqualTo(0);
  }

  @Test
  void jsonKeys_areDistinct() {
    assertThat(Arrays.stream(EfficiencyParameter.values()).map(EfficiencyParameter::jsonKey))
        .doesNotHaveDuplicates();
  }

  @Test
  void toString_everyParameterSet_printsInHeaderOrder() {
    Efficiency e =
        Efficiency.builder()
            .compute(0.95)
            .memory(0.67)
            .network(0.2)
            .gemmHalfTokens(128)
            .attention(0.8)
            .collectiveLatency(Seconds.ofMicros(10))
            .admission(Seconds.ofMillis(100))
            .stepOverhead(Seconds.ofMillis(2))
            .kernelOverhead(Seconds.ofMicros(5))
            .moeOverlap(0.6)
            .build();
    assertThat(e.toString())
        .isEqualTo(
            "compute 95%, memory 67%, network 20%, GEMM half at 128 tokens, attention 80%,"
                + " collectives +10 µs/hop, admission 100 ms, overhead 2 ms/step + 5 µs/kernel,"
                + " MoE all-to-all hidden 60%");
  }

  @Test
  void fitted_everyParameterButNetworkAndGemmHalfDepth() {
    assertThat(Arrays.stream(EfficiencyParameter.values()).filter(p -> !p.fitted()))
        .containsExactly(EfficiencyParameter.NETWORK, EfficiencyParameter.GEMM_HALF_DEPTH);
  }

  @Test
  void overheadRanges_areThePublishedOnes() {
    // kernel: 1–10 µs (CUDA-graph replay launch + tail); step: 0.05–3 ms (scheduler, sampling)
    assertThat(EfficiencyParameter.KERNEL_OVERHEAD.lower()).isEqualTo(1);
    assertThat(EfficiencyParameter.KERNEL_OVERHEAD.upper()).isEqualTo(10);
    assertThat(EfficiencyParameter.STEP_OVERHEAD.lower()).isEqualTo(50);
    assertThat(EfficiencyParameter.STEP_OVERHEAD.upper()).isEqualTo(3000);
  }

  @Test
  void admission_fitRange5To50Ms_butLargerProfileValuesStillValid() {
    // the range bounds a fit (5 ms to 50 ms, start 20 ms); a profile's value only has to be finite
    // and >= 0, so profiles fitted before the range (admissions of a few hundred ms) still read
    assertThat(EfficiencyParameter.ADMISSION.lower()).isEqualTo(5);
    assertThat(EfficiencyParameter.ADMISSION.upper()).isEqualTo(50);
    assertThat(EfficiencyParameter.ADMISSION.start()).isEqualTo(20);
    assertThat(EfficiencyParameter.ADMISSION.problem(372.606)).isEmpty();
  }

  @Test
  void pdHandover_range10To260Ms_readAndSetInMilliseconds() {
    // 10 ms: the goal of an ideal implementation (vLLM PR 6170); 260 ms: stock NixlConnector at
    // block size 16, 263 ms p50 (vLLM RFC 50913); start 50 ms, near the geometric middle (51 ms)
    assertThat(EfficiencyParameter.PD_HANDOVER.lower()).isEqualTo(10);
    assertThat(EfficiencyParameter.PD_HANDOVER.upper()).isEqualTo(260);
    assertThat(EfficiencyParameter.PD_HANDOVER.start()).isEqualTo(50);
    assertThat(EfficiencyParameter.PD_HANDOVER.jsonKey()).isEqualTo("pd_handover_ms");
    Efficiency.Builder b = Efficiency.builder().from(Efficiency.ideal());
    EfficiencyParameter.PD_HANDOVER.set(b, 120);
    Efficiency e = b.build();
    assertThat(e.pdHandover().seconds()).isCloseTo(0.120, within(1e-15));
    assertThat(EfficiencyParameter.PD_HANDOVER.get(e)).isCloseTo(120, within(1e-12));
    assertThat(e.toString()).contains("pd hand-over 120 ms");
    assertThat(EfficiencyParameter.PD_HANDOVER.get(Efficiency.ideal())).isZero();
  }

  @Test
  void unit_timesInMicrosOrMillis_fractionsAndSharesWithoutSymbol() {
    assertThat(EfficiencyParameter.KERNEL_OVERHEAD.unit().symbol()).isEqualTo("µs");
    assertThat(EfficiencyParameter.ADMISSION.unit().symbol()).isEqualTo("ms");
    assertThat(EfficiencyParameter.GEMM_HALF_TOKENS.unit().symbol()).isEqualTo("tokens");
    assertThat(EfficiencyParameter.COMPUTE.unit().symbol()).isEmpty();
    assertThat(EfficiencyParameter.MOE_OVERLAP.unit())
        .isEqualTo(EfficiencyParameter.Unit.HIDDEN_SHARE);
  }

  @Test
  void builtInProfiles_everyFittedParameterInsideItsPlausibleRange() {
    for (EngineProfile p : Profiles.builtIn().profiles().values()) {
      for (EfficiencyParameter q : EfficiencyParameter.values()) {
        assertThat(q.get(p.efficiency()))
            .as(p.name() + " " + q.jsonKey())
            .isBetween(q.lower(), q.upper());
      }
    }
  }
}
