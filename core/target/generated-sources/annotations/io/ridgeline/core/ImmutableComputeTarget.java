package io.ridgeline.core;

import com.google.common.base.MoreObjects;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.Maps;
import com.google.common.primitives.Doubles;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import com.google.errorprone.annotations.Var;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.immutables.value.Generated;

/**
 * Immutable implementation of {@link ComputeTarget}.
 * <p>
 * Use the builder to create immutable instances:
 * {@code ImmutableComputeTarget.builder()}.
 */
@Generated(from = "ComputeTarget", generator = "Immutables")
@SuppressWarnings({"all"})
@javax.annotation.processing.Generated("org.immutables.processor.ProxyProcessor")
public final class ImmutableComputeTarget extends ComputeTarget {
  private final String name;
  private final ImmutableMap<Precision, FlopsPerSecond> peaks;
  private final ImmutableMap<String, BytesPerSecond> tierBandwidth;
  private final String mainTier;
  private final ImmutableMap<DataKind, String> placement;
  private final BytesPerSecond linkBandwidth;
  private final Seconds linkLatency;
  private final double computeEfficiency;
  private final double memoryEfficiency;
  private final double networkEfficiency;

  private ImmutableComputeTarget(ImmutableComputeTarget.Builder builder) {
    this.name = builder.name;
    this.peaks = Maps.immutableEnumMap(builder.peaks.build());
    this.tierBandwidth = builder.tierBandwidth.build();
    this.mainTier = builder.mainTier;
    this.placement = Maps.immutableEnumMap(builder.placement.build());
    this.linkBandwidth = builder.linkBandwidth;
    if (builder.linkLatency != null) {
      initShim.linkLatency(builder.linkLatency);
    }
    if (builder.computeEfficiencyIsSet()) {
      initShim.computeEfficiency(builder.computeEfficiency);
    }
    if (builder.memoryEfficiencyIsSet()) {
      initShim.memoryEfficiency(builder.memoryEfficiency);
    }
    if (builder.networkEfficiencyIsSet()) {
      initShim.networkEfficiency(builder.networkEfficiency);
    }
    this.linkLatency = initShim.linkLatency();
    this.computeEfficiency = initShim.computeEfficiency();
    this.memoryEfficiency = initShim.memoryEfficiency();
    this.networkEfficiency = initShim.networkEfficiency();
    this.initShim = null;
  }

  private ImmutableComputeTarget(
      String name,
      ImmutableMap<Precision, FlopsPerSecond> peaks,
      ImmutableMap<String, BytesPerSecond> tierBandwidth,
      String mainTier,
      ImmutableMap<DataKind, String> placement,
      BytesPerSecond linkBandwidth,
      Seconds linkLatency,
      double computeEfficiency,
      double memoryEfficiency,
      double networkEfficiency) {
    this.name = name;
    this.peaks = peaks;
    this.tierBandwidth = tierBandwidth;
    this.mainTier = mainTier;
    this.placement = placement;
    this.linkBandwidth = linkBandwidth;
    this.linkLatency = linkLatency;
    this.computeEfficiency = computeEfficiency;
    this.memoryEfficiency = memoryEfficiency;
    this.networkEfficiency = networkEfficiency;
    this.initShim = null;
  }

  private static final byte STAGE_INITIALIZING = -1;
  private static final byte STAGE_UNINITIALIZED = 0;
  private static final byte STAGE_INITIALIZED = 1;
  @SuppressWarnings("Immutable")
  private transient volatile InitShim initShim = new InitShim();

  @Generated(from = "ComputeTarget", generator = "Immutables")
  private final class InitShim {
    private byte linkLatencyBuildStage = STAGE_UNINITIALIZED;
    private Seconds linkLatency;

