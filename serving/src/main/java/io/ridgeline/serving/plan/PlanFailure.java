package io.ridgeline.serving.plan;

import java.util.Locale;

/** Why a candidate configuration of a {@link Planner plan} misses its service-level objectives. */
public enum PlanFailure {
  /**
   * The weights, KV cache and workspace do not fit in the chips' memory: not even one request fits
   * the layout, or the candidate's batch does not (for pd, on either pool).
   */
  MEMORY,
  /** The p50 time to first token under load exceeds the TTFT objective. */
  TTFT,
  /** The p50 time per output token exceeds the TPOT objective. */
  TPOT,
  /** The p99 time to first token under load exceeds the TTFT p99 objective. */
  TTFT_P99,
  /** The p99 time per output token exceeds the TPOT p99 objective. */
  TPOT_P99,
  /**
   * Under a chip budget ({@link PlanRequest#totalChips()}): the smallest fleet (one replica, for pd
   * and afd also one prefill replica) needs more chips than the budget.
   */
  CHIPS;

  /** The lower-case id used in JSON and text: {@code memory}, {@code ttft}, {@code ttft_p99}, … */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
