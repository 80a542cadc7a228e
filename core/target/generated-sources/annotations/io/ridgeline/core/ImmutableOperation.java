package io.ridgeline.core;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.Maps;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import com.google.errorprone.annotations.Var;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.immutables.value.Generated;

/**
 * Immutable implementation of {@link Operation}.
 * <p>
 * Use the builder to create immutable instances:
 * {@code ImmutableOperation.builder()}.
 */
@Generated(from = "Operation", generator = "Immutables")
@SuppressWarnings({"all"})
@javax.annotation.processing.Generated("org.immutables.processor.ProxyProcessor")
public final class ImmutableOperation extends Operation {
  private final String name;
  private final Flops flops;
  private final Precision precision;
  private final ImmutableMap<DataKind, Bytes> bytes;
  private final Bytes networkBytes;
  private final int networkSteps;
  private final int kvShards;
  private transient final Bytes memoryBytes;

  private ImmutableOperation(ImmutableOperation.Builder builder) {
    this.name = builder.name;
    this.flops = builder.flops;
    this.precision = builder.precision;
    this.bytes = Maps.immutableEnumMap(builder.bytes.build());
    if (builder.networkBytes != null) {
      initShim.networkBytes(builder.networkBytes);
    }
    if (builder.networkStepsIsSet()) {
      initShim.networkSteps(builder.networkSteps);
    }
    if (builder.kvShardsIsSet()) {
      initShim.kvShards(builder.kvShards);
    }
    this.networkBytes = initShim.networkBytes();
    this.networkSteps = initShim.networkSteps();
    this.kvShards = initShim.kvShards();
    this.memoryBytes = initShim.memoryBytes();
    this.initShim = null;
  }

  private ImmutableOperation(
      String name,
      Flops flops,
      Precision precision,
      ImmutableMap<DataKind, Bytes> bytes,
      Bytes networkBytes,
      int networkSteps,
      int kvShards) {
    this.name = name;
    this.flops = flops;
    this.precision = precision;
    this.bytes = bytes;
    initShim.networkBytes(networkBytes);
    initShim.networkSteps(networkSteps);
    initShim.kvShards(kvShards);
    this.networkBytes = initShim.networkBytes();
    this.networkSteps = initShim.networkSteps();
    this.kvShards = initShim.kvShards();
    this.memoryBytes = initShim.memoryBytes();
    this.initShim = null;
  }

  private static final byte STAGE_INITIALIZING = -1;
  private static final byte STAGE_UNINITIALIZED = 0;
  private static final byte STAGE_INITIALIZED = 1;
  @SuppressWarnings("Immutable")
  private transient volatile InitShim initShim = new InitShim();

  @Generated(from = "Operation", generator = "Immutables")
  private final class InitShim {
    private byte networkBytesBuildStage = STAGE_UNINITIALIZED;
    private Bytes networkBytes;

