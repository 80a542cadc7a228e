/**
 * Validation against published measurements: {@link io.ridgeline.validation.CaseFile} reads a case
 * file (one published metric at one operating point per row, format in {@code cases.md} next to the
 * shipped {@code cases.csv}; its {@link io.ridgeline.validation.Mode modes} and {@link
 * io.ridgeline.validation.Metric metrics} are enums, its typed run columns a {@link
 * io.ridgeline.validation.RunSetup}, its notes free text), {@link
 * io.ridgeline.validation.Predictor} rebuilds each row's system from its stated configuration and
 * predicts the metric, and {@link io.ridgeline.validation.Validation} collects the predictions, the
 * rows that could not be predicted (with their reasons) and {@link io.ridgeline.validation.Summary
 * summary statistics}.
 *
 * <pre>{@code
 * Validation v = Validation.run(CaseFile.shipped(), Predictor.ideal());
 * v.overall();        // count, median APE, geometric-mean ratio, within ±25% / ±50%
 * v.skipped();        // rows that could not be predicted, each with its reason
 * }</pre>
 */
@CheckReturnValue
package io.ridgeline.validation;

import com.google.errorprone.annotations.CheckReturnValue;
