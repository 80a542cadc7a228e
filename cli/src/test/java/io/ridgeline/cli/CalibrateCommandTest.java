package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class CalibrateCommandTest {
  private static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RidgelineCli.execute(args, new PrintWriter(out), new PrintWriter(err));
    return new String[] {Integer.toString(code), out.toString(), err.toString()};
  }

  @Test
  void calibrate_out_writesProfileThatValidateLoads(@TempDir Path dir) {
    Path f = dir.resolve("profile.json");
    String[] r = run("calibrate", "--evaluations", "12", "--out", f.toString());
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1])
        .contains("trtllm")
        .contains("default")
        .contains("ideal APE")
        .contains("tpot_ms");
    assertThat(Files.exists(f)).isTrue();
    String[] v = run("validate", "--profile", f.toString());
    assertThat(v[0]).as(v[2]).isEqualTo("0");
    assertThat(v[1]).contains("calibrated: engine profiles of").contains("tpot_ms");
  }

  @Test
  void validate_calibrated_usesBuiltInProfiles() {
    String[] v = run("validate", "--efficiency", "calibrated");
    assertThat(v[0]).as(v[2]).isEqualTo("0");
    assertThat(v[1]).contains("calibrated: built-in engine profiles");
  }

  @Test
  void validate_badProfile_namesFile(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("bad.json");
    Files.writeString(f, "{\"profiles\": {}}");
    String[] v = run("validate", "--profile", f.toString());
    assertThat(v[0]).isEqualTo("1");
    assertThat(v[2]).contains("bad.json");
  }

  @Test
  void validate_unknownEfficiency_isRejected() {
    String[] v = run("validate", "--efficiency", "bogus");
    assertThat(v[0]).isEqualTo("1");
    assertThat(v[2]).startsWith("ridgeline: --efficiency must be 'ideal' or 'calibrated'");
  }
}
