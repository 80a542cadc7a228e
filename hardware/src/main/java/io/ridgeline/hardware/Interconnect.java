package io.ridgeline.hardware;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Seconds;
import java.util.Locale;
import org.immutables.value.Value;

/**
 * A link between chips as collectives see it: bandwidth per direction per chip, latency per hop and
 * how many chips share the fabric.
 *
 * <p>Bandwidth is per direction (NVLink 4's "900 GB/s" is 450 GB/s each way) and must be positive;
 * latency is per hop and must not be negative; the domain size counts the chips reachable at this
 * bandwidth (8 on an HGX board, 72 in an NVL72 rack) and is at least 1.
 *
 * <pre>{@code
 * Interconnect nvlink = Interconnect.builder()
 *     .name("NVLink 4").scope(Interconnect.Scope.SCALE_UP)
 *     .bandwidthPerDirection(BytesPerSecond.ofGigabytes(450))
 *     .latency(Seconds.ofMicros(1)).domainSize(8).build();
 * }</pre>
 */
@Value.Immutable
@RidgelineStyle
public abstract class Interconnect {
  Interconnect() {} // subclassed only by the generated implementation

  /** Where an interconnect sits. */
  public enum Scope {
    /** A fabric inside a node or rack (NVLink, xGMI, ICI, NeuronLink). */
    SCALE_UP,
    /** A network between nodes (InfiniBand, RoCE, Ethernet, DCN, EFA). */
    SCALE_OUT;

    /** The lower-case id with a hyphen, {@code "scale-up"} or {@code "scale-out"}. */
    public String id() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public String toString() {
      return id();
    }
  }

  /** The fabric's name, for example {@code "NVLink 4 (18 links) + NVSwitch"}. */
  public abstract String name();

  /** Whether this is the scale-up fabric or the scale-out network. */
  public abstract Scope scope();

  /** Bandwidth per direction per chip, in B/s; positive. */
  public abstract BytesPerSecond bandwidthPerDirection();

  /** Latency of one hop, in seconds; not negative. */
  public abstract Seconds latency();

  /** Chips reachable at this bandwidth; at least 1. */
  public abstract int domainSize();

  /** Where the figures come from; {@code "user"} unless set. */
  @Value.Default
  public String source() {
    return "user";
  }

  /**
   * A new builder; every attribute but {@code source} is required. {@code build()} throws {@link
   * IllegalStateException} when one is missing and {@link IllegalArgumentException} when a value
   * breaks a rule above.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds an {@link Interconnect}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableInterconnect.Builder {
    Builder() {}
  }

  @Value.Check
  void check() {
    checkArgument(!name().isBlank(), "interconnect name must not be blank: '%s'", name());
    checkArgument(
        bandwidthPerDirection().bytesPerSecond() > 0,
        "interconnect %s: bandwidth per direction must be positive: %s",
        name(),
        bandwidthPerDirection());
    checkArgument(
        domainSize() >= 1,
        "interconnect %s: domain size must be at least 1: %s",
        name(),
        domainSize());
  }

  /**
   * The name, bandwidth, latency and domain with units, for example {@code "NVLink 4: 450 GB/s per
   * direction, 1 µs per hop, 8 chips"}.
   */
  @Override
  public String toString() {
    return name()
        + ": "
        + bandwidthPerDirection()
        + " per direction, "
        + latency()
        + " per hop, "
        + domainSize()
        + (domainSize() == 1 ? " chip" : " chips");
  }
}
