package io.ridgeline.validation;

import io.ridgeline.serving.efficiency.EngineProfile;
import java.util.List;

/**
 * One case's prediction in progress: the row, the notes the prediction collects, the engine profile
 * it runs with and the systems built from it.
 *
 * @param testCase the row
 * @param notes how the value is obtained, appended to as the prediction goes
 * @param engine the engine profile (the ideal one on SRAM-only chips)
 * @param systems the row's systems
 * @param noting whether {@code notes} keeps what is added: false where nobody reads the note (a
 *     fit's loss evaluations), so that the notes' text need not be built
 */
record CaseContext(
    ValidationCase testCase,
    List<String> notes,
    EngineProfile engine,
    CaseSystems systems,
    boolean noting) {}
