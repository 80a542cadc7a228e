package io.ridgeline.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PhaseKindTest {
  @Test
  void id_everyKind_isThePhaseNameOutputBeforeKindsExisted() {
    assertThat(Arrays.stream(PhaseKind.values()).map(PhaseKind::id))
        .containsExactly(
            "prefill",
            "decode_attention",
            "decode_attention_sliding",
            "decode_linear_attention",
            "decode_projection",
            "decode_ffn",
            "decode_moe",
            "decode_other",
            "decode_communication");
  }

  @Test
  void attention_decodeAttentionKinds_matchTheCrossoverAttentionPhases() {
    // Crossover.ATTENTION_PHASES before kinds: the three decode attention phase names
    assertThat(Arrays.stream(PhaseKind.values()).filter(PhaseKind::attention).map(PhaseKind::id))
        .containsExactly("decode_attention", "decode_attention_sliding", "decode_linear_attention");
  }

  @Test
  void ffn_decodeFfnAndMoe_matchTheCrossoverAndAfdFfnPhases() {
    // Crossover.FFN_PHASES and Deployment.FFN_PHASES before kinds
    assertThat(Arrays.stream(PhaseKind.values()).filter(PhaseKind::ffn).map(PhaseKind::id))
        .containsExactly("decode_ffn", "decode_moe");
  }

  @Test
  void mixed_prefillAndCommunication_areSplitPerOperation() {
    // Deployment.side compared names with "decode_communication" and "prefill"
    assertThat(Arrays.stream(PhaseKind.values()).filter(PhaseKind::mixed).map(PhaseKind::id))
        .containsExactly("prefill", "decode_communication");
  }

  @Test
  void name_phaseAndResult_derivedFromKind() {
    assertThat(Phase.of(PhaseKind.DECODE_PROJECTION, List.of()).name())
        .isEqualTo("decode_projection");
    assertThat(PhaseResult.empty(PhaseKind.DECODE_COMMUNICATION).name())
        .isEqualTo("decode_communication");
  }
}
