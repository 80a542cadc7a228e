package io.ridgeline.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.TensorClass;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Parameter counts of the MoE, MLA, sliding-window and hybrid catalog models against their
 * published figures, and exact hand counts for a few of them.
 *
 * <p>Tolerances: 2% where the published figure has three or more significant digits, 5% where it
 * has one or two (for example "37B", "56B"). Counting convention (Model javadoc): every weight,
 * bias and norm vector; embeddings and an untied LM head count in total and in active.
 */
final class CatalogParametersTest {

  @ParameterizedTest(name = "{0}: {1}e9 total parameters within {2}%")
  @CsvSource({
    // id, published total (billions), tolerance (%)
    "mixtral-8x7b, 46.7, 2", // Mistral announcement
    "qwen3-30b-a3b, 30.5, 2", // Qwen3 model card
    "qwen3-235b-a22b, 235, 2", // Qwen3 model card
    "deepseek-v3, 671, 2", // DeepSeek-V3 README: 671B main model, the 14B MTP module excluded
    "deepseek-v3.2, 671, 2", // V3.2-Exp README: same architecture (+0.85B of DSA indexer weights)
    "kimi-k2, 1030, 2", // Kimi-K2 README: 1.03T (one trillion)
    "gpt-oss-120b, 116.8, 2", // gpt-oss model card (arXiv 2508.10925)
    "gpt-oss-20b, 20.9, 2", // same
    "nemotron-h-56b, 56, 5", // HF model card: "56B model parameters"
    "qwen3-next-80b-a3b, 80, 5", // Qwen3-Next model card
    "gemma-2-9b, 9.24, 2", // Gemma 2 report, tied embeddings
    "nemotron-3-nano-30b-a3b, 31.6, 2", // Nemotron 3 Nano report (arXiv 2512.20848), about 31.6B
    "phi-3-mini-4k, 3.8, 2", // Phi-3 report (arXiv 2404.14219): 3.8B
    "qwen2.5-7b, 7.61, 2", // Qwen2.5-7B model card: 7.61B
    "qwen1.5-moe-a2.7b, 14.3, 2", // Qwen1.5-MoE-A2.7B model card: 14.3B
    "glm-4.5, 355, 2", // GLM-4.5 model card: 355B (352.8B here: its MTP layer is not counted)
    "gemma-3-27b, 27, 5", // model name: 27B
  })
  void totalParameters_catalogModel_withinToleranceOfPublished(
      String id, double billions, double percent) {
    assertThat(Models.byId(id).totalParameters() / 1e9)
        .isCloseTo(billions, withPercentage(percent));
  }

  @ParameterizedTest(name = "{0}: {1}e9 active parameters within {2}%")
  @CsvSource({
    // id, published active (billions), tolerance (%); published active counts include embeddings
    "mixtral-8x7b, 12.9, 2",
    "qwen3-30b-a3b, 3.3, 5",
    "qwen3-235b-a22b, 22, 5",
    "deepseek-v3, 37, 5", // README_WEIGHTS: 36.7B incl. 0.9B embedding + 0.9B head
    "kimi-k2, 32, 5",
    "nemotron-3-nano-30b-a3b, 3.6, 5", // about 3.2B without, 3.6B with embeddings
    "qwen1.5-moe-a2.7b, 2.7, 2", // model card: 2.7B activated (2.0B without embeddings)
  })
  void activeParameters_catalogModel_withinToleranceOfPublished(
      String id, double billions, double percent) {
    assertThat(Models.byId(id).activeParameters() / 1e9)
        .isCloseTo(billions, withPercentage(percent));
  }

  @Test
  void phi3Mini_parameters_matchHandArithmetic() {
    Model m = Models.byId("phi-3-mini-4k");
    // per layer: attention 4·3072² = 37,748,736 (MHA, no biases)
    //            MLP 3·3072·8192 = 75,497,472 (gate_up fused, same count); norms 2·3072 = 6,144
    //            → 113,252,352; 32 layers = 3,624,075,264
    // embeddings + untied head 2·32064·3072 = 197,001,216; final norm 3072
    // → 3,821,079,552 (published 3.8B)
    assertThat(m.totalParameters()).isEqualTo(3_821_079_552.0);
    assertThat(m.modelType()).isEqualTo("phi3");
    // transformers Phi3 slides every layer over 2047 tokens
    assertThat(m.layers().get(0).attention().orElseThrow().slidingWindow()).contains(2047);
  }

