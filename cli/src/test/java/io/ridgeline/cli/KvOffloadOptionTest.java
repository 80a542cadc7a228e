package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class KvOffloadOptionTest {
  private static CliRun gh200(String... extra) {
    String[] base = {
      "roofline",
      "--model",
      "llama-3.1-8b",
      "--chip",
      "gh200",
      "--batch",
      "1",
      "--prompt",
      "256",
      "--cached",
      "32768",
      "--efficiency",
      "ideal",
      "--json"
    };
    String[] all = new String[base.length + extra.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(extra, 0, all, base.length, extra.length);
    return CliRun.of(all);
  }

  @Test
  void roofline_history_chargesTheFetchAndReportsTheTiers() throws Exception {
    // 32,768 cached tokens × 131,072 B = 4.295e9 B read from LPDDR5X at 450e9 B/s = 9.544 ms more
    CliRun kept = gh200();
    CliRun fetched = gh200("--kv-offload", "history");
    assertThat(fetched.code()).as(fetched.err()).isZero();
    JsonNode k = kept.json();
    JsonNode f = fetched.json();
    assertThat(f.get("prefill_seconds").asDouble() - k.get("prefill_seconds").asDouble())
        .isCloseTo(32_768.0 * 131_072 / 450e9, within(1e-9));
    JsonNode m = f.get("memory");
    assertThat(m.get("kv_offload").asText()).isEqualTo("history");
    assertThat(m.get("prefill_kv_fetch_bytes_total").asDouble()).isEqualTo(32_768.0 * 131_072);
    JsonNode tiers = m.get("tiers");
    assertThat(tiers).hasSize(2);
    assertThat(tiers.get(0).get("tier").asText()).isEqualTo("hbm");
    assertThat(tiers.get(1).get("tier").asText()).isEqualTo("lpddr");
    assertThat(tiers.get(0).get("kv_bytes_per_chip").asDouble())
        .isEqualTo(m.get("kv_bytes_per_chip").asDouble());
    assertThat(tiers.get(1).get("kv_bytes_per_chip").asDouble()).isZero();
    // a chip with one tier and no offload keeps its JSON as it was
    CliRun h100 =
        CliRun.of(
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--context",
            "1024",
            "--json");
    assertThat(h100.json().get("memory").has("tiers")).isFalse();
    assertThat(h100.json().get("memory").has("kv_offload")).isFalse();
  }

  @Test
  void roofline_spill_putsTheKvHbmCannotHoldInLpddr() throws Exception {
    CliRun r =
        CliRun.of(
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "gh200",
            "--batch",
            "40",
            "--context",
            "32768",
            "--kv-offload",
            "spill",
            "--efficiency",
            "ideal");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("kv offload spill to lpddr");
    assertThat(r.out()).contains("(fits)");
    assertThat(r.out()).containsPattern("lpddr: KV [0-9.]+ GB \\+ weights");
  }

  @Test
  void kvOffload_onAChipWithoutASlowerTier_orAnUnknownPolicy_isOneLine() {
    CliRun h100 =
        CliRun.of(
            "frontier", "--model", "llama-3.1-8b", "--chip", "h100-sxm", "--kv-offload", "spill");
    assertThat(h100.code()).isEqualTo(1);
    assertThat(h100.err().strip()).startsWith("ridgeline: --kv-offload spill needs a memory tier");
    assertThat(h100.err().strip().lines().count()).isEqualTo(1);
    CliRun unknown = gh200("--kv-offload", "host");
    assertThat(unknown.code()).isEqualTo(1);
    assertThat(unknown.err().strip())
        .isEqualTo("ridgeline: --kv-offload must be one of none, history, spill, all: 'host'");
  }

  @Test
  void sweep_prefixHitKey_addsAColumn_andABadValueIsOneLine(@TempDir Path dir) throws Exception {
    Path grid =
        Files.writeString(
            dir.resolve("g.json"),
            "{\"batch\": [1], \"isl\": [4096], \"osl\": [128], \"prefix_hit\": [0, 0.75]}");
    CliRun r = CliRun.of("sweep", "--grid", grid.toString(), "--efficiency", "ideal");
    assertThat(r.code()).as(r.err()).isZero();
    List<String> lines = r.out().strip().lines().toList();
    assertThat(lines.get(0)).contains(",isl,osl,prefix_hit,batch,");
    assertThat(lines).hasSize(3);
    assertThat(lines.get(2)).contains(",4096,128,0.75,1,");
    CliRun bad =
        CliRun.of(
            "sweep",
            "--grid",
            Files.writeString(dir.resolve("b.json"), "{\"prefix_hit\": [1.5]}").toString());
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err()).contains("prefix_hit must be a number at least 0 and below 1: 1.5");
    assertThat(bad.err().strip().lines().count()).isEqualTo(1);
  }
}
