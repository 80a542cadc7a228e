/**
 * Accelerators as the roofline sees them: {@link io.ridgeline.hardware.Chip} (peak FLOP/s per
 * precision, memory tiers, interconnects, power and price, each figure with its source), the
 * built-in catalog of 39 chips and the JSON format for chips of your own.
 *
 * <p>Units follow {@code io.ridgeline.core}: decimal SI (1 GB = 1e9 B, 1 TB/s = 1e12 B/s, 1 TFLOP/s
 * = 1e12 FLOP/s); peaks are dense (no 2:4 structured sparsity); interconnect bandwidth is per
 * direction.
 *
 * <p>Entry point for JShell: {@code import static io.ridgeline.hardware.Chips.*;} then {@code
 * H100_SXM.ridgePoint(Precision.BF16)} or {@code byId("mi300x")}.
 */
@CheckReturnValue
package io.ridgeline.hardware;

import com.google.errorprone.annotations.CheckReturnValue;
