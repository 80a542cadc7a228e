package io.ridgeline.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The process's standard output as the command line writes it: UTF-8 whatever the locale (under
 * {@code LC_ALL=C} Java's default charset is ASCII, which would print {@code ?} for ×, ± and µ),
 * and a closed pipe told apart from other write failures. {@code ridgeline ... | head -1}: once
 * {@code head} exits, the next write fails with "Broken pipe"; the command then ends quietly with
 * status 0, as a Unix filter does, while any other failure (a full disk) stays an error.
 *
 * <p>A {@link PrintStream} records its write errors without their cause, so this stream sits under
 * the writers, records the first {@link IOException} and rethrows it.
 */
final class StandardOutput extends OutputStream {
  private final OutputStream out;
  private IOException failure;

  StandardOutput(OutputStream out) {
    this.out = out;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      if (failure == null) {
        failure = e;
      }
      throw e;
    }
  }

  @Override
  public void flush() throws IOException {
    try {
      out.flush();
    } catch (IOException e) {
      if (failure == null) {
        failure = e;
      }
      throw e;
    }
  }

  /**
   * Whether a write failed because the reader closed the pipe: "Broken pipe" (Linux, macOS; EPIPE)
   * or "The pipe is being closed" / "The pipe has been ended" (Windows).
   */
  boolean closedPipe() {
    if (failure == null || failure.getMessage() == null) {
      return false;
    }
    String m = failure.getMessage().toLowerCase(Locale.ROOT);
    return m.contains("broken pipe")
        || m.contains("pipe is being closed")
        || m.contains("pipe has been ended");
  }

  /** A UTF-8 writer on {@code out} that flushes at every line, as the command line prints. */
  static PrintWriter writer(OutputStream out) {
    return new PrintWriter(new OutputStreamWriter(out, UTF_8), true);
  }

  /** This stream as bytes (the sweep's rows), buffered: flush before exit. */
  PrintStream bytes() {
    return new PrintStream(new BufferedOutputStream(this, 1 << 16), false, UTF_8);
  }
}
