package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.ridgeline.serving.queueing.Burst;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** frontier --burst N with --isl-range, --osl-range and --lengths. */
final class BurstOptionsTest {
  @TempDir Path dir;

  private static CliRun frontier(String... extra) {
    String[] base = {"frontier", "--model", "deepseek-v3", "--chip", "h200-sxm", "--count", "8"};
    String[] all = new String[base.length + extra.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(extra, 0, all, base.length, extra.length);
    return CliRun.of(all);
  }

  @Test
  void frontier_burst500OnDeepSeek8xH200_medianTtftInSeconds() throws Exception {
    // issue 42's check: 500 prompts of 2,000 tokens at once; unqueued, a prompt's TTFT is a few
    // hundred milliseconds at most, in the burst the median prompt waits for the others
    CliRun r = frontier("--isl", "2000", "--osl", "1000", "--burst", "500", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode b = r.json().get("burst");
    assertThat(b.get("requests").asInt()).isEqualTo(500);
    JsonNode d = b.get("deployments").get(0);
    assertThat(d.get("ttft_median_seconds").asDouble()).isGreaterThan(1.0);
    assertThat(d.get("ttft_p99_seconds").asDouble())
        .isGreaterThan(d.get("ttft_median_seconds").asDouble());
    double firstPointTtft = r.json().get("points").get(0).get("ttft_seconds").asDouble();
    assertThat(firstPointTtft).isLessThan(0.5);
    CliRun text = frontier("--isl", "2000", "--osl", "1000", "--burst", "500");
    assertThat(text.out()).contains("burst: 500 requests at once").contains("TTFT p99");
  }

  @Test
  void frontier_clients_closedLoopTable() throws Exception {
    CliRun r =
        frontier(
            "--isl", "2000", "--osl", "200", "--clients", "64", "--rounds", "3", "--warmup", "1",
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode c = r.json().get("closed_loop");
    assertThat(c.get("clients").asInt()).isEqualTo(64);
    assertThat(c.get("rounds").asInt()).isEqualTo(3);
    assertThat(c.get("warmup_rounds").asInt()).isEqualTo(1);
    assertThat(c.get("deployments").get(0).get("ttft_median_seconds").asDouble()).isPositive();
    CliRun text = frontier("--isl", "2000", "--osl", "200", "--clients", "64", "--rounds", "3");
    assertThat(text.out()).contains("clients: 64 closed-loop clients, 3 measured requests each");
    assertThat(frontier("--rounds", "3").err())
        .isEqualTo("ridgeline: --rounds needs --clients N\n");
    assertThat(frontier("--burst", "3", "--clients", "3").err())
        .isEqualTo("ridgeline: --burst and --clients are exclusive\n");
  }

  @Test
  void lengths_file_readInOrderAndRepeated() throws Exception {
    Path f = dir.resolve("lengths.csv");
    Files.writeString(f, "input_tokens,output_tokens\n# a comment\n100, 20\n\n3000,5\n");
    assertThat(BurstOptions.read(f))
        .containsExactly(new Burst.Request(100, 20), new Burst.Request(3000, 5));
    BurstOptions o = new BurstOptions();
    o.burst = 3;
    o.lengths = f;
    assertThat(o.requests(1, 1))
        .containsExactly(
            new Burst.Request(100, 20), new Burst.Request(3000, 5), new Burst.Request(100, 20));
  }

  @Test
  void ranges_spreadUniformlyAroundTheLengths() {
    // ±50% around 1,000: every length in [500, 1500], their mean within 1% of 1,000
    BurstOptions o = new BurstOptions();
    o.burst = 1000;
    o.islRange = 0.5;
    List<Burst.Request> rs = o.requests(1000, 100);
    assertThat(rs).allSatisfy(r -> assertThat(r.inputTokens()).isBetween(500, 1500));
    assertThat(rs).allSatisfy(r -> assertThat(r.outputTokens()).isEqualTo(100));
    assertThat(rs.stream().mapToInt(Burst.Request::inputTokens).average().orElseThrow())
        .isBetween(990.0, 1010.0);
  }

  @Test
  void badInput_oneLineAndExitOne() throws Exception {
    assertThat(frontier("--isl-range", "0.2").err())
        .isEqualTo("ridgeline: --isl-range needs --burst N or --clients N\n");
    assertThat(frontier("--burst", "10", "--strategy", "pd").err())
        .isEqualTo("ridgeline: --burst simulates colocated serving only: drop --strategy pd\n");
    assertThat(frontier("--burst", "10", "--isl-range", "1").err())
        .isEqualTo("ridgeline: --isl-range must be at most 0.999: 1.0\n");
    Path bad = dir.resolve("bad.csv");
    Files.writeString(bad, "100,x\n");
    CliRun r = frontier("--burst", "3", "--lengths", bad.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("line 1: expected input_tokens,output_tokens");
  }
}
