package io.ridgeline.serving;

import java.util.Locale;

/** Why a candidate configuration of a {@link Planner plan} misses its service-level objectives. */
public enum PlanFailure {
  /**
   * The weights, KV cache and workspace do not fit in the chips' memory: not even one request fits
   * the layout, or the candidate's batch does not (for pd, on either pool).
   */
  MEMORY,
  /** The mean time to first token exceeds the TTFT objective. */
  TTFT,
  /** The mean time per output token exceeds the TPOT objective. */
  TPOT;

  /** The lower-case id used in JSON and text: {@code memory}, {@code ttft}, {@code tpot}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
