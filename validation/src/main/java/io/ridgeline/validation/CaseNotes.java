package io.ridgeline.validation;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the free-text {@code notes} of a case state that the {@link Predictor} uses, parsed once:
 * the benchmark's length range ratio ("range ratio 0.5"), its prompt count ("1280 prompts"), the
 * latency bounds of a server-mode row ("SLO TTFT 2 s / TPOT 200 ms", or "constraints TTFT …"), and
 * whether the load is per chip ("per chip", any case), and whether the engine ran decode without
 * CUDA graphs ("eager decode", any case: {@link
 * io.ridgeline.serving.efficiency.Efficiency#eagerDecode}), and whether it scheduled each step
 * after the previous one ("synchronous scheduler", any case: not {@link
 * io.ridgeline.serving.efficiency.Efficiency#overlapScheduler}), and the engine's configured cap on
 * running requests per rank ("max_batch 384 per rank": TensorRT-LLM's {@code max_batch_size}, which
 * holds per attention data-parallel rank). The first match of each counts.
 *
 * <pre>{@code
 * CaseNotes n = CaseNotes.parse("range ratio 1.0; 640 prompts");
 * n.rangeRatioOrDefault();            // 1.0
 * n.cycles(OptionalInt.of(64));       // 640 / 64 = 10 rounds
 * CaseNotes.parse("max_batch 384 per rank").maxBatchPerRank();   // OptionalInt[384]
 * }</pre>
 *
 * @param rangeRatio the stated length range ratio, in [0, 1]; empty when not stated or outside
 * @param prompts the stated number of prompts the benchmark sends; empty when not stated
 * @param slo the stated latency bounds; empty when not stated
 * @param loadPerChip whether the notes say the load is per chip
 * @param eagerDecode whether the notes say the engine launched its decode kernels eagerly
 * @param synchronousScheduler whether the notes say the engine scheduled each step after the
 *     previous one, without an overlap scheduler
 * @param maxBatchPerRank the stated cap on requests running at once per rank, at least 1; empty
 *     when not stated
 */
public record CaseNotes(
    OptionalDouble rangeRatio,
    OptionalInt prompts,
    Optional<Slo> slo,
    boolean loadPerChip,
    boolean eagerDecode,
    boolean synchronousScheduler,
    OptionalInt maxBatchPerRank) {
  /** Length range ratio of closed-loop benchmarks whose notes do not state one (InferenceMAX). */
  public static final double DEFAULT_RANGE_RATIO = 0.8;

  /** Rounds per client of closed-loop benchmarks whose notes do not state the prompt count. */
  public static final int DEFAULT_CYCLES = 10;

  private static final Pattern RANGE_RATIO = Pattern.compile("range ratio ([0-9]+(?:\\.[0-9]+)?)");
  private static final Pattern PROMPTS = Pattern.compile("([0-9]+) prompts");
  private static final Pattern MAX_BATCH = Pattern.compile("max_batch ([0-9]+) per rank");
  private static final Pattern SLO =
      Pattern.compile(
          "(?:SLO|constraints) TTFT ([0-9]+(?:\\.[0-9]+)?) (ms|s) / TPOT ([0-9]+(?:\\.[0-9]+)?)"
              + " (ms|s)");

  /**
   * Latency bounds of an MLPerf Server row.
   *
   * @param ttftSeconds the bound on p99 TTFT, in seconds
   * @param tpotSeconds the bound on TPOT, in seconds
   */
  public record Slo(double ttftSeconds, double tpotSeconds) {}

  /** The notes of {@code text}; text that states nothing gives empty values. */
  public static CaseNotes parse(String text) {
    OptionalDouble ratio = OptionalDouble.empty();
    Matcher r = RANGE_RATIO.matcher(text);
    if (r.find()) {
      double v = Double.parseDouble(r.group(1));
      if (v >= 0 && v <= 1) {
        ratio = OptionalDouble.of(v);
      }
    }
    OptionalInt prompts = firstInt(PROMPTS, text);
    Optional<Slo> slo = Optional.empty();
    Matcher s = SLO.matcher(text);
    if (s.find()) {
      slo =
          Optional.of(
              new Slo(
                  Double.parseDouble(s.group(1)) * (s.group(2).equals("ms") ? 1e-3 : 1),
                  Double.parseDouble(s.group(3)) * (s.group(4).equals("ms") ? 1e-3 : 1)));
    }
    OptionalInt maxBatch = firstInt(MAX_BATCH, text);
    if (maxBatch.isPresent() && maxBatch.getAsInt() < 1) {
      maxBatch = OptionalInt.empty();
    }
    String lower = text.toLowerCase(Locale.ROOT);
    return new CaseNotes(
        ratio,
        prompts,
        slo,
        lower.contains("per chip"),
        lower.contains("eager decode"),
        lower.contains("synchronous scheduler"),
        maxBatch);
  }

  /**
   * The integer of {@code pattern}'s first group at its first match in {@code text}; empty when it
   * does not match or the number is more than an int holds (not a count or a batch a benchmark
   * states).
   */
  private static OptionalInt firstInt(Pattern pattern, String text) {
    Matcher m = pattern.matcher(text);
    if (m.find()) {
      try {
        return OptionalInt.of(Integer.parseInt(m.group(1)));
      } catch (NumberFormatException e) {
        return OptionalInt.empty();
      }
    }
    return OptionalInt.empty();
  }

  /** The stated range ratio, else {@value #DEFAULT_RANGE_RATIO}. */
  public double rangeRatioOrDefault() {
    return rangeRatio.orElse(DEFAULT_RANGE_RATIO);
  }

  /**
   * Rounds per client: the stated prompts over {@code load} (at least 1), else {@value
   * #DEFAULT_CYCLES} (InferenceMAX sends 10 × concurrency prompts).
   */
  public int cycles(OptionalInt load) {
    if (prompts.isPresent() && load.isPresent()) {
      return Math.max(1, prompts.getAsInt() / load.getAsInt());
    }
    return DEFAULT_CYCLES;
  }
}
