package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * {@code serve} without the web module (this module's class path has none): one line, exit 1. The
 * server itself is tested in the web module.
 */
final class ServeCommandTest {
  private static int run(StringWriter out, StringWriter err, String... args) {
    return RidgelineCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void serve_withoutTheWebModule_saysSoInOneLine() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, "serve", "--port", "0")).isEqualTo(1);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString())
        .isEqualTo(
            "ridgeline: serve needs the ridgeline-web module on the class path (the jar"
                + " web/target/ridgeline-web-*-all.jar or the release archive's)"
                + System.lineSeparator());
  }

  @Test
  void serve_portOutOfRange_isRefused() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, "serve", "--port", "70000")).isEqualTo(1);
    assertThat(err.toString()).startsWith("ridgeline: --port must be between 0 and 65535: 70000");
  }
}
