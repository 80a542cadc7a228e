package io.ridgeline.core;

import java.util.Map;
import org.immutables.value.Value;

/** The roofline time of one {@link Operation} on one {@link ComputeTarget}. */
@Value.Immutable
@RidgelineStyle
public abstract class OperationResult {
  OperationResult() {} // subclassed only by the generated implementation

  /** The operation evaluated. */
  public abstract Operation operation();

  /** FLOPs / (peak × compute efficiency). */
  public abstract Seconds computeSeconds();

  /** Σ over tiers of bytes / (bandwidth × memory efficiency). */
  public abstract Seconds memorySeconds();

  /** steps × hop latency + network bytes / (link bandwidth × network efficiency). */
  public abstract Seconds networkSeconds();

  /** Memory bytes by tier name. */
  public abstract Map<String, Bytes> bytesByTier();

  /** The operation's time: the largest of its compute, memory and network times. */
  @Value.Derived
  public Seconds seconds() {
    return Seconds.of(
        Roofline.operationSeconds(
            computeSeconds().seconds(), memorySeconds().seconds(), networkSeconds().seconds()));
  }

  /** Which of the three times is the largest (ties favour compute, then memory). */
  @Value.Lazy
  public Bound bound() {
    double c = computeSeconds().seconds();
    double m = memorySeconds().seconds();
    double n = networkSeconds().seconds();
    if (n > c && n > m) {
      return Bound.COMMUNICATION;
    }
    return c >= m ? Bound.COMPUTE : Bound.MEMORY;
  }

  /** FLOPs per memory byte. */
  public FlopsPerByte intensity() {
    return operation().intensity();
  }

  @Override
  public String toString() {
    return operation().name() + ": " + seconds() + " " + bound() + "-bound, " + intensity();
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds an {@link OperationResult}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableOperationResult.Builder {
    Builder() {}
  }
}