    Seconds linkLatency() {
      if (linkLatencyBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (linkLatencyBuildStage == STAGE_UNINITIALIZED) {
        linkLatencyBuildStage = STAGE_INITIALIZING;
        Seconds computedValue = ImmutableComputeTarget.super.linkLatency();
        this.linkLatency = Objects.requireNonNull(computedValue, "linkLatency");
        linkLatencyBuildStage = STAGE_INITIALIZED;
      }
      return this.linkLatency;
    }

    void linkLatency(Seconds linkLatency) {
      this.linkLatency = linkLatency;
      linkLatencyBuildStage = STAGE_INITIALIZED;
    }

    private byte computeEfficiencyBuildStage = STAGE_UNINITIALIZED;
    private double computeEfficiency;

    double computeEfficiency() {
      if (computeEfficiencyBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (computeEfficiencyBuildStage == STAGE_UNINITIALIZED) {
        computeEfficiencyBuildStage = STAGE_INITIALIZING;
        double computedValue = ImmutableComputeTarget.super.computeEfficiency();
        this.computeEfficiency = computedValue;
        computeEfficiencyBuildStage = STAGE_INITIALIZED;
      }
      return this.computeEfficiency;
    }

    void computeEfficiency(double computeEfficiency) {
      this.computeEfficiency = computeEfficiency;
      computeEfficiencyBuildStage = STAGE_INITIALIZED;
    }

    private byte memoryEfficiencyBuildStage = STAGE_UNINITIALIZED;
    private double memoryEfficiency;

    double memoryEfficiency() {
      if (memoryEfficiencyBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (memoryEfficiencyBuildStage == STAGE_UNINITIALIZED) {
        memoryEfficiencyBuildStage = STAGE_INITIALIZING;
        double computedValue = ImmutableComputeTarget.super.memoryEfficiency();
        this.memoryEfficiency = computedValue;
        memoryEfficiencyBuildStage = STAGE_INITIALIZED;
      }
      return this.memoryEfficiency;
    }

    void memoryEfficiency(double memoryEfficiency) {
      this.memoryEfficiency = memoryEfficiency;
      memoryEfficiencyBuildStage = STAGE_INITIALIZED;
    }

    private byte networkEfficiencyBuildStage = STAGE_UNINITIALIZED;
    private double networkEfficiency;

    double networkEfficiency() {
      if (networkEfficiencyBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (networkEfficiencyBuildStage == STAGE_UNINITIALIZED) {
        networkEfficiencyBuildStage = STAGE_INITIALIZING;
        double computedValue = ImmutableComputeTarget.super.networkEfficiency();
        this.networkEfficiency = computedValue;
        networkEfficiencyBuildStage = STAGE_INITIALIZED;
      }
      return this.networkEfficiency;
    }

    void networkEfficiency(double networkEfficiency) {
      this.networkEfficiency = networkEfficiency;
      networkEfficiencyBuildStage = STAGE_INITIALIZED;
    }

    private String formatInitCycleMessage() {
      List<String> attributes = new ArrayList<>();
      if (linkLatencyBuildStage == STAGE_INITIALIZING) attributes.add("linkLatency");
      if (computeEfficiencyBuildStage == STAGE_INITIALIZING) attributes.add("computeEfficiency");
      if (memoryEfficiencyBuildStage == STAGE_INITIALIZING) attributes.add("memoryEfficiency");
      if (networkEfficiencyBuildStage == STAGE_INITIALIZING) attributes.add("networkEfficiency");
      return "Cannot build ComputeTarget, attribute initializers form cycle " + attributes;
    }
  }

  /**
   *A name for messages, usually the chip id. 
   */
  @Override
  public String name() {
    return name;
  }

  /**
   *Dense peak FLOP/s per precision key ({@link Precision#peakKey()}). 
   */
  @Override
  public ImmutableMap<Precision, FlopsPerSecond> peaks() {
    return peaks;
  }

  /**
   *Bandwidth of each memory tier by tier name. 
   */
  @Override
  public ImmutableMap<String, BytesPerSecond> tierBandwidth() {
    return tierBandwidth;
  }

  /**
   *The tier that serves every data kind not named in {@link #placement()}. 
   */
  @Override
  public String mainTier() {
    return mainTier;
  }

  /**
   *The tier that serves each data kind, where it is not the main tier. 
   */
  @Override
  public ImmutableMap<DataKind, String> placement() {
    return placement;
  }

  /**
   *Interconnect bandwidth per direction per chip, for collectives. 
   */
  @Override
  public Optional<BytesPerSecond> linkBandwidth() {
    return Optional.ofNullable(linkBandwidth);
  }

  /**
   *Latency of one interconnect hop. 
   */
  @Override
  public Seconds linkLatency() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.linkLatency()
        : this.linkLatency;
  }

  /**
   *Achieved fraction of peak FLOP/s, in (0, 1]; 1 is ideal. 
   */
  @Override
  public double computeEfficiency() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.computeEfficiency()
        : this.computeEfficiency;
  }

  /**
   *Achieved fraction of memory bandwidth, in (0, 1]; 1 is ideal. 
   */
  @Override
  public double memoryEfficiency() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.memoryEfficiency()
        : this.memoryEfficiency;
  }