  @Test
  void gemma3_1b_textConfig_parameters_matchHandArithmetic() throws Exception {
    // google/gemma-3-1b-it hub config (mlc-llm preset gemma3_1b_it, see configs/SOURCES.md); a test
    // resource, not a catalog model: the catalog is what the serving property tests sample
    Path config =
        Path.of(getClass().getResource("/io/ridgeline/models/google__gemma-3-1b-it.json").toURI());
    Model m = Models.fromConfig(config);
    // a bare gemma3_text config (Gemma3ForCausalLM), not the multimodal gemma3 wrapper
    assertThat(m.modelType()).isEqualTo("gemma3_text");
    // per layer: q 1152·(4·256) = 1,179,648; k, v 2·1152·(1·256) = 589,824; o 1,179,648
    //            q/k norms 2·256 = 512; four norms 4·1152 = 4,608
    //            MLP 3·1152·6912 = 23,887,872                      → 26,842,112
    // 26 layers = 697,894,912; tied embeddings 262144·1152 = 301,989,888; final norm 1152
    // → 999,885,952 (model name: 1B; 1.00B within 5%)
    assertThat(m.totalParameters()).isEqualTo(999_885_952.0);
    // sliding_window_pattern 6: layers 5, 11, 17, 23 are global, the other 22 slide over 512
    long sliding =
        m.layers().stream()
            .filter(l -> l.attention().orElseThrow().slidingWindow().isPresent())
            .count();
    assertThat(sliding).isEqualTo(22);
    assertThat(m.layers().get(0).attention().orElseThrow().slidingWindow()).contains(512);
    assertThat(m.layers().get(5).attention().orElseThrow().slidingWindow()).isEmpty();
  }

  @Test
  void qwen25_7b_parameters_matchHandArithmetic() {
    Model m = Models.byId("qwen2.5-7b");
    // per layer: q 3584² = 12,845,056; k, v 2·3584·(4·128) = 3,670,016; o 12,845,056;
    //            Q/K/V biases 3584 + 512 + 512 = 4,608                → 29,364,736
    //            MLP 3·3584·18944 = 203,685,888; norms 2·3584 = 7,168 → 233,057,792
    // 28 layers = 6,525,618,176 (published 6.53B non-embedding)
    // embeddings + untied head 2·152064·3584 = 1,089,994,752; final norm 3584
    // → 7,615,616,512 (published 7.61B)
    assertThat(m.totalParameters()).isEqualTo(7_615_616_512.0);
  }

  @Test
  void qwen15Moe_activeParameters_countFourExpertsAndTheGatedSharedOne() {
    Model m = Models.byId("qwen1.5-moe-a2.7b");
    // one expert 3·2048·1408 = 8,650,752; 56 of 60 unused in each of 24 layers
    // total − active = 24·56·8,650,752 = 11,626,610,688
    assertThat(m.totalParameters() - m.activeParameters()).isEqualTo(11_626_610_688.0);
    Ffn ffn = m.layers().get(0).ffn().orElseThrow();
    assertThat(ffn.experts()).isEqualTo(60);
    assertThat(ffn.sharedExperts()).isEqualTo(1);
    assertThat(ffn.sharedInnerSize()).isEqualTo(5632);
  }

  @Test
  void glm45_activeParameters_matchPublishedWithoutEmbeddings() {
    Model m = Models.byId("glm-4.5");
    // GLM-4.5's "32B activated" appears to leave out the embedding and LM head (ours counts
    // them): 2·151552·5120 = 1,551,892,480
    // active per MoE layer: 8 routed + 1 shared expert of 3·5120·1536 = 23,592,960 each
    double embeddings = 2.0 * 151552 * 5120;
    assertThat((m.activeParameters() - embeddings) / 1e9).isCloseTo(32, withPercentage(2));
    // 3 dense layers then 89 MoE layers of 160 experts; the MTP layer is outside the 92
    assertThat(m.layers()).hasSize(92);
    assertThat(m.layers().get(2).ffn().orElseThrow().experts()).isEqualTo(0);
    assertThat(m.layers().get(3).ffn().orElseThrow().experts()).isEqualTo(160);
    assertThat(m.mtpLayers()).isEqualTo(1);
    Attention a = m.layers().get(0).attention().orElseThrow();
    assertThat(a.kvHeads()).isEqualTo(8);
    assertThat(a.qkNorm()).isTrue();
  }

