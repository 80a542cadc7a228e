package io.ridgeline.core;

import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import com.google.errorprone.annotations.Var;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.immutables.value.Generated;

/**
 * Immutable implementation of {@link PhaseResult}.
 * <p>
 * Use the builder to create immutable instances:
 * {@code ImmutablePhaseResult.builder()}.
 */
@Generated(from = "PhaseResult", generator = "Immutables")
@SuppressWarnings({"all"})
@javax.annotation.processing.Generated("org.immutables.processor.ProxyProcessor")
public final class ImmutablePhaseResult extends PhaseResult {
  private final String name;
  private final ImmutableList<OperationResult> operations;
  private transient final Flops flops;
  private transient final Bytes bytes;
  private transient final Bytes networkBytes;
  private transient final Seconds seconds;

  private ImmutablePhaseResult(
      String name,
      ImmutableList<OperationResult> operations) {
    this.name = name;
    this.operations = operations;
    this.flops = initShim.flops();
    this.bytes = initShim.bytes();
    this.networkBytes = initShim.networkBytes();
    this.seconds = initShim.seconds();
    this.initShim = null;
  }

  private static final byte STAGE_INITIALIZING = -1;
  private static final byte STAGE_UNINITIALIZED = 0;
  private static final byte STAGE_INITIALIZED = 1;
  @SuppressWarnings("Immutable")
  private transient volatile InitShim initShim = new InitShim();

  @Generated(from = "PhaseResult", generator = "Immutables")
  private final class InitShim {
    private byte flopsBuildStage = STAGE_UNINITIALIZED;
    private Flops flops;

    Flops flops() {
      if (flopsBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (flopsBuildStage == STAGE_UNINITIALIZED) {
        flopsBuildStage = STAGE_INITIALIZING;
        Flops computedValue = ImmutablePhaseResult.super.flops();
        this.flops = Objects.requireNonNull(computedValue, "flops");
        flopsBuildStage = STAGE_INITIALIZED;
      }
      return this.flops;
    }

    private byte bytesBuildStage = STAGE_UNINITIALIZED;
    private Bytes bytes;

    Bytes bytes() {
      if (bytesBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (bytesBuildStage == STAGE_UNINITIALIZED) {
        bytesBuildStage = STAGE_INITIALIZING;
        Bytes computedValue = ImmutablePhaseResult.super.bytes();
        this.bytes = Objects.requireNonNull(computedValue, "bytes");
        bytesBuildStage = STAGE_INITIALIZED;
      }
      return this.bytes;
    }

    private byte networkBytesBuildStage = STAGE_UNINITIALIZED;
    private Bytes networkBytes;

    Bytes networkBytes() {
      if (networkBytesBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (networkBytesBuildStage == STAGE_UNINITIALIZED) {
        networkBytesBuildStage = STAGE_INITIALIZING;
        Bytes computedValue = ImmutablePhaseResult.super.networkBytes();
        this.networkBytes = Objects.requireNonNull(computedValue, "networkBytes");
        networkBytesBuildStage = STAGE_INITIALIZED;
      }
      return this.networkBytes;
    }

    private byte secondsBuildStage = STAGE_UNINITIALIZED;
    private Seconds seconds;

    Seconds seconds() {
      if (secondsBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (secondsBuildStage == STAGE_UNINITIALIZED) {
        secondsBuildStage = STAGE_INITIALIZING;
        Seconds computedValue = ImmutablePhaseResult.super.seconds();
        this.seconds = Objects.requireNonNull(computedValue, "seconds");
        secondsBuildStage = STAGE_INITIALIZED;
      }
      return this.seconds;
    }

    private String formatInitCycleMessage() {
      List<String> attributes = new ArrayList<>();
      if (flopsBuildStage == STAGE_INITIALIZING) attributes.add("flops");
      if (bytesBuildStage == STAGE_INITIALIZING) attributes.add("bytes");
      if (networkBytesBuildStage == STAGE_INITIALIZING) attributes.add("networkBytes");
      if (secondsBuildStage == STAGE_INITIALIZING) attributes.add("seconds");
      return "Cannot build PhaseResult, attribute initializers form cycle " + attributes;
    }
  }

  /**
   *The phase name, for example {@code "prefill"}. 
   */
  @Override
  public String name() {
    return name;
  }

  /**
   *The operations in execution order. 
   */
  @Override
  public ImmutableList<OperationResult> operations() {
    return operations;
  }

  /**
   *Total FLOPs. 
   */
  @Override
  public Flops flops() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.flops()
        : this.flops;
  }

  /**
   *Total memory bytes. 
   */
  @Override
  public Bytes bytes() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.bytes()
        : this.bytes;
  }

  /**
   *Total bytes sent over the interconnect per chip. 
   */
  @Override
  public Bytes networkBytes() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.networkBytes()
        : this.networkBytes;
  }

  /**
   *Sum of the operations' times. 
   */
  @Override
  public Seconds seconds() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.seconds()
        : this.seconds;
  }

  /**
   * Copy the current immutable object by setting a value for the {@link PhaseResult#name() name} attribute.
   * An equals check used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for name
   * @return A modified copy or the {@code this} object
   */
  public final ImmutablePhaseResult withName(String value) {
    String newValue = Objects.requireNonNull(value, "name");
    if (this.name.equals(newValue)) return this;
    return new ImmutablePhaseResult(newValue, this.operations);
  }

  /**
   * Copy the current immutable object with elements that replace the content of {@link PhaseResult#operations() operations}.
   * @param elements The elements to set
   * @return A modified copy of {@code this} object
   */
  public final ImmutablePhaseResult withOperations(OperationResult... elements) {
    ImmutableList<OperationResult> newValue = ImmutableList.copyOf(elements);
    return new ImmutablePhaseResult(this.name, newValue);
  }

