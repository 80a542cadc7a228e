package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

final class CaseNotesTest {
  @Test
  void parse_nothingStated_givesDefaults() {
    CaseNotes n = CaseNotes.parse("InferenceMAX run; mean TPOT");
    assertThat(n.rangeRatio()).isEmpty();
    assertThat(n.rangeRatioOrDefault()).isEqualTo(CaseNotes.DEFAULT_RANGE_RATIO);
    assertThat(n.prompts()).isEmpty();
    assertThat(n.cycles(OptionalInt.of(64))).isEqualTo(CaseNotes.DEFAULT_CYCLES);
    assertThat(n.slo()).isEmpty();
    assertThat(n.loadPerChip()).isFalse();
  }

  @Test
  void parse_rangeRatioAndPrompts_giveRoundsPerClient() {
    // 1280 prompts over 64 clients = 20 rounds; 100 prompts over 64 clients = 1 round (floor)
    CaseNotes n = CaseNotes.parse("random range ratio 0.5, 1280 prompts");
    assertThat(n.rangeRatioOrDefault()).isEqualTo(0.5);
    assertThat(n.cycles(OptionalInt.of(64))).isEqualTo(20);
    assertThat(CaseNotes.parse("100 prompts").cycles(OptionalInt.of(64))).isEqualTo(1);
    // without a load the prompt count says nothing about rounds
    assertThat(n.cycles(OptionalInt.empty())).isEqualTo(CaseNotes.DEFAULT_CYCLES);
  }

  @Test
  void parse_rangeRatioAboveOne_isIgnored() {
    assertThat(CaseNotes.parse("range ratio 1.5").rangeRatio()).isEmpty();
    assertThat(CaseNotes.parse("range ratio 1.5").rangeRatioOrDefault()).isEqualTo(0.8);
  }

  @Test
  void parse_slo_inSecondsWhateverTheUnit() {
    // 2 s → 2 s; 200 ms → 0.2 s
    CaseNotes n = CaseNotes.parse("MLPerf Server, SLO TTFT 2 s / TPOT 200 ms");
    assertThat(n.slo()).isPresent();
    assertThat(n.slo().get().ttftSeconds()).isEqualTo(2.0);
    assertThat(n.slo().get().tpotSeconds()).isCloseTo(0.2, within(1e-15));
    CaseNotes c = CaseNotes.parse("constraints TTFT 450 ms / TPOT 40 ms");
    assertThat(c.slo().get().ttftSeconds()).isCloseTo(0.45, within(1e-15));
  }

  @Test
  void parse_perChip_anyCase() {
    assertThat(CaseNotes.parse("load is concurrency Per Chip").loadPerChip()).isTrue();
  }

  @Test
  void parse_eagerDecode_anyCase() {
    assertThat(CaseNotes.parse("PyTorch backend, Eager decode: no CUDA graphs").eagerDecode())
        .isTrue();
    assertThat(CaseNotes.parse("CUDA graphs for decode; eager prefill").eagerDecode()).isFalse();
  }

  @Test
  void parse_synchronousScheduler_anyCase() {
    assertThat(CaseNotes.parse("vLLM 0.7; Synchronous scheduler: V0 engine").synchronousScheduler())
        .isTrue();
    assertThat(CaseNotes.parse("overlap scheduler on").synchronousScheduler()).isFalse();
  }

  @Test
  void parse_maxBatchPerRank_firstMatchAtLeastOne() {
    assertThat(CaseNotes.parse("max-throughput config; max_batch 384 per rank").maxBatchPerRank())
        .isEqualTo(OptionalInt.of(384));
    assertThat(CaseNotes.parse("max_batch 0 per rank").maxBatchPerRank()).isEmpty();
    assertThat(CaseNotes.parse("max_batch 99999999999 per rank").maxBatchPerRank()).isEmpty();
    assertThat(CaseNotes.parse("max_batch 384").maxBatchPerRank()).isEmpty();
    assertThat(CaseNotes.parse("InferenceMAX run").maxBatchPerRank()).isEmpty();
  }
}
