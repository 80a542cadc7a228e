package io.ridgeline.core;

import com.google.errorprone.annotations.CanIgnoreReturnValue;
import com.google.errorprone.annotations.Var;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.immutables.value.Generated;

/**
 * Immutable implementation of {@link Precisions}.
 * <p>
 * Use the builder to create immutable instances:
 * {@code ImmutablePrecisions.builder()}.
 */
@Generated(from = "Precisions", generator = "Immutables")
@SuppressWarnings({"all"})
@javax.annotation.processing.Generated("org.immutables.processor.ProxyProcessor")
public final class ImmutablePrecisions extends Precisions {
  private final Precision weights;
  private final Precision kvCache;
  private final Precision activations;

  private ImmutablePrecisions(ImmutablePrecisions.Builder builder) {
    if (builder.weights != null) {
      initShim.weights(builder.weights);
    }
    if (builder.kvCache != null) {
      initShim.kvCache(builder.kvCache);
    }
    if (builder.activations != null) {
      initShim.activations(builder.activations);
    }
    this.weights = initShim.weights();
    this.kvCache = initShim.kvCache();
    this.activations = initShim.activations();
    this.initShim = null;
  }

  private ImmutablePrecisions(
      Precision weights,
      Precision kvCache,
      Precision activations) {
    this.weights = weights;
    this.kvCache = kvCache;
    this.activations = activations;
    this.initShim = null;
  }

  private static final byte STAGE_INITIALIZING = -1;
  private static final byte STAGE_UNINITIALIZED = 0;
  private static final byte STAGE_INITIALIZED = 1;
  @SuppressWarnings("Immutable")
  private transient volatile InitShim initShim = new InitShim();

  @Generated(from = "Precisions", generator = "Immutables")
  private final class InitShim {
    private byte weightsBuildStage = STAGE_UNINITIALIZED;
    private Precision weights;

    Precision weights() {
      if (weightsBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (weightsBuildStage == STAGE_UNINITIALIZED) {
        weightsBuildStage = STAGE_INITIALIZING;
        Precision computedValue = ImmutablePrecisions.super.weights();
        this.weights = Objects.requireNonNull(computedValue, "weights");
        weightsBuildStage = STAGE_INITIALIZED;
      }
      return this.weights;
    }

    void weights(Precision weights) {
      this.weights = weights;
      weightsBuildStage = STAGE_INITIALIZED;
    }

    private byte kvCacheBuildStage = STAGE_UNINITIALIZED;
    private Precision kvCache;

    Precision kvCache() {
      if (kvCacheBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (kvCacheBuildStage == STAGE_UNINITIALIZED) {
        kvCacheBuildStage = STAGE_INITIALIZING;
        Precision computedValue = ImmutablePrecisions.super.kvCache();
        this.kvCache = Objects.requireNonNull(computedValue, "kvCache");
        kvCacheBuildStage = STAGE_INITIALIZED;
      }
      return this.kvCache;
    }

    void kvCache(Precision kvCache) {
      this.kvCache = kvCache;
      kvCacheBuildStage = STAGE_INITIALIZED;
    }

    private byte activationsBuildStage = STAGE_UNINITIALIZED;
    private Precision activations;

    Precision activations() {
      if (activationsBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (activationsBuildStage == STAGE_UNINITIALIZED) {
        activationsBuildStage = STAGE_INITIALIZING;
        Precision computedValue = ImmutablePrecisions.super.activations();
        this.activations = Objects.requireNonNull(computedValue, "activations");
        activationsBuildStage = STAGE_INITIALIZED;
      }
      return this.activations;
    }

    void activations(Precision activations) {
      this.activations = activations;
      activationsBuildStage = STAGE_INITIALIZED;
    }

    private String formatInitCycleMessage() {
      List<String> attributes = new ArrayList<>();
      if (weightsBuildStage == STAGE_INITIALIZING) attributes.add("weights");
      if (kvCacheBuildStage == STAGE_INITIALIZING) attributes.add("kvCache");
      if (activationsBuildStage == STAGE_INITIALIZING) attributes.add("activations");
      return "Cannot build Precisions, attribute initializers form cycle " + attributes;
    }
  }

  /**
   *Weight storage precision. 
   */
  @Override
  public Precision weights() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.weights()
        : this.weights;
  }

  /**
   *KV-cache storage precision. 
   */
  @Override
  public Precision kvCache() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.kvCache()
        : this.kvCache;
  }