  @Test
  void mixtral_parameters_matchHandArithmetic() {
    Model m = Models.byId("mixtral-8x7b");
    // per layer: attention 4096·(4096 + 2·8·128) + 32·128·4096
    //              = 25,165,824 + 16,777,216 = 41,943,040
    //            experts 8 × 3·4096·14336 = 8 × 176,160,768 = 1,409,286,144
    //            router 4096·8 = 32,768; norms 2·4096 = 8,192            → 1,451,270,144
    // 32 layers = 46,440,644,608; embeddings + untied head 2·32000·4096 = 262,144,000;
    // final norm 4096 → 46,702,792,704
    assertThat(m.totalParameters()).isEqualTo(46_702_792_704.0);
    // active: 6 of 8 experts unused in each of 32 layers: 32·6·176,160,768 = 33,822,867,456
    // → 46,702,792,704 − 33,822,867,456 = 12,879,925,248
    assertThat(m.activeParameters()).isEqualTo(12_879_925_248.0);
  }

  @Test
  void deepseekV3_parameters_matchHandArithmeticWithoutMtp() {
    Model m = Models.byId("deepseek-v3");
    // MLA per layer: q   7168·1536 + 1536 (q norm) + 1536·128·(128+64) = 48,760,320
    //                kv_a 7168·(512+64) + 512 (kv norm)                 =  4,129,280
    //                kv_b 512·128·(128+128)                            = 16,777,216
    //                o    128·128·7168                                 = 117,440,512
    //                                                                  → 187,107,328
    // + 2 norms·7168 = 187,121,664 per layer; × 61 = 11,414,421,504
    // dense FFN (layers 0-2): 3 × 3·7168·18432 = 3 × 396,361,728 = 1,189,085,184
    // MoE (58 layers): 256 routed + 1 shared × 3·7168·2048 (= 44,040,192) + router 7168·256 + 256
    //   (noaux_tc correction bias) = 11,274,289,152 + 44,040,192 + 1,835,264 = 11,320,164,608
    //   × 58 = 656,569,547,264
    // embeddings + untied head 2·129280·7168 = 1,853,358,080; final norm 7168
    // total = 11,414,421,504 + 1,189,085,184 + 656,569,547,264 + 1,853,358,080 + 7168
    //       = 671,026,419,200 (the MTP layer, num_nextn_predict_layers = 1, is not counted)
    assertThat(m.mtpLayers()).isEqualTo(1);
    assertThat(m.layerCount()).isEqualTo(61);
    assertThat(m.totalParameters()).isEqualTo(671_026_419_200.0);
    // active: 248 of 256 routed experts unused in 58 layers: 58·248·44,040,192 = 633,474,121,728
    // → 37,552,297,472
    assertThat(m.activeParameters()).isEqualTo(37_552_297_472.0);
  }

  @Test
  void gemma2_9b_tiedEmbeddings_countedOnce() {
    Model m = Models.byId("gemma-2-9b");
    // per layer: attention 3584·(16·256 + 2·8·256) + 16·256·3584
    //              = 29,360,128 + 14,680,064 = 44,040,192
    //            FFN (GeGLU) 3·3584·14336 = 154,140,672; 4 norms (pre and post) 4·3584 = 14,336
    //            → 198,195,200; × 42 = 8,324,198,400
    // embeddings (no tie_word_embeddings key: Gemma default tied) 256000·3584 = 917,504,000;
    // final norm 3584 → 9,241,705,984
    assertThat(m.tiedEmbeddings()).isTrue();
    assertThat(m.lmHeadParameters()).isZero();
    assertThat(m.totalParameters()).isEqualTo(9_241_705_984.0);
  }

