package io.ridgeline.core;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.List;
import org.immutables.value.Value;

/** A named sequence of operations that run one after another, for example {@code decode_ffn}. */
@Value.Immutable
@RidgelineStyle
public abstract class Phase {
  /** The phase name, for example {@code "prefill"}. */
  @Value.Parameter
  public abstract String name();

  /** The operations in execution order. */
  @Value.Parameter
  public abstract List<Operation> operations();

  /** The phase {@code name} of {@code operations}. */
  public static Phase of(String name, List<Operation> operations) {
    return ImmutablePhase.of(name, operations);
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
    return Roofline.phase(name(), operations(), target);
  }

  @Value.Check
  void check() {
    checkArgument(!name().isBlank(), "phase name must not be blank");
  }

  @Override
  public String toString() {
    return name() + operations();
  }
}
