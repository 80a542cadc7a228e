package io.ridgeline.validation;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.ridgeline.serving.efficiency.EngineRelease;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How a case's benchmark was run, as its typed run columns state it ({@link CaseFile#RUN_COLUMNS},
 * documented in {@code cases.md}): the engine's version, its scheduler, how it launched decode
 * kernels and its configured cap on running requests per rank; the benchmark's prompt count and
 * length range ratio, the latency bounds of a server-mode row, and whether the load counts per
 * chip. Every attribute is optional: an empty cell, or a case file without the column, is "not
 * stated", and the {@link Predictor} then predicts as for a run that says nothing (the engine
 * profile's scheduler, decode launch and cap; {@value #DEFAULT_RANGE_RATIO} range ratio and {@value
 * #DEFAULT_CYCLES} prompts per client; no server bounds; the load per system). The free text of a
 * row's {@code notes} never enters here.
 *
 * <pre>{@code
 * RunSetup r = RunSetup.builder().prompts(640).rangeRatio(1.0).build();
 * r.rangeRatioOrDefault();            // 1.0
 * r.cycles(OptionalInt.of(64));       // 640 / 64 = 10 rounds
 * RunSetup.NOT_STATED.eagerDecode();  // false
 * }</pre>
 *
 * @param engineVersion the engine's version as the source states it ({@link #VERSION}), e.g. {@code
 *     0.7.3}; empty when not stated
 * @param scheduler how the engine scheduled its steps; empty when not stated
 * @param decodeLaunch how the engine launched its decode kernels; empty when not stated
 * @param maxBatchPerRank the engine's configured cap on requests running at once per attention
 *     data-parallel rank, 1 to {@value #MAX_BATCH_PER_RANK}; empty when not stated
 * @param prompts the number of prompts the benchmark sent, 1 to {@value #MAX_PROMPTS}; empty when
 *     not stated
 * @param rangeRatio the benchmark's length range ratio, in [0, 1]; empty when not stated
 * @param slo the latency bounds of a server-mode run; empty when not stated
 * @param loadPerChip whether the row's {@code load} counts per chip rather than per system
 */
public record RunSetup(
    Optional<String> engineVersion,
    Optional<Scheduler> scheduler,
    Optional<DecodeLaunch> decodeLaunch,
    OptionalInt maxBatchPerRank,
    OptionalInt prompts,
    OptionalDouble rangeRatio,
    Optional<Slo> slo,
    boolean loadPerChip) {
  /** Length range ratio of closed-loop benchmarks that do not state one (InferenceMAX). */
  public static final double DEFAULT_RANGE_RATIO = 0.8;

  /** Rounds per client of closed-loop benchmarks that do not state the prompt count. */
  public static final int DEFAULT_CYCLES = 10;

  /**
   * The most prompts a run may state: 1,000,000 (a closed loop's rounds × prompts per round are at
   * most this many simulated requests; the shipped runs send at most 49,152).
   */
  public static final int MAX_PROMPTS = 1_000_000;

  /** The largest cap per rank a run may state: 2^20 = 1,048,576 running requests. */
  public static final int MAX_BATCH_PER_RANK = 1 << 20;

  /**
   * A version: a digit first, then letters, digits, {@code .}, {@code -}, {@code +} or {@code _}
   * ({@code 0.7.3}, {@code 0.4.2.post4}, {@code 1.1.0rc2.post2}): {@link EngineRelease#VERSION}.
   */
  public static final Pattern VERSION = EngineRelease.VERSION;

  /** A run that states nothing: every attribute empty, the load per system. */
  public static final RunSetup NOT_STATED =
      new RunSetup(
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          OptionalInt.empty(),
          OptionalInt.empty(),
          OptionalDouble.empty(),
          Optional.empty(),
          false);

  /**
   * Checks every stated value.
   *
   * @throws IllegalArgumentException naming the attribute, the rule and the value
   */
  public RunSetup {
    checkNotNull(engineVersion, "engineVersion");
    checkNotNull(scheduler, "scheduler");
    checkNotNull(decodeLaunch, "decodeLaunch");
    checkNotNull(maxBatchPerRank, "maxBatchPerRank");
    checkNotNull(prompts, "prompts");
    checkNotNull(rangeRatio, "rangeRatio");
    checkNotNull(slo, "slo");
    engineVersion.ifPresent(
        v ->
            checkArgument(
                VERSION.matcher(v).matches(),
                "engine version must start with a digit followed by letters, digits, '.', '-',"
                    + " '+' or '_': '%s'",
                v));
    maxBatchPerRank.ifPresent(
        n ->
            checkArgument(
                n >= 1 && n <= MAX_BATCH_PER_RANK,
                "max batch per rank must be from 1 to %s: %s",
                MAX_BATCH_PER_RANK,
                n));
    prompts.ifPresent(
        n ->
            checkArgument(
                n >= 1 && n <= MAX_PROMPTS, "prompts must be from 1 to %s: %s", MAX_PROMPTS, n));
    rangeRatio.ifPresent(
        r -> checkArgument(r >= 0 && r <= 1, "range ratio must be in [0, 1]: %s", r));
  }

  /** How an engine schedules its steps. */
  public enum Scheduler {
    /** Step i+1 is scheduled on the host while the device runs step i. */
    OVERLAP("overlap"),
    /** Each step is scheduled after the previous one ends. */
    SYNCHRONOUS("synchronous");

    private final String id;

    Scheduler(String id) {
      this.id = id;
    }

    /** The id in a case file, e.g. {@code synchronous}. */
    public String id() {
      return id;
    }

    /** The scheduler of {@code id}, if any (exact match). */
    public static Optional<Scheduler> find(String id) {
      return Arrays.stream(values()).filter(s -> s.id.equals(id)).findFirst();
    }

    /** The {@link #id()}. */
    @Override
    public String toString() {
      return id;
    }
  }

  /** How an engine launches its decode kernels. */
  public enum DecodeLaunch {
    /** A captured CUDA (or HIP) graph replayed per decode pass. */
    GRAPHS("graphs"),
    /** Every kernel launched from the host. */
    EAGER("eager");

    private final String id;

    DecodeLaunch(String id) {
      this.id = id;
    }

    /** The id in a case file, e.g. {@code eager}. */
    public String id() {
      return id;
    }

    /** The decode launch of {@code id}, if any (exact match). */
    public static Optional<DecodeLaunch> find(String id) {
      return Arrays.stream(values()).filter(d -> d.id.equals(id)).findFirst();
    }

    /** The {@link #id()}. */
    @Override
    public String toString() {
      return id;
    }
  }

  /**
   * Latency bounds of an MLPerf Server row.
   *
   * @param ttftMs the bound on p99 TTFT, in ms, positive
   * @param tpotMs the bound on TPOT, in ms, positive
   */
  public record Slo(double ttftMs, double tpotMs) {
    /**
     * Checks both bounds.
     *
     * @throws IllegalArgumentException when a bound is not a positive finite number
     */
    public Slo {
      checkArgument(
          Double.isFinite(ttftMs) && ttftMs > 0, "SLO TTFT must be positive: %s ms", ttftMs);
      checkArgument(
          Double.isFinite(tpotMs) && tpotMs > 0, "SLO TPOT must be positive: %s ms", tpotMs);
    }

    /** The TTFT bound in seconds: ms × 1e-3. */
    public double ttftSeconds() {
      return ttftMs * 1e-3;
    }

    /** The TPOT bound in seconds: ms × 1e-3. */
    public double tpotSeconds() {
      return tpotMs * 1e-3;
    }
  }

  /** A builder of a run that states nothing until told. */
  public static Builder builder() {
    return new Builder();
  }

  /** Whether the engine launched every decode kernel from the host ({@link DecodeLaunch#EAGER}). */
  public boolean eagerDecode() {
    return decodeLaunch.equals(Optional.of(DecodeLaunch.EAGER));
  }

  /**
   * Whether the engine scheduled each step after the previous one ({@link Scheduler#SYNCHRONOUS}).
   */
  public boolean synchronousScheduler() {
    return scheduler.equals(Optional.of(Scheduler.SYNCHRONOUS));
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

  /** The ids of {@code values}, comma-separated in declaration order. */
  static String known(Enum<?>[] values) {
    return Arrays.stream(values).map(Object::toString).collect(Collectors.joining(", "));
  }

  /** Builds a {@link RunSetup}; every attribute starts not stated. */
  public static final class Builder {
    private Optional<String> engineVersion = Optional.empty();
    private Optional<Scheduler> scheduler = Optional.empty();
    private Optional<DecodeLaunch> decodeLaunch = Optional.empty();
    private OptionalInt maxBatchPerRank = OptionalInt.empty();
    private OptionalInt prompts = OptionalInt.empty();
    private OptionalDouble rangeRatio = OptionalDouble.empty();
    private Optional<Slo> slo = Optional.empty();
    private boolean loadPerChip;

    private Builder() {}

    /** The engine's version, e.g. {@code 0.7.3}. */
    public Builder engineVersion(String version) {
      this.engineVersion = Optional.of(checkNotNull(version, "engineVersion"));
      return this;
    }

    /** How the engine scheduled its steps. */
    public Builder scheduler(Scheduler s) {
      this.scheduler = Optional.of(checkNotNull(s, "scheduler"));
      return this;
    }

    /** How the engine launched its decode kernels. */
    public Builder decodeLaunch(DecodeLaunch d) {
      this.decodeLaunch = Optional.of(checkNotNull(d, "decodeLaunch"));
      return this;
    }

    /** The engine's configured cap on running requests per rank. */
    public Builder maxBatchPerRank(int n) {
      this.maxBatchPerRank = OptionalInt.of(n);
      return this;
    }

    /** The number of prompts the benchmark sent. */
    public Builder prompts(int n) {
      this.prompts = OptionalInt.of(n);
      return this;
    }

    /** The benchmark's length range ratio, in [0, 1]. */
    public Builder rangeRatio(double r) {
      this.rangeRatio = OptionalDouble.of(r);
      return this;
    }

    /** The latency bounds of a server-mode run, in ms. */
    public Builder slo(double ttftMs, double tpotMs) {
      this.slo = Optional.of(new Slo(ttftMs, tpotMs));
      return this;
    }

    /** Whether the load counts per chip. */
    public Builder loadPerChip(boolean perChip) {
      this.loadPerChip = perChip;
      return this;
    }

    /**
     * The run.
     *
     * @throws IllegalArgumentException when a value breaks its rule (see {@link RunSetup})
     */
    public RunSetup build() {
      return new RunSetup(
          engineVersion,
          scheduler,
          decodeLaunch,
          maxBatchPerRank,
          prompts,
          rangeRatio,
          slo,
          loadPerChip);
    }
  }
}