  /**
   *Achieved fraction of link bandwidth, in (0, 1]; 1 is ideal. 
   */
  @Override
  public double networkEfficiency() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.networkEfficiency()
        : this.networkEfficiency;
  }

  /**
   * Copy the current immutable object by setting a value for the {@link ComputeTarget#name() name} attribute.
   * An equals check used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for name
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableComputeTarget withName(String value) {
    String newValue = Objects.requireNonNull(value, "name");
    if (this.name.equals(newValue)) return this;
    return validate(new ImmutableComputeTarget(
        newValue,
        this.peaks,
        this.tierBandwidth,
        this.mainTier,
        this.placement,
        this.linkBandwidth,
        this.linkLatency,
        this.computeEfficiency,
        this.memoryEfficiency,
        this.networkEfficiency));
  }

  /**
   * Copy the current immutable object by replacing the {@link ComputeTarget#peaks() peaks} map with the specified map.
   * Nulls are not permitted as keys or values.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param entries The entries to replace the peaks map
   * @return A modified copy or {@code this} if not changed
   */
  public final ImmutableComputeTarget withPeaks(Map<Precision, ? extends FlopsPerSecond> entries) {
    if (this.peaks == entries) return this;
    ImmutableMap<Precision, FlopsPerSecond> newValue = Maps.immutableEnumMap(entries);
    return validate(new ImmutableComputeTarget(
        this.name,
        newValue,
        this.tierBandwidth,
        this.mainTier,
        this.placement,
        this.linkBandwidth,
        this.linkLatency,
        this.computeEfficiency,
        this.memoryEfficiency,
        this.networkEfficiency));
  }

