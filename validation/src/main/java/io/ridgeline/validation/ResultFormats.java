package io.ridgeline.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Each benchmark tool's result object read into one shape ({@link Measured}); the keys of each
 * format are in {@link BenchmarkResults}. Every value read is checked positive and finite, and a
 * missing or bad one is an {@link IllegalArgumentException} naming where it is and its key; a run
 * that cannot anchor (a rate-driven GuideLLM or AIPerf run without a concurrency) is {@link
 * Unpredictable}, with why.
 */
final class ResultFormats {
  private ResultFormats() {}

  /**
   * One operating point as a tool reports it.
   *
   * @param completed requests completed
   * @param inputTokens prompt tokens of all completed requests
   * @param outputTokens output tokens of all completed requests
   * @param concurrency the run's concurrency limit (clients), empty for none
   * @param requestsPerSecond the request rate sent, {@code +∞} for all prompts at once
   * @param medianTtftMs the median TTFT in ms, if the file has one
   * @param meanTtftMs the mean TTFT in ms, if the file has one
   * @param tpotMs the mean time per output token after the first, ms
   * @param outputTokensPerSecond output tokens/s of the whole system
   * @param engine the serving engine the file names, empty when it does not
   */
  record Measured(
      double completed,
      double inputTokens,
      double outputTokens,
      OptionalInt concurrency,
      double requestsPerSecond,
      Optional<Double> medianTtftMs,
      Optional<Double> meanTtftMs,
      double tpotMs,
      double outputTokensPerSecond,
      String engine) {}

  /** {@code vllm bench serve} and SGLang {@code bench_serving}: flat keys. */
  static Measured servingBench(BenchmarkResults.Format f, JsonNode o, String where) {
    double completed = required(number(o, "completed", where), where, "completed");
    double inputTokens =
        required(number(o, "total_input_tokens", where), where, "total_input_tokens");
    double outputTokens =
        required(number(o, "total_output_tokens", where), where, "total_output_tokens");
    Optional<Double> medianTtftMs = number(o, "median_ttft_ms", where);
    Optional<Double> meanTtftMs = number(o, "mean_ttft_ms", where);
    double tpotMs =
        required(
            number(o, "mean_tpot_ms", where).or(() -> number(o, "median_tpot_ms", where)),
            where,
            "mean_tpot_ms");
    double outputTokensPerSecond =
        required(number(o, "output_throughput", where), where, "output_throughput");
    JsonNode c = o.path("max_concurrency");
    OptionalInt concurrency =
        absent(c) ? OptionalInt.empty() : OptionalInt.of(count(c, where, "max_concurrency"));
    JsonNode r = o.path("request_rate");
    double rate;
    if (absent(r) || (r.isTextual() && r.asText().equalsIgnoreCase("inf"))) {
      rate = Double.POSITIVE_INFINITY;
    } else if (r.isNumber() && r.doubleValue() > 0) {
      rate = r.doubleValue();
    } else {
      throw new IllegalArgumentException(
          where + ": 'request_rate' must be a positive number or \"inf\": " + r);
    }
    String backend = o.path("backend").asText("").toLowerCase(Locale.ROOT);
    String engine = f.engine();
    if (backend.contains("sglang")) {
      engine = "sglang";
    } else if (backend.contains("trt") || backend.contains("tensorrt")) {
      engine = "trtllm";
    } else if (backend.contains("vllm")) {
      engine = "vllm";
    }
    return new Measured(
        completed,
        inputTokens,
        outputTokens,
        concurrency,
        rate,
        medianTtftMs,
        meanTtftMs,
        tpotMs,
        outputTokensPerSecond,
        engine);
  }

  /** A GenAI-Perf/AIPerf profile export: metric objects {@code {unit, avg, p50, ...}}. */
  static Measured aiPerf(JsonNode o, String where) {
    double completed = required(stat(o, "request_count", "avg", where), where, "request_count.avg");
    double inputTokens =
        completed
            * required(
                stat(o, "input_sequence_length", "avg", where), where, "input_sequence_length.avg");
    double outputTokens =
        completed
            * required(
                stat(o, "output_sequence_length", "avg", where),
                where,
                "output_sequence_length.avg");
    Optional<Double> medianTtftMs = stat(o, "time_to_first_token", "p50", where);
    Optional<Double> meanTtftMs = stat(o, "time_to_first_token", "avg", where);
    double tpotMs =
        required(stat(o, "inter_token_latency", "avg", where), where, "inter_token_latency.avg");
    double outputTokensPerSecond =
        required(
            stat(o, "output_token_throughput", "avg", where), where, "output_token_throughput.avg");
    JsonNode config = o.path("input_config");
    JsonNode c = config.path("loadgen").path("concurrency");
    if (absent(c)) {
      c = config.path("concurrency");
    }
    if (absent(c)) {
      throw new Unpredictable(
          "the export does not state its concurrency (input_config.loadgen.concurrency):"
              + " only a fixed-concurrency run can anchor");
    }
    return new Measured(
        completed,
        inputTokens,
        outputTokens,
        OptionalInt.of(count(c, where, "input_config concurrency")),
        Double.POSITIVE_INFINITY,
        medianTtftMs,
        meanTtftMs,
        tpotMs,
        outputTokensPerSecond,
        "");
  }

