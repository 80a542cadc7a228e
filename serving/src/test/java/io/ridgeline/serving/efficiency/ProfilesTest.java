package io.ridgeline.serving.efficiency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ridgeline.core.Seconds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ProfilesTest {
  private static final Efficiency TRT =
      Efficiency.builder()
          .compute(0.7)
          .memory(0.85)
          .network(0.6)
          .gemmHalfTokens(24)
          .kernelOverhead(Seconds.ofMicros(3))
          .stepOverhead(Seconds.ofMicros(800))
          .build();

  /** A profile with every parameter away from its ideal value (as a fit's starting point is). */
  private static final Efficiency START =
      Efficiency.builder()
          .compute(0.8)
          .memory(0.8)
          .network(0.7)
          .attention(0.9)
          .gemmHalfTokens(16)
          .kernelOverhead(Seconds.ofMicros(4))
          .stepOverhead(Seconds.ofMicros(1000))
          .collectiveLatency(Seconds.ofMicros(2))
          .admission(Seconds.ofMillis(100))
          .build();

  private static Profiles sample() {
    return Profiles.of(
        List.of(
            new EngineProfile("trtllm", TRT, "hand-written"),
            new EngineProfile(Profiles.DEFAULT, START, "the starting values")));
  }

  @Test
  void write_thenRead_roundTrips(@TempDir Path dir) {
    Path f = dir.resolve("p.json");
    sample().write(f);
    Profiles back = Profiles.read(f);
    assertThat(back.profiles().keySet()).containsExactly("trtllm", "default");
    Efficiency e = back.forEngine("trtllm").efficiency();
    assertThat(e.compute()).isEqualTo(0.7);
    assertThat(e.memory()).isEqualTo(0.85);
    assertThat(e.network()).isEqualTo(0.6);
    assertThat(e.gemmHalfTokens()).isEqualTo(24);
    assertThat(e.kernelOverhead().seconds())
        .isCloseTo(3e-6, org.assertj.core.api.Assertions.within(1e-15));
    assertThat(e.stepOverhead().seconds())
        .isCloseTo(800e-6, org.assertj.core.api.Assertions.within(1e-15));
    assertThat(back.forEngine("trtllm").source()).isEqualTo("hand-written");
    assertThat(back.toJson()).isEqualTo(sample().toJson());
    // the starting profile's attention fraction and collective latency survive the round trip
    Efficiency d = back.forEngine("default").efficiency();
    assertThat(d.attention()).isEqualTo(START.attention());
    assertThat(d.collectiveLatency().seconds())
        .isCloseTo(
            START.collectiveLatency().seconds(), org.assertj.core.api.Assertions.within(1e-15));
  }

  @Test
  void parse_withoutAttentionOrCollectiveLatency_defaultsToNoPenalty() {
    Profiles p =
        Profiles.parse(
            "{\"profiles\": {\"default\": {\"compute\": 0.5, \"memory\": 0.8, \"network\": 0.7,"
                + " \"gemm_half_tokens\": 1, \"layer_overhead_us\": 1, \"step_overhead_us\": 1}}}",
            "old.json");
    assertThat(p.forEngine("x").efficiency().attention()).isEqualTo(1);
    assertThat(p.forEngine("x").efficiency().collectiveLatency().seconds()).isZero();
  }

  @Test
  void parse_legacyLayerOverhead_readsAsPerKernel() {
    // a Llama layer is 9 kernels: 45 µs per layer is 45 / 9 = 5 µs per kernel; kernel_us, when
    // present, wins
    String old =
        "{\"profiles\": {\"default\": {\"compute\": 0.5, \"memory\": 0.8, \"network\": 0.7,"
            + " \"gemm_half_tokens\": 1, \"layer_overhead_us\": 45, \"step_overhead_us\": 1}}}";
    assertThat(
            Profiles.parse(old, "old.json").forEngine("x").efficiency().kernelOverhead().seconds())
        .isCloseTo(5e-6, org.assertj.core.api.Assertions.within(1e-18));
    String both =
        old.replace("\"layer_overhead_us\": 45", "\"layer_overhead_us\": 45, \"kernel_us\": 2");
    assertThat(
            Profiles.parse(both, "new.json").forEngine("x").efficiency().kernelOverhead().seconds())
        .isCloseTo(2e-6, org.assertj.core.api.Assertions.within(1e-18));
  }

  @Test
  void required_theParametersOfTheFirstProfileFiles() {
    assertThat(Arrays.stream(EfficiencyParameter.values()).filter(Profiles::required))
        .containsExactly(
            EfficiencyParameter.COMPUTE,
            EfficiencyParameter.MEMORY,
            EfficiencyParameter.NETWORK,
            EfficiencyParameter.GEMM_HALF_TOKENS,
            EfficiencyParameter.KERNEL_OVERHEAD,
            EfficiencyParameter.STEP_OVERHEAD);
  }

  @Test
  void forEngine_unknown_fallsBackToDefault() {
    assertThat(sample().forEngine("some-engine").name()).isEqualTo("default");
  }

  @Test
  void builtIn_onePooledProfile_everyFamilyUsesIt() {
    // no engine has offsets of its own yet: one profile, default, fitted with all engines pooled
    Profiles p = Profiles.builtIn();
    assertThat(p.profiles().keySet()).containsExactly(Profiles.DEFAULT);
    EngineProfile pooled = p.forEngine(Profiles.DEFAULT);
    assertThat(pooled.source()).contains("shipped cases").contains("all engines pooled");
    for (String family : List.of("trtllm", "sglang", "vllm", "nim", "jetstream", "unknown")) {
      assertThat(p.forEngine(family)).as(family).isSameAs(pooled);
    }
  }

  @Test
  void parse_missingField_namesFileAndField() {
    String text =
        "{\"profiles\": {\"default\": {\"compute\": 0.5, \"memory\": 0.5, \"network\": 0.5,"
            + " \"gemm_half_tokens\": 1, \"layer_overhead_us\": 1}}}";
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Profiles.parse(text, "my.json"));
    assertThat(e)
        .hasMessageContaining("my.json")
        .hasMessageContaining("profiles.default.step_overhead_us");
  }

  @Test
  void parse_fractionOutOfRange_namesField() {
    String text =
        "{\"profiles\": {\"default\": {\"compute\": 1.5, \"memory\": 0.5, \"network\": 0.5,"
            + " \"gemm_half_tokens\": 1, \"layer_overhead_us\": 1, \"step_overhead_us\": 1}}}";
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Profiles.parse(text, "my.json"));
    assertThat(e)
        .hasMessageContaining("my.json")
        .hasMessageContaining("profiles.default.compute")
        .hasMessageContaining("1.5");
  }

  @Test
  void parse_noDefault_orNotJson_isRejected() {
    assertThat(
            assertThrows(
                IllegalArgumentException.class,
                () -> Profiles.parse("{\"profiles\": {}}", "a.json")))
        .hasMessageContaining("a.json")
        .hasMessageContaining("profiles.default");
    assertThat(
            assertThrows(
                IllegalArgumentException.class, () -> Profiles.parse("{not json", "b.json")))
        .hasMessageContaining("b.json");
    assertThat(assertThrows(IllegalArgumentException.class, () -> Profiles.parse("[]", "c.json")))
        .hasMessageContaining("c.json")
        .hasMessageContaining("'profiles'");
  }

  @Test
  void read_missingFile_namesIt(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("absent.json");
    assertThat(assertThrows(IllegalArgumentException.class, () -> Profiles.read(f)))
        .hasMessageContaining("absent.json");
    Files.writeString(f, "", StandardCharsets.UTF_8);
    assertThat(assertThrows(IllegalArgumentException.class, () -> Profiles.read(f)))
        .hasMessageContaining("absent.json");
  }

  @Test
  void maxRunningRequests_roundTripsAndAbsentMeansNoCap(@TempDir Path dir) {
    Profiles p =
        Profiles.of(
            List.of(
                new EngineProfile("vllm", TRT, 54, "hand-written"),
                new EngineProfile(Profiles.DEFAULT, START, "no cap")));
    assertThat(p.toJson()).contains("\"max_running_requests\" : 54");
    Path f = dir.resolve("p.json");
    p.write(f);
    Profiles back = Profiles.read(f);
    assertThat(back.forEngine("vllm").maxRunningRequests()).hasValue(54);
    assertThat(back.forEngine("default").capsRunningRequests()).isFalse();
    assertThat(back.forEngine("default").maxRunningRequests()).isEmpty();
  }

  @Test
  void parse_fractionalMaxRunningRequests_isRefused() {
    // a cap is a whole number of requests (toJson writes one): 0.5 is a typo, not 1 request
    String text =
        "{\"profiles\": {\"default\": {\"compute\": 0.5, \"memory\": 0.5, \"network\": 0.5,"
            + " \"gemm_half_tokens\": 1, \"layer_overhead_us\": 1, \"step_overhead_us\": 1,"
            + " \"max_running_requests\": 0.5}}}";
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Profiles.parse(text, "my.json"));
    assertThat(e)
        .hasMessage(
            "my.json: field 'profiles.default.max_running_requests' must be a whole number of"
                + " requests from 1 to 16,777,216 (omit it for no cap), found 0.5");
  }

  @Test
  void parse_nonPositiveMaxRunningRequests_namesField() {
    String text =
        "{\"profiles\": {\"default\": {\"compute\": 0.5, \"memory\": 0.5, \"network\": 0.5,"
            + " \"gemm_half_tokens\": 1, \"layer_overhead_us\": 1, \"step_overhead_us\": 1,"
            + " \"max_running_requests\": 0}}}";
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Profiles.parse(text, "my.json"));
    assertThat(e)
        .hasMessageContaining("my.json")
        .hasMessageContaining("profiles.default.max_running_requests");
  }
}
