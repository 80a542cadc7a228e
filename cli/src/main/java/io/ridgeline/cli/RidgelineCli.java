package io.ridgeline.cli;

import io.ridgeline.core.Precision;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.NoSuchElementException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code ridgeline}: the command line. Errors print one line on stderr, {@code ridgeline: …}, and
 * exit non-zero (2 for a bad option, 1 for bad input); never a stack trace.
 */
@Command(
    name = "ridgeline",
    mixinStandardHelpOptions = true,
    version = "ridgeline 0.1.0",
    description =
        "Roofline models of LLM inference: how fast and how cheaply a model serves on a chip.",
    subcommands = {
      ChipsCommand.class,
      ModelsCommand.class,
      RooflineCommand.class,
      FrontierCommand.class,
      CrossoverCommand.class,
      IntensityCommand.class,
      PlanCommand.class,
      SweepCommand.class,
      ValidateCommand.class,
      CalibrateCommand.class,
      ServeCommand.class,
      CompletionCommand.class,
      CommandLine.HelpCommand.class
    })
public final class RidgelineCli implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  // the process's standard output as bytes, under the command line's PrintWriter (main's; null
  // when a caller gives its own writer): sweep writes its UTF-8 rows straight to it
  private PrintStream bytesOut;

  /**
   * The standard output stream under {@code spec}'s command line's writer, when it writes to the
   * process's standard output ({@link #main}); null otherwise.
   */
  static PrintStream bytesOut(CommandLine.Model.CommandSpec spec) {
    Object root = spec.root().userObject();
    return root instanceof RidgelineCli r ? r.bytesOut : null;
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    // UTF-8 whatever the locale, as the files the commands write and the sweep's bytes
    PrintWriter err = StandardOutput.writer(new FileOutputStream(FileDescriptor.err));
    StandardOutput stdout = new StandardOutput(new FileOutputStream(FileDescriptor.out));
    int code;
    try {
      code = execute(args, StandardOutput.writer(stdout), err, stdout.bytes(), stdout::closedPipe);
    } catch (OutOfMemoryError | StackOverflowError e) {
      // bounds on every input make this a bug, but it still ends as one line
      err.println(
          "ridgeline: internal error: out of resources (" + e.getClass().getSimpleName() + ")");
      code = 1;
    }
    System.exit(code);
  }

  /**
   * Runs the command line writing to {@code out} and {@code err}; returns the exit status: 0, 1 for
   * bad input (and for a failed write, to a file or to {@code out}), 2 for a malformed option, 3
   * when {@code plan} finds nothing. Option values outside their documented range ({@link
   * OptionLimits}) are bad input. An exception other than the documented ones ({@link
   * IllegalArgumentException}, {@link NoSuchElementException}, {@link
   * java.io.UncheckedIOException}) is a bug and says so: {@code ridgeline: internal error: …}.
   */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    return execute(args, out, err, (PrintStream) null);
  }

  /**
   * {@link #execute(String[], PrintWriter, PrintWriter)} with the chips and model configurations of
   * {@code inputs} held in memory for this run only: chip options find the posted chips by id,
   * {@code --model} the posted configurations by name, and no option reads a file ({@link
   * InlineInputs}). What the HTTP API of {@code ridgeline serve} runs for each request, on the
   * request's thread.
   */
  public static int execute(String[] args, PrintWriter out, PrintWriter err, InlineInputs inputs) {
    return inputs.with(() -> execute(args, out, err, (PrintStream) null));
  }

  /**
   * {@link #execute(String[], PrintWriter, PrintWriter)} where {@code out} writes to {@code
   * bytesOut} (null: unknown), which a command may write bytes to directly once {@code out} is
   * flushed ({@link #bytesOut(CommandLine.Model.CommandSpec)}).
   */
  static int execute(String[] args, PrintWriter out, PrintWriter err, PrintStream bytesOut) {
    return execute(args, out, err, bytesOut, () -> false);
  }

  /**
   * {@link #execute(String[], PrintWriter, PrintWriter, PrintStream)} where {@code closedPipe} says
   * whether standard output failed because its reader went away ({@link
   * StandardOutput#closedPipe()}): the command then ends quietly with status 0 ({@code ridgeline
   * ... | head -1}), a bad option or input still failing as usual.
   */
  static int execute(
      String[] args,
      PrintWriter out,
      PrintWriter err,
      PrintStream bytesOut,
      java.util.function.BooleanSupplier closedPipe) {
    RidgelineCli root = new RidgelineCli();
    root.bytesOut = bytesOut;
    CommandLine cl = new CommandLine(root);
    cl.setOut(out);
    cl.setErr(err);
    HelpLayout.install(cl);
    cl.registerConverter(
        Precision.class,
        s -> {
          try {
            return Precision.of(s);
          } catch (NoSuchElementException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
          }
        });
    cl.setParameterExceptionHandler(
        (ex, a) -> {
          err.println("ridgeline: " + oneLine(ex.getMessage()));
          err.flush();
          return 2;
        });
    cl.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          if (closedPipe.getAsBoolean()) {
            // the reader went away (| head): a failure to write what nobody reads is no error
            return 0;
          }
          err.println("ridgeline: " + message(ex));
          err.flush();
          return 1;
        });
    CommandLine.IExecutionStrategy run = new CommandLine.RunLast();
    cl.setExecutionStrategy(
        parseResult -> {
          try {
            OptionLimits.check(parseResult);
          } catch (IllegalArgumentException e) {
            throw new CommandLine.ExecutionException(cl, e.getMessage(), e);
          }
          return run.execute(parseResult);
        });
    int code = cl.execute(args);
    err.flush();
    if (bytesOut != null) {
      bytesOut.flush();
    }
    // a PrintWriter only records write errors (a full disk, a closed pipe): ask it
    if (out.checkError() && closedPipe.getAsBoolean()) {
      return code;
    }
    if (out.checkError() && code == 0) {
      err.println("ridgeline: cannot write to standard output");
      code = 1;
    }
    err.flush();
    return code;
  }

  /** The message of {@code ex} on one line; "internal error: …" for an undocumented exception. */
  static String message(Throwable ex) {
    Throwable t = ex;
    while (t instanceof CommandLine.ExecutionException && t.getCause() != null) {
      t = t.getCause();
    }
    boolean documented =
        t instanceof IllegalArgumentException
            || t instanceof NoSuchElementException
            || t instanceof java.io.UncheckedIOException
            || t instanceof CommandLine.ExecutionException;
    Throwable m = t;
    while (m.getMessage() == null && m.getCause() != null) {
      m = m.getCause();
    }
    String text = m.getMessage() == null ? m.getClass().getSimpleName() : m.getMessage();
    return documented
        ? oneLine(text)
        : "internal error: " + t.getClass().getSimpleName() + ": " + oneLine(text);
  }

  /**
   * {@code text} as one printable line: line breaks become spaces, other control characters and a
   * byte-order mark '?', and more than 1,000 characters are cut (a message quotes what the user
   * typed, which may be anything).
   */
  private static String oneLine(String text) {
    if (text == null) {
      return "";
    }
    String t = text.length() > 1_000 ? text.substring(0, 1_000) + "…" : text;
    StringBuilder b = new StringBuilder(t.length());
    t.replace("\r\n", " ")
        .codePoints()
        .forEach(
            c ->
                b.appendCodePoint(
                    c == '\n' || c == '\r' || c == '\t'
                        ? ' '
                        : Character.isISOControl(c) || c == 0xFEFF ? '?' : c));
    return b.toString();
  }
}