  /**
   * Copy the current immutable object with elements that replace the content of {@link PhaseResult#operations() operations}.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param elements An iterable of operations elements to set
   * @return A modified copy or {@code this} if not changed
   */
  public final ImmutablePhaseResult withOperations(Iterable<? extends OperationResult> elements) {
    if (this.operations == elements) return this;
    ImmutableList<OperationResult> newValue = ImmutableList.copyOf(elements);
    return new ImmutablePhaseResult(this.name, newValue);
  }

  /**
   * This instance is equal to all instances of {@code ImmutablePhaseResult} that have equal attribute values.
   * @return {@code true} if {@code this} is equal to {@code another} instance
   */
  @Override
  public boolean equals(Object another) {
    if (this == another) return true;
    return another instanceof ImmutablePhaseResult
        && equalsByValue((ImmutablePhaseResult) another);
  }

  private boolean equalsByValue(ImmutablePhaseResult another) {
    return name.equals(another.name)
        && operations.equals(another.operations)
        && flops.equals(another.flops)
        && bytes.equals(another.bytes)
        && networkBytes.equals(another.networkBytes)
        && seconds.equals(another.seconds);
  }

  /**
   * Computes a hash code from attributes: {@code name}, {@code operations}, {@code flops}, {@code bytes}, {@code networkBytes}, {@code seconds}.
   * @return hashCode value
   */
  @Override
  public int hashCode() {
    @Var int h = 5381;
    h += (h << 5) + name.hashCode();
    h += (h << 5) + operations.hashCode();
    h += (h << 5) + flops.hashCode();
    h += (h << 5) + bytes.hashCode();
    h += (h << 5) + networkBytes.hashCode();
    h += (h << 5) + seconds.hashCode();
    return h;
  }

  /**
   * Creates an immutable copy of a {@link PhaseResult} value.
   * Uses accessors to get values to initialize the new immutable instance.
   * If an instance is already immutable, it is returned as is.
   * @param instance The instance to copy
   * @return A copied immutable PhaseResult instance
   */
  public static ImmutablePhaseResult copyOf(PhaseResult instance) {
    if (instance instanceof ImmutablePhaseResult) {
      return (ImmutablePhaseResult) instance;
    }
    return ImmutablePhaseResult.builder()
        .from(instance)
        .build();
  }

  /**
   * Creates a builder for {@link ImmutablePhaseResult ImmutablePhaseResult}.
   * <pre>
   * ImmutablePhaseResult.builder()
   *    .name(String) // required {@link PhaseResult#name() name}
   *    .addOperation|addAllOperations(io.ridgeline.core.OperationResult) // {@link PhaseResult#operations() operations} elements
   *    .build();
   * </pre>
   * @return A new ImmutablePhaseResult builder
   */
  public static ImmutablePhaseResult.Builder builder() {
    return new ImmutablePhaseResult.Builder();
  }

  /**
   * Builds instances of type {@link ImmutablePhaseResult ImmutablePhaseResult}.
   * Initialize attributes and then invoke the {@link #build()} method to create an
   * immutable instance.
   * <p><em>{@code Builder} is not thread-safe and generally should not be stored in a field or collection,
   * but instead used immediately to create instances.</em>
   */
  @Generated(from = "PhaseResult", generator = "Immutables")
  public static final class Builder {
    private static final long INIT_BIT_NAME = 0x1L;
    private long initBits = 0x1L;

    private String name;
    private ImmutableList.Builder<OperationResult> operations = ImmutableList.builder();

    private Builder() {
    }

    /**
     * Fill a builder with attribute values from the provided {@code PhaseResult} instance.
     * Regular attribute values will be replaced with those from the given instance.
     * Absent optional values will not replace present values.
     * Collection elements and entries will be added, not replaced.
     * @param instance The instance from which to copy values
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder from(PhaseResult instance) {
      Objects.requireNonNull(instance, "instance");
      this.name(instance.name());
      addAllOperations(instance.operations());
      return this;
    }

    /**
     * Initializes the value for the {@link PhaseResult#name() name} attribute.
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
     * Adds one element to {@link PhaseResult#operations() operations} list.
     * @param element A operations element
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder addOperation(OperationResult element) {
      this.operations.add(element);
      return this;
    }

    /**
     * Adds elements to {@link PhaseResult#operations() operations} list.
     * @param elements An array of operations elements
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder addOperations(OperationResult... elements) {
      this.operations.add(elements);
      return this;
    }


    /**
     * Sets or replaces all elements for {@link PhaseResult#operations() operations} list.
     * @param elements An iterable of operations elements
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder operations(Iterable<? extends OperationResult> elements) {
      this.operations = ImmutableList.builder();
      return addAllOperations(elements);
    }

    /**
     * Adds elements to {@link PhaseResult#operations() operations} list.
     * @param elements An iterable of operations elements
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder addAllOperations(Iterable<? extends OperationResult> elements) {
      this.operations.addAll(elements);
      return this;
    }

    /**
     * Builds a new {@link ImmutablePhaseResult ImmutablePhaseResult}.
     * @return An immutable instance of PhaseResult
     * @throws java.lang.IllegalStateException if any required attributes are missing
     */
    public ImmutablePhaseResult build() {
      if (initBits != 0) {
        throw new IllegalStateException(formatRequiredAttributesMessage());
      }
      return new ImmutablePhaseResult(name, operations.build());
    }

    private String formatRequiredAttributesMessage() {
      List<String> attributes = new ArrayList<>();
      if ((initBits & INIT_BIT_NAME) != 0) attributes.add("name");
      return "Cannot build PhaseResult, some of required attributes are not set " + attributes;
    }
  }
}
