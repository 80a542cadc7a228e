package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

final class RooflineSizingTest {

  @Test
  void roofline_withoutCount_sizesTheSystemForTheBatchAsked() throws Exception {
    // Llama-3.1-8B in BF16 on H100s: one chip holds the ~16 GB of weights and, at 8,192 tokens,
    // about 59 sequences of 1.07 GB of KV (131,072 B per token); a batch of 256 needs 275 GB of KV,
    // so without --count the system is the fewest chips that hold it, not one chip that does not
    JsonNode o =
        CliRun.of(
                "roofline",
                "--model",
                "llama-3.1-8b",
                "--chip",
                "h100-sxm",
                "--batch",
                "256",
                "--context",
                "8192",
                "--json")
            .json();
    assertThat(o.path("memory").path("fits").asBoolean()).isTrue();
    assertThat(o.path("chips").asInt()).isGreaterThan(1);
    assertThat(o.path("memory").path("max_batch").asInt()).isGreaterThanOrEqualTo(256);
  }
}
