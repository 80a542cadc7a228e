package io.ridgeline.hardware;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Seconds;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * One level of a chip's memory: its kind, capacity and bandwidth, for example HBM at 80 GB and 3.35
 * TB/s.
 *
 * <p>Capacity is in decimal bytes as the vendor labels it; bandwidth is the peak rate between the
 * tier and the compute units in B/s. Both must be positive; every quantity is finite (see {@code
 * io.ridgeline.core}). Tier names are unique within a chip and are the keys of {@link
 * io.ridgeline.core.ComputeTarget#tierBandwidth()}.
 *
 * <pre>{@code
 * MemoryTier hbm = MemoryTier.of(MemoryKind.HBM, Bytes.ofGigabytes(80), BytesPerSecond.ofTerabytes(3.35));
 * hbm.toString(); // "hbm 80 GB @ 3.35 TB/s"
 * }</pre>
 */
@Value.Immutable
@RidgelineStyle
public abstract class MemoryTier {
  MemoryTier() {} // subclassed only by the generated implementation

  /** The tier's name within its chip; defaults to the kind's id, for example {@code "hbm"}. */
  @Value.Default
  public String name() {
    return kind().id();
  }

  /** The memory technology. */
  public abstract MemoryKind kind();

  /** Capacity in bytes (decimal, as labelled by the vendor); positive. */
  public abstract Bytes capacity();

  /** Peak bandwidth between this tier and the compute units, in B/s; positive. */
  public abstract BytesPerSecond bandwidth();

  /** Access latency, where known; positive when present. */
  public abstract Optional<Seconds> latency();

  /** Where the figures come from; {@code "user"} unless set. */
  @Value.Default
  public String source() {
    return "user";
  }

  /**
   * A tier named after its kind with source {@code "user"}.
   *
   * @throws IllegalArgumentException if capacity or bandwidth is zero
   */
  public static MemoryTier of(MemoryKind kind, Bytes capacity, BytesPerSecond bandwidth) {
    return MemoryTier.builder().kind(kind).capacity(capacity).bandwidth(bandwidth).build();
  }

  /**
   * A new builder; {@code kind}, {@code capacity} and {@code bandwidth} are required. {@code
   * build()} throws {@link IllegalStateException} when one is missing and {@link
   * IllegalArgumentException} when a value breaks a rule above.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link MemoryTier}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableMemoryTier.Builder {
    Builder() {}
  }

  @Value.Check
  void check() {
    checkArgument(!name().isBlank(), "memory tier name must not be blank: '%s'", name());
    checkArgument(
        capacity().bytes() > 0,
        "memory tier %s: capacity must be positive: %s",
        name(),
        capacity());
    checkArgument(
        bandwidth().bytesPerSecond() > 0,
        "memory tier %s: bandwidth must be positive: %s",
        name(),
        bandwidth());
    latency()
        .ifPresent(
            l ->
                checkArgument(
                    l.seconds() > 0, "memory tier %s: latency must be positive: %s", name(), l));
  }

  /**
   * The name, capacity and bandwidth with units, for example {@code "hbm 80 GB @ 3.35 TB/s"}; the
   * kind follows the name when they differ, the latency follows the bandwidth when known.
   */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder(name());
    if (!name().equals(kind().id())) {
      s.append(" (").append(kind().id()).append(')');
    }
    s.append(' ').append(capacity()).append(" @ ").append(bandwidth());
    latency().ifPresent(l -> s.append(", ").append(l).append(" latency"));
    return s.toString();
  }
}
