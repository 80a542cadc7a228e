package io.ridgeline.validation;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a case's load was applied (the {@code mode} column of a case file, see {@code cases.md});
 * {@link Predictor} predicts each mode its own way.
 */
public enum Mode {
  /** A static batch of {@code load} requests prefilled and decoded together. */
  STATIC("static"),
  /** Closed loop: {@code load} clients each send a request when their previous one completes. */
  CONCURRENCY("concurrency"),
  /** As many requests at once as the system runs best (MLPerf Offline), or {@code load}. */
  OFFLINE("offline"),
  /**
   * A burst: the run's {@code prompts} requests sent at once ({@code --request-rate inf}, an
   * offline throughput script), measured until the last one finishes; {@code load} is the engine's
   * running slots if stated.
   */
  BURST("burst"),
  /**
   * Closed-loop clients simulated step by step: {@code load} clients, each sending its next request
   * when its previous one finishes, its offset carried from round to round ({@code prompts} / load
   * rounds).
   */
  CLIENTS("clients"),
  /** Poisson arrivals at the highest rate that meets latency bounds (MLPerf Server). */
  SERVER("server"),
  /** One request at a time. */
  SINGLE_STREAM("single-stream"),
  /** Closed loop on a disaggregated system: a prefill pool and a decode pool. */
  DISAGG_CONCURRENCY("disagg-concurrency"),
  /** The prefill pool of a disaggregated system alone. */
  DISAGG_PREFILL("disagg-prefill"),
  /** The decode pool of a disaggregated system alone. */
  DISAGG_DECODE("disagg-decode"),
  /** Averages of a production fleet: not a controlled operating point. */
  PRODUCTION("production");

  private final String id;

  Mode(String id) {
    this.id = id;
  }

  /** The id in a case file, e.g. {@code disagg-concurrency}. */
  public String id() {
    return id;
  }

  /** The mode of {@code id}, if any (exact match). */
  public static Optional<Mode> find(String id) {
    return Arrays.stream(values()).filter(m -> m.id.equals(id)).findFirst();
  }

  /** The known ids, comma-separated in declaration order. */
  public static String known() {
    return Arrays.stream(values()).map(Mode::id).collect(Collectors.joining(", "));
  }

  /** The {@link #id()}. */
  @Override
  public String toString() {
    return id;
  }
}