    Bytes networkBytes() {
      if (networkBytesBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (networkBytesBuildStage == STAGE_UNINITIALIZED) {
        networkBytesBuildStage = STAGE_INITIALIZING;
        Bytes computedValue = ImmutableOperation.super.networkBytes();
        this.networkBytes = Objects.requireNonNull(computedValue, "networkBytes");
        networkBytesBuildStage = STAGE_INITIALIZED;
      }
      return this.networkBytes;
    }

    void networkBytes(Bytes networkBytes) {
      this.networkBytes = networkBytes;
      networkBytesBuildStage = STAGE_INITIALIZED;
    }

    private byte networkStepsBuildStage = STAGE_UNINITIALIZED;
    private int networkSteps;

    int networkSteps() {
      if (networkStepsBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (networkStepsBuildStage == STAGE_UNINITIALIZED) {
        networkStepsBuildStage = STAGE_INITIALIZING;
        int computedValue = ImmutableOperation.super.networkSteps();
        this.networkSteps = computedValue;
        networkStepsBuildStage = STAGE_INITIALIZED;
      }
      return this.networkSteps;
    }

    void networkSteps(int networkSteps) {
      this.networkSteps = networkSteps;
      networkStepsBuildStage = STAGE_INITIALIZED;
    }

    private byte kvShardsBuildStage = STAGE_UNINITIALIZED;
    private int kvShards;

    int kvShards() {
      if (kvShardsBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (kvShardsBuildStage == STAGE_UNINITIALIZED) {
        kvShardsBuildStage = STAGE_INITIALIZING;
        int computedValue = ImmutableOperation.super.kvShards();
        this.kvShards = computedValue;
        kvShardsBuildStage = STAGE_INITIALIZED;
      }
      return this.kvShards;
    }

    void kvShards(int kvShards) {
      this.kvShards = kvShards;
      kvShardsBuildStage = STAGE_INITIALIZED;
    }

    private byte memoryBytesBuildStage = STAGE_UNINITIALIZED;
    private Bytes memoryBytes;

    Bytes memoryBytes() {
      if (memoryBytesBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (memoryBytesBuildStage == STAGE_UNINITIALIZED) {
        memoryBytesBuildStage = STAGE_INITIALIZING;
        Bytes computedValue = ImmutableOperation.super.memoryBytes();
        this.memoryBytes = Objects.requireNonNull(computedValue, "memoryBytes");
        memoryBytesBuildStage = STAGE_INITIALIZED;
      }
      return this.memoryBytes;
    }

    private String formatInitCycleMessage() {
      List<String> attributes = new ArrayList<>();
      if (networkBytesBuildStage == STAGE_INITIALIZING) attributes.add("networkBytes");
      if (networkStepsBuildStage == STAGE_INITIALIZING) attributes.add("networkSteps");
      if (kvShardsBuildStage == STAGE_INITIALIZING) attributes.add("kvShards");
      if (memoryBytesBuildStage == STAGE_INITIALIZING) attributes.add("memoryBytes");
      return "Cannot build Operation, attribute initializers form cycle " + attributes;
    }
  }

  /**
   *A short name such as {@code "qkv_proj"}. 
   */
  @Override
  public String name() {
    return name;
  }

  /**
   *Arithmetic work (1 multiply-add = 2 FLOPs). 
   */
  @Override
  public Flops flops() {
    return flops;
  }

  /**
   *The precision the math runs at: it picks the target's peak. 
   */
  @Override
  public Precision precision() {
    return precision;
  }

  /**
   *Bytes moved between memory and the compute units, by what they are. 
   */
  @Override
  public ImmutableMap<DataKind, Bytes> bytes() {
    return bytes;
  }

  /**
   *Bytes each participating chip sends over the interconnect (zero for local work). 
   */
  @Override
  public Bytes networkBytes() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.networkBytes()
        : this.networkBytes;
  }

  /**
   *Sequential latency-paying hops on the interconnect (zero for local work). 
   */
  @Override
  public int networkSteps() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.networkSteps()
        : this.networkSteps;
  }

  /**
   * The most chips this operation's KV traffic can be split over: the KV heads of a GQA layer, 1
   * for a latent (MLA) cache shared by all heads. Beyond it each chip reads a replica.
   */
  @Override
  public int kvShards() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.kvShards()
        : this.kvShards;
  }

