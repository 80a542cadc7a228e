package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sequence longer than the model's context window (Llama-3.1's max_position_embeddings: 131,072
 * tokens) gets one warning line on stderr from frontier, roofline, plan and sweep, and the estimate
 * is still printed; within the window there is none.
 */
final class ContextWindowWarningTest {
  private static final String WARNING =
      "warning: llama-3.1-8b: a sequence of %s tokens is longer than its context window of 131,072"
          + " tokens (max_position_embeddings)";

  @TempDir Path dir;

  /** roofline for llama-3.1-8b on one H100, batch 1, at a context of 140,000 tokens, plus extra. */
  private static CliRun roofline140k(String... extra) {
    return CliRun.roofline8b(new String[] {"--context", "140000"}, extra);
  }

  @Test
  void frontier_historyPromptAndOutputPastTheWindow_warnsOnce() throws Exception {
    // 2,000 cached + 129,000 prompt + 100 output = 131,100 > 131,072
    CliRun r =
        CliRun.of(
            "frontier",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--count",
            "8",
            "--cached",
            "2000",
            "--isl",
            "129000",
            "--osl",
            "100",
            "--max-batch",
            "2",
            "--json");
    assertThat(r.code()).isZero();
    assertThat(r.err()).contains(String.format(WARNING, "131,100"));
    assertThat(r.err().lines().filter(l -> l.contains("context window")).count()).isEqualTo(1);
    assertThat(r.json().get("points").size()).isPositive();
    // and in the JSON's warnings
    assertThat(r.json().get("warnings").toString()).contains("a sequence of 131,100 tokens");
  }

  @Test
  void frontier_exactlyTheWindow_noWarning() {
    // 130,048 + 1,024 = 131,072: the window itself is allowed
    CliRun r =
        CliRun.of(
            "frontier",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--count",
            "8",
            "--isl",
            "130048",
            "--osl",
            "1024",
            "--max-batch",
            "2");
    assertThat(r.code()).isZero();
    assertThat(r.err()).doesNotContain("context window");
  }

  @Test
  void roofline_contextPastTheWindow_warns() {
    CliRun r = roofline140k();
    assertThat(r.code()).isZero();
    assertThat(r.err()).contains(String.format(WARNING, "140,000"));
  }

  @Test
  void roofline_idealJson_carriesTheWarning() throws Exception {
    // the roofline bound has no error band, so the warnings array holds this line alone
    CliRun r = roofline140k("--efficiency", "ideal", "--json");
    assertThat(r.code()).isZero();
    assertThat(r.json().get("warnings")).hasSize(1);
    assertThat(r.json().get("warnings").get(0).asText())
        .startsWith(String.format(WARNING, "140,000").substring("warning: ".length()));
  }

  @Test
  void plan_requestPastTheWindow_warns() throws Exception {
    CliRun r =
        CliRun.of(
            "plan",
            "--model",
            "llama-3.1-8b",
            "--isl",
            "140000",
            "--osl",
            "100",
            "--rate",
            "0.01",
            "--ttft",
            "100s",
            "--tpot",
            "1",
            "--chips",
            "h100-sxm",
            "--json");
    assertThat(r.err()).contains(String.format(WARNING, "140,100"));
    assertThat(r.json().get("warnings").toString()).contains("a sequence of 140,100 tokens");
  }

  @Test
  void sweep_longestSequenceOfTheGridPastTheWindow_warns() throws Exception {
    Path grid = dir.resolve("grid.json");
    Files.writeString(
        grid,
        "{\"model\": \"llama-3.1-8b\", \"chip\": \"h100-sxm\", \"count\": 8, \"batch\": 1,"
            + " \"isl\": [1024, 131000], \"osl\": 128}");
    CliRun r = CliRun.of("sweep", "--grid", grid.toString(), "--no-progress", "--out", "-");
    assertThat(r.code()).isZero();
    // the longest sequence: 131,000 + 128
    assertThat(r.err()).contains(String.format(WARNING, "131,128"));
  }
}
