package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sweep} and {@code frontier} answer one system identically, cached history included: both
 * lay the pools out for the prompt context (history + prompt), the KV each request holds.
 */
final class SweepFrontierAgreementTest {
  @Test
  void afdAndPdWithCachedHistory_sweepAndFrontierAgree(@TempDir Path dir) throws Exception {
    // before: frontier laid AFD's pools out for isl + osl without the 2,048 cached tokens, sweep
    // with them, so the FFN pool and the TPOT differed (the 3.80 vs 6.94 ms)
    for (String strategy : List.of("afd", "pd")) {
      Path grid = dir.resolve(strategy + ".json");
      Files.writeString(
          grid,
          "{\"strategy\": [\""
              + strategy
              + "\"], \"count\": [2], \"cached\": [2048], \"batch\": [1, 8, 32]}");
      CliRun sweep = CliRun.of("sweep", "--grid", grid.toString(), "--out", "-");
      assertThat(sweep.code()).as(sweep.err()).isZero();
      List<String> lines = sweep.out().strip().lines().toList();
      List<String> header = Arrays.asList(lines.get(0).split(",", -1));
      CliRun frontier =
          CliRun.of(
              "frontier",
              "--model",
              "llama-3.1-8b",
              "--chip",
              "h100-sxm",
              "--count",
              "2",
              "--strategy",
              strategy,
              "--cached",
              "2048",
              "--json");
      assertThat(frontier.code()).as(frontier.err()).isZero();
      JsonNode points = frontier.json().get("points");
      int compared = 0;
      for (String line : lines.subList(1, lines.size())) {
        String[] row = line.split(",", -1);
        int batch = Integer.parseInt(row[header.indexOf("batch")]);
        for (JsonNode p : points) {
          if (p.get("batch").asInt() == batch) {
            assertThat(Double.parseDouble(row[header.indexOf("tpot_seconds")]))
                .as("%s batch %s TPOT", strategy, batch)
                .isCloseTo(p.get("tpot_seconds").asDouble(), within(1e-12));
            assertThat(Double.parseDouble(row[header.indexOf("ttft_seconds")]))
                .as("%s batch %s TTFT", strategy, batch)
                .isCloseTo(p.get("ttft_seconds").asDouble(), within(1e-12));
            compared++;
          }
        }
      }
      assertThat(compared).as(strategy).isEqualTo(3);
    }
  }
}
