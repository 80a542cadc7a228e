package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failures of issue 13, each as it was reported: every one now ends in one clear line and exit
 * status 1 (or a whole file), never a stack trace, NaN, infinity or a partial file.
 */
final class HardeningTest {
  @TempDir Path dir;

  private static CliRun frontier(String... extra) {
    List<String> args =
        new ArrayList<>(List.of("frontier", "--model", "llama-3.1-8b", "--chip", "h100-sxm"));
    args.addAll(List.of(extra));
    args.add("--json");
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void hugeLengths_nameTheOptionTyped() {
    CliRun r = frontier("--isl", "2147483647", "--osl", "2147483647");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo("ridgeline: --isl must be at most 134,217,728 tokens: 2147483647\n");
  }

  @Test
  void hugePrice_isOutOfRange_notInfinity() {
    CliRun r = frontier("--price", "1e308");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo("ridgeline: --price must be at most 1,000,000 $/chip-hour: 1.0E308\n");
  }

  @Test
  void hugeRate_isOutOfRange() {
    CliRun r =
        CliRun.of(
            "plan",
            "--model",
            "llama-3.1-8b",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--rate",
            "1e308",
            "--ttft",
            "1",
            "--tpot",
            "0.05",
            "--chips",
            "h100-sxm",
            "--json");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo("ridgeline: --rate must be at most 1,000,000,000 requests/s: 1.0E308\n");
  }

  @Test
  void emptyStrategyList_isAClearError() {
    CliRun r = frontier("--strategy", ",");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            "ridgeline: --strategy must name at least one strategy (static, colocated, pd, afd,"
                + " all): ','\n");
  }

  @Test
  void negativePoolCount_namesItsOwnOption() {
    CliRun r = frontier("--strategy", "pd", "--prefill-count", "-3");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("ridgeline: --prefill-count must be positive: -3\n");
  }

  @Test
  void missingModelFile_saysNoSuchFile() {
    CliRun r =
        CliRun.of(
            "frontier",
            "--model",
            dir.resolve("config.json").toString(),
            "--chip",
            "h100-sxm",
            "--json");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("ridgeline: " + dir.resolve("config.json") + ": no such file\n");
  }

  @Test
  void headerOnlyCaseFile_isAnError_notNaN() throws Exception {
    String header = shippedCases().get(0);
    Path cases = Files.writeString(dir.resolve("cases.csv"), header + "\n");
    CliRun r = CliRun.of("validate", "--cases", cases.toString(), "--json");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            "ridgeline: "
                + cases
                + ": the case file has a header but no cases; add one row per measurement\n");
  }

  @Test
  void spreadsheetCaseFile_withByteOrderMarkAndCrlf_isRead() throws Exception {
    List<String> shipped = shippedCases();
    Path cases =
        Files.writeString(
            dir.resolve("excel.csv"), "\uFEFF" + shipped.get(0) + "\r\n" + shipped.get(1) + "\r\n");
    CliRun r = CliRun.of("validate", "--cases", cases.toString(), "--json");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().toString()).contains(shipped.get(1).substring(0, 10));
  }

  @Test
  void failingSweep_leavesThePreviousFileAndNoTemporaryFile() throws Exception {
    Path out = Files.writeString(dir.resolve("rows.csv"), "previous\n");
    Path grid =
        Files.writeString(
            dir.resolve("grid.json"), "{\"model\": [\"llama-3.1-8b\"], \"isl\": [0]}");
    CliRun r = CliRun.of("sweep", "--grid", grid.toString(), "--out", out.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(Files.readString(out)).isEqualTo("previous\n");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsOnly("rows.csv", "grid.json");
    }
  }

  @Test
  void concurrentWritersOfOneChart_leaveAWholePng() throws Exception {
    Path png = dir.resolve("chart.png");
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<CliRun>> runs = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        runs.add(
            pool.submit(
                () ->
                    CliRun.of(
                        "roofline",
                        "--model",
                        "llama-3.1-8b",
                        "--chip",
                        "h100-sxm",
                        "--batch",
                        "8",
                        "--context",
                        "1024",
                        "--json",
                        "--plot",
                        png.toString())));
      }
      for (Future<CliRun> f : runs) {
        assertThat(f.get().code()).isZero();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(ImageIO.read(png.toFile())).isNotNull();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsOnly("chart.png");
    }
  }

  @Test
  void atomicWrite_replacesWholeOrNotAtAll() throws Exception {
    Path target = Files.writeString(dir.resolve("a.json"), "old");
    try {
      AtomicFiles.writeText(
          target,
          w -> {
            w.write("half");
            throw new java.io.IOException("disk full");
          });
    } catch (java.io.UncheckedIOException e) {
      assertThat(e).hasMessage("cannot write " + target + ": disk full");
    }
    assertThat(Files.readString(target)).isEqualTo("old");
    AtomicFiles.writeString(target, "new");
    assertThat(Files.readString(target)).isEqualTo("new");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).hasSize(1);
    }
  }

  private static List<String> shippedCases() {
    return FuzzInputs.resource("/io/ridgeline/validation/cases.csv").lines().toList();
  }
}
