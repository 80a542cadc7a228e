package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.base.Splitter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code frontier --strategy afd}: three pools, the FFN pool's own layout and bad input. */
final class FrontierAfdTest {
  private static CliRun afd(String... extra) {
    String[] base = {
      "frontier",
      "--model",
      "llama-3.1-70b",
      "--chip",
      "h100-sxm",
      "--count",
      "8",
      "--strategy",
      "afd",
      "--csv",
      "--max-batch",
      "16"
    };
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return CliRun.of(args);
  }

  @Test
  void afd_gpuAttentionAndGroqFfn_runsFromTheCommandLine() {
    CliRun r = afd("--weights", "fp8", "--ffn-chip", "groq-lpu");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("afd,16,");
  }

  @Test
  void afd_ffnTensorParallelNotDividingHeads_runs() {
    CliRun r = afd("--ffn-tp", "3");
    assertThat(r.code()).as(r.err()).isZero();
    // 8 attention + 3 FFN chips + the prefill pool's share
    String row = r.out().lines().filter(l -> l.startsWith("afd,16,")).findFirst().orElseThrow();
    assertThat(Double.parseDouble(Splitter.on(',').splitToList(row).get(6))).isGreaterThan(11);
  }

  @Test
  void afd_tableNote_saysTheLinkEachSideNeedsAndThePools(@TempDir Path dir) {
    CliRun r =
        CliRun.of(
            "frontier",
            "--model",
            "llama-3.1-70b",
            "--chip",
            "h100-sxm",
            "--count",
            "8",
            "--strategy",
            "afd",
            "--max-batch",
            "16",
            "--plot",
            dir.resolve("f.png").toString());
    assertThat(r.out())
        .contains("per attention chip, ")
        .contains("per FFN chip; attention:FFN:prefill chips 8:")
        .contains("FFN-pooling gain");
  }

  @Test
  void afd_badFfnOptions_oneLineNamingOptionAndValue() {
    assertThat(afd("--ffn-tp", "0").err()).isEqualTo("ridgeline: --ffn-tp must be positive: 0\n");
    assertThat(afd("--ffn-pp", "-1").err()).isEqualTo("ridgeline: --ffn-pp must be positive: -1\n");
    assertThat(afd("--ffn-ep", "0").err()).isEqualTo("ridgeline: --ffn-ep must be positive: 0\n");
    assertThat(afd("--ffn-count", "0").err())
        .isEqualTo("ridgeline: --ffn-count must be positive: 0\n");
    assertThat(afd("--ffn-count", "6", "--ffn-tp", "4").err())
        .isEqualTo("ridgeline: --ffn-count (6) must be a multiple of --ffn-tp × --ffn-pp = 4\n");
    assertThat(afd("--ffn-tp", "6", "--ffn-ep", "4").err())
        .isEqualTo("ridgeline: --ffn-ep (4) must divide the FFN pool's chips per stage: 6\n");
    assertThat(afd("--ffn-tp", "x").code()).isEqualTo(2);
  }
}
