package io.ridgeline.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

final class StandardOutputTest {

  /** A stream that takes {@code capacity} bytes, then fails every write with {@code message}. */
  private static final class Failing extends OutputStream {
    private final ByteArrayOutputStream taken = new ByteArrayOutputStream();
    private final int capacity;
    private final String message;

    Failing(int capacity, String message) {
      this.capacity = capacity;
      this.message = message;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (taken.size() + len > capacity) {
        throw new IOException(message);
      }
      taken.write(b, off, len);
    }
  }

  private static final String[] FRONTIER = {
    "frontier", "--model", "llama-3.1-70b", "--chip", "h100-sxm", "--count", "8"
  };

  /** Runs {@code args} as main does, on a standard output over {@code sink}. */
  private static CliRun run(OutputStream sink, String... args) {
    StandardOutput stdout = new StandardOutput(sink);
    StringWriter err = new StringWriter();
    int code =
        RidgelineCli.execute(
            args,
            StandardOutput.writer(stdout),
            new PrintWriter(err),
            stdout.bytes(),
            stdout::closedPipe);
    return new CliRun(code, "", err.toString());
  }

  @Test
  void closedPipe_brokenPipe_isTheReaderGoingAway() throws IOException {
    StandardOutput s = new StandardOutput(new Failing(0, "Broken pipe"));
    assertThat(s.closedPipe()).isFalse();
    try {
      s.write(1);
    } catch (IOException expected) {
      // recorded
    }
    assertThat(s.closedPipe()).isTrue();
  }

  @Test
  void execute_readerClosesAfterTheFirstLine_endsQuietlyWithStatusZero() {
    // the reader takes 100 bytes (head -1 of the table), then the pipe is closed
    CliRun r = run(new Failing(100, "Broken pipe"), FRONTIER);
    assertThat(r.code()).isZero();
    assertThat(r.err()).isEmpty();
  }

  @Test
  void execute_sweepIntoAClosedPipe_endsQuietlyWithStatusZero() {
    CliRun r =
        run(new Failing(100, "Broken pipe"), "sweep", "--grid", "../examples/sweep-grid.json");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).doesNotContain("cannot write");
  }

  @Test
  void execute_fullDisk_isStillAnError() {
    CliRun r = run(new Failing(100, "No space left on device"), FRONTIER);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("ridgeline: cannot write to standard output\n");
  }

  @Test
  void writer_anyDefaultCharset_writesUtf8() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    run(
        bytes,
        "roofline",
        "--model",
        "llama-3.1-8b",
        "--chip",
        "h100-sxm",
        "--batch",
        "1",
        "--context",
        "1024");
    // "1× h100-sxm": × is U+00D7, C3 97 in UTF-8
    assertThat(new String(bytes.toByteArray(), UTF_8)).contains("1× h100-sxm").contains("µs/hop");
  }

  /** {@code ridgeline args} in a new JVM under {@code LC_ALL=C}, its output not read. */
  private static Process process(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("-XX:TieredStopAtLevel=1");
    command.add(RidgelineCli.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder b = new ProcessBuilder(command);
    b.environment().put("LC_ALL", "C");
    b.environment().remove("LANG");
    return b.start();
  }

  @Test
  void main_cLocale_printsUtf8InTextAndJson() throws Exception {
    for (String json : List.of("", "--json")) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "roofline",
                  "--model",
                  "llama-3.1-8b",
                  "--chip",
                  "h100-sxm",
                  "--batch",
                  "1",
                  "--context",
                  "1024"));
      if (!json.isEmpty()) {
        args.add(json);
      }
      Process p = process(args.toArray(String[]::new));
      String out = new String(p.getInputStream().readAllBytes(), UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(out).isZero();
      // the profile's "µs" in both; the text's "1× h100-sxm" and "µs/hop"
      assertThat(out).contains("µs").doesNotContain("?");
      if (json.isEmpty()) {
        assertThat(out).contains("1× h100-sxm").contains("µs/hop");
      }
    }
  }

  @Test
  void main_stdoutClosedBeforeAnyWrite_exitsZeroWithNothingOnStderr() throws Exception {
    Process p = process(FRONTIER);
    // the reader goes away at once: the command's first write fails with EPIPE
    p.getInputStream().close();
    String err = new String(p.getErrorStream().readAllBytes(), UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(err).isZero();
    assertThat(err).isEmpty();
  }
}