  /**
   *Activation precision. 
   */
  @Override
  public Precision activations() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.activations()
        : this.activations;
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Precisions#weights() weights} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for weights
   * @return A modified copy or the {@code this} object
   */
  public final ImmutablePrecisions withWeights(Precision value) {
    Precision newValue = Objects.requireNonNull(value, "weights");
    if (this.weights == newValue) return this;
    return new ImmutablePrecisions(newValue, this.kvCache, this.activations);
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Precisions#kvCache() kvCache} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for kvCache
   * @return A modified copy or the {@code this} object
   */
  public final ImmutablePrecisions withKvCache(Precision value) {
    Precision newValue = Objects.requireNonNull(value, "kvCache");
    if (this.kvCache == newValue) return this;
    return new ImmutablePrecisions(this.weights, newValue, this.activations);
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Precisions#activations() activations} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for activations
   * @return A modified copy or the {@code this} object
   */
  public final ImmutablePrecisions withActivations(Precision value) {
    Precision newValue = Objects.requireNonNull(value, "activations");
    if (this.activations == newValue) return this;
    return new ImmutablePrecisions(this.weights, this.kvCache, newValue);
  }

  /**
   * This instance is equal to all instances of {@code ImmutablePrecisions} that have equal attribute values.
   * @return {@code true} if {@code this} is equal to {@code another} instance
   */
  @Override
  public boolean equals(Object another) {
    if (this == another) return true;
    return another instanceof ImmutablePrecisions
        && equalsByValue((ImmutablePrecisions) another);
  }

  private boolean equalsByValue(ImmutablePrecisions another) {
    return weights.equals(another.weights)
        && kvCache.equals(another.kvCache)
        && activations.equals(another.activations);
  }

  /**
   * Computes a hash code from attributes: {@code weights}, {@code kvCache}, {@code activations}.
   * @return hashCode value
   */
  @Override
  public int hashCode() {
    @Var int h = 5381;
    h += (h << 5) + weights.hashCode();
    h += (h << 5) + kvCache.hashCode();
    h += (h << 5) + activations.hashCode();
    return h;
  }

  /**
   * Creates an immutable copy of a {@link Precisions} value.
   * Uses accessors to get values to initialize the new immutable instance.
   * If an instance is already immutable, it is returned as is.
   * @param instance The instance to copy
   * @return A copied immutable Precisions instance
   */
  public static ImmutablePrecisions copyOf(Precisions instance) {
    if (instance instanceof ImmutablePrecisions) {
      return (ImmutablePrecisions) instance;
    }
    return ImmutablePrecisions.builder()
        .from(instance)
        .build();
  }

  /**
   * Creates a builder for {@link ImmutablePrecisions ImmutablePrecisions}.
   * <pre>
   * ImmutablePrecisions.builder()
   *    .weights(io.ridgeline.core.Precision) // optional {@link Precisions#weights() weights}
   *    .kvCache(io.ridgeline.core.Precision) // optional {@link Precisions#kvCache() kvCache}
   *    .activations(io.ridgeline.core.Precision) // optional {@link Precisions#activations() activations}
   *    .build();
   * </pre>
   * @return A new ImmutablePrecisions builder
   */
  public static ImmutablePrecisions.Builder builder() {
    return new ImmutablePrecisions.Builder();
  }

  /**
   * Builds instances of type {@link ImmutablePrecisions ImmutablePrecisions}.
   * Initialize attributes and then invoke the {@link #build()} method to create an
   * immutable instance.
   * <p><em>{@code Builder} is not thread-safe and generally should not be stored in a field or collection,
   * but instead used immediately to create instances.</em>
   */
  @Generated(from = "Precisions", generator = "Immutables")
  public static final class Builder {
    private Precision weights;
    private Precision kvCache;
    private Precision activations;

    private Builder() {
    }

    /**
     * Fill a builder with attribute values from the provided {@code Precisions} instance.
     * Regular attribute values will be replaced with those from the given instance.
     * Absent optional values will not replace present values.
     * @param instance The instance from which to copy values
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder from(Precisions instance) {
      Objects.requireNonNull(instance, "instance");
      this.weights(instance.weights());
      this.kvCache(instance.kvCache());
      this.activations(instance.activations());
      return this;
    }

    /**
     * Initializes the value for the {@link Precisions#weights() weights} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link Precisions#weights() weights}.</em>
     * @param weights The value for weights 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder weights(Precision weights) {
      this.weights = Objects.requireNonNull(weights, "weights");
      return this;
    }

    /**
     * Initializes the value for the {@link Precisions#kvCache() kvCache} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link Precisions#kvCache() kvCache}.</em>
     * @param kvCache The value for kvCache 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder kvCache(Precision kvCache) {
      this.kvCache = Objects.requireNonNull(kvCache, "kvCache");
      return this;
    }

    /**
     * Initializes the value for the {@link Precisions#activations() activations} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link Precisions#activations() activations}.</em>
     * @param activations The value for activations 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder activations(Precision activations) {
      this.activations = Objects.requireNonNull(activations, "activations");
      return this;
    }

    /**
     * Builds a new {@link ImmutablePrecisions ImmutablePrecisions}.
     * @return An immutable instance of Precisions
     * @throws java.lang.IllegalStateException if any required attributes are missing
     */
    public ImmutablePrecisions build() {
      return new ImmutablePrecisions(this);
    }
  }
}
