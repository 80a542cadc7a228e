package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** --cached and --prefix-hit: prefill over a cached history, reported, and validated. */
final class WorkloadOptionsTest {

  private static JsonNode prefillPhase(CliRun r) throws Exception {
    assertThat(r.code()).as(r.err()).isZero();
    return r.json().get("phases").get(0);
  }

  private static CliRun roofline8b(String... extra) {
    return CliRun.roofline8b(
        new String[] {"--prompt", "256", "--json", "--efficiency", "ideal"}, extra);
  }

  @Test
  void roofline_cached32k_prefillIncludesAttentionOverTheCache() throws Exception {
    // Llama-3.1-8B (32 layers, 32 q heads, 8 kv heads, head dim 128), 256 new tokens after
    // 32,768 cached. Attention per layer: new token i attends over 32,768 + i tokens;
    //   pairs = 256 · 32,768 + 256 · 257 / 2 = 8,421,504 (fresh: 32,896)
    //   FLOPs = pairs · 32 heads · 32 layers · (4 · 128 + 5 softmax) = pairs · 529,408
    //   extra over the fresh prompt = (8,421,504 − 32,896) · 529,408 = 4,440,996,184,064
    //   (≈ 4 · heads · head_dim · context per new token per layer = 4.40e12 + the softmax)
    // KV read: the cached tokens' K and V once per sequence:
    //   32,768 · 2 · 8 · 128 · 32 layers · 2 B = 4,294,967,296 B more
    CliRun cached = roofline8b("--cached", "32768");
    CliRun fresh = roofline8b();
    JsonNode c = prefillPhase(cached);
    JsonNode f = prefillPhase(fresh);

    assertThat(c.get("phase").asText()).isEqualTo("prefill");
    assertThat(c.get("flops_total").asDouble() - f.get("flops_total").asDouble())
        .isEqualTo(4_440_996_184_064.0);
    assertThat(c.get("bytes_total").asDouble() - f.get("bytes_total").asDouble())
        .isEqualTo(4_294_967_296.0);
    // the decode context defaults to the whole conversation, 32,768 + 256
    assertThat(cached.json().get("context").asInt()).isEqualTo(33_024);
    assertThat(cached.json().get("cached_tokens").asInt()).isEqualTo(32_768);
    assertThat(cached.json().get("new_prompt_tokens").asInt()).isEqualTo(256);
    assertThat(fresh.json().has("cached_tokens")).isFalse();
  }

  @Test
  void roofline_prefixHit_prefillsOnlyTheMisses() throws Exception {
    // 4096-token prompt, 75% prefix hits: ⌊0.75 · 4096⌋ = 3072 hit, 1024 new tokens after 3072
    // cached, the same prefill as --prompt 1024 --cached 3072
    CliRun hit =
        CliRun.of(
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--prompt",
            "4096",
            "--prefix-hit",
            "0.75",
            "--json",
            "--efficiency",
            "ideal");
    CliRun same =
        CliRun.of(
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--prompt",
            "1024",
            "--cached",
            "3072",
            "--json",
            "--efficiency",
            "ideal");

    assertThat(prefillPhase(hit)).isEqualTo(prefillPhase(same));
    assertThat(hit.json().get("prefix_hit_tokens").asInt()).isEqualTo(3072);
    assertThat(hit.json().get("new_prompt_tokens").asInt()).isEqualTo(1024);
    assertThat(hit.json().get("prefix_hit_rate").asDouble()).isEqualTo(0.75);
  }

  @Test
  void frontier_cachedHistory_shrinksTheBatchAndSlowsEveryPoint() throws Exception {
    String[] base = {
      "frontier",
      "--model",
      "llama-3.1-8b",
      "--chip",
      "h100-sxm",
      "--isl",
      "256",
      "--osl",
      "256",
      "--strategy",
      "colocated",
      "--efficiency",
      "ideal",
      "--json"
    };
    CliRun fresh = CliRun.of(base);
    String[] withCache = java.util.Arrays.copyOf(base, base.length + 2);
    withCache[base.length] = "--cached";
    withCache[base.length + 1] = "32768";
    CliRun cached = CliRun.of(withCache);
    assertThat(cached.code()).as(cached.err()).isZero();
    assertThat(cached.json().get("cached_tokens").asInt()).isEqualTo(32_768);
    JsonNode f = fresh.json().get("points");
    JsonNode c = cached.json().get("points");
    // the whole 33,280-token conversation's KV (128 KiB per token, 4.36 GB) must fit next to the
    // 16 GB of weights: 14 sequences (batch 1, 2, 4, 8, 14), against 934 of 512 tokens
    int largest = 0;
    for (JsonNode p : c) {
      largest = Math.max(largest, p.get("batch").asInt());
    }
    assertThat(largest).isLessThan(f.get(f.size() - 1).get("batch").asInt());
    // at batch 1 each decode step reads the 33k-token cache and the prefill attends over it
    assertThat(c.get(0).get("batch").asInt()).isEqualTo(1);
    assertThat(c.get(0).get("tpot_seconds").asDouble())
        .isGreaterThan(f.get(0).get("tpot_seconds").asDouble());
    assertThat(c.get(0).get("ttft_seconds").asDouble())
        .isGreaterThan(f.get(0).get("ttft_seconds").asDouble());
  }

