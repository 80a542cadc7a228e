package io.ridgeline.core;

import static io.ridgeline.core.CoreFixtures.allReduce;
import static io.ridgeline.core.CoreFixtures.gemm;
import static io.ridgeline.core.CoreFixtures.gemv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Operations and phases as plain values: totals, intensity, scaling and validation. */
final class OperationTest {

  @Test
  void memoryBytes_severalKinds_sumsThem() {
    // 8192²·2 = 134,217,728 weight bytes + 2·8192²·2 = 268,435,456 activation bytes = 402,653,184
    Operation op = gemm();
    assertThat(op.memoryBytes()).isEqualTo(Bytes.of(402_653_184));
    assertThat(op.bytes(DataKind.WEIGHTS)).isEqualTo(Bytes.of(134_217_728));
    assertThat(op.bytes(DataKind.KV_READ)).isEqualTo(Bytes.ZERO);
  }

  @Test
  void intensity_gemv_isOneFlopPerByte() {
    // 2·4096·14336 FLOPs over 2·4096·14336 B
    assertThat(gemv().intensity()).isEqualTo(FlopsPerByte.of(1));
  }

  @Test
  void intensity_noMemoryBytes_isZero() {
    Operation op =
        Operation.builder()
            .name("in_registers")
            .role(OperationRole.NORM)
            .flops(Flops.of(100))
            .precision(Precision.FP32)
            .build();
    assertThat(op.memoryBytes()).isEqualTo(Bytes.ZERO);
    assertThat(op.intensity()).isEqualTo(FlopsPerByte.ZERO);
  }

  @Test
  void defaults_localWork_hasNoNetwork() {
    assertThat(gemv().networkBytes()).isEqualTo(Bytes.ZERO);
    assertThat(gemv().networkSteps()).isZero();
  }

  @Test
  void scaled_half_halvesFlopsAndBytes() {
    Operation half = gemm().scaled(0.5);
    // 1,099,511,627,776 / 2 = 549,755,813,888 FLOPs; 402,653,184 / 2 = 201,326,592 B
    assertThat(half.flops()).isEqualTo(Flops.of(549_755_813_888.0));
    assertThat(half.memoryBytes()).isEqualTo(Bytes.of(201_326_592));
    assertThat(half.bytes(DataKind.WEIGHTS)).isEqualTo(Bytes.of(67_108_864));
    assertThat(half.bytes(DataKind.ACTIVATIONS)).isEqualTo(Bytes.of(134_217_728));
    assertThat(half.intensity()).isEqualTo(gemm().intensity());
    assertThat(half.name()).isEqualTo("gemm_8192");
    assertThat(half.precision()).isEqualTo(Precision.BF16);
  }

  @Test
  void scaled_networkOp_scalesBytesButNotSteps() {
    // 28e6 B · 0.5 = 14e6 B; the 14 latency-paying steps stay
    Operation half = allReduce().scaled(0.5);
    assertThat(half.networkBytes()).isEqualTo(Bytes.of(14e6));
    assertThat(half.networkSteps()).isEqualTo(14);
  }

  @Test
  void scaled_zero_isEmptyWork() {
    Operation none = gemv().scaled(0);
    assertThat(none.flops()).isEqualTo(Flops.ZERO);
    assertThat(none.memoryBytes()).isEqualTo(Bytes.ZERO);
  }

