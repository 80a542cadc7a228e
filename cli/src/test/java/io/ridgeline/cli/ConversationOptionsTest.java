package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** frontier --turns T --think S: multi-turn conversations and their prefix-cache hits. */
final class ConversationOptionsTest {
  private static CliRun frontier(String... extra) {
    String[] base = {"frontier", "--model", "llama-3.1-8b", "--chip", "h100-sxm"};
    String[] all = new String[base.length + extra.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(extra, 0, all, base.length, extra.length);
    return CliRun.of(all);
  }

  @Test
  void frontier_turns_meanTurnPointsWithHitRates() throws Exception {
    // 8 turns of 512 + 256 tokens: the mean turn arrives with (8 − 1) × 768 / 2 = 2,688 tokens of
    // history; with 30 s of thinking the history survives at small batches and is evicted as the
    // running batch fills the KV cache
    CliRun r = frontier("--turns", "8", "--isl", "512", "--osl", "256", "--think", "30s", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode c = r.json().get("conversation");
    assertThat(c.get("turns").asInt()).isEqualTo(8);
    assertThat(c.get("mean_history_tokens").asInt()).isEqualTo(2688);
    assertThat(c.get("think_s").asDouble()).isEqualTo(30.0);
    JsonNode points = r.json().get("points");
    assertThat(points.get(0).get("note").asText())
        .startsWith("8-turn conversations: 100% of histories");
    // the last (largest) batch keeps less history than batch 1: its TTFT carries more prefill
    String last = points.get(points.size() - 1).get("note").asText();
    assertThat(last).doesNotStartWith("8-turn conversations: 100%");
    CliRun text = frontier("--turns", "8", "--isl", "512", "--osl", "256", "--think", "30s");
    assertThat(text.out())
        .contains("conversations: 8 turns of 512 + 256 tokens, think 30.0 s")
        .contains("2,688 history tokens");
    // an agent loop (no think time) always finds its history
    CliRun agent = frontier("--turns", "8", "--isl", "512", "--osl", "256", "--json");
    for (JsonNode p : agent.json().get("points")) {
      assertThat(p.get("note").asText()).startsWith("8-turn conversations: 100% of histories");
    }
  }

  @Test
  void frontier_turns_badInputOneLine() {
    assertThat(frontier("--think", "30s").err()).isEqualTo("ridgeline: --think needs --turns\n");
    assertThat(frontier("--turns", "0").err())
        .isEqualTo("ridgeline: --turns must be positive: 0\n");
    assertThat(frontier("--turns", "3", "--cached", "5").err())
        .isEqualTo(
            "ridgeline: --turns derives each turn's history and prefix hits: drop --cached and"
                + " --prefix-hit\n");
    assertThat(frontier("--turns", "3", "--burst", "5").err())
        .isEqualTo("ridgeline: --turns is a steady state: drop --burst (or --turns)\n");
    assertThat(frontier("--turns", "3", "--strategy", "pd").err())
        .isEqualTo("ridgeline: conversations are modelled on colocated deployments only, not pd\n");
    assertThat(frontier("--turns", "3", "--strategy", "pd").code()).isEqualTo(1);
  }

  @Test
  void plan_turns_aRequestIsATurn_colocatedOnly() throws Exception {
    // a rate of turns: each configuration is evaluated at its mean turn with the hits its batch
    // leaves, and says them after the table
    String[] base = {
      "plan",
      "--model",
      "llama-3.1-8b",
      "--chips",
      "h100-sxm",
      "--rate",
      "5",
      "--turns",
      "8",
      "--isl",
      "512",
      "--osl",
      "256",
      "--think",
      "30s",
      "--ttft",
      "500ms",
      "--tpot",
      "30ms"
    };
    CliRun text = CliRun.of(base);
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("conversations: 8 turns of 512 + 256 tokens, think 30.0 s; a request is a turn")
        .contains("configuration 1: 8-turn conversations: ")
        .contains("with colocated");
    String[] json = java.util.Arrays.copyOf(base, base.length + 1);
    json[base.length] = "--json";
    JsonNode o = CliRun.of(json).json();
    assertThat(o.get("conversation").get("mean_history_tokens").asInt()).isEqualTo(2688);
    assertThat(o.get("configurations").get(0).get("note").asText())
        .startsWith("8-turn conversations: ");
    String[] pd = java.util.Arrays.copyOf(base, base.length + 2);
    pd[base.length] = "--strategies";
    pd[base.length + 1] = "colocated,pd";
    assertThat(CliRun.of(pd).err())
        .isEqualTo("ridgeline: conversations are planned on colocated deployments only, not pd\n");
  }
}