  @Test
  void qwen3Next_activeParameters_pinnedToHandCountNotToQwensThreeBillion() {
    Model m = Models.byId("qwen3-next-80b-a3b");
    // Qwen's "A3B" (3B active) does not match this convention: the count below is 3.87e9 with the
    // embeddings and LM head (Model counts them as active, as DeepSeek and Mistral do) and 3.25e9
    // without them. Neither is within 5% of 3e9 (3.25 becomes 3 only when rounded to one
    // significant figure), so this test pins the hand count. It does not widen a tolerance until
    // the published figure fits.
    //
    // MoE (48 layers): 10 routed experts × 3·2048·512 = 31,457,280
    //                  + shared expert 3·2048·512    =  3,145,728
    //                  + shared-expert gate 2048·1    =      2,048
    //                  + router 2048·512              =  1,048,576
    //                  + 2 norms·2048                 =      4,096
    //                                                 → 35,657,728; × 48 = 1,711,570,944
    // Gated DeltaNet (36 layers):
    //   in_proj 2048·(2·16·128 + 2·32·128 + 2·32) = 2048·12,352 = 25,296,896
    //   conv (no bias) (4096 + 2·2048)·4 = 32,768; A and dt bias 2·32 = 64; gated norm 128
    //   out_proj 32·128·2048 = 8,388,608
    //   → 33,718,464; × 36 = 1,213,864,704
    // gated attention (12 layers): 2048·(2·16·256 + 2·2·256) = 2048·9216 = 18,874,368
    //                              o 16·256·2048 = 8,388,608; q/k norms 2·256 = 512
    //                              → 27,263,488; × 12 = 327,161,856
    // embeddings + untied head 2·151936·2048 = 622,329,856; final norm 2048
    // active = 1,711,570,944 + 1,213,864,704 + 327,161,856 + 622,329,856 + 2048 = 3,874,929,408
    assertThat(m.activeParameters()).isEqualTo(3_874_929_408.0);
    // without embeddings and head: 3,874,929,408 − 622,329,856 = 3,252,599,552
    assertThat(m.activeParameters() - m.embeddingParameters() - m.lmHeadParameters())
        .isEqualTo(3_252_599_552.0);
  }

  @Test
  void gptOss120b_expertParameters_matchHandArithmetic() {
    Model m = Models.byId("gpt-oss-120b");
    // one expert: 3·2880·2880 weights + biases (2·2880 gate/up + 2880 down) = 24,883,200 + 8,640
    //   = 24,891,840; × 128 experts × 36 layers = 114,701,598,720
    assertThat(m.parametersByClass().get(TensorClass.EXPERTS)).isEqualTo(114_701_598_720.0);
    // the rest, per layer: attention 2880·(64·64 + 2·8·64) = 14,745,600, q/k/v biases 5,120,
    //   o 64·64·2880 = 11,796,480, o bias 2,880, 64 sinks → 26,550,144; norms 2·2880 = 5,760;
    //   router 2880·128 + 128 = 368,768 → 26,924,672 per layer; × 36 = 969,288,192
    // embeddings + untied head 2·201088·2880 = 1,158,266,880; final norm 2880
    //   → rest 2,127,557,952; total 114,701,598,720 + 2,127,557,952 = 116,829,156,672
    assertThat(m.totalParameters()).isEqualTo(116_829_156_672.0);
  }

  @ParameterizedTest(name = "{0}: {1} active without the embedding table")
  @CsvSource({
    // gpt-oss model card (arXiv 2508.10925) table 1: 5.13B active (120b) and 3.61B (20b). Both
    // match the count that leaves out the embedding table but keeps the unembedding (LM head).
    //   120b: total 116,829,156,672 − 36 layers × 124 unused × 24,891,840 per expert
    //         (= 111,117,173,760) = 5,711,982,912; − embedding 201088·2880 (= 579,133,440)
    //         = 5,132,849,472
    //   20b:  total 20,914,757,184 − 24 × 28 × 24,891,840 (= 16,727,316,480) = 4,187,440,704;
    //         − 579,133,440 = 3,608,307,264
    "gpt-oss-120b, 5132849472",
    "gpt-oss-20b, 3608307264",
  })
  void activeParameters_gptOss_matchModelCardWithoutEmbeddingTable(
      String id, long withoutEmbedding) {
    Model m = Models.byId(id);
    assertThat(m.activeParameters() - m.embeddingParameters()).isEqualTo((double) withoutEmbedding);
  }

  @Test
  void gptOss20b_totalParameters_matchHandArithmetic() {
    // per layer: attention 26,550,144 (as for 120b) + norms 5,760 + 32 experts × 24,891,840
    //   (= 796,538,880) + router 2880·32 + 32 (= 92,192) = 823,186,976; × 24 = 19,756,487,424
    // + embeddings and head 1,158,266,880 + final norm 2880 = 20,914,757,184
    assertThat(Models.byId("gpt-oss-20b").totalParameters()).isEqualTo(20_914_757_184.0);
  }

  @Test
  void totalParameters_everyCatalogModel_atLeastActiveAndPositive() {
    for (Model m : Models.all()) {
      assertThat(m.activeParameters()).as(m.id()).isPositive();
      assertThat(m.totalParameters()).as(m.id()).isGreaterThanOrEqualTo(m.activeParameters());
      assertThat(m.hasMoe() || m.totalParameters() == m.activeParameters()).as(m.id()).isTrue();
    }
  }
}
