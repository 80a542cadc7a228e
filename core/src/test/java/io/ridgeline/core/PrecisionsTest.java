package io.ridgeline.core;

import static io.ridgeline.core.Precision.BF16;
import static io.ridgeline.core.Precision.FP16;
import static io.ridgeline.core.Precision.FP32;
import static io.ridgeline.core.Precision.FP4;
import static io.ridgeline.core.Precision.FP8;
import static io.ridgeline.core.Precision.INT4;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class PrecisionsTest {

  @Test
  void bf16_allFields_areBf16() {
    Precisions p = Precisions.bf16();
    assertThat(p.weights()).isEqualTo(BF16);
    assertThat(p.kvCache()).isEqualTo(BF16);
    assertThat(p.activations()).isEqualTo(BF16);
    assertThat(Precisions.builder().build()).isEqualTo(p);
  }

  @Test
  void matmul_w8a16_runsAtBf16() {
    assertThat(Precisions.of(FP8, BF16, BF16).matmul()).isEqualTo(BF16);
  }

  @Test
  void matmul_w8a8_runsAtFp8() {
    assertThat(Precisions.of(FP8, BF16, FP8).matmul()).isEqualTo(FP8);
  }

  @Test
  void matmul_w4a16_runsAtBf16() {
    assertThat(Precisions.of(INT4, BF16, BF16).matmul()).isEqualTo(BF16);
    assertThat(Precisions.of(FP4, BF16, FP4).matmul()).isEqualTo(FP4);
  }

  @Test
  void matmul_widerActivations_winOverWeights() {
    assertThat(Precisions.of(BF16, BF16, FP32).matmul()).isEqualTo(FP32);
  }

  @Test
  void attention_fp8CacheBf16Activations_runsAtBf16() {
    assertThat(Precisions.of(FP8, FP8, BF16).attention()).isEqualTo(BF16);
  }

  @Test
  void attention_fp8CacheFp8Activations_runsAtFp8() {
    assertThat(Precisions.of(BF16, FP8, FP8).attention()).isEqualTo(FP8);
  }

  @Test
  void attention_ignoresWeights() {
    assertThat(Precisions.of(FP32, FP16, FP8).attention()).isEqualTo(FP16);
  }

  @Test
  void builder_unsetFields_defaultToBf16() {
    Precisions p = Precisions.builder().weights(FP8).build();
    assertThat(p).isEqualTo(Precisions.of(FP8, BF16, BF16));
  }

  @Test
  void toString_listsAllThreeByLowerCaseId() {
    assertThat(Precisions.of(FP8, BF16, BF16))
        .hasToString("weights fp8, kv bf16, activations bf16");
  }
}