  /**
   * Copy the current immutable object by replacing the {@link ComputeTarget#tierBandwidth() tierBandwidth} map with the specified map.
   * Nulls are not permitted as keys or values.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param entries The entries to replace the tierBandwidth map
   * @return A modified copy or {@code this} if not changed
   */
  public final ImmutableComputeTarget withTierBandwidth(Map<String, ? extends BytesPerSecond> entries) {
    if (this.tierBandwidth == entries) return this;
    ImmutableMap<String, BytesPerSecond> newValue = ImmutableMap.copyOf(entries);
    return validate(new ImmutableComputeTarget(
        this.name,
        this.peaks,
        newValue,
        this.mainTier,
        this.placement,
        this.linkBandwidth,
        this.linkLatency,
        this.computeEfficiency,
        this.memoryEfficiency,
        this.networkEfficiency));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link ComputeTarget#mainTier() mainTier} attribute.
   * An equals check used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for mainTier
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableComputeTarget withMainTier(String value) {
    String newValue = Objects.requireNonNull(value, "mainTier");
    if (this.mainTier.equals(newValue)) return this;
    return validate(new ImmutableComputeTarget(
        this.name,
        this.peaks,
        this.tierBandwidth,
        newValue,
        this.placement,
        this.linkBandwidth,
        this.linkLatency,
        this.computeEfficiency,
        this.memoryEfficiency,
        this.networkEfficiency));
  }

  /**
   * Copy the current immutable object by replacing the {@link ComputeTarget#placement() placement} map with the specified map.
   * Nulls are not permitted as keys or values.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param entries The entries to replace the placement map
   * @return A modified copy or {@code this} if not changed
   */
  public final ImmutableComputeTarget withPlacement(Map<DataKind, ? extends String> entries) {
    if (this.placement == entries) return this;
    ImmutableMap<DataKind, String> newValue = Maps.immutableEnumMap(entries);
    return validate(new ImmutableComputeTarget(
        this.name,
        this.peaks,
        this.tierBandwidth,
        this.mainTier,
        newValue,
        this.linkBandwidth,
        this.linkLatency,
        this.computeEfficiency,
        this.memoryEfficiency,
        this.networkEfficiency));
  }

  /**
   * Copy the current immutable object by setting a <em>present</em> value for the optional {@link ComputeTarget#linkBandwidth() linkBandwidth} attribute.
   * @param value The value for linkBandwidth
   * @return A modified copy or {@code this} if not changed
   */
  public final ImmutableComputeTarget withLinkBandwidth(BytesPerSecond value) {
    BytesPerSecond newValue = Objects.requireNonNull(value, "linkBandwidth");
    if (this.linkBandwidth == newValue) return this;
    return validate(new ImmutableComputeTarget(
        this.name,
        this.peaks,
        this.tierBandwidth,
        this.mainTier,
        this.placement,
        newValue,
        this.linkLatency,
        this.computeEfficiency,
        this.memoryEfficiency,
        this.networkEfficiency));
  }

  /**
   * Copy the current immutable object by setting an optional value for the {@link ComputeTarget#linkBandwidth() linkBandwidth} attribute.
   * A shallow reference equality check is used on unboxed optional value to prevent copying of the same value by returning {@code this}.
   * @param optional An optional value for linkBandwidth
   * @return A modified copy or {@code this} if not changed
   */
  @SuppressWarnings("unchecked") // safe covariant cast
  public final ImmutableComputeTarget withLinkBandwidth(Optional<? extends BytesPerSecond> optional) {
    BytesPerSecond value = optional.orElse(null);
    if (this.linkBandwidth == value) return this;
    return validate(new ImmutableComputeTarget(
        this.name,
        this.peaks,
        this.tierBandwidth,
        this.mainTier,
        this.placement,
        value,
        this.linkLatency,
        this.computeEfficiency,
        this.memoryEfficiency,
        this.networkEfficiency));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link ComputeTarget#linkLatency() linkLatency} attribute.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for linkLatency
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableComputeTarget withLinkLatency(Seconds value) {
    if (this.linkLatency == value) return this;
    Seconds newValue = Objects.requireNonNull(value, "linkLatency");
    return validate(new ImmutableComputeTarget(
        this.name,
        this.peaks,
        this.tierBandwidth,
        this.mainTier,
        this.placement,
        this.linkBandwidth,
        newValue,
        this.computeEfficiency,
        this.memoryEfficiency,
        this.networkEfficiency));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link ComputeTarget#computeEfficiency() computeEfficiency} attribute.
   * A value strict bits equality used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for computeEfficiency
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableComputeTarget withComputeEfficiency(double value) {
    if (Double.doubleToLongBits(this.computeEfficiency) == Double.doubleToLongBits(value)) return this;
    return validate(new ImmutableComputeTarget(
        this.name,
        this.peaks,
        this.tierBandwidth,
        this.mainTier,
        this.placement,
        this.linkBandwidth,
        this.linkLatency,
        value,
        this.memoryEfficiency,
        this.networkEfficiency));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link ComputeTarget#memoryEfficiency() memoryEfficiency} attribute.
   * A value strict bits equality used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for memoryEfficiency
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableComputeTarget withMemoryEfficiency(double value) {
    if (Double.doubleToLongBits(this.memoryEfficiency) == Double.doubleToLongBits(value)) return this;
    return validate(new ImmutableComputeTarget(
        this.name,
        this.peaks,
        this.tierBandwidth,
        this.mainTier,
        this.placement,
        this.linkBandwidth,
        this.linkLatency,
        this.computeEfficiency,
        value,
        this.networkEfficiency));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link ComputeTarget#networkEfficiency() networkEfficiency} attribute.
   * A value strict bits equality used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for networkEfficiency
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableComputeTarget withNetworkEfficiency(double value) {
    if (Double.doubleToLongBits(this.networkEfficiency) == Double.doubleToLongBits(value)) return this;
    return validate(new ImmutableComputeTarget(
        this.name,
        this.peaks,
        this.tierBandwidth,
        this.mainTier,
        this.placement,
        this.linkBandwidth,
        this.linkLatency,
        this.computeEfficiency,
        this.memoryEfficiency,
        value));
  }

  /**
   * This instance is equal to all instances of {@code ImmutableComputeTarget} that have equal attribute values.
   * @return {@code true} if {@code this} is equal to {@code another} instance
   */
  @Override
  public boolean equals(Object another) {
    if (this == another) return true;
    return another instanceof ImmutableComputeTarget
        && equalsByValue((ImmutableComputeTarget) another);
  }

  private boolean equalsByValue(ImmutableComputeTarget another) {
    return name.equals(another.name)
        && peaks.equals(another.peaks)
        && tierBandwidth.equals(another.tierBandwidth)
        && mainTier.equals(another.mainTier)
        && placement.equals(another.placement)
        && Objects.equals(linkBandwidth, another.linkBandwidth)
        && linkLatency.equals(another.linkLatency)
        && Double.doubleToLongBits(computeEfficiency) == Double.doubleToLongBits(another.computeEfficiency)
        && Double.doubleToLongBits(memoryEfficiency) == Double.doubleToLongBits(another.memoryEfficiency)
        && Double.doubleToLongBits(networkEfficiency) == Double.doubleToLongBits(another.networkEfficiency);
  }

  /**
   * Computes a hash code from attributes: {@code name}, {@code peaks}, {@code tierBandwidth}, {@code mainTier}, {@code placement}, {@code linkBandwidth}, {@code linkLatency}, {@code computeEfficiency}, {@code memoryEfficiency}, {@code networkEfficiency}.
   * @return hashCode value
   */
  @Override
  public int hashCode() {
    @Var int h = 5381;
    h += (h << 5) + name.hashCode();
    h += (h << 5) + peaks.hashCode();
    h += (h << 5) + tierBandwidth.hashCode();
    h += (h << 5) + mainTier.hashCode();
    h += (h << 5) + placement.hashCode();
    h += (h << 5) + Objects.hashCode(linkBandwidth);
    h += (h << 5) + linkLatency.hashCode();
    h += (h << 5) + Doubles.hashCode(computeEfficiency);
    h += (h << 5) + Doubles.hashCode(memoryEfficiency);
    h += (h << 5) + Doubles.hashCode(networkEfficiency);
    return h;
  }

  /**
   * Prints the immutable value {@code ComputeTarget} with attribute values.
   * @return A string representation of the value
   */
  @Override
  public String toString() {
    return MoreObjects.toStringHelper("ComputeTarget")
        .omitNullValues()
        .add("name", name)
        .add("peaks", peaks)
        .add("tierBandwidth", tierBandwidth)
        .add("mainTier", mainTier)
        .add("placement", placement)
        .add("linkBandwidth", linkBandwidth)
        .add("linkLatency", linkLatency)
        .add("computeEfficiency", computeEfficiency)
        .add("memoryEfficiency", memoryEfficiency)
        .add("networkEfficiency", networkEfficiency)
        .toString();
  }

  private static ImmutableComputeTarget validate(ImmutableComputeTarget instance) {
    instance.check();
    return instance;
  }

  /**
   * Creates an immutable copy of a {@link ComputeTarget} value.
   * Uses accessors to get values to initialize the new immutable instance.
   * If an instance is already immutable, it is returned as is.
   * @param instance The instance to copy
   * @return A copied immutable ComputeTarget instance
   */
  public static ImmutableComputeTarget copyOf(ComputeTarget instance) {
    if (instance instanceof ImmutableComputeTarget) {
      return (ImmutableComputeTarget) instance;
    }
    return ImmutableComputeTarget.builder()
        .from(instance)
        .build();
  }

  /**
   * Creates a builder for {@link ImmutableComputeTarget ImmutableComputeTarget}.
   * <pre>
   * ImmutableComputeTarget.builder()
   *    .name(String) // required {@link ComputeTarget#name() name}
   *    .putPeak|putAllPeaks(io.ridgeline.core.Precision =&gt; io.ridgeline.core.FlopsPerSecond) // {@link ComputeTarget#peaks() peaks} mappings
   *    .putTierBandwidth|putAllTierBandwidth(String =&gt; io.ridgeline.core.BytesPerSecond) // {@link ComputeTarget#tierBandwidth() tierBandwidth} mappings
   *    .mainTier(String) // required {@link ComputeTarget#mainTier() mainTier}
   *    .putPlacement|putAllPlacement(io.ridgeline.core.DataKind =&gt; String) // {@link ComputeTarget#placement() placement} mappings
   *    .linkBandwidth(Optional&lt;io.ridgeline.core.BytesPerSecond&gt;) // optional {@link ComputeTarget#linkBandwidth() linkBandwidth}
   *    .linkLatency(io.ridgeline.core.Seconds) // optional {@link ComputeTarget#linkLatency() linkLatency}
   *    .computeEfficiency(double) // optional {@link ComputeTarget#computeEfficiency() computeEfficiency}
   *    .memoryEfficiency(double) // optional {@link ComputeTarget#memoryEfficiency() memoryEfficiency}
   *    .networkEfficiency(double) // optional {@link ComputeTarget#networkEfficiency() networkEfficiency}
   *    .build();
   * </pre>
   * @return A new ImmutableComputeTarget builder
   */
  public static ImmutableComputeTarget.Builder builder() {
    return new ImmutableComputeTarget.Builder();
  }

  /**
   * Builds instances of type {@link ImmutableComputeTarget ImmutableComputeTarget}.
   * Initialize attributes and then invoke the {@link #build()} method to create an
   * immutable instance.
   * <p><em>{@code Builder} is not thread-safe and generally should not be stored in a field or collection,
   * but instead used immediately to create instances.</em>
   */
  @Generated(from = "ComputeTarget", generator = "Immutables")
  public static final class Builder {
    private static final long INIT_BIT_NAME = 0x1L;
    private static final long INIT_BIT_MAIN_TIER = 0x2L;
    private static final long OPT_BIT_COMPUTE_EFFICIENCY = 0x1L;
    private static final long OPT_BIT_MEMORY_EFFICIENCY = 0x2L;
    private static final long OPT_BIT_NETWORK_EFFICIENCY = 0x4L;
    private long initBits = 0x3L;
    private long optBits;

    private String name;
    private ImmutableMap.Builder<Precision, FlopsPerSecond> peaks = ImmutableMap.builder();
    private ImmutableMap.Builder<String, BytesPerSecond> tierBandwidth = ImmutableMap.builder();
    private String mainTier;
    private ImmutableMap.Builder<DataKind, String> placement = ImmutableMap.builder();
    private BytesPerSecond linkBandwidth;
    private Seconds linkLatency;
    private double computeEfficiency;
    private double memoryEfficiency;
    private double networkEfficiency;

    private Builder() {
    }

    /**
     * Fill a builder with attribute values from the provided {@code ComputeTarget} instance.
     * Regular attribute values will be replaced with those from the given instance.
     * Absent optional values will not replace present values.
     * Collection elements and entries will be added, not replaced.
     * @param instance The instance from which to copy values
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder from(ComputeTarget instance) {
      Objects.requireNonNull(instance, "instance");
      this.name(instance.name());
      putAllPeaks(instance.peaks());
      putAllTierBandwidth(instance.tierBandwidth());
      this.mainTier(instance.mainTier());
      putAllPlacement(instance.placement());
      Optional<BytesPerSecond> linkBandwidthOptional = instance.linkBandwidth();
      if (linkBandwidthOptional.isPresent()) {
        linkBandwidth(linkBandwidthOptional);
      }
      this.linkLatency(instance.linkLatency());
      this.computeEfficiency(instance.computeEfficiency());
      this.memoryEfficiency(instance.memoryEfficiency());
      this.networkEfficiency(instance.networkEfficiency());
      return this;
    }

    /**
     * Initializes the value for the {@link ComputeTarget#name() name} attribute.
     * @param name The value for name 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder name(String name) {
      this.name = Objects.requireNonNull(name, "name");
      initBits &= ~INIT_BIT_NAME;
      return this;
    }

    /**
     * Put one entry to the {@link ComputeTarget#peaks() peaks} map.
     * @param key The key in the peaks map
     * @param value The associated value in the peaks map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putPeak(Precision key, FlopsPerSecond value) {
      this.peaks.put(key, value);
      return this;
    }

    /**
     * Put one entry to the {@link ComputeTarget#peaks() peaks} map. Nulls are not permitted
     * @param entry The key and value entry
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putPeak(Map.Entry<Precision, ? extends FlopsPerSecond> entry) {
      this.peaks.put(entry);
      return this;
    }

    /**
     * Sets or replaces all mappings from the specified map as entries for the {@link ComputeTarget#peaks() peaks} map. Nulls are not permitted
     * @param entries The entries that will be added to the peaks map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder peaks(Map<Precision, ? extends FlopsPerSecond> entries) {
      this.peaks = ImmutableMap.builder();
      return putAllPeaks(entries);
    }

    /**
     * Put all mappings from the specified map as entries to {@link ComputeTarget#peaks() peaks} map. Nulls are not permitted
     * @param entries The entries that will be added to the peaks map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putAllPeaks(Map<Precision, ? extends FlopsPerSecond> entries) {
      this.peaks.putAll(entries);
      return this;
    }

    /**
     * Put one entry to the {@link ComputeTarget#tierBandwidth() tierBandwidth} map.
     * @param key The key in the tierBandwidth map
     * @param value The associated value in the tierBandwidth map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putTierBandwidth(String key, BytesPerSecond value) {
      this.tierBandwidth.put(key, value);
      return this;
    }

    /**
     * Put one entry to the {@link ComputeTarget#tierBandwidth() tierBandwidth} map. Nulls are not permitted
     * @param entry The key and value entry
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putTierBandwidth(Map.Entry<String, ? extends BytesPerSecond> entry) {
      this.tierBandwidth.put(entry);
      return this;
    }

    /**
     * Sets or replaces all mappings from the specified map as entries for the {@link ComputeTarget#tierBandwidth() tierBandwidth} map. Nulls are not permitted
     * @param entries The entries that will be added to the tierBandwidth map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder tierBandwidth(Map<String, ? extends BytesPerSecond> entries) {
      this.tierBandwidth = ImmutableMap.builder();
      return putAllTierBandwidth(entries);
    }

    /**
     * Put all mappings from the specified map as entries to {@link ComputeTarget#tierBandwidth() tierBandwidth} map. Nulls are not permitted
     * @param entries The entries that will be added to the tierBandwidth map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putAllTierBandwidth(Map<String, ? extends BytesPerSecond> entries) {
      this.tierBandwidth.putAll(entries);
      return this;
    }

    /**
     * Initializes the value for the {@link ComputeTarget#mainTier() mainTier} attribute.
     * @param mainTier The value for mainTier 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder mainTier(String mainTier) {
      this.mainTier = Objects.requireNonNull(mainTier, "mainTier");
      initBits &= ~INIT_BIT_MAIN_TIER;
      return this;
    }

    /**
     * Put one entry to the {@link ComputeTarget#placement() placement} map.
     * @param key The key in the placement map
     * @param value The associated value in the placement map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putPlacement(DataKind key, String value) {
      this.placement.put(key, value);
      return this;
    }

    /**
     * Put one entry to the {@link ComputeTarget#placement() placement} map. Nulls are not permitted
     * @param entry The key and value entry
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putPlacement(Map.Entry<DataKind, ? extends String> entry) {
      this.placement.put(entry);
      return this;
    }

    /**
     * Sets or replaces all mappings from the specified map as entries for the {@link ComputeTarget#placement() placement} map. Nulls are not permitted
     * @param entries The entries that will be added to the placement map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder placement(Map<DataKind, ? extends String> entries) {
      this.placement = ImmutableMap.builder();
      return putAllPlacement(entries);
    }

    /**
     * Put all mappings from the specified map as entries to {@link ComputeTarget#placement() placement} map. Nulls are not permitted
     * @param entries The entries that will be added to the placement map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putAllPlacement(Map<DataKind, ? extends String> entries) {
      this.placement.putAll(entries);
      return this;
    }

    /**
     * Initializes the optional value {@link ComputeTarget#linkBandwidth() linkBandwidth} to linkBandwidth.
     * @param linkBandwidth The value for linkBandwidth
     * @return {@code this} builder for chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder linkBandwidth(BytesPerSecond linkBandwidth) {
      this.linkBandwidth = Objects.requireNonNull(linkBandwidth, "linkBandwidth");
      return this;
    }

    /**
     * Initializes the optional value {@link ComputeTarget#linkBandwidth() linkBandwidth} to linkBandwidth.
     * @param linkBandwidth The value for linkBandwidth
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder linkBandwidth(Optional<? extends BytesPerSecond> linkBandwidth) {
      this.linkBandwidth = linkBandwidth.orElse(null);
      return this;
    }

    /**
     * Initializes the value for the {@link ComputeTarget#linkLatency() linkLatency} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link ComputeTarget#linkLatency() linkLatency}.</em>
     * @param linkLatency The value for linkLatency 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder linkLatency(Seconds linkLatency) {
      this.linkLatency = Objects.requireNonNull(linkLatency, "linkLatency");
      return this;
    }

    /**
     * Initializes the value for the {@link ComputeTarget#computeEfficiency() computeEfficiency} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link ComputeTarget#computeEfficiency() computeEfficiency}.</em>
     * @param computeEfficiency The value for computeEfficiency 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder computeEfficiency(double computeEfficiency) {
      this.computeEfficiency = computeEfficiency;
      optBits |= OPT_BIT_COMPUTE_EFFICIENCY;
      return this;
    }

    /**
     * Initializes the value for the {@link ComputeTarget#memoryEfficiency() memoryEfficiency} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link ComputeTarget#memoryEfficiency() memoryEfficiency}.</em>
     * @param memoryEfficiency The value for memoryEfficiency 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder memoryEfficiency(double memoryEfficiency) {
      this.memoryEfficiency = memoryEfficiency;
      optBits |= OPT_BIT_MEMORY_EFFICIENCY;
      return this;
    }

    /**
     * Initializes the value for the {@link ComputeTarget#networkEfficiency() networkEfficiency} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link ComputeTarget#networkEfficiency() networkEfficiency}.</em>
     * @param networkEfficiency The value for networkEfficiency 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder networkEfficiency(double networkEfficiency) {
      this.networkEfficiency = networkEfficiency;
      optBits |= OPT_BIT_NETWORK_EFFICIENCY;
      return this;
    }

    /**
     * Builds a new {@link ImmutableComputeTarget ImmutableComputeTarget}.
     * @return An immutable instance of ComputeTarget
     * @throws java.lang.IllegalStateException if any required attributes are missing
     */
    public ImmutableComputeTarget build() {
      if (initBits != 0) {
        throw new IllegalStateException(formatRequiredAttributesMessage());
      }
      return ImmutableComputeTarget.validate(new ImmutableComputeTarget(this));
    }

    private boolean computeEfficiencyIsSet() {
      return (optBits & OPT_BIT_COMPUTE_EFFICIENCY) != 0;
    }

    private boolean memoryEfficiencyIsSet() {
      return (optBits & OPT_BIT_MEMORY_EFFICIENCY) != 0;
    }

    private boolean networkEfficiencyIsSet() {
      return (optBits & OPT_BIT_NETWORK_EFFICIENCY) != 0;
    }

    private String formatRequiredAttributesMessage() {
      List<String> attributes = new ArrayList<>();
      if ((initBits & INIT_BIT_NAME) != 0) attributes.add("name");
      if ((initBits & INIT_BIT_MAIN_TIER) != 0) attributes.add("mainTier");
      return "Cannot build ComputeTarget, some of required attributes are not set " + attributes;
    }
  }
}