  @Test
  void plan_cachedHistory_isReportedAndNeedsMoreChips() throws Exception {
    String[] base = {
      "plan",
      "--model",
      "llama-3.1-8b",
      "--isl",
      "256",
      "--osl",
      "256",
      "--rate",
      "4",
      "--ttft",
      "1",
      "--tpot",
      "0.05",
      "--chips",
      "h100-sxm",
      "--json"
    };
    CliRun fresh = CliRun.of(base);
    String[] withCache = java.util.Arrays.copyOf(base, base.length + 2);
    withCache[base.length] = "--cached";
    withCache[base.length + 1] = "32768";
    CliRun cached = CliRun.of(withCache);
    assertThat(fresh.code()).as(fresh.err()).isZero();
    assertThat(cached.code()).as(cached.err()).isZero();
    assertThat(cached.json().get("cached_tokens").asInt()).isEqualTo(32_768);
    assertThat(fresh.json().has("cached_tokens")).isFalse();
    JsonNode best = cached.json().get("configurations").get(0);
    JsonNode bestFresh = fresh.json().get("configurations").get(0);
    assertThat(best.get("total_chips").asInt())
        .isGreaterThanOrEqualTo(bestFresh.get("total_chips").asInt());
    assertThat(best.get("tokens_per_second_per_chip").asDouble())
        .isLessThan(bestFresh.get("tokens_per_second_per_chip").asDouble());
  }

  @Test
  void sweep_cachedKey_addsAColumnAndSlowsTheRow(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path grid =
        java.nio.file.Files.writeString(
            dir.resolve("g.json"),
            "{\"batch\": [1], \"isl\": [256], \"osl\": [128], \"cached\": [0, 32768]}");
    CliRun r = CliRun.of("sweep", "--grid", grid.toString(), "--efficiency", "ideal");
    assertThat(r.code()).as(r.err()).isZero();
    java.util.List<String> lines = r.out().strip().lines().toList();
    assertThat(lines.get(0)).contains(",isl,osl,cached,batch,");
    assertThat(lines).hasSize(3);
    assertThat(lines.get(1)).contains(",256,128,0,1,");
    assertThat(lines.get(2)).contains(",256,128,32768,1,");
    CliRun bad =
        CliRun.of(
            "sweep",
            "--grid",
            java.nio.file.Files.writeString(dir.resolve("b.json"), "{\"cached\": [-1]}")
                .toString());
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err()).contains("cached must be an integer from 0 to 134,217,728 tokens: -1");
    assertThat(bad.err().strip().lines().count()).isEqualTo(1);
  }

  @Test
  void badValues_oneLineErrorsNamingOptionAndValue() {
    CliRun negative = roofline8b("--cached", "-1");
    assertThat(negative.code()).isEqualTo(1);
    assertThat(negative.err().strip()).isEqualTo("ridgeline: --cached must not be negative: -1");

    CliRun one = roofline8b("--prefix-hit", "1");
    assertThat(one.code()).isEqualTo(1);
    assertThat(one.err().strip())
        .isEqualTo("ridgeline: --prefix-hit must be at least 0 and below 1: 1.0");

    CliRun nan = roofline8b("--prefix-hit", "NaN");
    assertThat(nan.code()).isEqualTo(1);
    assertThat(nan.err().strip())
        .isEqualTo("ridgeline: --prefix-hit must be at least 0 and below 1: NaN");

    CliRun neither =
        CliRun.of("roofline", "--model", "llama-3.1-8b", "--chip", "h100-sxm", "--batch", "1");
    assertThat(neither.code()).isEqualTo(1);
    assertThat(neither.err().strip()).isEqualTo("ridgeline: give --context or --prompt (or both)");
  }
}