  /**
   * One benchmark of a GuideLLM report: {@code metrics.<name>.successful} statistics, the strategy
   * in {@code config.strategy} (or {@code args.strategy}).
   */
  static Measured guideLlm(JsonNode o, String where) {
    JsonNode m = o.path("metrics");
    double completed = requiredGuide(m, "request_totals", null, where);
    double inputTokens = completed * requiredGuide(m, "prompt_token_count", "mean", where);
    double outputTokens = completed * requiredGuide(m, "output_token_count", "mean", where);
    Optional<Double> medianTtftMs = guide(m, "time_to_first_token_ms", "median", where);
    Optional<Double> meanTtftMs = guide(m, "time_to_first_token_ms", "mean", where);
    double tpotMs =
        required(
            guide(m, "time_per_output_token_ms", "mean", where)
                .or(() -> guide(m, "inter_token_latency_ms", "mean", where)),
            where,
            guideKey("time_per_output_token_ms", "mean"));
    double outputTokensPerSecond = requiredGuide(m, "output_tokens_per_second", "mean", where);
    JsonNode strategy = o.path("config").path("strategy");
    if (strategy.isMissingNode()) {
      strategy = o.path("args").path("strategy");
    }
    String type = strategy.path("type_").asText(strategy.path("type").asText(""));
    OptionalInt concurrency =
        switch (type) {
          case "synchronous" -> OptionalInt.of(1);
          case "concurrent" ->
              OptionalInt.of(count(strategy.path("streams"), where, "config.strategy.streams"));
          case "throughput" -> OptionalInt.empty();
          default ->
              throw new Unpredictable(
                  "a GuideLLM '"
                      + type
                      + "' run: only synchronous, concurrent and throughput runs can anchor");
        };
    return new Measured(
        completed,
        inputTokens,
        outputTokens,
        concurrency,
        Double.POSITIVE_INFINITY,
        medianTtftMs,
        meanTtftMs,
        tpotMs,
        outputTokensPerSecond,
        "");
  }

  static IllegalArgumentException missing(String where, String key) {
    return new IllegalArgumentException(where + ": missing '" + key + "'");
  }

  private static double required(Optional<Double> v, String where, String key) {
    return v.orElseThrow(() -> missing(where, key));
  }

  private static boolean absent(JsonNode v) {
    return v.isMissingNode() || v.isNull();
  }

  /** A positive finite number at {@code o.key}, or empty when the key is absent or null. */
  private static Optional<Double> number(JsonNode o, String key, String where) {
    return checked(o.path(key), where, key);
  }

  /** {@code o.name.statistic} of an AIPerf metric object. */
  private static Optional<Double> stat(JsonNode o, String name, String statistic, String where) {
    return checked(o.path(name).path(statistic), where, name + "." + statistic);
  }

  /**
   * GuideLLM's {@code metrics.name.successful.statistic} (a count when {@code statistic} is null);
   * the median also from {@code percentiles.p50}.
   */
  private static Optional<Double> guide(JsonNode m, String name, String statistic, String where) {
    JsonNode s = m.path(name).path("successful");
    JsonNode v = statistic == null ? s : s.path(statistic);
    if (absent(v) && "median".equals(statistic)) {
      v = s.path("percentiles").path("p50");
    }
    return checked(v, where, guideKey(name, statistic));
  }

  private static double requiredGuide(JsonNode m, String name, String statistic, String where) {
    return required(guide(m, name, statistic, where), where, guideKey(name, statistic));
  }

  private static String guideKey(String name, String statistic) {
    return "metrics." + name + ".successful" + (statistic == null ? "" : "." + statistic);
  }

  /** {@code v} checked positive and finite, empty when absent or null. */
  private static Optional<Double> checked(JsonNode v, String where, String key) {
    return absent(v) ? Optional.empty() : Optional.of(check(v, where, key));
  }

  private static double check(JsonNode v, String where, String key) {
    if (!v.isNumber() || !Double.isFinite(v.doubleValue()) || v.doubleValue() <= 0) {
      throw new IllegalArgumentException(
          where + ": '" + key + "' must be a positive finite number: " + v);
    }
    return v.doubleValue();
  }

  /** A whole number from 1 to 2^31 - 1. */
  private static int count(JsonNode v, String where, String key) {
    double d = check(v, where, key);
    if (d != Math.rint(d) || d > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          where
              + ": '"
              + key
              + "' must be a whole number from 1 to "
              + Integer.MAX_VALUE
              + ": "
              + v);
    }
    return (int) d;
  }
}
