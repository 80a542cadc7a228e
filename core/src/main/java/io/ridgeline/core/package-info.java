/**
 * Units, precisions and roofline arithmetic shared by every Ridgeline module.
 *
 * <h2>Conventions (the one place they are written down)</h2>
 *
 * <ul>
 *   <li><b>FLOPs.</b> One multiply-add counts as 2 FLOPs. A matrix product of an {@code m×k} by a
 *       {@code k×n} matrix costs {@code 2·m·k·n} FLOPs. Element-wise work (norms, activations,
 *       softmax, residual adds) is counted at a few FLOPs per element and is documented where it is
 *       counted; it never decides a bound.
 *   <li><b>Bytes moved.</b> A byte counts once each time it crosses between a memory tier and the
 *       compute units: weights are read once per forward pass (one decode step or one prefill), the
 *       KV cache is read once per decode step and written once per new token, and activations are
 *       read and written once per operation at their precision. Caches between the tier and the
 *       cores (L2, shared memory) are assumed to give perfect reuse inside one operation and none
 *       across operations.
 *   <li><b>Decimal SI.</b> 1 kB = 1e3 B, 1 GB = 1e9 B, 1 TB/s = 1e12 B/s, 1 TFLOP/s = 1e12 FLOP/s.
 *       Binary prefixes appear only where a method says so ({@link
 *       io.ridgeline.core.Bytes#ofGibibytes(double)}).
 *   <li><b>Precision.</b> Bytes per element include block-scale overhead ({@link
 *       io.ridgeline.core.Precision}).
 *   <li><b>Roofline.</b> An operation on a target takes {@code max(FLOPs / peak, Σ bytes_tier /
 *       bandwidth_tier, network time)}; a phase is its operations run one after another, so its
 *       time is their sum and its intensity is total FLOPs over total memory bytes.
 *   <li><b>Roles and kinds.</b> Every operation has an {@link io.ridgeline.core.OperationRole} and
 *       every phase a {@link io.ridgeline.core.PhaseKind}: sharding, efficiency classes, the
 *       attention/FFN split and the crossover are decided by them. Names ({@code "qkv_proj"},
 *       {@code "decode_ffn"}) are for output only.
 *   <li><b>Non-finite values.</b> Every quantity rejects NaN and infinities at construction, and
 *       negatives where its dimension forbids them, with an {@link IllegalArgumentException} naming
 *       the rule and the value.
 * </ul>
 *
 * <p>Entry point for JShell: {@code import static io.ridgeline.core.Units.*;}
 */
@CheckReturnValue
package io.ridgeline.core;

import com.google.errorprone.annotations.CheckReturnValue;
