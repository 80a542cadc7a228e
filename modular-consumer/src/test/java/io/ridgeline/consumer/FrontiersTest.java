package io.ridgeline.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.common.collect.ImmutableList;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.ParetoFrontier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A consumer on the module path: surefire runs this test inside the named module {@code
 * io.ridgeline.consumer} (its module-info requires io.ridgeline.serving and nothing else), and
 * {@link #mainModule_runsFromTheModulePathAlone} starts a JVM on the same module path with no
 * {@code --add-modules}, so the module graph is only what the library's descriptors require.
 */
final class FrontiersTest {
  private static final String[] ARGS = {"llama-3.1-8b", "h100-sxm", "1024", "256", "64"};

  private static ParetoFrontier frontier() {
    return Frontiers.of(ARGS[0], ARGS[1], 1024, 256, 64);
  }

  @Test
  void classes_comeFromNamedModules() {
    assertThat(Frontiers.class.getModule().getName()).isEqualTo("io.ridgeline.consumer");
    assertThat(ParetoFrontier.class.getModule().getName()).isEqualTo("io.ridgeline.serving");
    assertThat(ImmutableList.class.getModule().getName()).isEqualTo("com.google.common");
    assertThat(System.getProperty("jdk.module.path")).isNotBlank();
  }

  @Test
  void frontier_llama8bOnH100_pointsPerBatch() {
    List<FrontierPoint> points = frontier().points();
    assertThat(points).extracting(FrontierPoint::batch).containsExactly(1, 2, 4, 8, 16, 32, 64);
    // the decode step reads at least the weights: 8.03e9 parameters x 2 B (BF16) = 16.06 GB over
    // 3,350 GB/s of HBM3 = 4.79 ms, the batch-1 TPOT's floor
    assertThat(points.get(0).tpot().seconds()).isGreaterThan(4.79e-3);
    for (FrontierPoint p : points) {
      // one chip, one replica: each user gets a token per TPOT; the chip's steps also carry each
      // slot's own next prompt, which no running user's TPOT does, so the chip makes at most batch
      // tokens per TPOT
      assertThat(p.tokensPerSecondPerUser()).isCloseTo(1 / p.tpot().seconds(), within(1e-6));
      assertThat(p.tokensPerSecondPerChip())
          .isLessThanOrEqualTo(p.batch() * p.tokensPerSecondPerUser());
    }
    // up to batch 64 a larger batch still raises throughput per chip: every point is optimal
    assertThat(frontier().frontier()).hasSameSizeAs(points);
  }

  @Test
  void mainModule_runsFromTheModulePathAlone() throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        ImmutableList.<String>builder()
            .add(java, "--module-path", System.getProperty("jdk.module.path"))
            .add("--module", "io.ridgeline.consumer/io.ridgeline.consumer.Frontiers")
            .add(ARGS)
            .build();
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out.lines().collect(Collectors.toList()))
        .first()
        .isEqualTo("module io.ridgeline.consumer");
    assertThat(out).endsWith(frontier().toString());
  }
}
