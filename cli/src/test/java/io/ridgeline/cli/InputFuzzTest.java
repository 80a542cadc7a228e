package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Seeded fuzzing of the command line in this JVM over the six input families ({@link FuzzInputs}):
 * mutated {@code config.json} files, chip JSON, efficiency profiles, option sets, case CSV files
 * and sweep grids. Every run must end with exit status 0, 1, 2 or 3; a failure must print exactly
 * one line {@code ridgeline: …} (after any {@code warning:} lines) that is not an internal error; a
 * success must print no NaN or infinity and no negative number in JSON; a run must end within 10 s
 * (30 s in the build, for loaded machines); a sweep that fails must leave no output file. Seeds and
 * case counts can be changed with {@code -Dridgeline.fuzz.seed=N -Dridgeline.fuzz.cases=N} (cases
 * per family).
 */
@Execution(ExecutionMode.CONCURRENT)
final class InputFuzzTest {
  private static final long SEED = Long.getLong("ridgeline.fuzz.seed", 20_261_201L);
  private static final int CASES = Integer.getInteger("ridgeline.fuzz.cases", 250);

  /** A case that runs longer hangs: 10 s alone, with margin for a loaded build machine. */
  private static final long LIMIT_SECONDS = 30;

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Pattern NON_FINITE = Pattern.compile("(?<![A-Za-z])(NaN|-?Infinity)\\b");

  /** A value quoted in a message: {@code 'Infinity'}. */
  private static final Pattern QUOTED = Pattern.compile("'[^'\\n]*'");

  /** JSON keys whose values may be negative (signed errors). */
  private static final Pattern SIGNED_KEY = Pattern.compile(".*(error|bias|signed|ln_).*");

  @TempDir Path dir;

  private static final String[] OFFLOAD = {"none", "history", "spill", "all"};

  @Test
  void configFiles_neverFailBadly() {
    List<JsonNode> configs = FuzzInputs.shippedConfigs();
    fuzz(
        "config",
        (r, i) -> {
          Path file = write("config-" + i + ".json", FuzzInputs.mutateJson(r, pick(r, configs)));
          return r.nextBoolean()
              ? List.of(
                  "roofline",
                  "--model",
                  file.toString(),
                  "--chip",
                  "b200",
                  "--count",
                  "8",
                  "--batch",
                  "16",
                  "--context",
                  "4096",
                  "--json")
              : List.of(
                  "frontier",
                  "--model",
                  file.toString(),
                  "--chip",
                  "h200-sxm",
                  "--count",
                  "8",
                  "--max-batch",
                  "64",
                  "--strategy",
                  r.nextBoolean() ? "colocated" : "all",
                  "--json");
        });
  }

  @Test
  void chipFiles_neverFailBadly() {
    List<JsonNode> chips = FuzzInputs.shippedChips();
    fuzz(
        "chip",
        (r, i) -> {
          Path file = write("chip-" + i + ".json", FuzzInputs.mutateJson(r, pick(r, chips)));
          switch (r.nextInt(3)) {
            case 0:
              return List.of("chips", "--add", file.toString(), "--json");
            case 1:
              // with a random KV offload policy: a mutated chip's tiers decide where KV can go
              return List.of(
                  "roofline",
                  "--model",
                  "llama-3.1-8b",
                  "--chip",
                  file.toString(),
                  "--batch",
                  "8",
                  "--prompt",
                  "256",
                  "--cached",
                  "32768",
                  "--kv-offload",
                  OFFLOAD[r.nextInt(OFFLOAD.length)],
                  "--json");
            default:
              return List.of(
                  "frontier",
                  "--model",
                  "llama-3.1-8b",
                  "--chip",
                  file.toString(),
                  "--max-batch",
                  "128",
                  "--strategy",
                  "colocated,pd",
                  "--json");
          }
        });
  }

  @Test
  void profileFiles_neverFailBadly() {
    List<JsonNode> profiles = FuzzInputs.shippedProfiles();
    fuzz(
        "profile",
        (r, i) -> {
          Path file = write("profile-" + i + ".json", FuzzInputs.mutateJson(r, pick(r, profiles)));
          switch (r.nextInt(3)) {
            case 0:
              return List.of(
                  "roofline",
                  "--model",
                  "qwen3-30b-a3b",
                  "--chip",
                  "h100-sxm",
                  "--batch",
                  "16",
                  "--profile",
                  file.toString(),
                  "--json");
            case 1:
              return List.of(
                  "frontier",
                  "--model",
                  "llama-3.1-8b",
                  "--chip",
                  "mi300x",
                  "--max-batch",
                  "64",
                  "--strategy",
                  r.nextBoolean() ? "colocated" : "pd",
                  "--profile",
                  file.toString(),
                  "--engine",
                  r.nextBoolean() ? "vllm" : "default",
                  "--json");
            default:
              return List.of(
                  "crossover",
                  "--model",
                  "llama-3.1-8b",
                  "--chip",
                  "h100-sxm",
                  "--profile",
                  file.toString(),
                  "--json");
          }
        });
  }

