package io.ridgeline.core;

import java.util.Map;
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

  /**
   * Weight precisions that differ from {@link #weights()} by tensor class, for example MXFP4
   * experts with BF16 attention.
   */
  public abstract Map<TensorClass, Precision> weightOverrides();

  /**
   * The storage precision of weights of class {@code tensors}: its override, else {@link
   * #weights()}.
   */
  public Precision weights(TensorClass tensors) {
    return weightOverrides().getOrDefault(tensors, weights());
  }

  /**
   * The precision weight GEMMs of class {@code tensors} run at: the wider of their storage and
   * activations.
   */
  public Precision matmul(TensorClass tensors) {
    return wider(weights(tensors), activations());
  }

  /** This with every weight class at {@code precision} (overrides cleared). */
  public Precisions withAllWeights(Precision precision) {
    return ImmutablePrecisions.builder()
        .from(this)
        .weights(precision)
        .weightOverrides(Map.of())
        .build();
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
    StringBuilder b = new StringBuilder("weights ").append(weights());
    weightOverrides()
        .forEach((k, v) -> b.append(" (").append(k.id()).append(" ").append(v).append(")"));
    return b.append(", kv ")
        .append(kvCache())
        .append(", activations ")
        .append(activations())
        .toString();
  }
}
