package io.ridgeline.serving.efficiency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class EngineReleaseTest {
  @Test
  void series_majorFromOneOn_majorMinorBefore() {
    assertThat(EngineRelease.of("vllm", "0.6.5").series()).contains("0.6");
    assertThat(EngineRelease.of("vllm", "0.7.3.dev138").series()).contains("0.7");
    assertThat(EngineRelease.of("trtllm", "0.17").series()).contains("0.17");
    assertThat(EngineRelease.of("trtllm", "1.1.0rc2.post2").series()).contains("1");
    assertThat(EngineRelease.of("trtllm", "1.0").series()).contains("1");
    assertThat(EngineRelease.of("sglang", "0").series()).contains("0");
    assertThat(EngineRelease.of("sglang").series()).isEmpty();
  }

  @Test
  void of_familyTrimmedAndLowerCased() {
    EngineRelease r = EngineRelease.of(" vLLM ", " 0.6.5 ");
    assertThat(r.family()).isEqualTo("vllm");
    assertThat(r.version()).contains("0.6.5");
    assertThat(r).hasToString("vllm 0.6.5");
  }

  @Test
  void of_badVersion_namesFieldRuleAndValue() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> EngineRelease.of("vllm", "v0.6.5"));
    assertThat(e)
        .hasMessage(
            "engine version must start with a digit followed by letters, digits, '.', '-', '+'"
                + " or '_': 'v0.6.5'");
    assertThrows(IllegalArgumentException.class, () -> EngineRelease.of("vllm", ""));
  }

  @Test
  void of_badFamily_namesFieldRuleAndValue() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> EngineRelease.of("v llm"));
    assertThat(e).hasMessageContaining("engine family must be").hasMessageContaining("'v llm'");
  }

  @Test
  void forRelease_mostSpecificOffsetWins() {
    EngineOffsets.Offset family =
        new EngineOffsets.Offset("trtllm", Optional.empty(), -0.10, List.of("a", "b"));
    EngineOffsets.Offset one =
        new EngineOffsets.Offset("trtllm", Optional.of("1"), 0.05, List.of("a", "c"));
    EngineOffsets o = EngineOffsets.of(List.of(family, one));
    assertThat(o.forRelease(EngineRelease.of("trtllm", "1.2.0rc6"))).contains(one);
    assertThat(o.forRelease(EngineRelease.of("trtllm", "0.17"))).contains(family);
    assertThat(o.forRelease(EngineRelease.of("trtllm"))).contains(family);
    assertThat(o.forRelease(EngineRelease.of("sglang", "0.4.3"))).isEmpty();
    // e^0.10 = 1.105
    assertThat(family).hasToString("trtllm offset: model ×1.105 faster, from 2 sources");
  }

  @Test
  void offset_oneSource_rejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new EngineOffsets.Offset("vllm", Optional.empty(), 0.2, List.of("a")));
    assertThat(e).hasMessage("an offset needs at least 2 distinct sources: [a]");
  }
}