  /**
   *Total memory bytes moved, all kinds together. 
   */
  @Override
  public Bytes memoryBytes() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.memoryBytes()
        : this.memoryBytes;
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Operation#name() name} attribute.
   * An equals check used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for name
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableOperation withName(String value) {
    String newValue = Objects.requireNonNull(value, "name");
    if (this.name.equals(newValue)) return this;
    return validate(new ImmutableOperation(
        newValue,
        this.flops,
        this.precision,
        this.bytes,
        this.networkBytes,
        this.networkSteps,
        this.kvShards));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Operation#flops() flops} attribute.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for flops
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableOperation withFlops(Flops value) {
    if (this.flops == value) return this;
    Flops newValue = Objects.requireNonNull(value, "flops");
    return validate(new ImmutableOperation(
        this.name,
        newValue,
        this.precision,
        this.bytes,
        this.networkBytes,
        this.networkSteps,
        this.kvShards));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Operation#precision() precision} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for precision
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableOperation withPrecision(Precision value) {
    Precision newValue = Objects.requireNonNull(value, "precision");
    if (this.precision == newValue) return this;
    return validate(new ImmutableOperation(
        this.name,
        this.flops,
        newValue,
        this.bytes,
        this.networkBytes,
        this.networkSteps,
        this.kvShards));
  }

  /**
   * Copy the current immutable object by replacing the {@link Operation#bytes() bytes} map with the specified map.
   * Nulls are not permitted as keys or values.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param entries The entries to replace the bytes map
   * @return A modified copy or {@code this} if not changed
   */
  public final ImmutableOperation withBytes(Map<DataKind, ? extends Bytes> entries) {
    if (this.bytes == entries) return this;
    ImmutableMap<DataKind, Bytes> newValue = Maps.immutableEnumMap(entries);
    return validate(new ImmutableOperation(
        this.name,
        this.flops,
        this.precision,
        newValue,
        this.networkBytes,
        this.networkSteps,
        this.kvShards));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Operation#networkBytes() networkBytes} attribute.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for networkBytes
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableOperation withNetworkBytes(Bytes value) {
    if (this.networkBytes == value) return this;
    Bytes newValue = Objects.requireNonNull(value, "networkBytes");
    return validate(new ImmutableOperation(this.name, this.flops, this.precision, this.bytes, newValue, this.networkSteps, this.kvShards));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Operation#networkSteps() networkSteps} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for networkSteps
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableOperation withNetworkSteps(int value) {
    if (this.networkSteps == value) return this;
    return validate(new ImmutableOperation(this.name, this.flops, this.precision, this.bytes, this.networkBytes, value, this.kvShards));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Operation#kvShards() kvShards} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for kvShards
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableOperation withKvShards(int value) {
    if (this.kvShards == value) return this;
    return validate(new ImmutableOperation(this.name, this.flops, this.precision, this.bytes, this.networkBytes, this.networkSteps, value));
  }

  /**
   * This instance is equal to all instances of {@code ImmutableOperation} that have equal attribute values.
   * @return {@code true} if {@code this} is equal to {@code another} instance
   */
  @Override
  public boolean equals(Object another) {
    if (this == another) return true;
    return another instanceof ImmutableOperation
        && equalsByValue((ImmutableOperation) another);
  }

  private boolean equalsByValue(ImmutableOperation another) {
    return name.equals(another.name)
        && flops.equals(another.flops)
        && precision.equals(another.precision)
        && bytes.equals(another.bytes)
        && networkBytes.equals(another.networkBytes)
        && networkSteps == another.networkSteps
        && kvShards == another.kvShards
        && memoryBytes.equals(another.memoryBytes);
  }

  /**
   * Computes a hash code from attributes: {@code name}, {@code flops}, {@code precision}, {@code bytes}, {@code networkBytes}, {@code networkSteps}, {@code kvShards}, {@code memoryBytes}.
   * @return hashCode value
   */
  @Override
  public int hashCode() {
    @Var int h = 5381;
    h += (h << 5) + name.hashCode();
    h += (h << 5) + flops.hashCode();
    h += (h << 5) + precision.hashCode();
    h += (h << 5) + bytes.hashCode();
    h += (h << 5) + networkBytes.hashCode();
    h += (h << 5) + networkSteps;
    h += (h << 5) + kvShards;
    h += (h << 5) + memoryBytes.hashCode();
    return h;
  }

  private static ImmutableOperation validate(ImmutableOperation instance) {
    instance.check();
    return instance;
  }

  /**
   * Creates an immutable copy of a {@link Operation} value.
   * Uses accessors to get values to initialize the new immutable instance.
   * If an instance is already immutable, it is returned as is.
   * @param instance The instance to copy
   * @return A copied immutable Operation instance
   */
  public static ImmutableOperation copyOf(Operation instance) {
    if (instance instanceof ImmutableOperation) {
      return (ImmutableOperation) instance;
    }
    return ImmutableOperation.builder()
        .from(instance)
        .build();
  }

  /**
   * Creates a builder for {@link ImmutableOperation ImmutableOperation}.
   * <pre>
   * ImmutableOperation.builder()
   *    .name(String) // required {@link Operation#name() name}
   *    .flops(io.ridgeline.core.Flops) // required {@link Operation#flops() flops}
   *    .precision(io.ridgeline.core.Precision) // required {@link Operation#precision() precision}
   *    .putBytes|putAllBytes(io.ridgeline.core.DataKind =&gt; io.ridgeline.core.Bytes) // {@link Operation#bytes() bytes} mappings
   *    .networkBytes(io.ridgeline.core.Bytes) // optional {@link Operation#networkBytes() networkBytes}
   *    .networkSteps(int) // optional {@link Operation#networkSteps() networkSteps}
   *    .kvShards(int) // optional {@link Operation#kvShards() kvShards}
   *    .build();
   * </pre>
   * @return A new ImmutableOperation builder
   */
  public static ImmutableOperation.Builder builder() {
    return new ImmutableOperation.Builder();
  }

  /**
   * Builds instances of type {@link ImmutableOperation ImmutableOperation}.
   * Initialize attributes and then invoke the {@link #build()} method to create an
   * immutable instance.
   * <p><em>{@code Builder} is not thread-safe and generally should not be stored in a field or collection,
   * but instead used immediately to create instances.</em>
   */
  @Generated(from = "Operation", generator = "Immutables")
  public static final class Builder {
    private static final long INIT_BIT_NAME = 0x1L;
    private static final long INIT_BIT_FLOPS = 0x2L;
    private static final long INIT_BIT_PRECISION = 0x4L;
    private static final long OPT_BIT_NETWORK_STEPS = 0x1L;
    private static final long OPT_BIT_KV_SHARDS = 0x2L;
    private long initBits = 0x7L;
    private long optBits;

    private String name;
    private Flops flops;
    private Precision precision;
    private ImmutableMap.Builder<DataKind, Bytes> bytes = ImmutableMap.builder();
    private Bytes networkBytes;
    private int networkSteps;
    private int kvShards;

    private Builder() {
    }

    /**
     * Fill a builder with attribute values from the provided {@code Operation} instance.
     * Regular attribute values will be replaced with those from the given instance.
     * Absent optional values will not replace present values.
     * Collection elements and entries will be added, not replaced.
     * @param instance The instance from which to copy values
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder from(Operation instance) {
      Objects.requireNonNull(instance, "instance");
      this.name(instance.name());
      this.flops(instance.flops());
      this.precision(instance.precision());
      putAllBytes(instance.bytes());
      this.networkBytes(instance.networkBytes());
      this.networkSteps(instance.networkSteps());
      this.kvShards(instance.kvShards());
      return this;
    }

    /**
     * Initializes the value for the {@link Operation#name() name} attribute.
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
     * Initializes the value for the {@link Operation#flops() flops} attribute.
     * @param flops The value for flops 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder flops(Flops flops) {
      this.flops = Objects.requireNonNull(flops, "flops");
      initBits &= ~INIT_BIT_FLOPS;
      return this;
    }

    /**
     * Initializes the value for the {@link Operation#precision() precision} attribute.
     * @param precision The value for precision 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder precision(Precision precision) {
      this.precision = Objects.requireNonNull(precision, "precision");
      initBits &= ~INIT_BIT_PRECISION;
      return this;
    }

    /**
     * Put one entry to the {@link Operation#bytes() bytes} map.
     * @param key The key in the bytes map
     * @param value The associated value in the bytes map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putBytes(DataKind key, Bytes value) {
      this.bytes.put(key, value);
      return this;
    }

    /**
     * Put one entry to the {@link Operation#bytes() bytes} map. Nulls are not permitted
     * @param entry The key and value entry
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putBytes(Map.Entry<DataKind, ? extends Bytes> entry) {
      this.bytes.put(entry);
      return this;
    }

    /**
     * Sets or replaces all mappings from the specified map as entries for the {@link Operation#bytes() bytes} map. Nulls are not permitted
     * @param entries The entries that will be added to the bytes map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder bytes(Map<DataKind, ? extends Bytes> entries) {
      this.bytes = ImmutableMap.builder();
      return putAllBytes(entries);
    }

    /**
     * Put all mappings from the specified map as entries to {@link Operation#bytes() bytes} map. Nulls are not permitted
     * @param entries The entries that will be added to the bytes map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putAllBytes(Map<DataKind, ? extends Bytes> entries) {
      this.bytes.putAll(entries);
      return this;
    }

    /**
     * Initializes the value for the {@link Operation#networkBytes() networkBytes} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link Operation#networkBytes() networkBytes}.</em>
     * @param networkBytes The value for networkBytes 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder networkBytes(Bytes networkBytes) {
      this.networkBytes = Objects.requireNonNull(networkBytes, "networkBytes");
      return this;
    }

    /**
     * Initializes the value for the {@link Operation#networkSteps() networkSteps} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link Operation#networkSteps() networkSteps}.</em>
     * @param networkSteps The value for networkSteps 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder networkSteps(int networkSteps) {
      this.networkSteps = networkSteps;
      optBits |= OPT_BIT_NETWORK_STEPS;
      return this;
    }

    /**
     * Initializes the value for the {@link Operation#kvShards() kvShards} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link Operation#kvShards() kvShards}.</em>
     * @param kvShards The value for kvShards 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder kvShards(int kvShards) {
      this.kvShards = kvShards;
      optBits |= OPT_BIT_KV_SHARDS;
      return this;
    }

    /**
     * Builds a new {@link ImmutableOperation ImmutableOperation}.
     * @return An immutable instance of Operation
     * @throws java.lang.IllegalStateException if any required attributes are missing
     */
    public ImmutableOperation build() {
      if (initBits != 0) {
        throw new IllegalStateException(formatRequiredAttributesMessage());
      }
      return ImmutableOperation.validate(new ImmutableOperation(this));
    }

    private boolean networkStepsIsSet() {
      return (optBits & OPT_BIT_NETWORK_STEPS) != 0;
    }

    private boolean kvShardsIsSet() {
      return (optBits & OPT_BIT_KV_SHARDS) != 0;
    }

    private String formatRequiredAttributesMessage() {
      List<String> attributes = new ArrayList<>();
      if ((initBits & INIT_BIT_NAME) != 0) attributes.add("name");
      if ((initBits & INIT_BIT_FLOPS) != 0) attributes.add("flops");
      if ((initBits & INIT_BIT_PRECISION) != 0) attributes.add("precision");
      return "Cannot build Operation, some of required attributes are not set " + attributes;
    }
  }
}