  @Test
  void optionSets_neverFailBadly() {
    fuzz("options", (r, i) -> FuzzInputs.options(r));
  }

  @Test
  void caseFiles_neverFailBadly() {
    fuzz(
        "cases",
        (r, i) -> {
          Path file = write("cases-" + i + ".csv", FuzzInputs.caseFile(r));
          switch (r.nextInt(6)) {
            case 0:
              return List.of(
                  "frontier",
                  "--model",
                  "llama-3.1-8b",
                  "--chip",
                  "h100-sxm",
                  "--anchor",
                  file.toString(),
                  "--max-batch",
                  "8",
                  "--json");
            case 1:
              return List.of(
                  "plan",
                  "--model",
                  "llama-3.1-8b",
                  "--isl",
                  "512",
                  "--osl",
                  "128",
                  "--rate",
                  "1",
                  "--ttft",
                  "1",
                  "--tpot",
                  "0.05",
                  "--chips",
                  "h100-sxm",
                  "--strategies",
                  "colocated",
                  "--anchor",
                  file.toString(),
                  "--json");
            default:
              return List.of("validate", "--cases", file.toString(), "--json");
          }
        });
  }

  @Test
  void sweepGrids_neverFailBadly() {
    fuzz(
        "grid",
        (r, i) -> {
          Path file = write("grid-" + i + ".json", FuzzInputs.grid(r));
          Path out = dir.resolve("rows-" + i + (r.nextBoolean() ? ".csv" : ".jsonl"));
          return r.nextInt(4) == 0
              ? List.of("sweep", "--grid", file.toString())
              : List.of("sweep", "--grid", file.toString(), "--out", out.toString());
        });
  }

  @Test
  void jsonOutput_toAFailingStream_exitsNonZero() {
    StringWriter err = new StringWriter();
    PrintWriter broken =
        new PrintWriter(
            new java.io.Writer() {
              @Override
              public void write(char[] b, int off, int len) throws IOException {
                throw new IOException("No space left on device");
              }

              @Override
              public void flush() throws IOException {
                throw new IOException("No space left on device");
              }

              @Override
              public void close() {}
            });
    int code =
        RidgelineCli.execute(new String[] {"models", "--json"}, broken, new PrintWriter(err));
    assertThat(code).isEqualTo(1);
    assertThat(err.toString().strip()).isEqualTo("ridgeline: cannot write to standard output");
  }

  // ---- the harness ----

  private <T> T pick(Random r, List<T> list) {
    return list.get(r.nextInt(list.size()));
  }

