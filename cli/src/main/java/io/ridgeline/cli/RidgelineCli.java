package io.ridgeline.cli;

import io.ridgeline.core.Precision;
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
      CommandLine.HelpCommand.class
    })
public final class RidgelineCli implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    System.exit(
        execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the command line writing to {@code out} and {@code err}; returns the exit status. */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new RidgelineCli());
    cl.setOut(out);
    cl.setErr(err);
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
          err.println("ridgeline: " + ex.getMessage());
          err.flush();
          return 2;
        });
    cl.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          err.println("ridgeline: " + message(ex));
          err.flush();
          return 1;
        });
    int code = cl.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  private static String message(Throwable ex) {
    Throwable t = ex;
    while (t.getMessage() == null && t.getCause() != null) {
      t = t.getCause();
    }
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return m.replace('\n', ' ');
  }
}
