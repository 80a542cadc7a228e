package io.ridgeline.models;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.core.Precision;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Gemma-3 hub configs state only what differs from transformers' {@code Gemma3TextConfig} defaults
 * ({@link Gemma3Defaults}); the reconstructed 4B and 12B configs (test resources, see
 * configs/SOURCES.md) read with those defaults.
 */
final class Gemma3DefaultsTest {
  private Model read(String file) throws Exception {
    return Models.fromConfig(
        Path.of(getClass().getResource("/io/ridgeline/models/" + file).toURI()));
  }

  @Test
  void gemma3_4b_omitsHeads_takesEightHeadsFourKvHeadsOf256() throws Exception {
    Model m = read("google__gemma-3-4b-it__reconstructed.json");
    Attention a = m.layers().get(0).attention().orElseThrow();
    assertThat(a.heads()).isEqualTo(8);
    assertThat(a.headDim()).isEqualTo(256);
    assertThat(m.vocabSize()).isEqualTo(262_208);
    // per layer: q 2560·(8·256) = 5,242,880; k, v 2·2560·(4·256) = 5,242,880; o 5,242,880;
    //            q/k norms 2·256 = 512; four norms 4·2560 = 10,240; MLP 3·2560·10240 = 78,643,200
    //            → 94,382,592; 34 layers = 3,209,008,128; tied embeddings 262,208·2560 =
    //            671,252,480; final norm 2560 → 3,880,263,168 (the text model of "4B")
    assertThat(m.totalParameters()).isEqualTo(3_880_263_168.0);
    // KV per token of the 5 global layers (5, 11, 17, 23, 29): 5 × 2 × 4 × 256 × 2 B = 20,480 B
    assertThat(m.kvBytesPerToken(Precision.BF16).bytes()).isEqualTo(20_480.0);
  }

  @Test
  void gemma3_12b_omitsHeadDim_takes256Not240() throws Exception {
    Model m = read("google__gemma-3-12b-it__reconstructed.json");
    Attention a = m.layers().get(0).attention().orElseThrow();
    // hidden ÷ heads would be 3840 ÷ 16 = 240; the class default is 256
    assertThat(a.headDim()).isEqualTo(256);
    assertThat(a.heads()).isEqualTo(16);
    // per layer: q 3840·(16·256) = 15,728,640; k, v 2·3840·(8·256) = 15,728,640; o 15,728,640;
    //            q/k norms 512; four norms 15,360; MLP 3·3840·15360 = 176,947,200 → 224,148,992;
    //            48 layers = 10,759,151,616; tied embeddings 262,208·3840 = 1,006,878,720; final
    //            norm 3840 → 11,766,034,176 (the text model of "12B")
    assertThat(m.totalParameters()).isEqualTo(11_766_034_176.0);
    // KV per token of the 8 global layers (5, 11, ..., 47): 8 × 2 × 8 × 256 × 2 B = 65,536 B
    assertThat(m.kvBytesPerToken(Precision.BF16).bytes()).isEqualTo(65_536.0);
  }

  @Test
  void apply_keepsStatedKeys_addsOmittedOnes() throws Exception {
    com.fasterxml.jackson.databind.JsonNode cfg =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree("{\"head_dim\":128,\"num_attention_heads\":null}");
    com.fasterxml.jackson.databind.JsonNode out = Gemma3Defaults.apply(cfg);
    assertThat(out.get("head_dim").asInt()).isEqualTo(128);
    assertThat(out.get("num_attention_heads").asInt()).isEqualTo(8);
    assertThat(out.get("sliding_window_pattern").asInt()).isEqualTo(6);
    assertThat(cfg.get("num_attention_heads").isNull()).isTrue(); // the input is not changed
  }
}
