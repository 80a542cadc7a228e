package io.ridgeline.validation;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Which quantity a case measures (the {@code metric} column of a case file, see {@code cases.md}),
 * with its unit.
 */
public enum Metric {
  /** Mean time to first token, queueing included. */
  TTFT_MS("ttft_ms", "ms", Quantity.TTFT),
  /**
   * Median time to first token over a run's requests, queueing included: the typical request, where
   * a run's mean is carried by a tail of a few slow ones (see {@code cases.md}).
   */
  MEDIAN_TTFT_MS("median_ttft_ms", "ms", Quantity.TTFT),
  /** Mean time per output token after the first. */
  TPOT_MS("tpot_ms", "ms", Quantity.DECODE_SPEED),
  /** Mean end-to-end latency of a request. */
  E2E_S("e2e_s", "s", Quantity.END_TO_END),
  /** Output tokens per second seen by one request: 1 / TPOT. */
  OUT_TOK_S_PER_USER("out_tok_s_per_user", "tokens/s", Quantity.DECODE_SPEED),
  /** Output tokens per second of the system over all its chips. */
  OUT_TOK_S_PER_CHIP("out_tok_s_per_chip", "tokens/s", Quantity.THROUGHPUT),
  /** Input and output tokens per second of the system over all its chips. */
  TOTAL_TOK_S_PER_CHIP("total_tok_s_per_chip", "tokens/s", Quantity.THROUGHPUT),
  /** Input tokens per second of the system over all its chips. */
  INPUT_TOK_S_PER_CHIP("input_tok_s_per_chip", "tokens/s", Quantity.THROUGHPUT);

  private final String id;
  private final String unit;
  private final Quantity quantity;

  Metric(String id, String unit, Quantity quantity) {
    this.id = id;
    this.unit = unit;
    this.quantity = quantity;
  }

  /** The id in a case file, e.g. {@code tpot_ms}. */
  public String id() {
    return id;
  }

  /** The unit of measured and predicted values, e.g. {@code ms}. */
  public String unit() {
    return unit;
  }

  /** The metric of {@code id}, if any (exact match). */
  public static Optional<Metric> find(String id) {
    return Arrays.stream(values()).filter(m -> m.id.equals(id)).findFirst();
  }

  /** The known ids, comma-separated in declaration order. */
  public static String known() {
    return Arrays.stream(values()).map(Metric::id).collect(Collectors.joining(", "));
  }

  /**
   * The physical quantity a metric reports: metrics of one quantity at one operating point are one
   * number in different units, so a fit counts them once ({@link FitObjective}).
   */
  public enum Quantity {
    /** Tokens per second per chip: output, total and input differ by the fixed ratio of lengths. */
    THROUGHPUT,
    /** The decode speed one request sees: TPOT and its reciprocal, tokens/s per user. */
    DECODE_SPEED,
    /** Time to first token. */
    TTFT,
    /** End-to-end latency: TTFT plus the decode of the output. */
    END_TO_END
  }

  /** The quantity this metric reports. */
  public Quantity quantity() {
    return quantity;
  }

  /** Whether the metric is a time (TTFT, TPOT, end-to-end latency) rather than a rate. */
  public boolean isTime() {
    return switch (this) {
      case TTFT_MS, MEDIAN_TTFT_MS, TPOT_MS, E2E_S -> true;
      case OUT_TOK_S_PER_USER, OUT_TOK_S_PER_CHIP, TOTAL_TOK_S_PER_CHIP, INPUT_TOK_S_PER_CHIP ->
          false;
    };
  }

  /**
   * ln of how much slower the prediction is than the measurement, from predicted / measured: the
   * log ratio itself for a time, its negative for a rate (a rate predicted 20% low and a time
   * predicted 25% high are the same slowdown, ln 1.25).
   */
  public double lnSlowdown(double ratio) {
    return isTime() ? Math.log(ratio) : -Math.log(ratio);
  }

  /** The prediction {@code predicted} of this metric made {@code exp(lnSlowdown)} faster. */
  public double faster(double predicted, double lnSlowdown) {
    return isTime() ? predicted * Math.exp(-lnSlowdown) : predicted * Math.exp(lnSlowdown);
  }

  /** The {@link #id()}. */
  @Override
  public String toString() {
    return id;
  }
}
