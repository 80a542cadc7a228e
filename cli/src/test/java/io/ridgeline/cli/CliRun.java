package io.ridgeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/** Exit code, stdout and stderr of one run of the command line, for the CLI tests. */
record CliRun(int code, String out, String err) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Runs {@code ridgeline args…} in this JVM. */
  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RidgelineCli.execute(args, new PrintWriter(out), new PrintWriter(err));
    return new CliRun(code, out.toString(), err.toString());
  }

  /**
   * Runs {@code ridgeline roofline} for llama-3.1-8b on one H100 at batch 1 (the CLI tests' usual
   * system), then {@code options}, then {@code extra}.
   */
  static CliRun roofline8b(String[] options, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of("roofline", "--model", "llama-3.1-8b", "--chip", "h100-sxm", "--batch", "1"));
    args.addAll(List.of(options));
    args.addAll(List.of(extra));
    return of(args.toArray(String[]::new));
  }

  /** Standard output parsed as JSON. */
  JsonNode json() throws Exception {
    return MAPPER.readTree(out);
  }

  /** The last line written to standard error. */
  String lastErrLine() {
    List<String> lines = err.strip().lines().toList();
    return lines.get(lines.size() - 1);
  }
}
