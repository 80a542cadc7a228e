package io.ridgeline.core;

import java.util.List;
import org.immutables.value.Value;

/**
 * A sequence of operations that run one after another, of one {@link PhaseKind}, for example {@link
 * PhaseKind#DECODE_FFN}.
 */
@Value.Immutable
@RidgelineStyle
public abstract class Phase {
  Phase() {} // subclassed only by the generated implementation

  /** What part of a step the phase is. */
  @Value.Parameter
  public abstract PhaseKind kind();

  /** The phase name for output, the kind's id, for example {@code "prefill"}. */
  public String name() {
    return kind().id();
  }

  /** The operations in execution order. */
  @Value.Parameter
  public abstract List<Operation> operations();

  /** The phase of {@code kind} made of {@code operations}. */
  public static Phase of(PhaseKind kind, List<Operation> operations) {
    return ImmutablePhase.of(kind, operations);
  }

  /** Total FLOPs. */
  public Flops flops() {
    double s = 0;
    for (Operation o : operations()) {
      s += o.flops().flops();
    }
    return Flops.of(s);
  }

  /** Total memory bytes. */
  public Bytes bytes() {
    double s = 0;
    for (Operation o : operations()) {
      s += o.memoryBytes().bytes();
    }
    return Bytes.of(s);
  }

  /** Total bytes of one kind. */
  public Bytes bytes(DataKind kind) {
    double s = 0;
    for (Operation o : operations()) {
      s += o.bytes(kind).bytes();
    }
    return Bytes.of(s);
  }

  /** Total FLOPs over total memory bytes; zero when no bytes move. */
  public FlopsPerByte intensity() {
    Bytes b = bytes();
    return b.bytes() == 0 ? FlopsPerByte.ZERO : flops().per(b);
  }

  /** This phase evaluated on {@code target}. */
  public PhaseResult on(ComputeTarget target) {
    return Roofline.phase(kind(), operations(), target);
  }

  @Override
  public String toString() {
    return name() + operations();
  }
}
