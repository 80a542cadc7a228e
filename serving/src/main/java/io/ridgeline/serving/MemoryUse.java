package io.ridgeline.serving;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.RidgelineStyle;
import org.immutables.value.Value;

/**
 * Memory one chip needs for a batch at a context, against the capacity of all its tiers together
 * (the pool's memory plan places weights, workspace and KV from the fastest tier down).
 */
@Value.Immutable
@RidgelineStyle
public abstract class MemoryUse {
  /** This chip's share of the weights. */
  public abstract Bytes weights();

  /** This chip's share of the KV cache. */
  public abstract Bytes kvCache();

  /** Activations and logits of the largest step (see {@link RooflineModel#memory}). */
  public abstract Bytes workspace();

  /** The chip's memory capacity: every tier it can place data on, together. */
  public abstract Bytes capacity();

  /** weights + KV cache + workspace. */
  public Bytes total() {
    return weights().plus(kvCache()).plus(workspace());
  }

  /** Whether the total fits in the capacity. */
  public boolean fits() {
    return total().bytes() <= capacity().bytes();
  }

  @Override
  public String toString() {
    return "weights "
        + weights()
        + " + KV "
        + kvCache()
        + " + workspace "
        + workspace()
        + " = "
        + total()
        + " of "
        + capacity()
        + (fits() ? " (fits)" : " (does not fit)");
  }
}
