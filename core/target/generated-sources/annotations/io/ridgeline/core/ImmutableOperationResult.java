package io.ridgeline.core;

import com.google.common.collect.ImmutableMap;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import com.google.errorprone.annotations.Var;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.immutables.value.Generated;

/**
 * Immutable implementation of {@link OperationResult}.
 * <p>
 * Use the builder to create immutable instances:
 * {@code ImmutableOperationResult.builder()}.
 */
@Generated(from = "OperationResult", generator = "Immutables")
@SuppressWarnings({"all"})
@javax.annotation.processing.Generated("org.immutables.processor.ProxyProcessor")
public final class ImmutableOperationResult extends OperationResult {
  private final Operation operation;
  private final Seconds computeSeconds;
  private final Seconds memorySeconds;
  private final Seconds networkSeconds;
  private final ImmutableMap<String, Bytes> bytesByTier;
  private transient final Seconds seconds;
  private transient final Bound bound;

  private ImmutableOperationResult(
      Operation operation,
      Seconds computeSeconds,
      Seconds memorySeconds,
      Seconds networkSeconds,
      ImmutableMap<String, Bytes> bytesByTier) {
    this.operation = operation;
    this.computeSeconds = computeSeconds;
    this.memorySeconds = memorySeconds;
    this.networkSeconds = networkSeconds;
    this.bytesByTier = bytesByTier;
    this.seconds = initShim.seconds();
    this.bound = initShim.bound();
    this.initShim = null;
  }

  private static final byte STAGE_INITIALIZING = -1;
  private static final byte STAGE_UNINITIALIZED = 0;
  private static final byte STAGE_INITIALIZED = 1;
  @SuppressWarnings("Immutable")
  private transient volatile InitShim initShim = new InitShim();

  @Generated(from = "OperationResult", generator = "Immutables")
  private final class InitShim {
    private byte secondsBuildStage = STAGE_UNINITIALIZED;
    private Seconds seconds;

    Seconds seconds() {
      if (secondsBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (secondsBuildStage == STAGE_UNINITIALIZED) {
        secondsBuildStage = STAGE_INITIALIZING;
        Seconds computedValue = ImmutableOperationResult.super.seconds();
        this.seconds = Objects.requireNonNull(computedValue, "seconds");
        secondsBuildStage = STAGE_INITIALIZED;
      }
      return this.seconds;
    }

    private byte boundBuildStage = STAGE_UNINITIALIZED;
    private Bound bound;

    Bound bound() {
      if (boundBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (boundBuildStage == STAGE_UNINITIALIZED) {
        boundBuildStage = STAGE_INITIALIZING;
        Bound computedValue = ImmutableOperationResult.super.bound();
        this.bound = Objects.requireNonNull(computedValue, "bound");
        boundBuildStage = STAGE_INITIALIZED;
      }
      return this.bound;
    }

    private String formatInitCycleMessage() {
      List<String> attributes = new ArrayList<>();
      if (secondsBuildStage == STAGE_INITIALIZING) attributes.add("seconds");
      if (boundBuildStage == STAGE_INITIALIZING) attributes.add("bound");
      return "Cannot build OperationResult, attribute initializers form cycle " + attributes;
    }
  }

  /**
   *The operation evaluated. 
   */
  @Override
  public Operation operation() {
    return operation;
  }

  /**
   *FLOPs / (peak × compute efficiency). 
   */
  @Override
  public Seconds computeSeconds() {
    return computeSeconds;
  }

  /**
   *Σ over tiers of bytes / (bandwidth × memory efficiency). 
   */
  @Override
  public Seconds memorySeconds() {
    return memorySeconds;
  }

  /**
   *steps × hop latency + network bytes / (link bandwidth × network efficiency). 
   */
  @Override
  public Seconds networkSeconds() {
    return networkSeconds;
  }

  /**
   *Memory bytes by tier name. 
   */
  @Override
  public ImmutableMap<String, Bytes> bytesByTier() {
    return bytesByTier;
  }

  /**
   *The operation's time: the largest of its compute, memory and network times. 
   */
  @Override
  public Seconds seconds() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.seconds()
        : this.seconds;
  }

  /**
   *Which of the three times is the largest (ties favour compute, then memory). 
   */
  @Override
  public Bound bound() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.bound()
        : this.bound;
  }

