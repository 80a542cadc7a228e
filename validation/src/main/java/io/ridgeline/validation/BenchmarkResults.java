package io.ridgeline.validation;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.ridgeline.core.InputFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The result files that serving benchmarks write, read as case rows of a system the file does not
 * state (given on the command line, {@link MeasuredSystem}), so that a user's own benchmark output
 * can anchor an estimate ({@code --anchor}) through the same predictor as {@code validate}.
 *
 * <p>Formats, detected by content (a case file is CSV; these are JSON):
 *
 * <ul>
 *   <li>{@link Format#VLLM}: {@code vllm bench serve --save-result} (and the older {@code
 *       benchmarks/benchmark_serving.py}): one JSON object with {@code completed}, {@code
 *       total_input_tokens}, {@code total_output_tokens}, {@code request_rate} (a number, {@code
 *       "inf"} or {@code Infinity}), {@code max_concurrency} (a number or null), {@code
 *       median_ttft_ms}/{@code mean_ttft_ms}, {@code mean_tpot_ms} and {@code output_throughput}
 *       (output tokens/s of the whole system). Writer: {@code vllm/benchmarks/serve.py} of
 *       vllm-project/vllm.
 *   <li>{@link Format#SGLANG}: {@code python -m sglang.bench_serving --output-file F} appends one
 *       such object per run to a JSON-lines file, with the same keys ({@code dataset_name} and
 *       {@code total_output_tokens_retokenized} besides); each line is one operating point. Writer:
 *       {@code python/sglang/bench_serving.py} of sgl-project/sglang.
 *   <li>{@link Format#AIPERF}: the profile export of NVIDIA GenAI-Perf and AIPerf ({@code
 *       profile_export_genai_perf.json}, {@code profile_export_aiperf.json}): each metric an object
 *       {@code {"unit", "avg", "p50", ...}}: {@code time_to_first_token}, {@code
 *       inter_token_latency}, {@code output_token_throughput}, {@code input_sequence_length},
 *       {@code output_sequence_length}, {@code request_count}; the concurrency in {@code
 *       input_config.loadgen.concurrency} (AIPerf) or {@code input_config.concurrency}
 *       (GenAI-Perf).
 *   <li>{@link Format#GUIDELLM}: GuideLLM's report ({@code guidellm benchmark --output-path
 *       F.json}): {@code benchmarks[]}, each with {@code metrics.<name>.successful} statistics
 *       ({@code time_to_first_token_ms}, {@code time_per_output_token_ms} or {@code
 *       inter_token_latency_ms}, {@code output_tokens_per_second}, {@code prompt_token_count},
 *       {@code output_token_count}, {@code request_totals.successful}) and its strategy in {@code
 *       config.strategy} (or {@code args.strategy}): {@code synchronous} is one client, {@code
 *       concurrent} {@code streams} clients, {@code throughput} all prompts at once; {@code
 *       constant} and {@code poisson} rates are not used.
 * </ul>
 *
 * <p>Each operating point becomes up to three rows: TTFT ({@link Metric#MEDIAN_TTFT_MS} from the
 * median where the file has one, else {@link Metric#TTFT_MS} from the mean), TPOT ({@link
 * Metric#TPOT_MS}: the mean time per output token after the first; AIPerf's mean inter-token
 * latency, the same quantity) and throughput ({@link Metric#OUT_TOK_S_PER_CHIP}: the system's
 * output tokens/s ÷ its chips). ISL and OSL are the run's means (total tokens ÷ completed requests,
 * rounded to whole tokens), so the lengths are stated as fixed ({@code range_ratio} 1) whatever the
 * benchmark's range ratio was. The load: a concurrency limit is a closed loop of that many clients
 * ({@link Mode#CONCURRENCY}); all prompts at once (infinite rate, no limit) is a {@link Mode#BURST}
 * of the run's prompts; a Poisson run at a finite rate without a limit is reported as not used,
 * with why.
 */
public final class BenchmarkResults {
  private BenchmarkResults() {}

  /** Which tool wrote a result file. */
  public enum Format {
    /** {@code vllm bench serve --save-result}. */
    VLLM("vllm bench serve", "vllm"),
    /** SGLang {@code bench_serving}, one JSON object per line. */
    SGLANG("sglang bench_serving", "sglang"),
    /** NVIDIA GenAI-Perf / AIPerf profile export. */
    AIPERF("GenAI-Perf/AIPerf profile export", ""),
    /** GuideLLM's benchmark report: one operating point per entry of {@code benchmarks}. */
    GUIDELLM("GuideLLM report", "");

    private final String tool;
    private final String engine;

    Format(String tool, String engine) {
      this.tool = tool;
      this.engine = engine;
    }

    /** The tool's name, e.g. {@code vllm bench serve}. */
    public String tool() {
      return tool;
    }

    /** The engine the tool's files come from, empty when it benchmarks any. */
    String engine() {
      return engine;
    }
  }

  /**
   * The system a result file was measured on, which the file does not say.
   *
   * @param model model catalog id
   * @param chip chip catalog id
   * @param chips accelerators in the system, at least 1
   * @param tp tensor-parallel degree, at least 1
   * @param pp pipeline-parallel degree, at least 1
   * @param ep expert-parallel degree, at least 1
   * @param weights weight precision id, e.g. {@code fp8}; empty for the checkpoint's own
   * @param kvCache KV-cache precision id; empty for the checkpoint's own
   */
  public record MeasuredSystem(
      String model,
      String chip,
      int chips,
      int tp,
      int pp,
      int ep,
      Optional<String> weights,
      Optional<String> kvCache) {
    /**
     * Checks every field.
     *
     * @throws IllegalArgumentException naming the field, the rule and the value
     */
    public MeasuredSystem {
      checkNotNull(model, "model");
      checkNotNull(chip, "chip");
      checkNotNull(weights, "weights");
      checkNotNull(kvCache, "kvCache");
      checkArgument(chips >= 1, "chips must be at least 1: %s", chips);
      checkArgument(tp >= 1, "tp must be at least 1: %s", tp);
      checkArgument(pp >= 1, "pp must be at least 1: %s", pp);
      checkArgument(ep >= 1, "ep must be at least 1: %s", ep);
    }
  }

  /**
   * The rows of a result file and the points it holds that cannot be used, each with why.
   *
   * @param format the tool that wrote the file
   * @param cases the rows, three per usable point at most
   * @param unused one line per point not used: "NAME line N: REASON"
   */
  public record Read(Format format, List<ValidationCase> cases, List<String> unused) {
    /** Copies the lists. */
    public Read {
      checkNotNull(format, "format");
      cases = List.copyOf(cases);
      unused = List.copyOf(unused);
    }
  }

  /**
   * Whether {@code text} is a result file rather than a case file: its first character that is not
   * white space (after a byte-order mark) opens a JSON object.
   */
  public static boolean isResultFile(String text) {
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (ch == '\uFEFF' || Character.isWhitespace(ch)) {
        continue;
      }
      return ch == '{';
    }
    return false;
  }

  /**
   * The rows of the result file {@code text} measured on {@code system}; {@code name} names the
   * file in messages.
   *
   * @throws IllegalArgumentException naming the file, the line and the key when the text is not a
   *     result file of a known format or a value is missing, not a number, not finite or not
   *     positive
   */
  public static Read read(String text, String name, MeasuredSystem system) {
    checkNotNull(system, "system");
    List<Point> points = new ArrayList<>();
    JsonNode whole = null;
    IllegalArgumentException wholeError = null;
    try {
      whole = InputFiles.readJson(text, name, true);
    } catch (IllegalArgumentException e) {
      wholeError = e;
    }
    if (whole != null && whole.path("benchmarks").isArray()) {
      // a GuideLLM report: each benchmark one operating point
      int i = 0;
      for (JsonNode b : whole.path("benchmarks")) {
        points.add(new Point(b, ++i, true));
      }
      if (points.isEmpty()) {
        throw new IllegalArgumentException(name + ": a GuideLLM report with no benchmark");
      }
    } else if (whole != null) {
      points.add(new Point(whole, 1, false));
    } else {
      // JSON lines (SGLang appends one object per run): every non-blank line one object
      String[] lines = text.split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        if (lines[i].isBlank()) {
          continue;
        }
        JsonNode node;
        try {
          node = InputFiles.readJson(lines[i], name + " line " + (i + 1), true);
        } catch (IllegalArgumentException e) {
          throw points.isEmpty() ? wholeError : e;
        }
        points.add(new Point(node, i + 1, false));
      }
    }
    Format format = null;
    List<ValidationCase> cases = new ArrayList<>();
    List<String> unused = new ArrayList<>();
    int index = 0;
    for (Point p : points) {
      index++;
      String where =
          p.guidellm
              ? name + " benchmark " + p.line
              : points.size() == 1 ? name : name + " line " + p.line;
      if (!p.node.isObject()) {
        throw new IllegalArgumentException(where + ": expected a JSON object of benchmark results");
      }
      Format f = p.guidellm ? Format.GUIDELLM : format(p.node, where);
      if (format != null && f != format) {
        throw new IllegalArgumentException(
            where + ": a " + f.tool() + " result after " + format.tool() + " results");
      }
      format = f;
      try {
        cases.addAll(rows(f, p.node, where, "R" + index, p.line, system));
      } catch (Unpredictable e) {
        unused.add(where + ": " + e.getMessage());
      }
    }
    if (format == null) {
      throw new IllegalArgumentException(name + ": no benchmark result in the file");
    }
    return new Read(format, cases, unused);
  }

  /** One operating point: a JSON object, its line (or benchmark number in a GuideLLM report). */
  private record Point(JsonNode node, int line, boolean guidellm) {}

  /** The format of one result object. */
  private static Format format(JsonNode o, String where) {
    if (o.has("time_to_first_token") && o.get("time_to_first_token").isObject()) {
      return Format.AIPERF;
    }
    if (o.has("total_input_tokens") && (o.has("median_ttft_ms") || o.has("mean_ttft_ms"))) {
      return o.has("dataset_name") || o.has("total_output_tokens_retokenized")
          ? Format.SGLANG
          : Format.VLLM;
    }
    throw new IllegalArgumentException(
        where
            + ": not a known benchmark result (expected the JSON of vllm bench serve"
            + " --save-result, sglang bench_serving, GenAI-Perf or AIPerf, or a case file in CSV)");
  }

  /** The rows of one operating point: TTFT, TPOT and output tokens/s per chip. */
  private static List<ValidationCase> rows(
      Format f, JsonNode o, String where, String point, int line, MeasuredSystem s) {
    ResultFormats.Measured m =
        switch (f) {
          case GUIDELLM -> ResultFormats.guideLlm(o, where);
          case AIPERF -> ResultFormats.aiPerf(o, where);
          case VLLM, SGLANG -> ResultFormats.servingBench(f, o, where);
        };
    if (m.medianTtftMs().isEmpty() && m.meanTtftMs().isEmpty()) {
      throw ResultFormats.missing(where, "median_ttft_ms");
    }
    // the run's mean lengths: total tokens / completed requests
    long isl = Math.round(m.inputTokens() / m.completed());
    long osl = Math.round(m.outputTokens() / m.completed());
    if (isl < 1 || osl < 1 || isl > Integer.MAX_VALUE || osl > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "%s: mean lengths must be from 1 to %d tokens: input %d, output %d",
              where,
              Integer.MAX_VALUE,
              isl,
              osl));
    }
    boolean allAtOnce = Double.isInfinite(m.requestsPerSecond());
    Mode mode;
    if (m.concurrency().isPresent()) {
      if (!allAtOnce) {
        throw new Unpredictable(
            "a Poisson rate ("
                + m.requestsPerSecond()
                + " requests/s) under a concurrency limit: anchor with a run at a fixed concurrency"
                + " (request rate inf) or all prompts at once");
      }
      mode = Mode.CONCURRENCY;
    } else if (allAtOnce) {
      // every prompt sent at once: a burst of the run's prompts, the engine's own running limit
      mode = Mode.BURST;
    } else {
      throw new Unpredictable(
          "a Poisson run at "
              + m.requestsPerSecond()
              + " requests/s: anchor with a run at a fixed concurrency (--max-concurrency) or all"
              + " prompts at once (--request-rate inf)");
    }
    long prompts = Math.round(m.completed());
    RunSetup.Builder run = RunSetup.builder().rangeRatio(1.0);
    if (prompts >= 1 && prompts <= RunSetup.MAX_PROMPTS) {
      run = run.prompts((int) prompts);
    }
    RunSetup setup = run.build();
    String engine = m.engine().isEmpty() ? "unknown" : m.engine();
    // one row per metric of the point, everything else shared
    RowOf row =
        (metricShort, metric, measured) ->
            new ValidationCase(
                point + "-" + metricShort,
                point,
                s.model(),
                s.chip(),
                OptionalInt.of(s.chips()),
                OptionalInt.empty(),
                OptionalInt.empty(),
                OptionalInt.of(s.tp()),
                OptionalInt.of(s.pp()),
                OptionalInt.of(s.ep()),
                OptionalInt.empty(),
                s.weights(),
                s.kvCache(),
                OptionalInt.of((int) isl),
                OptionalInt.of((int) osl),
                mode,
                m.concurrency(),
                Optional.empty(),
                engine,
                metric,
                measured,
                "high",
                where,
                "",
                setup,
                "",
                line);
    return List.of(
        m.medianTtftMs().isPresent()
            ? row.of("ttft", Metric.MEDIAN_TTFT_MS, m.medianTtftMs().get())
            : row.of("ttft", Metric.TTFT_MS, m.meanTtftMs().orElseThrow()),
        row.of("tpot", Metric.TPOT_MS, m.tpotMs()),
        // the system's output tokens/s over its chips
        row.of("out_tps_chip", Metric.OUT_TOK_S_PER_CHIP, m.outputTokensPerSecond() / s.chips()));
  }

  /** A row of one point: its metric and measured value. */
  @FunctionalInterface
  private interface RowOf {
    ValidationCase of(String metricShort, Metric metric, double measured);
  }
}