  private Path write(String name, String text) {
    try {
      return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@link #CASES} command lines of {@code family}; fails listing the bad ones. */
  private void fuzz(String family, BiFunction<Random, Integer, List<String>> generator) {
    ExecutorService runner =
        Executors.newSingleThreadExecutor(
            t -> {
              Thread thread = new Thread(t, "fuzz-" + family);
              thread.setDaemon(true);
              return thread;
            });
    try {
      fuzz(family, generator, runner);
    } finally {
      runner.shutdownNow();
    }
  }

  private void fuzz(
      String family, BiFunction<Random, Integer, List<String>> generator, ExecutorService runner) {
    long seed = SEED ^ family.hashCode();
    Random r = new Random(seed);
    List<String> problems = new ArrayList<>();
    long start = System.nanoTime();
    double slowest = 0;
    List<String> slowestArgs = List.of();
    for (int i = 0; i < CASES && problems.size() < 10; i++) {
      List<String> args = generator.apply(r, i);
      long caseStart = System.nanoTime();
      String problem = check(args, runner);
      double s = (System.nanoTime() - caseStart) / 1e9;
      if (s > slowest) {
        slowest = s;
        slowestArgs = args;
      }
      if (problem != null) {
        problems.add(
            family + " case " + i + " (seed " + seed + "): " + problem + "\n    args: " + args);
      }
    }
    System.err.printf(
        java.util.Locale.ROOT,
        "fuzz %s: %d cases in %.1f s, slowest %.2f s: %s%n",
        family,
        CASES,
        (System.nanoTime() - start) / 1e9,
        slowest,
        slowestArgs);
    assertThat(problems).as("fuzz %s, %s cases", family, CASES).isEmpty();
  }

  /** Runs one command line; returns what is wrong with its outcome, or null. */
  private static String check(List<String> args, ExecutorService runner) {
    Path out = outFile(args);
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    long start = System.nanoTime();
    Future<Integer> f =
        runner.submit(
            () ->
                RidgelineCli.execute(
                    args.toArray(String[]::new), new PrintWriter(stdout), new PrintWriter(stderr)));
    int code;
    try {
      code = f.get(LIMIT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      return "did not end within " + LIMIT_SECONDS + " s";
    } catch (java.util.concurrent.ExecutionException e) {
      return "threw " + e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    String err = stderr.toString();
    if (code < 0 || code > 3) {
      return "exit status " + code;
    }
    if (code == 1 || code == 2) {
      return failure(err, out);
    }
    // 0, or 3 (plan found nothing): a result; JSON numbers are checked as numbers (a JSON string
    // may quote what the user typed, NaN included), other text as text
    // ... and a value quoted in a message ('Infinity' as a model id in a warning) is what the user
    // typed, not a figure
    String text = QUOTED.matcher((args.contains("--json") ? "" : stdout) + err).replaceAll("''");
    if (NON_FINITE.matcher(text).find()) {
      return "non-finite value in output: " + excerpt(text, NON_FINITE);
    }
    if (args.contains("--json")) {
      String bad = badJson(stdout.toString());
      if (bad != null) {
        return bad;
      }
    }
    if (out != null) {
      String bad = badRows(out);
      if (bad != null) {
        return bad;
      }
    }
    return seconds > LIMIT_SECONDS ? "took " + seconds + " s" : null;
  }

  /** What is wrong with a failing run's stderr (one line, not internal) and files, or null. */
  private static String failure(String err, Path out) {
    List<String> lines = new ArrayList<>(err.strip().lines().toList());
    lines.removeIf(l -> l.startsWith("warning: "));
    if (lines.size() != 1) {
      return "error is not one line: " + err;
    }
    String line = lines.get(0);
    if (!line.startsWith("ridgeline: ") || line.contains("internal error")) {
      return "bad error line: " + line;
    }
    if (line.length() > 2_000) {
      return "error line of " + line.length() + " characters";
    }
    if (line.chars().anyMatch(c -> Character.isISOControl(c) || c == 0xFEFF)) {
      return "control character in: " + line;
    }
    if (out != null && Files.exists(out)) {
      return "failed but left " + out;
    }
    return null;
  }

  /** The --out path of a sweep, deleted first so that its presence afterwards means something. */
  private static Path outFile(List<String> args) {
    int i = args.indexOf("--out");
    if (i < 0) {
      return null;
    }
    Path p = Path.of(args.get(i + 1));
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }

  private static String badJson(String text) {
    JsonNode root;
    try {
      root = MAPPER.readTree(text);
    } catch (IOException e) {
      return "stdout is not JSON: " + e.getMessage();
    }
    return badNumbers(root, "");
  }

  private static String badNumbers(JsonNode n, String path) {
    if (n.isNumber()) {
      double v = n.doubleValue();
      if (!Double.isFinite(v)) {
        return path + " is " + v;
      }
      if (v < 0 && !SIGNED_KEY.matcher(path).matches()) {
        return path + " is negative: " + v;
      }
      return null;
    }
    if (n.isArray()) {
      for (int i = 0; i < n.size(); i++) {
        String bad = badNumbers(n.get(i), path + "[" + i + "]");
        if (bad != null) {
          return bad;
        }
      }
    } else if (n.isObject()) {
      for (Map.Entry<String, JsonNode> e : n.properties()) {
        String bad = badNumbers(e.getValue(), path + "." + e.getKey());
        if (bad != null) {
          return bad;
        }
      }
    }
    return null;
  }

  /** What is wrong with a sweep's output file (missing, ragged, non-finite), or null. */
  private static String badRows(Path out) {
    if (!Files.exists(out)) {
      return "succeeded without writing " + out;
    }
    try {
      List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
      if (out.toString().endsWith(".csv")) {
        long columns = lines.get(0).chars().filter(c -> c == ',').count();
        for (String l : lines) {
          if (!l.contains("\"") && l.chars().filter(c -> c == ',').count() != columns) {
            return "ragged CSV row: " + l;
          }
        }
      } else {
        for (String l : lines) {
          String bad = badJson(l);
          if (bad != null) {
            return bad;
          }
        }
      }
      String text = String.join("\n", lines);
      return NON_FINITE.matcher(text).find() ? "non-finite value in " + out : null;
    } catch (IOException e) {
      return "cannot read " + out + ": " + e;
    }
  }

  private static String excerpt(String text, Pattern p) {
    java.util.regex.Matcher m = p.matcher(text);
    m.find();
    return text.substring(Math.max(0, m.start() - 80), Math.min(text.length(), m.end() + 20));
  }
}