  /**
   * Copy the current immutable object by setting a value for the {@link OperationResult#operation() operation} attribute.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for operation
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableOperationResult withOperation(Operation value) {
    if (this.operation == value) return this;
    Operation newValue = Objects.requireNonNull(value, "operation");
    return new ImmutableOperationResult(newValue, this.computeSeconds, this.memorySeconds, this.networkSeconds, this.bytesByTier);
  }

  /**
   * Copy the current immutable object by setting a value for the {@link OperationResult#computeSeconds() computeSeconds} attribute.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for computeSeconds
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableOperationResult withComputeSeconds(Seconds value) {
    if (this.computeSeconds == value) return this;
    Seconds newValue = Objects.requireNonNull(value, "computeSeconds");
    return new ImmutableOperationResult(this.operation, newValue, this.memorySeconds, this.networkSeconds, this.bytesByTier);
  }

  /**
   * Copy the current immutable object by setting a value for the {@link OperationResult#memorySeconds() memorySeconds} attribute.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for memorySeconds
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableOperationResult withMemorySeconds(Seconds value) {
    if (this.memorySeconds == value) return this;
    Seconds newValue = Objects.requireNonNull(value, "memorySeconds");
    return new ImmutableOperationResult(this.operation, this.computeSeconds, newValue, this.networkSeconds, this.bytesByTier);
  }

  /**
   * Copy the current immutable object by setting a value for the {@link OperationResult#networkSeconds() networkSeconds} attribute.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for networkSeconds
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableOperationResult withNetworkSeconds(Seconds value) {
    if (this.networkSeconds == value) return this;
    Seconds newValue = Objects.requireNonNull(value, "networkSeconds");
    return new ImmutableOperationResult(this.operation, this.computeSeconds, this.memorySeconds, newValue, this.bytesByTier);
  }

  /**
   * Copy the current immutable object by replacing the {@link OperationResult#bytesByTier() bytesByTier} map with the specified map.
   * Nulls are not permitted as keys or values.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param entries The entries to replace the bytesByTier map
   * @return A modified copy or {@code this} if not changed
   */
  public final ImmutableOperationResult withBytesByTier(Map<String, ? extends Bytes> entries) {
    if (this.bytesByTier == entries) return this;
    ImmutableMap<String, Bytes> newValue = ImmutableMap.copyOf(entries);
    return new ImmutableOperationResult(this.operation, this.computeSeconds, this.memorySeconds, this.networkSeconds, newValue);
  }

  /**
   * This instance is equal to all instances of {@code ImmutableOperationResult} that have equal attribute values.
   * @return {@code true} if {@code this} is equal to {@code another} instance
   */
  @Override
  public boolean equals(Object another) {
    if (this == another) return true;
    return another instanceof ImmutableOperationResult
        && equalsByValue((ImmutableOperationResult) another);
  }

  private boolean equalsByValue(ImmutableOperationResult another) {
    return operation.equals(another.operation)
        && computeSeconds.equals(another.computeSeconds)
        && memorySeconds.equals(another.memorySeconds)
        && networkSeconds.equals(another.networkSeconds)
        && bytesByTier.equals(another.bytesByTier)
        && seconds.equals(another.seconds)
        && bound.equals(another.bound);
  }

  /**
   * Computes a hash code from attributes: {@code operation}, {@code computeSeconds}, {@code memorySeconds}, {@code networkSeconds}, {@code bytesByTier}, {@code seconds}, {@code bound}.
   * @return hashCode value
   */
  @Override
  public int hashCode() {
    @Var int h = 5381;
    h += (h << 5) + operation.hashCode();
    h += (h << 5) + computeSeconds.hashCode();
    h += (h << 5) + memorySeconds.hashCode();
    h += (h << 5) + networkSeconds.hashCode();
    h += (h << 5) + bytesByTier.hashCode();
    h += (h << 5) + seconds.hashCode();
    h += (h << 5) + bound.hashCode();
    return h;
  }

  /**
   * Creates an immutable copy of a {@link OperationResult} value.
   * Uses accessors to get values to initialize the new immutable instance.
   * If an instance is already immutable, it is returned as is.
   * @param instance The instance to copy
   * @return A copied immutable OperationResult instance
   */
  public static ImmutableOperationResult copyOf(OperationResult instance) {
    if (instance instanceof ImmutableOperationResult) {
      return (ImmutableOperationResult) instance;
    }
    return ImmutableOperationResult.builder()
        .from(instance)
        .build();
  }

  /**
   * Creates a builder for {@link ImmutableOperationResult ImmutableOperationResult}.
   * <pre>
   * ImmutableOperationResult.builder()
   *    .operation(io.ridgeline.core.Operation) // required {@link OperationResult#operation() operation}
   *    .computeSeconds(io.ridgeline.core.Seconds) // required {@link OperationResult#computeSeconds() computeSeconds}
   *    .memorySeconds(io.ridgeline.core.Seconds) // required {@link OperationResult#memorySeconds() memorySeconds}
   *    .networkSeconds(io.ridgeline.core.Seconds) // required {@link OperationResult#networkSeconds() networkSeconds}
   *    .putBytesByTier|putAllBytesByTier(String =&gt; io.ridgeline.core.Bytes) // {@link OperationResult#bytesByTier() bytesByTier} mappings
   *    .build();
   * </pre>
   * @return A new ImmutableOperationResult builder
   */
  public static ImmutableOperationResult.Builder builder() {
    return new ImmutableOperationResult.Builder();
  }

  /**
   * Builds instances of type {@link ImmutableOperationResult ImmutableOperationResult}.
   * Initialize attributes and then invoke the {@link #build()} method to create an
   * immutable instance.
   * <p><em>{@code Builder} is not thread-safe and generally should not be stored in a field or collection,
   * but instead used immediately to create instances.</em>
   */
  @Generated(from = "OperationResult", generator = "Immutables")
  public static final class Builder {
    private static final long INIT_BIT_OPERATION = 0x1L;
    private static final long INIT_BIT_COMPUTE_SECONDS = 0x2L;
    private static final long INIT_BIT_MEMORY_SECONDS = 0x4L;
    private static final long INIT_BIT_NETWORK_SECONDS = 0x8L;
    private long initBits = 0xfL;

