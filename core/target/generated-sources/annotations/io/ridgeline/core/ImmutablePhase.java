package io.ridgeline.core;

import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import com.google.errorprone.annotations.Var;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.immutables.value.Generated;

/**
 * Immutable implementation of {@link Phase}.
 * <p>
 * Use the builder to create immutable instances:
 * {@code ImmutablePhase.builder()}.
 * Use the static factory method to create immutable instances:
 * {@code ImmutablePhase.of()}.
 */
@Generated(from = "Phase", generator = "Immutables")
@SuppressWarnings({"all"})
@javax.annotation.processing.Generated("org.immutables.processor.ProxyProcessor")
public final class ImmutablePhase extends Phase {
  private final String name;
  private final ImmutableList<Operation> operations;

  private ImmutablePhase(String name, Iterable<? extends Operation> operations) {
    this.name = Objects.requireNonNull(name, "name");
    this.operations = ImmutableList.copyOf(operations);
  }

  private ImmutablePhase(
      ImmutablePhase original,
      String name,
      ImmutableList<Operation> operations) {
    this.name = name;
    this.operations = operations;
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
  public ImmutableList<Operation> operations() {
    return operations;
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Phase#name() name} attribute.
   * An equals check used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for name
   * @return A modified copy or the {@code this} object
   */
  public final ImmutablePhase withName(String value) {
    String newValue = Objects.requireNonNull(value, "name");
    if (this.name.equals(newValue)) return this;
    return validate(new ImmutablePhase(this, newValue, this.operations));
  }

  /**
   * Copy the current immutable object with elements that replace the content of {@link Phase#operations() operations}.
   * @param elements The elements to set
   * @return A modified copy of {@code this} object
   */
  public final ImmutablePhase withOperations(Operation... elements) {
    ImmutableList<Operation> newValue = ImmutableList.copyOf(elements);
    return validate(new ImmutablePhase(this, this.name, newValue));
  }

  /**
   * Copy the current immutable object with elements that replace the content of {@link Phase#operations() operations}.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param elements An iterable of operations elements to set
   * @return A modified copy or {@code this} if not changed
   */
  public final ImmutablePhase withOperations(Iterable<? extends Operation> elements) {
    if (this.operations == elements) return this;
    ImmutableList<Operation> newValue = ImmutableList.copyOf(elements);
    return validate(new ImmutablePhase(this, this.name, newValue));
  }

  /**
   * This instance is equal to all instances of {@code ImmutablePhase} that have equal attribute values.
   * @return {@code true} if {@code this} is equal to {@code another} instance
   */
  @Override
  public boolean equals(Object another) {
    if (this == another) return true;
    return another instanceof ImmutablePhase
        && equalsByValue((ImmutablePhase) another);
  }

  private boolean equalsByValue(ImmutablePhase another) {
    return name.equals(another.name)
        && operations.equals(another.operations);
  }

  /**
   * Computes a hash code from attributes: {@code name}, {@code operations}.
   * @return hashCode value
   */
  @Override
  public int hashCode() {
    @Var int h = 5381;
    h += (h << 5) + name.hashCode();
    h += (h << 5) + operations.hashCode();
    return h;
  }

  /**
   * Construct a new immutable {@code Phase} instance.
   * @param name The value for the {@code name} attribute
   * @param operations The value for the {@code operations} attribute
   * @return An immutable Phase instance
   */
  public static ImmutablePhase of(String name, List<Operation> operations) {
    return of(name, (Iterable<? extends Operation>) operations);
  }

  /**
   * Construct a new immutable {@code Phase} instance.
   * @param name The value for the {@code name} attribute
   * @param operations The value for the {@code operations} attribute
   * @return An immutable Phase instance
   */
  public static ImmutablePhase of(String name, Iterable<? extends Operation> operations) {
    return validate(new ImmutablePhase(name, operations));
  }

  private static ImmutablePhase validate(ImmutablePhase instance) {
    instance.check();
    return instance;
  }

  /**
   * Creates an immutable copy of a {@link Phase} value.
   * Uses accessors to get values to initialize the new immutable instance.
   * If an instance is already immutable, it is returned as is.
   * @param instance The instance to copy
   * @return A copied immutable Phase instance
   */
  public static ImmutablePhase copyOf(Phase instance) {
    if (instance instanceof ImmutablePhase) {
      return (ImmutablePhase) instance;
    }
    return ImmutablePhase.builder()
        .from(instance)
        .build();
  }

  /**
   * Creates a builder for {@link ImmutablePhase ImmutablePhase}.
   * <pre>
   * ImmutablePhase.builder()
   *    .name(String) // required {@link Phase#name() name}
   *    .addOperation|addAllOperations(io.ridgeline.core.Operation) // {@link Phase#operations() operations} elements
   *    .build();
   * </pre>
   * @return A new ImmutablePhase builder
   */
  public static ImmutablePhase.Builder builder() {
    return new ImmutablePhase.Builder();
  }

  /**
   * Builds instances of type {@link ImmutablePhase ImmutablePhase}.
   * Initialize attributes and then invoke the {@link #build()} method to create an
   * immutable instance.
   * <p><em>{@code Builder} is not thread-safe and generally should not be stored in a field or collection,
   * but instead used immediately to create instances.</em>
   */
  @Generated(from = "Phase", generator = "Immutables")
  public static final class Builder {
    private static final long INIT_BIT_NAME = 0x1L;
    private long initBits = 0x1L;

    private String name;
    private ImmutableList.Builder<Operation> operations = ImmutableList.builder();

    private Builder() {
    }

    /**
     * Fill a builder with attribute values from the provided {@code Phase} instance.
     * Regular attribute values will be replaced with those from the given instance.
     * Absent optional values will not replace present values.
     * Collection elements and entries will be added, not replaced.
     * @param instance The instance from which to copy values
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder from(Phase instance) {
      Objects.requireNonNull(instance, "instance");
      this.name(instance.name());
      addAllOperations(instance.operations());
      return this;
    }

    /**
     * Initializes the value for the {@link Phase#name() name} attribute.
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
     * Adds one element to {@link Phase#operations() operations} list.
     * @param element A operations element
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder addOperation(Operation element) {
      this.operations.add(element);
      return this;
    }

    /**
     * Adds elements to {@link Phase#operations() operations} list.
     * @param elements An array of operations elements
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder addOperations(Operation... elements) {
      this.operations.add(elements);
      return this;
    }


    /**
     * Sets or replaces all elements for {@link Phase#operations() operations} list.
     * @param elements An iterable of operations elements
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder operations(Iterable<? extends Operation> elements) {
      this.operations = ImmutableList.builder();
      return addAllOperations(elements);
    }

    /**
     * Adds elements to {@link Phase#operations() operations} list.
     * @param elements An iterable of operations elements
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder addAllOperations(Iterable<? extends Operation> elements) {
      this.operations.addAll(elements);
      return this;
    }

    /**
     * Builds a new {@link ImmutablePhase ImmutablePhase}.
     * @return An immutable instance of Phase
     * @throws java.lang.IllegalStateException if any required attributes are missing
     */
    public ImmutablePhase build() {
      if (initBits != 0) {
        throw new IllegalStateException(formatRequiredAttributesMessage());
      }
      return ImmutablePhase.validate(new ImmutablePhase(null, name, operations.build()));
    }

    private String formatRequiredAttributesMessage() {
      List<String> attributes = new ArrayList<>();
      if ((initBits & INIT_BIT_NAME) != 0) attributes.add("name");
      return "Cannot build Phase, some of required attributes are not set " + attributes;
    }
  }
}
