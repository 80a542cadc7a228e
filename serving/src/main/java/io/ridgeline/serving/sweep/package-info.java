/**
 * Design-space sweeps: the frontier point of every combination of a grid of models, chips, counts,
 * parallelism, strategies, precisions, batch sizes and lengths, streamed row by row, and their
 * writers.
 *
 * <ul>
 *   <li>{@link io.ridgeline.serving.sweep.Sweep}: the grid ({@code Sweep.Grid}), the rows ({@code
 *       Sweep.Row}) and {@code Sweep.run}, which hands each row to a sink without keeping it;
 *   <li>{@link io.ridgeline.serving.sweep.SweepGridBuilder}: a grid from code ({@code
 *       Sweep.Grid.builder()}) or from the JSON grid file the command line reads;
 *   <li>{@link io.ridgeline.serving.sweep.SweepWriter}: a sweep written as CSV or JSON Lines on
 *       several threads, in row order, each combination's batches evaluated as one compiled block
 *       where they compile, and its {@code SweepWriter.Summary}: how many rows the object path gave
 *       one by one, and why;
 *   <li>sweeps of one pool: {@link io.ridgeline.serving.sweep.IntensitySweep} (each decode phase's
 *       arithmetic intensity as the batch grows, against the ridge point) and {@link
 *       io.ridgeline.serving.sweep.Crossover} (the context at which decode attention overtakes the
 *       FFN).
 * </ul>
 *
 * <p>Where to start in JShell:
 *
 * <pre>{@code
 * Sweep.Grid g = Sweep.Grid.builder().models(Models.byId("llama-3.1-8b"))
 *     .chips(Chips.byId("h100-sxm")).batches(1, 8, 64).build();
 * Sweep.run(g, row -> System.out.println(row));
 * }</pre>
 *
 * <p>Built on the pools and deployments of {@code io.ridgeline.serving}, through {@code
 * Deployment.pointsAt}; nothing there depends on this package.
 */
@CheckReturnValue
package io.ridgeline.serving.sweep;

import com.google.errorprone.annotations.CheckReturnValue;
