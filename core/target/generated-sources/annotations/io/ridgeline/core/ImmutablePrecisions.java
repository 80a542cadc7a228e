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
  private final ImmutableMap<TensorClass, Precision> weightOverrides;
  private final Precision kvCache;
  private final Precision activations;

  private ImmutablePrecisions(ImmutablePrecisions.Builder builder) {
    this.weightOverrides = Maps.immutableEnumMap(builder.weightOverrides.build());
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
      ImmutableMap<TensorClass, Precision> weightOverrides,
      Precision kvCache,
      Precision activations) {
    this.weights = weights;
    this.weightOverrides = weightOverrides;
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
   * Weight precisions that differ from {@link #weights()} by tensor class, for example MXFP4
   * experts with BF16 attention.
   */
  @Override
  public ImmutableMap<TensorClass, Precision> weightOverrides() {
    return weightOverrides;
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
    return new ImmutablePrecisions(newValue, this.weightOverrides, this.kvCache, this.activations);
  }

  /**
   * Copy the current immutable object by replacing the {@link Precisions#weightOverrides() weightOverrides} map with the specified map.
   * Nulls are not permitted as keys or values.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param entries The entries to replace the weightOverrides map
   * @return A modified copy or {@code this} if not changed
   */
  public final ImmutablePrecisions withWeightOverrides(Map<TensorClass, ? extends Precision> entries) {
    if (this.weightOverrides == entries) return this;
    ImmutableMap<TensorClass, Precision> newValue = Maps.immutableEnumMap(entries);
    return new ImmutablePrecisions(this.weights, newValue, this.kvCache, this.activations);
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
    return new ImmutablePrecisions(this.weights, this.weightOverrides, newValue, this.activations);
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
    return new ImmutablePrecisions(this.weights, this.weightOverrides, this.kvCache, newValue);
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
        && weightOverrides.equals(another.weightOverrides)
        && kvCache.equals(another.kvCache)
        && activations.equals(another.activations);
  }

  /**
   * Computes a hash code from attributes: {@code weights}, {@code weightOverrides}, {@code kvCache}, {@code activations}.
   * @return hashCode value
   */
  @Override
  public int hashCode() {
    @Var int h = 5381;
    h += (h << 5) + weights.hashCode();
    h += (h << 5) + weightOverrides.hashCode();
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
   *    .putWeightOverride|putAllWeightOverrides(io.ridgeline.core.TensorClass =&gt; io.ridgeline.core.Precision) // {@link Precisions#weightOverrides() weightOverrides} mappings
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
    private ImmutableMap.Builder<TensorClass, Precision> weightOverrides = ImmutableMap.builder();
    private Precision kvCache;
    private Precision activations;

    private Builder() {
    }

    /**
     * Fill a builder with attribute values from the provided {@code Precisions} instance.
     * Regular attribute values will be replaced with those from the given instance.
     * Absent optional values will not replace present values.
     * Collection elements and entries will be added, not replaced.
     * @param instance The instance from which to copy values
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder from(Precisions instance) {
      Objects.requireNonNull(instance, "instance");
      this.weights(instance.weights());
      putAllWeightOverrides(instance.weightOverrides());
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
     * Put one entry to the {@link Precisions#weightOverrides() weightOverrides} map.
     * @param key The key in the weightOverrides map
     * @param value The associated value in the weightOverrides map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putWeightOverride(TensorClass key, Precision value) {
      this.weightOverrides.put(key, value);
      return this;
    }

    /**
     * Put one entry to the {@link Precisions#weightOverrides() weightOverrides} map. Nulls are not permitted
     * @param entry The key and value entry
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putWeightOverride(Map.Entry<TensorClass, ? extends Precision> entry) {
      this.weightOverrides.put(entry);
      return this;
    }

    /**
     * Sets or replaces all mappings from the specified map as entries for the {@link Precisions#weightOverrides() weightOverrides} map. Nulls are not permitted
     * @param entries The entries that will be added to the weightOverrides map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder weightOverrides(Map<TensorClass, ? extends Precision> entries) {
      this.weightOverrides = ImmutableMap.builder();
      return putAllWeightOverrides(entries);
    }

    /**
     * Put all mappings from the specified map as entries to {@link Precisions#weightOverrides() weightOverrides} map. Nulls are not permitted
     * @param entries The entries that will be added to the weightOverrides map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putAllWeightOverrides(Map<TensorClass, ? extends Precision> entries) {
      this.weightOverrides.putAll(entries);
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
