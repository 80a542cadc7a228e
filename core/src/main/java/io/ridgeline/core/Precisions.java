package io.ridgeline.core;

import org.immutables.value.Value;

/**
 * The precisions of one deployment: weights, KV cache and activations.
 *
 * <p>Matrix products run at the wider of the weight and activation precisions (W8A16 runs at the
 * BF16 rate, W8A8 at the FP8 rate); attention over the cache runs at the wider of the KV and
 * activation precisions. See {@link #matmul()} and {@link #attention()}.
 */
@Value.Immutable
@RidgelineStyle
public abstract class Precisions {
  /** Weight storage precision. */
  @Value.Default
  public Precision weights() {
    return Precision.BF16;
  }

  /** KV-cache storage precision. */
  @Value.Default
  public Precision kvCache() {
    return Precision.BF16;
  }

  /** Activation precision. */
  @Value.Default
  public Precision activations() {
    return Precision.BF16;
  }

  /** All three in BF16, the default of today's engines. */
  public static Precisions bf16() {
    return ImmutablePrecisions.builder().build();
  }

  /** Weights, KV cache and activations. */
  public static Precisions of(Precision weights, Precision kvCache, Precision activations) {
    return ImmutablePrecisions.builder()
        .weights(weights)
        .kvCache(kvCache)
        .activations(activations)
        .build();
  }

  /** A new builder (all fields default to BF16). */
  public static ImmutablePrecisions.Builder builder() {
    return ImmutablePrecisions.builder();
  }

  /** The precision weight GEMMs run at: the wider of weights and activations. */
  public Precision matmul() {
    return wider(weights(), activations());
  }

  /** The precision attention over the cache runs at: the wider of KV cache and activations. */
  public Precision attention() {
    return wider(kvCache(), activations());
  }

  private static Precision wider(Precision a, Precision b) {
    return a.valueBits() >= b.valueBits() ? a : b;
  }

  @Override
  public String toString() {
    return "weights " + weights() + ", kv " + kvCache() + ", activations " + activations();
  }
}