  @ParameterizedTest(name = "factor {0} is rejected")
  @ValueSource(doubles = {-0.5, Double.NaN, Double.POSITIVE_INFINITY})
  void scaled_negativeOrNonFinite_rejectedNamingFactor(double factor) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> gemv().scaled(factor));
    assertThat(e).hasMessageContaining("scale factor").hasMessageContaining(String.valueOf(factor));
  }

  @ParameterizedTest(name = "name \"{0}\" is rejected")
  @ValueSource(strings = {"", " ", "\t"})
  void build_blankName_rejected(String name) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Operation.builder()
                    .name(name)
                    .role(OperationRole.NORM)
                    .flops(Flops.of(1))
                    .precision(Precision.BF16)
                    .build());
    assertThat(e).hasMessageContaining("name").hasMessageContaining("blank");
  }

  @Test
  void build_negativeNetworkSteps_rejectedNamingOpAndValue() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Operation.builder()
                    .name("all_gather")
                    .role(OperationRole.TP_ALL_REDUCE)
                    .flops(Flops.ZERO)
                    .precision(Precision.BF16)
                    .networkSteps(-1)
                    .build());
    assertThat(e)
        .hasMessageContaining("all_gather")
        .hasMessageContaining("network steps")
        .hasMessageContaining("-1");
  }

  @Test
  void reductionDepths_negativeOrNotFinite_namedInTheMessage() {
    IllegalArgumentException negative =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Operation.builder()
                    .name("o_proj")
                    .role(OperationRole.ATTENTION_PROJECTION)
                    .flops(Flops.of(1))
                    .precision(Precision.BF16)
                    .inverseSplitDepth(-1e-3)
                    .build());
    assertThat(negative)
        .hasMessageContaining("o_proj")
        .hasMessageContaining("inverse split depth must be finite and >= 0")
        .hasMessageContaining("-0.001");
    IllegalArgumentException infinite =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Operation.builder()
                    .name("qkv_proj")
                    .role(OperationRole.ATTENTION_PROJECTION)
                    .flops(Flops.of(1))
                    .precision(Precision.BF16)
                    .inverseDepth(Double.POSITIVE_INFINITY)
                    .build());
    assertThat(infinite)
        .hasMessageContaining("qkv_proj")
        .hasMessageContaining("inverse depth must be finite and >= 0")
        .hasMessageContaining("Infinity");
  }

  @Test
  void build_missingFlops_rejected() {
    assertThrows(
        IllegalStateException.class,
        () ->
            Operation.builder()
                .name("x")
                .role(OperationRole.NORM)
                .precision(Precision.BF16)
                .build());
  }

  @Test
  void toString_gemv_printsNameTotalsIntensityAndPrecision() {
    assertThat(gemv()).hasToString("ffn_up{117.441 MFLOP, 117.441 MB, 1 FLOP/B, bf16}");
  }

  @Test
  void phase_totals_sumOperations() {
    Phase phase = Phase.of(PhaseKind.DECODE_FFN, List.of(gemv(), gemm()));
    // FLOPs: 117,440,512 + 1,099,511,627,776 = 1,099,629,068,288
    assertThat(phase.flops()).isEqualTo(Flops.of(1_099_629_068_288.0));
    // bytes: 117,440,512 + 402,653,184 = 520,093,696; weights 117,440,512 + 134,217,728 =
    // 251,658,240
    assertThat(phase.bytes()).isEqualTo(Bytes.of(520_093_696));
    assertThat(phase.bytes(DataKind.WEIGHTS)).isEqualTo(Bytes.of(251_658_240));
    assertThat(phase.bytes(DataKind.KV_WRITE)).isEqualTo(Bytes.ZERO);
    // 1,099,629,068,288 / 520,093,696 = 2114.29 FLOP/B
    assertThat(phase.intensity().flopsPerByte()).isEqualTo(1_099_629_068_288.0 / 520_093_696);
  }

  @Test
  void phase_noBytes_hasZeroIntensity() {
    assertThat(Phase.of(PhaseKind.DECODE_OTHER, List.of()).intensity())
        .isEqualTo(FlopsPerByte.ZERO);
  }

  @Test
  void phase_name_isKindId() {
    Phase phase = Phase.of(PhaseKind.DECODE_MOE, List.of(gemv()));
    assertThat(phase.name()).isEqualTo("decode_moe");
    assertThat(phase).hasToString("decode_moe" + List.of(gemv()));
  }
}
