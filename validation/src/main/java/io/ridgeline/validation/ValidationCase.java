package io.ridgeline.validation;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * One row of a case file: one published metric at one operating point. Empty columns are empty
 * optionals: an empty {@code tp} means "not stated", not 1. Column meanings are in {@code
 * cases.md}. What the row states about how the run was set up (engine version, scheduler, decode
 * launch, engine cap, prompts, range ratio, server bounds, load per chip) is {@link #run()}; the
 * {@code notes} are free text that no prediction reads.
 *
 * @param caseId unique id of the row, {@code point_id-metricshort}
 * @param pointId id of the operating point
 * @param model model catalog id
 * @param chip chip catalog id
 * @param chips accelerators in the measured system
 * @param prefillChips accelerators of the prefill pool (disaggregated rows)
 * @param decodeChips accelerators of the decode pool (disaggregated rows)
 * @param tp tensor-parallel degree as stated by the source
 * @param pp pipeline-parallel degree
 * @param ep expert-parallel degree
 * @param attentionDp attention data-parallel degree
 * @param weights weight precision id
 * @param kvCache KV-cache precision id
 * @param isl input tokens per request (the KV length for {@code disagg-decode})
 * @param osl output tokens per request
 * @param mode how the load was applied
 * @param load the load level, meaning set by {@code mode}
 * @param speculative the speculative-decoding method, e.g. {@code mtp3}
 * @param engine serving-engine family
 * @param metric which quantity {@code measured} holds
 * @param measured the published value, positive, in the metric's unit
 * @param confidence high, medium or low
 * @param source short name of the publication
 * @param url link to the publication
 * @param run how the run was set up, from the typed run columns ({@link CaseFile#RUN_COLUMNS})
 * @param notes what a modeller must know about the row: free text, never read for a value
 * @param line the line of the file the row starts on (1 = header)
 */
public record ValidationCase(
    String caseId,
    String pointId,
    String model,
    String chip,
    OptionalInt chips,
    OptionalInt prefillChips,
    OptionalInt decodeChips,
    OptionalInt tp,
    OptionalInt pp,
    OptionalInt ep,
    OptionalInt attentionDp,
    Optional<String> weights,
    Optional<String> kvCache,
    OptionalInt isl,
    OptionalInt osl,
    Mode mode,
    OptionalInt load,
    Optional<String> speculative,
    String engine,
    Metric metric,
    double measured,
    String confidence,
    String source,
    String url,
    RunSetup run,
    String notes,
    int line) {
  /** Checks that the run setup is given ({@link RunSetup#NOT_STATED} when nothing is stated). */
  public ValidationCase {
    java.util.Objects.requireNonNull(run, "run");
  }

  @Override
  public String toString() {
    return caseId + " (" + model + " on " + chip + ", " + mode + ", " + metric + " = " + measured
        + ")";
  }
}
