package io.ridgeline.models;

import static io.ridgeline.models.ModelTesting.names;
import static io.ridgeline.models.ModelTesting.operation;
import static io.ridgeline.models.ModelTesting.phase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.DataKind;
import io.ridgeline.core.Operation;
import io.ridgeline.core.Phase;
import io.ridgeline.core.Precisions;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Decode-step operations of the MoE, MLA, DSA, sliding-window and linear-attention models, with
 * FLOPs and bytes derived from the config values by the conventions of {@code Operations}.
 */
final class DecodeOperationsTest {
  private static final Precisions BF16 = Precisions.bf16();

  // ---- phases ----

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "llama-3.1-8b, decode_attention decode_projection decode_ffn decode_other",
    "mixtral-8x7b, decode_attention decode_projection decode_moe decode_other",
    "gpt-oss-120b, decode_attention decode_attention_sliding decode_projection decode_moe decode_other",
    "qwen3-next-80b-a3b, decode_attention decode_linear_attention decode_projection decode_moe decode_other",
    "nemotron-h-56b, decode_attention decode_linear_attention decode_projection decode_ffn decode_other",
    // 3 dense layers (first_k_dense_replace) and 58 MoE layers
    "deepseek-v3, decode_attention decode_projection decode_ffn decode_moe decode_other",
    "gemma-2-9b, decode_attention decode_attention_sliding decode_projection decode_ffn decode_other",
    "nemotron-3-nano-30b-a3b, decode_attention decode_linear_attention decode_projection decode_moe decode_other",
  })
  void decodeStep_catalogModel_hasItsPhasesInOrder(String id, String phases) {
    assertThat(names(Models.byId(id).decodeStep(4, 2048, BF16)))
        .containsExactlyElementsOf(Arrays.asList(phases.split(" ")));
  }

  // ---- MoE ----

  @Test
  void decodeStep_mixtral_expertWeightsFollowDistinctExpertsWhileFlopsChargeTopK() {
    Model m = Models.byId("mixtral-8x7b");
    // one expert: 3·4096·14336 = 176,160,768 params × 2 B = 352,321,536 B; the op sums 32 layers
    double expertBytes = 352_321_536.0;
    double b1 = experts(m, 1).bytes(DataKind.WEIGHTS).bytes() / 32;
    double b8 = experts(m, 8).bytes(DataKind.WEIGHTS).bytes() / 32;
    double b64 = experts(m, 64).bytes(DataKind.WEIGHTS).bytes() / 32;
    // batch 1: top-2 → 2 experts' worth per layer
    assertThat(b1 / expertBytes).isCloseTo(2.0, within(1e-12));
    // batch 8: 8·(1 − (6/8)^8) = 8·(1 − 0.100112915) = 7.19909668
    assertThat(b8 / expertBytes).isCloseTo(8 * (1 - Math.pow(0.75, 8)), within(1e-9));
    assertThat(b8 / expertBytes).isCloseTo(7.2, within(0.01));
    // batch 64: 8·(1 − 0.75^64) ≈ 8 − 8e-8
    assertThat(b64 / expertBytes).isCloseTo(8 * (1 - Math.pow(0.75, 64)), within(1e-9));
    assertThat(b64 / expertBytes).isCloseTo(8.0, within(1e-6));
    // FLOPs: B tokens × k = 2 experts × (2·176,160,768 + 5 activation FLOPs × 14336) × 32 layers
    //      = B × 2 × 352,393,216 × 32 = B × 22,553,165,824, whatever the batch
    for (int batch : new int[] {1, 8, 64}) {
      assertThat(experts(m, batch).flops().flops()).isEqualTo(batch * 22_553_165_824.0);
    }
  }

  @Test
  void decodeStep_mixtralZipfRouting_readsFewerExpertsThanUniformButSameFlops() {
    Model m = Models.byId("mixtral-8x7b");
    Operation uniform = experts(m.decodeStep(8, 1024, BF16, Routing.uniform()));
    Operation skewed = experts(m.decodeStep(8, 1024, BF16, Routing.zipf(1.0)));
    assertThat(skewed.bytes(DataKind.WEIGHTS).bytes())
        .isLessThan(uniform.bytes(DataKind.WEIGHTS).bytes());
    assertThat(skewed.flops()).isEqualTo(uniform.flops());
  }

  @Test
  void decodeStep_deepseekV3Moe_sharedExpertAndRouterReadInFull() {
    Model m = Models.byId("deepseek-v3");
    Phase moe = phase(m.decodeStep(1, 1024, BF16), "decode_moe");
    assertThat(moe.operations())
        .extracting(Operation::name)
        .containsExactly("router", "experts", "shared_experts");
    // shared expert 3·7168·2048 = 44,040,192 params × 2 B × 58 MoE layers = 5,108,662,272 B
    assertThat(operation(moe, "shared_experts").bytes(DataKind.WEIGHTS).bytes())
        .isEqualTo(5_108_662_272.0);
    // router 7168·256 + 256 bias = 1,835,264 params × 2 B × 58 = 212,890,624 B
    assertThat(operation(moe, "router").bytes(DataKind.WEIGHTS).bytes()).isEqualTo(212_890_624.0);
    // routed experts at batch 1: 8 experts × 44,040,192 × 2 B × 58 = 40,869,298,176 B
    assertThat(operation(moe, "experts").bytes(DataKind.WEIGHTS).bytes())
        .isCloseTo(40_869_298_176.0, withPercentage(1e-9));
  }

  // ---- MLA ----

  @Test
  void decodeStep_deepseekV3Mla_absorbedAttentionMatchesHandArithmetic() {
    Phase phase = phase(Models.byId("deepseek-v3").decodeStep(1, 4096, BF16), "decode_attention");
    // one attention operation per layer shape (3 dense-FFN, 58 MoE layers); summed: 61 layers
    assertThat(ModelTesting.count(phase, "attention")).isEqualTo(2);
    Operation attention = operation(phase, "attention");
    // per head and token: 2·(512 + 64) scores against latent + rope key, 2·512 for the latent
    // output, 5 softmax → 2181 FLOPs; × 128 heads × 4096 tokens × 61 layers
    //   = 31,981,568 × 2181 = 69,751,799,808
    assertThat(attention.flops().flops()).isEqualTo(69_751_799_808.0);
    // the cached latent + rope key only: 61 × 4096 × 576 × 2 B = 287,834,112
    assertThat(attention.bytes(DataKind.KV_READ).bytes()).isEqualTo(287_834_112.0);
    // one new latent per layer: 61 × 576 × 2 B = 70,272
    assertThat(attention.bytes(DataKind.KV_WRITE).bytes()).isEqualTo(70_272.0);
    // absorbed query (512 + 64) and latent output (512) per head:
    //   128 × 1088 × 61 × 2 B = 16,990,208
    assertThat(attention.bytes(DataKind.ACTIVATIONS).bytes()).isEqualTo(16_990_208.0);
    // against the cache alone: 128 × 2181 / (576 × 2) = 242.3 FLOP/B
    assertThat(attention.flops().flops() / attention.bytes(DataKind.KV_READ).bytes())
        .isCloseTo(128 * 2181.0 / 1152, within(1e-9))
        .isCloseTo(242.3, within(0.1));
    // with write and activations: 69,751,799,808 / (287,834,112 + 70,272 + 16,990,208) ≈ 228.8
    assertThat(attention.intensity().flopsPerByte())
        .isCloseTo(69_751_799_808.0 / 304_894_592.0, within(1e-9));
    // the latent is shared by every head: it cannot be split over tensor-parallel chips
    assertThat(attention.kvShards()).isEqualTo(1);
  }

  @Test
  void decodeStep_mlaAttention_farMoreIntenseThanGqa() {
    Operation mla =
        operation(
            Models.byId("deepseek-v3").decodeStep(1, 4096, BF16), "decode_attention", "attention");
    // GQA: (heads / KV heads) × (2·128 + 2·128) FLOPs per 2·128·2 B: 4 FLOP/B for 32/8, 8 for 64/8
    Operation gqa8b =
        operation(
            Models.byId("llama-3.1-8b").decodeStep(1, 4096, BF16), "decode_attention", "attention");
    Operation gqa70b =
        operation(
            Models.byId("llama-3.1-70b").decodeStep(1, 4096, BF16),
            "decode_attention",
            "attention");
    assertThat(gqa8b.intensity().flopsPerByte()).isCloseTo(4.0, within(0.2));
    assertThat(gqa70b.intensity().flopsPerByte()).isCloseTo(8.0, within(0.3));
    assertThat(mla.intensity().flopsPerByte())
        .isGreaterThan(25 * gqa70b.intensity().flopsPerByte());
    assertThat(gqa70b.kvShards()).isEqualTo(8);
  }

  // ---- DSA ----

  @Test
  void decodeStep_deepseekV32LongContext_attentionKeepsTopKIndexerScoresAll() {
    List<Phase> step = Models.byId("deepseek-v3.2").decodeStep(1, 32_768, BF16);
    Phase attention = phase(step, "decode_attention");
    // one indexer and one attention per layer shape (3 dense-FFN layers, 58 MoE layers)
    assertThat(attention.operations())
        .extracting(Operation::name)
        .containsExactly("indexer", "attention", "indexer", "attention");
    Operation sparse = operation(attention, "attention");
    Operation indexer = operation(attention, "indexer");
    // attention over index_topk = 2048 tokens: 61 × 128 heads × 2048 × 2181 = 34,875,899,904
    assertThat(sparse.flops().flops()).isEqualTo(34_875_899_904.0);
    // and reads 2048 latents: 61 × 2048 × 576 × 2 B = 143,917,056
    assertThat(sparse.bytes(DataKind.KV_READ).bytes()).isEqualTo(143_917_056.0);
    // indexer scores all 32,768: 61 × 64 heads × 32,768 × (2·128 + 2) = 33,004,978,176
    assertThat(indexer.flops().flops()).isEqualTo(33_004_978_176.0);
    // and reads every cached indexer key: 61 × 32,768 × 128 × 2 B = 511,705,088
    assertThat(indexer.bytes(DataKind.KV_READ).bytes()).isEqualTo(511_705_088.0);
    assertThat(indexer.kvShards()).isEqualTo(1);
    // the new token's latent and indexer key are written: 61 × (576 + 128) × 2 B = 85,888
    assertThat(sparse.bytes(DataKind.KV_WRITE).bytes()).isEqualTo(85_888.0);
  }

  @Test
  void decodeStep_deepseekV32ShortContext_attentionAndIndexerBothCoverContext() {
    Phase attention =
        phase(Models.byId("deepseek-v3.2").decodeStep(1, 1000, BF16), "decode_attention");
    // 1000 < 2048: attention sees all 1000 tokens: 61 × 128 × 1000 × 2181 = 17,029,248,000
    assertThat(operation(attention, "attention").flops().flops()).isEqualTo(17_029_248_000.0);
    // 61 × 1000 × 576 × 2 B = 70,272,000
    assertThat(operation(attention, "attention").bytes(DataKind.KV_READ).bytes())
        .isEqualTo(70_272_000.0);
    // indexer: 61 × 64 × 1000 × 258 = 1,007,232,000 FLOPs; 61 × 1000 × 128 × 2 B = 15,616,000
    assertThat(operation(attention, "indexer").flops().flops()).isEqualTo(1_007_232_000.0);
    assertThat(operation(attention, "indexer").bytes(DataKind.KV_READ).bytes())
        .isEqualTo(15_616_000.0);
  }

  @Test
  void decodeStep_deepseekV32_sameAsV3BelowTopKPlusIndexer() {
    // at 1000 tokens the sparse attention does exactly what V3's dense MLA does
    Operation v3 =
        operation(
            Models.byId("deepseek-v3").decodeStep(3, 1000, BF16), "decode_attention", "attention");
    Operation v32 =
        operation(
            Models.byId("deepseek-v3.2").decodeStep(3, 1000, BF16),
            "decode_attention",
            "attention");
    assertThat(v32.flops()).isEqualTo(v3.flops());
    assertThat(v32.bytes(DataKind.KV_READ)).isEqualTo(v3.bytes(DataKind.KV_READ));
  }

  // ---- sliding window ----

  @Test
  void decodeStep_gptOss120bLongContext_slidingPhaseConstantFullPhaseGrows() {
    Model m = Models.byId("gpt-oss-120b");
    List<Phase> at100k = m.decodeStep(2, 100_000, BF16);
    List<Phase> at200k = m.decodeStep(2, 200_000, BF16);
    Phase sliding100k = phase(at100k, "decode_attention_sliding");
    Phase sliding200k = phase(at200k, "decode_attention_sliding");
    assertThat(sliding200k.bytes()).isEqualTo(sliding100k.bytes());
    assertThat(sliding200k.flops()).isEqualTo(sliding100k.flops());
    // the window caps the read: 2 sequences × 18 layers × 128 tokens × 2 × 8 × 64 × 2 B = 9,437,184
    assertThat(sliding200k.bytes(DataKind.KV_READ).bytes()).isEqualTo(9_437_184.0);
    // full layers read everything: 2 × 18 × 200,000 × 2048 B = 14,745,600,000, twice the 100k read
    Phase full100k = phase(at100k, "decode_attention");
    Phase full200k = phase(at200k, "decode_attention");
    assertThat(full200k.bytes(DataKind.KV_READ).bytes()).isEqualTo(14_745_600_000.0);
    assertThat(full200k.bytes(DataKind.KV_READ).bytes())
        .isEqualTo(2 * full100k.bytes(DataKind.KV_READ).bytes());
    assertThat(full200k.flops().flops()).isGreaterThan(full100k.flops().flops());
    assertThat(operation(sliding200k, "attention_sliding").kvShards()).isEqualTo(8);
  }

  // ---- linear attention ----

  @ParameterizedTest(name = "{0}")
  @CsvSource({"qwen3-next-80b-a3b", "nemotron-h-56b", "nemotron-3-nano-30b-a3b"})
  void decodeStep_linearAttentionPhase_independentOfContext(String id) {
    Model m = Models.byId(id);
    Phase short1k = phase(m.decodeStep(4, 1_000, BF16), "decode_linear_attention");
    Phase long100k = phase(m.decodeStep(4, 100_000, BF16), "decode_linear_attention");
    assertThat(long100k.flops()).isEqualTo(short1k.flops());
    assertThat(long100k.bytes()).isEqualTo(short1k.bytes());
  }

  @Test
  void decodeStep_nemotronH56bMamba2State_readAndWrittenWhole() {
    Model m = Models.byId("nemotron-h-56b");
    Operation state =
        operation(m.decodeStep(1, 4096, BF16), "decode_linear_attention", "linear_state");
    // state per layer: 256 heads × 64 × 256 = 4,194,304 + conv 3 × (16384 + 2·8·256) = 61,440
    //   = 4,255,744 elements; × 54 layers × 2 B = 459,620,352 B, read once and written once
    double stateBytes = 459_620_352.0;
    assertThat(state.bytes(DataKind.KV_READ).bytes()).isEqualTo(stateBytes);
    assertThat(state.bytes(DataKind.KV_WRITE).bytes()).isEqualTo(stateBytes);
    assertThat(stateBytes).isEqualTo(m.boundedCacheBytesPerSequence(BF16.kvCache()).bytes());
    // activations: conv channels 20,480 + inner 16,384 = 36,864 × 54 × 2 B = 3,981,312
    assertThat(state.memoryBytes().bytes()).isEqualTo(2 * stateBytes + 3_981_312.0);
    // FLOPs: 5 per state element + 2 per conv tap and channel: 5·4,194,304 + 2·4·20,480
    //   = 20,971,520 + 163,840 = 21,135,360; × 54 = 1,141,309,440
    assertThat(state.flops().flops()).isEqualTo(1_141_309_440.0);
    // split at most 256 ways (one Mamba head each)
    assertThat(state.kvShards()).isEqualTo(256);
  }

  @Test
  void decodeStep_qwen3NextDeltaNetState_matchesHandArithmetic() {
    Operation state =
        operation(
            Models.byId("qwen3-next-80b-a3b").decodeStep(1, 4096, BF16),
            "decode_linear_attention",
            "linear_state");
    // 36 layers × (32 × 128 × 128 + 3 × 8192) = 19,759,104 elements × 2 B = 39,518,208 each way
    assertThat(state.bytes(DataKind.KV_READ).bytes()).isEqualTo(39_518_208.0);
    assertThat(state.bytes(DataKind.KV_WRITE).bytes()).isEqualTo(39_518_208.0);
    // 7 FLOPs per state element + 2 per conv tap and channel:
    //   7·524,288 + 2·4·8192 = 3,735,552; × 36 layers = 134,479,872
    assertThat(state.flops().flops()).isEqualTo(134_479_872.0);
  }

  private static Operation experts(Model m, int batch) {
    return experts(m.decodeStep(batch, 1024, BF16));
  }

  private static Operation experts(List<Phase> step) {
    return operation(step, "decode_moe", "experts");
  }
}
