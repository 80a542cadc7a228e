/**
 * How much of a chip's roofline an engine achieves, and how far an estimate may be off: the
 * efficiency model that turns the roofline bound into a calibrated estimate.
 *
 * <ul>
 *   <li>{@link io.ridgeline.serving.efficiency.Efficiency}: fractions of peak FLOP/s, memory and
 *       interconnect bandwidth, the small-M GEMM curve and fixed costs per kernel, step and hop;
 *       {@code Efficiency.ideal()} is the roofline bound, {@code Efficiency.standard(chip)} the
 *       calibrated default;
 *   <li>{@link io.ridgeline.serving.efficiency.EfficiencyParameter}: the schema of those parameters
 *       (key, unit, plausible range and its source, starting value);
 *   <li>{@link io.ridgeline.serving.efficiency.Profiles} and {@link
 *       io.ridgeline.serving.efficiency.EngineProfile}: fitted efficiencies by engine family, read
 *       from the built-in {@code profiles.json} (one pooled profile, which every family uses) or a
 *       user's file;
 *   <li>{@link io.ridgeline.serving.efficiency.EngineRelease} and {@link
 *       io.ridgeline.serving.efficiency.EngineOffsets}: an engine family and version as a typed
 *       input, and offsets per family or version series backed by at least two sources (estimated
 *       by {@code io.ridgeline.validation.EngineOffsetFit}; none is built in);
 *   <li>{@link io.ridgeline.serving.efficiency.ErrorBands}: the cross-validated error of each
 *       estimate, printed beside it;
 *   <li>{@link io.ridgeline.serving.efficiency.Anchoring}: a user's own measurement scaling an
 *       estimate.
 * </ul>
 *
 * <p>Where to start in JShell:
 *
 * <pre>{@code
 * Efficiency e = Profiles.builtIn().forEngine("vllm").efficiency();   // the pooled profile
 * RooflineModel.builder().model(m).chip(c).efficiency(e).build();   // io.ridgeline.serving
 * }</pre>
 *
 * <p>This package depends on no other part of {@code io.ridgeline.serving}: the pools read it, it
 * never reads them.
 */
@CheckReturnValue
package io.ridgeline.serving.efficiency;

import com.google.errorprone.annotations.CheckReturnValue;
