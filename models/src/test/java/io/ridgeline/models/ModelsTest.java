package io.ridgeline.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.DataKind;
import io.ridgeline.core.Phase;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class ModelsTest {

  @Test
  void catalog_requiredIds_allPresent() {
    assertThat(Models.ids())
        .contains(
            "llama-2-7b",
            "llama-2-13b",
            "llama-2-70b",
            "llama-3-8b",
            "llama-3.1-8b",
            "llama-3.1-70b",
            "llama-3.1-405b",
            "qwen3-8b",
            "mistral-7b",
            "bloom-176b");
  }

  @Test
  void llama31_70b_parametersAndKv_matchHandArithmetic() {
    Model m = Models.byId("llama-3.1-70b");
    // per layer: attention 8192·(8192 + 2·1024) + 8192·8192 = 150,994,944
    //            FFN 3·8192·28672 = 704,643,072; norms 2·8192 = 16,384  → 855,654,400
    // 80 layers = 68,452,352,000; embeddings + untied head 2·128256·8192 = 2,101,346,304;
    // final norm 8192 → 70,553,706,496
    assertThat(m.totalParameters()).isEqualTo(70_553_706_496.0);
    // KV per token: 2 (K,V) × 80 layers × 8 KV heads × 128 head dim × 2 B = 327,680 B
    assertThat(m.kvBytesPerToken(Precision.BF16).bytes()).isEqualTo(327_680.0);
    assertThat(m.kvBytesPerToken(Precision.FP8).bytes()).isEqualTo(163_840.0);
  }

  @ParameterizedTest(name = "{0} has {1}e9 parameters")
  @CsvSource({
    // published or config-derived totals (shared/models/README.md "calc" column, model cards)
    "llama-2-7b, 6.74",
    "llama-2-13b, 13.0",
    "llama-2-70b, 68.98",
    "llama-3-8b, 8.03",
    "llama-3.1-8b, 8.03",
    "llama-3.1-405b, 405.85",
    "qwen3-8b, 8.19",
    "mistral-7b, 7.25",
    "bloom-176b, 176.2",
  })
  void totalParameters_catalogModels_withinOnePercentOfPublished(String id, double billions) {
    assertThat(Models.byId(id).totalParameters() / 1e9).isCloseTo(billions, withPercentage(1));
  }

  @Test
  void decodeStep_llama31_8b_batch1_readsAllNonEmbeddingWeightsAndKv() {
    Model m = Models.byId("llama-3.1-8b");
    List<Phase> phases = m.decodeStep(1, 1024, Precisions.bf16());
    assertThat(phases)
        .extracting(Phase::name)
        .containsExactly("decode_attention", "decode_projection", "decode_ffn", "decode_other");
    double weights = phases.stream().mapToDouble(p -> p.bytes(DataKind.WEIGHTS).bytes()).sum();
    // all weights but the embedding table (128256·4096 = 525M params), of which 1 row is read:
    // (8.030e9 − 0.525e9) params × 2 B ≈ 15.01e9 B
    assertThat(weights).isCloseTo(15.01e9, withPercentage(0.5));
    double kv = phases.get(0).bytes(DataKind.KV_READ).bytes();
    // 1024 tokens × 131,072 B/token (2·32·8·128·2) = 134,217,728 B
    assertThat(kv).isEqualTo(134_217_728.0);
  }

  @Test
  void decodeFfnIntensity_llama31_8b_risesFromOneToSixtyWithBatch() {
    Model m = Models.byId("llama-3.1-8b");
    // a GEMV reads each bf16 weight (2 B) once and does one multiply-add (2 FLOPs) per weight per
    // token: intensity ≈ batch FLOP/B, less the activation traffic
    double b1 = ffn(m, 1).intensity().flopsPerByte();
    double b64 = ffn(m, 64).intensity().flopsPerByte();
    assertThat(b1).isCloseTo(1.0, within(0.01));
    assertThat(b64).isGreaterThan(60).isLessThan(64);
  }

  @ParameterizedTest(name = "batch {0}")
  @CsvSource({"1", "8", "64", "512"})
  void decodeAttentionIntensity_gqa_staysNearFour(int batch) {
    // per KV head and cached token: 4 query heads × (2·128 QKᵀ + 2·128 PV) = 2048 FLOPs over
    // 2 (K,V) × 128 × 2 B = 512 B → 4 FLOP/B, whatever the batch (+ softmax FLOPs, − q/out traffic)
    Phase attention = Models.byId("llama-3.1-8b").decodeStep(batch, 4096, Precisions.bf16()).get(0);
    assertThat(attention.flops().per(attention.bytes()).flopsPerByte()).isCloseTo(4.0, within(0.1));
  }

  @Test
  void prefill_attention_countsCausalHalf() {
    Model m = Models.byId("llama-3.1-8b");
    Phase prefill = m.prefill(2, 100, Precisions.bf16());
    double attention =
        prefill.operations().stream()
            .filter(o -> o.name().equals("attention"))
            .findFirst()
            .orElseThrow()
            .flops()
            .flops();
    // pairs = 2 prompts × 100·101/2 = 10,100 per head; scores = 10,100 × 32 heads × 32 layers
    double scores = 10_100.0 * 32 * 32;
    assertThat(attention).isEqualTo(4 * scores * 128 + 5 * scores);
  }

  /** The attention operation of a Llama-3.1-8B prefill of 256 new tokens after {@code cached}. */
  private static io.ridgeline.core.Operation attention8b(int cached) {
    return Models.byId("llama-3.1-8b")
        .prefill(1, 256, cached, Precisions.bf16(), Routing.uniform())
        .operations()
        .stream()
        .filter(o -> o.name().equals("attention"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void prefill_afterCachedContext_attendsOverTheCachedTokens() {
    // Llama-3.1-8B: 32 layers, 32 query heads, 8 KV heads, head dim 128; 256 new tokens after
    // 32,768 cached. New token i (1..256) attends over 32,768 + i tokens:
    //   pairs = 256 · 32,768 + 256 · 257 / 2 = 8,388,608 + 32,896 = 8,421,504
    //   scores = pairs · 32 heads · 32 layers = 8,623,620,096
    //   FLOPs = scores · (2·128 QKᵀ + 2·128 PV + 5 softmax) = 8,623,620,096 · 517
    //         = 4,458,411,589,632 (≈ 4 · heads · head_dim · context per new token per layer:
    //           4 · 32 · 128 · 32,768 · 256 · 32 = 4.40e12, plus the new tokens' own triangle)
    io.ridgeline.core.Operation a = attention8b(32_768);
    assertThat(a.flops().flops()).isEqualTo(4_458_411_589_632.0);
    // KV read once per sequence (flash-attention tile reuse): the cached and the new tokens'
    // K and V: (32,768 + 256) tokens · 2 · 8 KV heads · 128 · 32 layers · 2 B = 33,024 · 131,072
    //        = 4,328,521,728 B; written: only the new tokens, 256 · 131,072 = 33,554,432 B
    assertThat(a.bytes().get(DataKind.KV_READ).bytes()).isEqualTo(4_328_521_728.0);
    assertThat(a.bytes().get(DataKind.KV_WRITE).bytes()).isEqualTo(33_554_432.0);
  }

  @Test
  void prefill_cachedContext_changesOnlyAttention() {
    Model m = Models.byId("llama-3.1-8b");
    Phase fresh = m.prefill(1, 256, 0, Precisions.bf16(), Routing.uniform());
    Phase cached = m.prefill(1, 256, 32_768, Precisions.bf16(), Routing.uniform());
    // no cache: pairs 256·257/2 = 32,896, FLOPs 32,896 · 1024 · 517 = 17,415,405,568; the GEMMs
    // see the same 256 tokens: the difference is attention's 4,458,411,589,632 − 17,415,405,568
    assertThat(cached.flops().flops() - fresh.flops().flops()).isEqualTo(4_440_996_184_064.0);
    // bytes: the 32,768 cached tokens' K and V, 32,768 · 131,072 B = 4,294,967,296 B
    assertThat(cached.bytes().bytes() - fresh.bytes().bytes()).isEqualTo(4_294_967_296.0);
    // cached 0 is the plain prefill
    assertThat(fresh).isEqualTo(m.prefill(1, 256, Precisions.bf16()));
    assertThatThrownBy(() -> m.prefill(1, 256, -1, Precisions.bf16(), Routing.uniform()))
        .hasMessageContaining("cached tokens must be non-negative: -1");
  }

  @Test
  void prefill_slidingWindowAfterCache_readsOnlyTheWindow() {
    // gemma-2-9b: even layers slide over 4096 tokens; after 100,000 cached tokens a sliding layer
    // reads min(100,000, 4096) cached tokens' KV, the global layers all 100,000
    Model m = Models.byId("gemma-2-9b");
    io.ridgeline.core.Operation sliding =
        m.prefill(1, 10, 100_000, Precisions.bf16(), Routing.uniform()).operations().stream()
            .filter(o -> o.name().equals("attention_sliding"))
            .findFirst()
            .orElseThrow();
    Attention a = m.layers().get(0).attention().orElseThrow();
    // 21 sliding layers · (4096 + 10) tokens · cache elements per token · 2 B
    assertThat(sliding.bytes().get(DataKind.KV_READ).bytes())
        .isEqualTo(21.0 * (4096 + 10) * a.cacheElementsPerToken() * 2);
  }

  @Test
  void decodeStep_nonPositiveBatch_throwsNamingField() {
    Model m = Models.byId("llama-3.1-8b");
    assertThatThrownBy(() -> m.decodeStep(0, 10, Precisions.bf16()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("batch must be positive: 0");
    assertThatThrownBy(() -> m.prefill(1, -5, Precisions.bf16()))
        .hasMessageContaining("prompt tokens must be positive: -5");
  }

  @Test
  void byId_unknown_listsKnownIdsAndClosest() {
    assertThatThrownBy(() -> Models.byId("llama-3.1-70"))
        .isInstanceOf(NoSuchElementException.class)
        .hasMessageContaining("did you mean 'llama-3.1-70b'")
        .hasMessageContaining("qwen3-8b");
  }

  @Test
  void fromConfig_userFile_readsModel(@TempDir Path dir) throws IOException {
    Path p = dir.resolve("tiny.json");
    Files.writeString(
        p,
        "{\"model_type\":\"llama\",\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
            + "\"intermediate_size\":128,\"vocab_size\":100,\"time_limit\":[0.0, Infinity]}");
    Model m = Models.fromConfig(p);
    assertThat(m.id()).isEqualTo("tiny");
    assertThat(m.layers().get(0).attention().orElseThrow().kvHeads()).isEqualTo(4);
    assertThat(m.layers().get(0).attention().orElseThrow().headDim()).isEqualTo(16);
    assertThat(Models.resolve(p.toString())).isEqualTo(m);
  }

  @Test
  void fromConfig_missingField_namesFileAndField(@TempDir Path dir) throws IOException {
    Path p = dir.resolve("bad.json");
    Files.writeString(p, "{\"model_type\":\"llama\",\"hidden_size\":64,\"num_attention_heads\":4}");
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad.json")
        .hasMessageContaining("missing required field 'num_hidden_layers'");
  }

  @Test
  void fromConfig_unknownModelType_listsSupported(@TempDir Path dir) throws IOException {
    Path p = dir.resolve("x.json");
    Files.writeString(p, "{\"model_type\":\"rwkv\"}");
    assertThatThrownBy(() -> Models.fromConfig(p))
        .hasMessageContaining("unsupported model_type 'rwkv'")
        .hasMessageContaining("llama, mistral");
  }

  @Test
  void fromConfig_malformedJson_namesLine(@TempDir Path dir) throws IOException {
    Path p = dir.resolve("broken.json");
    Files.writeString(p, "{\n\"model_type\": \"llama\",\n\"hidden_size\": }");
    assertThatThrownBy(() -> Models.fromConfig(p))
        .hasMessageContaining("broken.json: malformed JSON at line 3");
  }

  @Test
  void fromConfig_badValue_namesFieldAndValue(@TempDir Path dir) throws IOException {
    Path p = dir.resolve("neg.json");
    Files.writeString(
        p,
        "{\"model_type\":\"llama\",\"hidden_size\":-64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
            + "\"intermediate_size\":128,\"vocab_size\":100}");
    assertThatThrownBy(() -> Models.fromConfig(p))
        .hasMessageContaining("neg.json: field 'hidden_size' must be a positive integer: -64");
    assertThatThrownBy(() -> Models.fromConfig(dir.resolve("absent.json")))
        .hasMessageContaining("absent.json: no such file");
  }

  /** A tiny llama-shaped config of the given model_type (2 layers, hidden 64, 4 heads). */
  private static String tinyConfig(String modelType, String nameOrPath) {
    return "{\"model_type\":\""
        + modelType
        + "\","
        + (nameOrPath == null ? "" : "\"_name_or_path\":\"" + nameOrPath + "\",")
        + "\"hidden_size\":64,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
        + "\"intermediate_size\":128,\"vocab_size\":100}";
  }

  @Test
  void fromConfig_unknownModelType_namesTheArchitectureOption(@TempDir Path dir)
      throws IOException {
    Path p = Files.writeString(dir.resolve("mine.json"), tinyConfig("my_llama", null));
    assertThatThrownBy(() -> Models.fromConfig(p))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mine.json: unsupported model_type 'my_llama'")
        .hasMessageContaining("--architecture FAMILY")
        .hasMessageNotContaining("\n");
  }

  @Test
  void fromConfig_withArchitecture_readsUnknownTypeAsThatFamily(@TempDir Path dir)
      throws IOException {
    Path p = Files.writeString(dir.resolve("mine.json"), tinyConfig("my_llama", null));
    Model m = Models.fromConfig(p, Optional.of("llama"));
    // 2 layers × (attention 4·64² + MLP 3·64·128 + norms 2·64) + embeddings and head 2·100·64
    // + final norm 64 = 2 × (16,384 + 24,576 + 128) + 12,800 + 64 = 95,040
    assertThat(m.totalParameters()).isEqualTo(95_040.0);
    assertThat(m.modelType()).isEqualTo("llama");
    assertThat(m.source()).contains("model_type 'my_llama' read as llama");
    assertThat(Models.resolve(p.toString(), Optional.of("llama"))).isEqualTo(m);
  }

  @Test
  void resolve_badArchitecture_namesRuleAndValue(@TempDir Path dir) throws IOException {
    Path p = Files.writeString(dir.resolve("mine.json"), tinyConfig("my_llama", null));
    assertThatThrownBy(() -> Models.resolve(p.toString(), Optional.of("lama")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("architecture must be a supported model_type")
        .hasMessageContaining("'lama'");
    assertThatThrownBy(() -> Models.resolve("llama-3.1-8b", Optional.of("llama")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not to the built-in model 'llama-3.1-8b'");
  }

  @Test
  void fromConfig_fileNamedConfig_isNamedAfterNameOrPathElseItsFolder(@TempDir Path dir)
      throws IOException {
    Path a = Files.createDirectories(dir.resolve("a"));
    Path b = Files.createDirectories(dir.resolve("my-finetune"));
    Files.writeString(a.resolve("config.json"), tinyConfig("llama", "acme/Tiny-Llama-2L"));
    Files.writeString(b.resolve("config.json"), tinyConfig("llama", null));
    assertThat(Models.fromConfig(a.resolve("config.json")).id()).isEqualTo("Tiny-Llama-2L");
    assertThat(Models.fromConfig(b.resolve("config.json")).id()).isEqualTo("my-finetune");
    assertThat(Models.fromConfig(a.resolve("config.json")).id()).isNotEqualTo("config");
  }

  @Test
  void resolveAll_twoConfigsOfOneName_getUniqueIds(@TempDir Path dir) throws IOException {
    Path a = Files.createDirectories(dir.resolve("x/snap"));
    Path b = Files.createDirectories(dir.resolve("y/snap"));
    Files.writeString(a.resolve("config.json"), tinyConfig("llama", null));
    Files.writeString(b.resolve("config.json"), tinyConfig("llama", null));
    List<Model> ms =
        Models.resolveAll(
            List.of(
                a.resolve("config.json").toString(),
                b.resolve("config.json").toString(),
                a.resolve("config.json").toString(),
                "llama-3.1-8b"),
            Optional.empty());
    // both folders are named "snap": the second file becomes snap-2; the first, given twice, is
    // one model and keeps its id; a built-in keeps its own
    assertThat(ms).extracting(Model::id).containsExactly("snap", "snap-2", "snap", "llama-3.1-8b");
  }

  @Test
  void fromConfig_newFamilies_areSupported() {
    assertThat(Models.supportedModelTypes()).contains("phi3", "glm4_moe", "qwen2", "qwen2_moe");
    assertThat(Models.byId("glm-4.5").modelType()).isEqualTo("glm4_moe");
    assertThat(Models.byId("qwen1.5-moe-a2.7b").modelType()).isEqualTo("qwen2_moe");
  }

  @Test
  void toString_showsUnits() {
    assertThat(Models.byId("llama-3.1-70b").toString())
        .contains("70.55B params")
        .contains("327.68 kB/token");
  }

  private static Phase ffn(Model m, int batch) {
    return m.decodeStep(batch, 1024, Precisions.bf16()).get(2);
  }

  @Test
  void contextWarning_pastTheDeclaredWindowOnly() {
    Model m = Models.byId("llama-3.1-8b");
    // Llama-3.1's config declares max_position_embeddings 131,072
    assertThat(m.maxContext()).contains(131_072);
    assertThat(m.contextWarning(131_072)).isEmpty();
    assertThat(m.contextWarning(131_073).orElseThrow())
        .isEqualTo(
            "llama-3.1-8b: a sequence of 131,073 tokens is longer than its context window of"
                + " 131,072 tokens (max_position_embeddings); engines refuse such requests, and"
                + " the estimate extrapolates");
  }
}