    private Operation operation;
    private Seconds computeSeconds;
    private Seconds memorySeconds;
    private Seconds networkSeconds;
    private ImmutableMap.Builder<String, Bytes> bytesByTier = ImmutableMap.builder();

    private Builder() {
    }

    /**
     * Fill a builder with attribute values from the provided {@code OperationResult} instance.
     * Regular attribute values will be replaced with those from the given instance.
     * Absent optional values will not replace present values.
     * Collection elements and entries will be added, not replaced.
     * @param instance The instance from which to copy values
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder from(OperationResult instance) {
      Objects.requireNonNull(instance, "instance");
      this.operation(instance.operation());
      this.computeSeconds(instance.computeSeconds());
      this.memorySeconds(instance.memorySeconds());
      this.networkSeconds(instance.networkSeconds());
      putAllBytesByTier(instance.bytesByTier());
      return this;
    }

    /**
     * Initializes the value for the {@link OperationResult#operation() operation} attribute.
     * @param operation The value for operation 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder operation(Operation operation) {
      this.operation = Objects.requireNonNull(operation, "operation");
      initBits &= ~INIT_BIT_OPERATION;
      return this;
    }

    /**
     * Initializes the value for the {@link OperationResult#computeSeconds() computeSeconds} attribute.
     * @param computeSeconds The value for computeSeconds 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder computeSeconds(Seconds computeSeconds) {
      this.computeSeconds = Objects.requireNonNull(computeSeconds, "computeSeconds");
      initBits &= ~INIT_BIT_COMPUTE_SECONDS;
      return this;
    }

    /**
     * Initializes the value for the {@link OperationResult#memorySeconds() memorySeconds} attribute.
     * @param memorySeconds The value for memorySeconds 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder memorySeconds(Seconds memorySeconds) {
      this.memorySeconds = Objects.requireNonNull(memorySeconds, "memorySeconds");
      initBits &= ~INIT_BIT_MEMORY_SECONDS;
      return this;
    }

    /**
     * Initializes the value for the {@link OperationResult#networkSeconds() networkSeconds} attribute.
     * @param networkSeconds The value for networkSeconds 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder networkSeconds(Seconds networkSeconds) {
      this.networkSeconds = Objects.requireNonNull(networkSeconds, "networkSeconds");
      initBits &= ~INIT_BIT_NETWORK_SECONDS;
      return this;
    }

    /**
     * Put one entry to the {@link OperationResult#bytesByTier() bytesByTier} map.
     * @param key The key in the bytesByTier map
     * @param value The associated value in the bytesByTier map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putBytesByTier(String key, Bytes value) {
      this.bytesByTier.put(key, value);
      return this;
    }

    /**
     * Put one entry to the {@link OperationResult#bytesByTier() bytesByTier} map. Nulls are not permitted
     * @param entry The key and value entry
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putBytesByTier(Map.Entry<String, ? extends Bytes> entry) {
      this.bytesByTier.put(entry);
      return this;
    }

    /**
     * Sets or replaces all mappings from the specified map as entries for the {@link OperationResult#bytesByTier() bytesByTier} map. Nulls are not permitted
     * @param entries The entries that will be added to the bytesByTier map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder bytesByTier(Map<String, ? extends Bytes> entries) {
      this.bytesByTier = ImmutableMap.builder();
      return putAllBytesByTier(entries);
    }

    /**
     * Put all mappings from the specified map as entries to {@link OperationResult#bytesByTier() bytesByTier} map. Nulls are not permitted
     * @param entries The entries that will be added to the bytesByTier map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putAllBytesByTier(Map<String, ? extends Bytes> entries) {
      this.bytesByTier.putAll(entries);
      return this;
    }

    /**
     * Builds a new {@link ImmutableOperationResult ImmutableOperationResult}.
     * @return An immutable instance of OperationResult
     * @throws java.lang.IllegalStateException if any required attributes are missing
     */
    public ImmutableOperationResult build() {
      if (initBits != 0) {
        throw new IllegalStateException(formatRequiredAttributesMessage());
      }
      return new ImmutableOperationResult(operation, computeSeconds, memorySeconds, networkSeconds, bytesByTier.build());
    }

    private String formatRequiredAttributesMessage() {
      List<String> attributes = new ArrayList<>();
      if ((initBits & INIT_BIT_OPERATION) != 0) attributes.add("operation");
      if ((initBits & INIT_BIT_COMPUTE_SECONDS) != 0) attributes.add("computeSeconds");
      if ((initBits & INIT_BIT_MEMORY_SECONDS) != 0) attributes.add("memorySeconds");
      if ((initBits & INIT_BIT_NETWORK_SECONDS) != 0) attributes.add("networkSeconds");
      return "Cannot build OperationResult, some of required attributes are not set " + attributes;
    }
  }
}
