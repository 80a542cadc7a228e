package io.ridgeline.core;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.immutables.value.Value;

/**
 * A phase (for example {@link PhaseKind#DECODE_FFN}): its operations run one after another, so its
 * time is the sum of theirs and its intensity is total FLOPs over total memory bytes.
 */
@Value.Immutable
@RidgelineStyle
public abstract class PhaseResult {
  PhaseResult() {} // subclassed only by the generated implementation

  /** What part of a step the phase is. */
  public abstract PhaseKind kind();

  /** The phase name for output, the kind's id, for example {@code "prefill"}. */
  public String name() {
    return kind().id();
  }

  /** The operations in execution order. */
  public abstract List<OperationResult> operations();

  /** A phase of {@code kind} with no operations. */
  public static PhaseResult empty(PhaseKind kind) {
    return builder().kind(kind).build();
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link PhaseResult}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutablePhaseResult.Builder {
    Builder() {}
  }

  /** Total FLOPs. */
  @Value.Lazy
  public Flops flops() {
    double s = 0;
    for (OperationResult r : operations()) {
      s += r.operation().flops().flops();
    }
    return Flops.of(s);
  }

  /** Total memory bytes. */
  @Value.Lazy
  public Bytes bytes() {
    double s = 0;
    for (OperationResult r : operations()) {
      s += r.operation().memoryBytes().bytes();
    }
    return Bytes.of(s);
  }

  /** Total bytes sent over the interconnect per chip. */
  @Value.Lazy
  public Bytes networkBytes() {
    double s = 0;
    for (OperationResult r : operations()) {
      s += r.operation().networkBytes().bytes();
    }
    return Bytes.of(s);
  }

  /** Sum of the operations' times. */
  @Value.Derived
  public Seconds seconds() {
    double s = 0;
    for (OperationResult r : operations()) {
      s += r.seconds().seconds();
    }
    return Seconds.of(s);
  }

  /** Total FLOPs over total memory bytes; zero when no bytes move. */
  public FlopsPerByte intensity() {
    return bytes().bytes() == 0 ? FlopsPerByte.ZERO : flops().per(bytes());
  }

  /** Seconds spent in operations of each bound. */
  public Map<Bound, Seconds> secondsByBound() {
    Map<Bound, Seconds> m = new EnumMap<>(Bound.class);
    for (OperationResult r : operations()) {
      m.merge(r.bound(), r.seconds(), Seconds::plus);
    }
    return m;
  }

  /** The bound under which most of the phase's time is spent (compute for an empty phase). */
  public Bound bound() {
    Bound best = Bound.COMPUTE;
    double bestSeconds = -1;
    for (Map.Entry<Bound, Seconds> e : secondsByBound().entrySet()) {
      if (e.getValue().seconds() > bestSeconds) {
        best = e.getKey();
        bestSeconds = e.getValue().seconds();
      }
    }
    return best;
  }

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT,
        "%s: %s, %s, %s, %s-bound, %s",
        name(),
        flops(),
        bytes(),
        intensity(),
        bound(),
        seconds());
  }
}
