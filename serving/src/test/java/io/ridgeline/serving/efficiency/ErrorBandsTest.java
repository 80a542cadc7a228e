package io.ridgeline.serving.efficiency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class ErrorBandsTest {
  private static ErrorBands sample() {
    Map<ErrorBands.Estimate, Double> t = new EnumMap<>(ErrorBands.Estimate.class);
    t.put(ErrorBands.Estimate.TTFT, 0.4);
    t.put(ErrorBands.Estimate.TPOT, 0.25);
    t.put(ErrorBands.Estimate.TOKENS_PER_SECOND_PER_USER, 0.2);
    t.put(ErrorBands.Estimate.TOKENS_PER_SECOND_PER_CHIP, 0.3);
    Map<ErrorBands.Dimension, Set<String>> seen = new EnumMap<>(ErrorBands.Dimension.class);
    seen.put(ErrorBands.Dimension.VENDOR, Set.of("nvidia"));
    seen.put(ErrorBands.Dimension.ATTENTION, Set.of("gqa", "mla"));
    seen.put(ErrorBands.Dimension.FFN, Set.of("dense", "moe"));
    seen.put(ErrorBands.Dimension.ENGINE, Set.of("trtllm"));
    Map<ErrorBands.Estimate, ErrorBands.Range> r = new EnumMap<>(ErrorBands.Estimate.class);
    r.put(ErrorBands.Estimate.TTFT, new ErrorBands.Range(-0.12, 0.35, 0.58));
    r.put(ErrorBands.Estimate.TPOT, new ErrorBands.Range(-0.1, 0.3, 0.6));
    r.put(ErrorBands.Estimate.TOKENS_PER_SECOND_PER_USER, new ErrorBands.Range(-0.25, 0.1, 0.6));
    r.put(ErrorBands.Estimate.TOKENS_PER_SECOND_PER_CHIP, new ErrorBands.Range(-0.3, 0.05, 0.55));
    return ErrorBands.of(t, r, seen, "test");
  }

  @Test
  void toJson_parse_roundTrips() {
    ErrorBands back = ErrorBands.parse(sample().toJson(), "t.json");
    assertThat(back.typical(ErrorBands.Estimate.TPOT)).isEqualTo(0.25);
    assertThat(back.seen(ErrorBands.Dimension.ATTENTION)).containsExactly("gqa", "mla");
    assertThat(back.range(ErrorBands.Estimate.TTFT))
        .isEqualTo(new ErrorBands.Range(-0.12, 0.35, 0.58));
    assertThat(back.toString())
        .isEqualTo(
            "error band (measured vs estimate, leave-one-source-out 20th-80th percentile; share"
                + " of unseen rows inside): ttft -12%/+35% (58%), tpot -10%/+30% (60%),"
                + " tokens_per_second_per_user -25%/+10% (60%), tokens_per_second_per_chip"
                + " -30%/+5% (55%)");
  }

  @Test
  void warnings_nameWhatTheFitNeverSaw() {
    ErrorBands b = sample();
    // Llama on an NVIDIA chip with a fitted engine: nothing new
    assertThat(b.warnings(Models.byId("llama-3.1-8b"), Chips.byId("h100-sxm"), "trtllm")).isEmpty();
    // the pooled default engine never warns
    assertThat(b.warnings(Models.byId("llama-3.1-8b"), Chips.byId("h100-sxm"), "default"))
        .isEmpty();
    // an AMD chip, sliding-window attention and an unseen engine each get a line
    assertThat(b.warnings(Models.byId("gpt-oss-120b"), Chips.byId("mi300x"), "vllm"))
        .hasSize(3)
        .anySatisfy(
            w ->
                assertThat(w)
                    .isEqualTo("no fitted measurement on AMD chips: the error may exceed the band"))
        .anySatisfy(w -> assertThat(w).contains("sliding attention"))
        .anySatisfy(w -> assertThat(w).contains("engine 'vllm'"));
    // a chip without a measured achievable matmul rate says what calibrated compute assumes; an
    // SRAM-only chip (not calibrated) does not
    assertThat(b.warnings(Models.byId("llama-3.1-8b"), Chips.byId("l40s"), "trtllm"))
        .containsExactly(
            "l40s has no measured achievable matmul rate (achievable_matmul_fraction): calibrated"
                + " compute assumes 0.781 of its peak, the median of the measured chips");
    assertThat(b.warnings(Models.byId("llama-3.1-8b"), Chips.byId("groq-lpu"), "default"))
        .noneSatisfy(w -> assertThat(w).contains("matmul"));
  }

  @Test
  void of_bandOutOfRange_throwsNamingIt() {
    Map<ErrorBands.Estimate, Double> t = new EnumMap<>(ErrorBands.Estimate.class);
    t.put(ErrorBands.Estimate.TTFT, Double.NaN);
    Map<ErrorBands.Estimate, ErrorBands.Range> r = new EnumMap<>(ErrorBands.Estimate.class);
    for (ErrorBands.Estimate e : ErrorBands.Estimate.values()) {
      t.putIfAbsent(e, 0.2);
      r.put(e, new ErrorBands.Range(-0.1, 0.1, 0.6));
    }
    assertThatThrownBy(() -> ErrorBands.of(t, r, Map.of(), ""))
        .hasMessage("error band ttft must be a fraction in [0, 10]: NaN");
    // a band whose high is below its low, and a missing band, are refused by name
    assertThatThrownBy(() -> new ErrorBands.Range(0.2, 0.1, 0.5))
        .hasMessage("band high must be a fraction in [low 0.2, 10]: 0.1");
    Map<ErrorBands.Estimate, Double> ok = new EnumMap<>(ErrorBands.Estimate.class);
    for (ErrorBands.Estimate e : ErrorBands.Estimate.values()) {
      ok.put(e, 0.2);
    }
    assertThatThrownBy(() -> ErrorBands.of(ok, Map.of(), Map.of(), ""))
        .hasMessage("error band ttft: band missing");
  }
}
