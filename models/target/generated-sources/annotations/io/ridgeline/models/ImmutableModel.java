package io.ridgeline.models;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.Maps;
import com.google.common.primitives.Booleans;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import com.google.errorprone.annotations.Var;
import io.ridgeline.core.Precision;
import io.ridgeline.core.TensorClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.immutables.value.Generated;

/**
 * Immutable implementation of {@link Model}.
 * <p>
 * Use the builder to create immutable instances:
 * {@code ImmutableModel.builder()}.
 */
@Generated(from = "Model", generator = "Immutables")
@SuppressWarnings({"all"})
@javax.annotation.processing.Generated("org.immutables.processor.ProxyProcessor")
public final class ImmutableModel extends Model {
  private final String id;
  private final String modelType;
  private final String source;
  private final int hiddenSize;
  private final int vocabSize;
  private final ImmutableList<Layer> layers;
  private final Model.NormKind normKind;
  private final boolean tiedEmbeddings;
  private final boolean embeddingNorm;
  private final Integer maxContext;
  private final Precision nativePrecision;
  private final ImmutableMap<TensorClass, Precision> quantizedWeights;
  private final int mtpLayers;

  private ImmutableModel(ImmutableModel.Builder builder) {
    this.id = builder.id;
    this.modelType = builder.modelType;
    this.source = builder.source;
    this.hiddenSize = builder.hiddenSize;
    this.vocabSize = builder.vocabSize;
    this.layers = builder.layers.build();
    this.tiedEmbeddings = builder.tiedEmbeddings;
    this.maxContext = builder.maxContext;
    this.quantizedWeights = Maps.immutableEnumMap(builder.quantizedWeights.build());
    if (builder.normKind != null) {
      initShim.normKind(builder.normKind);
    }
    if (builder.embeddingNormIsSet()) {
      initShim.embeddingNorm(builder.embeddingNorm);
    }
    if (builder.nativePrecision != null) {
      initShim.nativePrecision(builder.nativePrecision);
    }
    if (builder.mtpLayersIsSet()) {
      initShim.mtpLayers(builder.mtpLayers);
    }
    this.normKind = initShim.normKind();
    this.embeddingNorm = initShim.embeddingNorm();
    this.nativePrecision = initShim.nativePrecision();
    this.mtpLayers = initShim.mtpLayers();
    this.initShim = null;
  }

  private ImmutableModel(
      String id,
      String modelType,
      String source,
      int hiddenSize,
      int vocabSize,
      ImmutableList<Layer> layers,
      Model.NormKind normKind,
      boolean tiedEmbeddings,
      boolean embeddingNorm,
      Integer maxContext,
      Precision nativePrecision,
      ImmutableMap<TensorClass, Precision> quantizedWeights,
      int mtpLayers) {
    this.id = id;
    this.modelType = modelType;
    this.source = source;
    this.hiddenSize = hiddenSize;
    this.vocabSize = vocabSize;
    this.layers = layers;
    this.normKind = normKind;
    this.tiedEmbeddings = tiedEmbeddings;
    this.embeddingNorm = embeddingNorm;
    this.maxContext = maxContext;
    this.nativePrecision = nativePrecision;
    this.quantizedWeights = quantizedWeights;
    this.mtpLayers = mtpLayers;
    this.initShim = null;
  }

  private static final byte STAGE_INITIALIZING = -1;
  private static final byte STAGE_UNINITIALIZED = 0;
  private static final byte STAGE_INITIALIZED = 1;
  @SuppressWarnings("Immutable")
  private transient volatile InitShim initShim = new InitShim();

  @Generated(from = "Model", generator = "Immutables")
  private final class InitShim {
    private byte normKindBuildStage = STAGE_UNINITIALIZED;
    private Model.NormKind normKind;

    Model.NormKind normKind() {
      if (normKindBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (normKindBuildStage == STAGE_UNINITIALIZED) {
        normKindBuildStage = STAGE_INITIALIZING;
        Model.NormKind computedValue = ImmutableModel.super.normKind();
        this.normKind = Objects.requireNonNull(computedValue, "normKind");
        normKindBuildStage = STAGE_INITIALIZED;
      }
      return this.normKind;
    }

    void normKind(Model.NormKind normKind) {
      this.normKind = normKind;
      normKindBuildStage = STAGE_INITIALIZED;
    }

    private byte embeddingNormBuildStage = STAGE_UNINITIALIZED;
    private boolean embeddingNorm;

    boolean embeddingNorm() {
      if (embeddingNormBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (embeddingNormBuildStage == STAGE_UNINITIALIZED) {
        embeddingNormBuildStage = STAGE_INITIALIZING;
        boolean computedValue = ImmutableModel.super.embeddingNorm();
        this.embeddingNorm = computedValue;
        embeddingNormBuildStage = STAGE_INITIALIZED;
      }
      return this.embeddingNorm;
    }

    void embeddingNorm(boolean embeddingNorm) {
      this.embeddingNorm = embeddingNorm;
      embeddingNormBuildStage = STAGE_INITIALIZED;
    }

    private byte nativePrecisionBuildStage = STAGE_UNINITIALIZED;
    private Precision nativePrecision;

    Precision nativePrecision() {
      if (nativePrecisionBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (nativePrecisionBuildStage == STAGE_UNINITIALIZED) {
        nativePrecisionBuildStage = STAGE_INITIALIZING;
        Precision computedValue = ImmutableModel.super.nativePrecision();
        this.nativePrecision = Objects.requireNonNull(computedValue, "nativePrecision");
        nativePrecisionBuildStage = STAGE_INITIALIZED;
      }
      return this.nativePrecision;
    }

    void nativePrecision(Precision nativePrecision) {
      this.nativePrecision = nativePrecision;
      nativePrecisionBuildStage = STAGE_INITIALIZED;
    }

    private byte mtpLayersBuildStage = STAGE_UNINITIALIZED;
    private int mtpLayers;

    int mtpLayers() {
      if (mtpLayersBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (mtpLayersBuildStage == STAGE_UNINITIALIZED) {
        mtpLayersBuildStage = STAGE_INITIALIZING;
        int computedValue = ImmutableModel.super.mtpLayers();
        this.mtpLayers = computedValue;
        mtpLayersBuildStage = STAGE_INITIALIZED;
      }
      return this.mtpLayers;
    }

    void mtpLayers(int mtpLayers) {
      this.mtpLayers = mtpLayers;
      mtpLayersBuildStage = STAGE_INITIALIZED;
    }

    private String formatInitCycleMessage() {
      List<String> attributes = new ArrayList<>();
      if (normKindBuildStage == STAGE_INITIALIZING) attributes.add("normKind");
      if (embeddingNormBuildStage == STAGE_INITIALIZING) attributes.add("embeddingNorm");
      if (nativePrecisionBuildStage == STAGE_INITIALIZING) attributes.add("nativePrecision");
      if (mtpLayersBuildStage == STAGE_INITIALIZING) attributes.add("mtpLayers");
      return "Cannot build Model, attribute initializers form cycle " + attributes;
    }
  }

  /**
   *Catalog id such as {@code "llama-3.1-8b"} (or the file name for user configs). 
   */
  @Override
  public String id() {
    return id;
  }

  /**
   *HuggingFace {@code model_type}, for example {@code "llama"}. 
   */
  @Override
  public String modelType() {
    return modelType;
  }

  /**
   *Where the configuration came from (catalog source or file path). 
   */
  @Override
  public String source() {
    return source;
  }

  /**
   *Model width ({@code hidden_size}). 
   */
  @Override
  public int hiddenSize() {
    return hiddenSize;
  }

  /**
   *Vocabulary size. 
   */
  @Override
  public int vocabSize() {
    return vocabSize;
  }

  /**
   *The blocks, in order. 
   */
  @Override
  public ImmutableList<Layer> layers() {
    return layers;
  }

  /**
   *RMSNorm or LayerNorm. 
   */
  @Override
  public Model.NormKind normKind() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.normKind()
        : this.normKind;
  }

  /**
   *Whether the LM head shares the embedding matrix. 
   */
  @Override
  public boolean tiedEmbeddings() {
    return tiedEmbeddings;
  }

  /**
   *Whether a norm follows the embedding (BLOOM's {@code word_embeddings_layernorm}). 
   */
  @Override
  public boolean embeddingNorm() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.embeddingNorm()
        : this.embeddingNorm;
  }

  /**
   *The longest context the configuration declares, if it declares one. 
   */
  @Override
  public Optional<Integer> maxContext() {
    return Optional.ofNullable(maxContext);
  }

  /**
   *The precision the checkpoint's unquantised tensors ship in ({@code torch_dtype}). 
   */
  @Override
  public Precision nativePrecision() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.nativePrecision()
        : this.nativePrecision;
  }

  /**
   *Checkpoint weight precisions by tensor class from {@code quantization_config}. 
   */
  @Override
  public ImmutableMap<TensorClass, Precision> quantizedWeights() {
    return quantizedWeights;
  }

  /**
   *Multi-token-prediction layers shipped beside the model (DeepSeek); not counted anywhere. 
   */
  @Override
  public int mtpLayers() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.mtpLayers()
        : this.mtpLayers;
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#id() id} attribute.
   * An equals check used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for id
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withId(String value) {
    String newValue = Objects.requireNonNull(value, "id");
    if (this.id.equals(newValue)) return this;
    return validate(new ImmutableModel(
        newValue,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.vocabSize,
        this.layers,
        this.normKind,
        this.tiedEmbeddings,
        this.embeddingNorm,
        this.maxContext,
        this.nativePrecision,
        this.quantizedWeights,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#modelType() modelType} attribute.
   * An equals check used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for modelType
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withModelType(String value) {
    String newValue = Objects.requireNonNull(value, "modelType");
    if (this.modelType.equals(newValue)) return this;
    return validate(new ImmutableModel(
        this.id,
        newValue,
        this.source,
        this.hiddenSize,
        this.vocabSize,
        this.layers,
        this.normKind,
        this.tiedEmbeddings,
        this.embeddingNorm,
        this.maxContext,
        this.nativePrecision,
        this.quantizedWeights,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#source() source} attribute.
   * An equals check used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for source
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withSource(String value) {
    String newValue = Objects.requireNonNull(value, "source");
    if (this.source.equals(newValue)) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        newValue,
        this.hiddenSize,
        this.vocabSize,
        this.layers,
        this.normKind,
        this.tiedEmbeddings,
        this.embeddingNorm,
        this.maxContext,
        this.nativePrecision,
        this.quantizedWeights,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#hiddenSize() hiddenSize} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for hiddenSize
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withHiddenSize(int value) {
    if (this.hiddenSize == value) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        value,
        this.vocabSize,
        this.layers,
        this.normKind,
        this.tiedEmbeddings,
        this.embeddingNorm,
        this.maxContext,
        this.nativePrecision,
        this.quantizedWeights,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#vocabSize() vocabSize} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for vocabSize
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withVocabSize(int value) {
    if (this.vocabSize == value) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        value,
        this.layers,
        this.normKind,
        this.tiedEmbeddings,
        this.embeddingNorm,
        this.maxContext,
        this.nativePrecision,
        this.quantizedWeights,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object with elements that replace the content of {@link Model#layers() layers}.
   * @param elements The elements to set
   * @return A modified copy of {@code this} object
   */
  public final ImmutableModel withLayers(Layer... elements) {
    ImmutableList<Layer> newValue = ImmutableList.copyOf(elements);
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.vocabSize,
        newValue,
        this.normKind,
        this.tiedEmbeddings,
        this.embeddingNorm,
        this.maxContext,
        this.nativePrecision,
        this.quantizedWeights,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object with elements that replace the content of {@link Model#layers() layers}.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param elements An iterable of layers elements to set
   * @return A modified copy or {@code this} if not changed
   */
  public final ImmutableModel withLayers(Iterable<? extends Layer> elements) {
    if (this.layers == elements) return this;
    ImmutableList<Layer> newValue = ImmutableList.copyOf(elements);
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.vocabSize,
        newValue,
        this.normKind,
        this.tiedEmbeddings,
        this.embeddingNorm,
        this.maxContext,
        this.nativePrecision,
        this.quantizedWeights,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#normKind() normKind} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for normKind
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withNormKind(Model.NormKind value) {
    Model.NormKind newValue = Objects.requireNonNull(value, "normKind");
    if (this.normKind == newValue) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.vocabSize,
        this.layers,
        newValue,
        this.tiedEmbeddings,
        this.embeddingNorm,
        this.maxContext,
        this.nativePrecision,
        this.quantizedWeights,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#tiedEmbeddings() tiedEmbeddings} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for tiedEmbeddings
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withTiedEmbeddings(boolean value) {
    if (this.tiedEmbeddings == value) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.vocabSize,
        this.layers,
        this.normKind,
        value,
        this.embeddingNorm,
        this.maxContext,
        this.nativePrecision,
        this.quantizedWeights,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#embeddingNorm() embeddingNorm} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for embeddingNorm
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withEmbeddingNorm(boolean value) {
    if (this.embeddingNorm == value) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.vocabSize,
        this.layers,
        this.normKind,
        this.tiedEmbeddings,
        value,
        this.maxContext,
        this.nativePrecision,
        this.quantizedWeights,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object by setting a <em>present</em> value for the optional {@link Model#maxContext() maxContext} attribute.
   * @param value The value for maxContext
   * @return A modified copy or {@code this} if not changed
   */
  public final ImmutableModel withMaxContext(int value) {
    Integer newValue = value;
    if (Objects.equals(this.maxContext, newValue)) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.vocabSize,
        this.layers,
        this.normKind,
        this.tiedEmbeddings,
        this.embeddingNorm,
        newValue,
        this.nativePrecision,
        this.quantizedWeights,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object by setting an optional value for the {@link Model#maxContext() maxContext} attribute.
   * An equality check is used on inner value to prevent copying of the same value by returning {@code this}.
   * @param optional An optional value for maxContext
   * @return A modified copy or {@code this} if not changed
   */
  public final ImmutableModel withMaxContext(Optional<Integer> optional) {
    Integer value = optional.orElse(null);
    if (Objects.equals(this.maxContext, value)) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.vocabSize,
        this.layers,
        this.normKind,
        this.tiedEmbeddings,
        this.embeddingNorm,
        value,
        this.nativePrecision,
        this.quantizedWeights,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#nativePrecision() nativePrecision} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for nativePrecision
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withNativePrecision(Precision value) {
    Precision newValue = Objects.requireNonNull(value, "nativePrecision");
    if (this.nativePrecision == newValue) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.vocabSize,
        this.layers,
        this.normKind,
        this.tiedEmbeddings,
        this.embeddingNorm,
        this.maxContext,
        newValue,
        this.quantizedWeights,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object by replacing the {@link Model#quantizedWeights() quantizedWeights} map with the specified map.
   * Nulls are not permitted as keys or values.
   * A shallow reference equality check is used to prevent copying of the same value by returning {@code this}.
   * @param entries The entries to replace the quantizedWeights map
   * @return A modified copy or {@code this} if not changed
   */
  public final ImmutableModel withQuantizedWeights(Map<TensorClass, ? extends Precision> entries) {
    if (this.quantizedWeights == entries) return this;
    ImmutableMap<TensorClass, Precision> newValue = Maps.immutableEnumMap(entries);
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.vocabSize,
        this.layers,
        this.normKind,
        this.tiedEmbeddings,
        this.embeddingNorm,
        this.maxContext,
        this.nativePrecision,
        newValue,
        this.mtpLayers));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#mtpLayers() mtpLayers} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for mtpLayers
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withMtpLayers(int value) {
    if (this.mtpLayers == value) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.vocabSize,
        this.layers,
        this.normKind,
        this.tiedEmbeddings,
        this.embeddingNorm,
        this.maxContext,
        this.nativePrecision,
        this.quantizedWeights,
        value));
  }

  /**
   * This instance is equal to all instances of {@code ImmutableModel} that have equal attribute values.
   * @return {@code true} if {@code this} is equal to {@code another} instance
   */
  @Override
  public boolean equals(Object another) {
    if (this == another) return true;
    return another instanceof ImmutableModel
        && equalsByValue((ImmutableModel) another);
  }

  private boolean equalsByValue(ImmutableModel another) {
    return id.equals(another.id)
        && modelType.equals(another.modelType)
        && source.equals(another.source)
        && hiddenSize == another.hiddenSize
        && vocabSize == another.vocabSize
        && layers.equals(another.layers)
        && normKind.equals(another.normKind)
        && tiedEmbeddings == another.tiedEmbeddings
        && embeddingNorm == another.embeddingNorm
        && Objects.equals(maxContext, another.maxContext)
        && nativePrecision.equals(another.nativePrecision)
        && quantizedWeights.equals(another.quantizedWeights)
        && mtpLayers == another.mtpLayers;
  }

  /**
   * Computes a hash code from attributes: {@code id}, {@code modelType}, {@code source}, {@code hiddenSize}, {@code vocabSize}, {@code layers}, {@code normKind}, {@code tiedEmbeddings}, {@code embeddingNorm}, {@code maxContext}, {@code nativePrecision}, {@code quantizedWeights}, {@code mtpLayers}.
   * @return hashCode value
   */
  @Override
  public int hashCode() {
    @Var int h = 5381;
    h += (h << 5) + id.hashCode();
    h += (h << 5) + modelType.hashCode();
    h += (h << 5) + source.hashCode();
    h += (h << 5) + hiddenSize;
    h += (h << 5) + vocabSize;
    h += (h << 5) + layers.hashCode();
    h += (h << 5) + normKind.hashCode();
    h += (h << 5) + Booleans.hashCode(tiedEmbeddings);
    h += (h << 5) + Booleans.hashCode(embeddingNorm);
    h += (h << 5) + Objects.hashCode(maxContext);
    h += (h << 5) + nativePrecision.hashCode();
    h += (h << 5) + quantizedWeights.hashCode();
    h += (h << 5) + mtpLayers;
    return h;
  }

  @SuppressWarnings("Immutable")
  private transient volatile long lazyInitBitmap;

  private static final long LAYER_GROUPS_LAZY_INIT_BIT = 0x1L;

  @SuppressWarnings("Immutable")
  private transient Map<Layer, Integer> layerGroups;

  /**
   * {@inheritDoc}
   * <p>
   * Returns a lazily initialized value of the {@link Model#layerGroups() layerGroups} attribute.
   * Initialized once and only once and stored for subsequent access with proper synchronization.
   * In case of any exception or error thrown by the lazy value initializer,
   * the result will not be memoised (i.e. remembered) and on next call computation
   * will be attempted again.
   * @return A lazily initialized value of the {@code layerGroups} attribute
   */
  @Override
  public Map<Layer, Integer> layerGroups() {
    if ((lazyInitBitmap & LAYER_GROUPS_LAZY_INIT_BIT) == 0) {
      synchronized (this) {
        if ((lazyInitBitmap & LAYER_GROUPS_LAZY_INIT_BIT) == 0) {
          this.layerGroups = Objects.requireNonNull(super.layerGroups(), "layerGroups");
          lazyInitBitmap |= LAYER_GROUPS_LAZY_INIT_BIT;
        }
      }
    }
    return layerGroups;
  }

  private static final long PARAMETERS_BY_CLASS_LAZY_INIT_BIT = 0x2L;

  @SuppressWarnings("Immutable")
  private transient Map<TensorClass, Double> parametersByClass;

  /**
   * {@inheritDoc}
   * <p>
   * Returns a lazily initialized value of the {@link Model#parametersByClass() parametersByClass} attribute.
   * Initialized once and only once and stored for subsequent access with proper synchronization.
   * In case of any exception or error thrown by the lazy value initializer,
   * the result will not be memoised (i.e. remembered) and on next call computation
   * will be attempted again.
   * @return A lazily initialized value of the {@code parametersByClass} attribute
   */
  @Override
  public Map<TensorClass, Double> parametersByClass() {
    if ((lazyInitBitmap & PARAMETERS_BY_CLASS_LAZY_INIT_BIT) == 0) {
      synchronized (this) {
        if ((lazyInitBitmap & PARAMETERS_BY_CLASS_LAZY_INIT_BIT) == 0) {
          this.parametersByClass = Objects.requireNonNull(super.parametersByClass(), "parametersByClass");
          lazyInitBitmap |= PARAMETERS_BY_CLASS_LAZY_INIT_BIT;
        }
      }
    }
    return parametersByClass;
  }

  private static ImmutableModel validate(ImmutableModel instance) {
    instance.check();
    return instance;
  }

  /**
   * Creates an immutable copy of a {@link Model} value.
   * Uses accessors to get values to initialize the new immutable instance.
   * If an instance is already immutable, it is returned as is.
   * @param instance The instance to copy
   * @return A copied immutable Model instance
   */
  public static ImmutableModel copyOf(Model instance) {
    if (instance instanceof ImmutableModel) {
      return (ImmutableModel) instance;
    }
    return ImmutableModel.builder()
        .from(instance)
        .build();
  }

  /**
   * Creates a builder for {@link ImmutableModel ImmutableModel}.
   * <pre>
   * ImmutableModel.builder()
   *    .id(String) // required {@link Model#id() id}
   *    .modelType(String) // required {@link Model#modelType() modelType}
   *    .source(String) // required {@link Model#source() source}
   *    .hiddenSize(int) // required {@link Model#hiddenSize() hiddenSize}
   *    .vocabSize(int) // required {@link Model#vocabSize() vocabSize}
   *    .addLayer|addAllLayers(io.ridgeline.models.Layer) // {@link Model#layers() layers} elements
   *    .normKind(io.ridgeline.models.Model.NormKind) // optional {@link Model#normKind() normKind}
   *    .tiedEmbeddings(boolean) // required {@link Model#tiedEmbeddings() tiedEmbeddings}
   *    .embeddingNorm(boolean) // optional {@link Model#embeddingNorm() embeddingNorm}
   *    .maxContext(Optional&lt;Integer&gt;) // optional {@link Model#maxContext() maxContext}
   *    .nativePrecision(io.ridgeline.core.Precision) // optional {@link Model#nativePrecision() nativePrecision}
   *    .putQuantizedWeight|putAllQuantizedWeights(io.ridgeline.core.TensorClass =&gt; io.ridgeline.core.Precision) // {@link Model#quantizedWeights() quantizedWeights} mappings
   *    .mtpLayers(int) // optional {@link Model#mtpLayers() mtpLayers}
   *    .build();
   * </pre>
   * @return A new ImmutableModel builder
   */
  public static ImmutableModel.Builder builder() {
    return new ImmutableModel.Builder();
  }

  /**
   * Builds instances of type {@link ImmutableModel ImmutableModel}.
   * Initialize attributes and then invoke the {@link #build()} method to create an
   * immutable instance.
   * <p><em>{@code Builder} is not thread-safe and generally should not be stored in a field or collection,
   * but instead used immediately to create instances.</em>
   */
  @Generated(from = "Model", generator = "Immutables")
  public static final class Builder {
    private static final long INIT_BIT_ID = 0x1L;
    private static final long INIT_BIT_MODEL_TYPE = 0x2L;
    private static final long INIT_BIT_SOURCE = 0x4L;
    private static final long INIT_BIT_HIDDEN_SIZE = 0x8L;
    private static final long INIT_BIT_VOCAB_SIZE = 0x10L;
    private static final long INIT_BIT_TIED_EMBEDDINGS = 0x20L;
    private static final long OPT_BIT_EMBEDDING_NORM = 0x1L;
    private static final long OPT_BIT_MTP_LAYERS = 0x2L;
    private long initBits = 0x3fL;
    private long optBits;

    private String id;
    private String modelType;
    private String source;
    private int hiddenSize;
    private int vocabSize;
    private ImmutableList.Builder<Layer> layers = ImmutableList.builder();
    private Model.NormKind normKind;
    private boolean tiedEmbeddings;
    private boolean embeddingNorm;
    private Integer maxContext;
    private Precision nativePrecision;
    private ImmutableMap.Builder<TensorClass, Precision> quantizedWeights = ImmutableMap.builder();
    private int mtpLayers;

    private Builder() {
    }

    /**
     * Fill a builder with attribute values from the provided {@code Model} instance.
     * Regular attribute values will be replaced with those from the given instance.
     * Absent optional values will not replace present values.
     * Collection elements and entries will be added, not replaced.
     * @param instance The instance from which to copy values
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder from(Model instance) {
      Objects.requireNonNull(instance, "instance");
      this.id(instance.id());
      this.modelType(instance.modelType());
      this.source(instance.source());
      this.hiddenSize(instance.hiddenSize());
      this.vocabSize(instance.vocabSize());
      addAllLayers(instance.layers());
      this.normKind(instance.normKind());
      this.tiedEmbeddings(instance.tiedEmbeddings());
      this.embeddingNorm(instance.embeddingNorm());
      Optional<Integer> maxContextOptional = instance.maxContext();
      if (maxContextOptional.isPresent()) {
        maxContext(maxContextOptional);
      }
      this.nativePrecision(instance.nativePrecision());
      putAllQuantizedWeights(instance.quantizedWeights());
      this.mtpLayers(instance.mtpLayers());
      return this;
    }

    /**
     * Initializes the value for the {@link Model#id() id} attribute.
     * @param id The value for id 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder id(String id) {
      this.id = Objects.requireNonNull(id, "id");
      initBits &= ~INIT_BIT_ID;
      return this;
    }

    /**
     * Initializes the value for the {@link Model#modelType() modelType} attribute.
     * @param modelType The value for modelType 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder modelType(String modelType) {
      this.modelType = Objects.requireNonNull(modelType, "modelType");
      initBits &= ~INIT_BIT_MODEL_TYPE;
      return this;
    }

    /**
     * Initializes the value for the {@link Model#source() source} attribute.
     * @param source The value for source 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder source(String source) {
      this.source = Objects.requireNonNull(source, "source");
      initBits &= ~INIT_BIT_SOURCE;
      return this;
    }

    /**
     * Initializes the value for the {@link Model#hiddenSize() hiddenSize} attribute.
     * @param hiddenSize The value for hiddenSize 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder hiddenSize(int hiddenSize) {
      this.hiddenSize = hiddenSize;
      initBits &= ~INIT_BIT_HIDDEN_SIZE;
      return this;
    }

    /**
     * Initializes the value for the {@link Model#vocabSize() vocabSize} attribute.
     * @param vocabSize The value for vocabSize 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder vocabSize(int vocabSize) {
      this.vocabSize = vocabSize;
      initBits &= ~INIT_BIT_VOCAB_SIZE;
      return this;
    }

    /**
     * Adds one element to {@link Model#layers() layers} list.
     * @param element A layers element
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder addLayer(Layer element) {
      this.layers.add(element);
      return this;
    }

    /**
     * Adds elements to {@link Model#layers() layers} list.
     * @param elements An array of layers elements
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder addLayers(Layer... elements) {
      this.layers.add(elements);
      return this;
    }


    /**
     * Sets or replaces all elements for {@link Model#layers() layers} list.
     * @param elements An iterable of layers elements
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder layers(Iterable<? extends Layer> elements) {
      this.layers = ImmutableList.builder();
      return addAllLayers(elements);
    }

    /**
     * Adds elements to {@link Model#layers() layers} list.
     * @param elements An iterable of layers elements
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder addAllLayers(Iterable<? extends Layer> elements) {
      this.layers.addAll(elements);
      return this;
    }

    /**
     * Initializes the value for the {@link Model#normKind() normKind} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link Model#normKind() normKind}.</em>
     * @param normKind The value for normKind 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder normKind(Model.NormKind normKind) {
      this.normKind = Objects.requireNonNull(normKind, "normKind");
      return this;
    }

    /**
     * Initializes the value for the {@link Model#tiedEmbeddings() tiedEmbeddings} attribute.
     * @param tiedEmbeddings The value for tiedEmbeddings 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder tiedEmbeddings(boolean tiedEmbeddings) {
      this.tiedEmbeddings = tiedEmbeddings;
      initBits &= ~INIT_BIT_TIED_EMBEDDINGS;
      return this;
    }

    /**
     * Initializes the value for the {@link Model#embeddingNorm() embeddingNorm} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link Model#embeddingNorm() embeddingNorm}.</em>
     * @param embeddingNorm The value for embeddingNorm 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder embeddingNorm(boolean embeddingNorm) {
      this.embeddingNorm = embeddingNorm;
      optBits |= OPT_BIT_EMBEDDING_NORM;
      return this;
    }

    /**
     * Initializes the optional value {@link Model#maxContext() maxContext} to maxContext.
     * @param maxContext The value for maxContext
     * @return {@code this} builder for chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder maxContext(int maxContext) {
      this.maxContext = maxContext;
      return this;
    }

    /**
     * Initializes the optional value {@link Model#maxContext() maxContext} to maxContext.
     * @param maxContext The value for maxContext
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder maxContext(Optional<Integer> maxContext) {
      this.maxContext = maxContext.orElse(null);
      return this;
    }

    /**
     * Initializes the value for the {@link Model#nativePrecision() nativePrecision} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link Model#nativePrecision() nativePrecision}.</em>
     * @param nativePrecision The value for nativePrecision 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder nativePrecision(Precision nativePrecision) {
      this.nativePrecision = Objects.requireNonNull(nativePrecision, "nativePrecision");
      return this;
    }

    /**
     * Put one entry to the {@link Model#quantizedWeights() quantizedWeights} map.
     * @param key The key in the quantizedWeights map
     * @param value The associated value in the quantizedWeights map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putQuantizedWeight(TensorClass key, Precision value) {
      this.quantizedWeights.put(key, value);
      return this;
    }

    /**
     * Put one entry to the {@link Model#quantizedWeights() quantizedWeights} map. Nulls are not permitted
     * @param entry The key and value entry
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putQuantizedWeight(Map.Entry<TensorClass, ? extends Precision> entry) {
      this.quantizedWeights.put(entry);
      return this;
    }

    /**
     * Sets or replaces all mappings from the specified map as entries for the {@link Model#quantizedWeights() quantizedWeights} map. Nulls are not permitted
     * @param entries The entries that will be added to the quantizedWeights map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder quantizedWeights(Map<TensorClass, ? extends Precision> entries) {
      this.quantizedWeights = ImmutableMap.builder();
      return putAllQuantizedWeights(entries);
    }

    /**
     * Put all mappings from the specified map as entries to {@link Model#quantizedWeights() quantizedWeights} map. Nulls are not permitted
     * @param entries The entries that will be added to the quantizedWeights map
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder putAllQuantizedWeights(Map<TensorClass, ? extends Precision> entries) {
      this.quantizedWeights.putAll(entries);
      return this;
    }

    /**
     * Initializes the value for the {@link Model#mtpLayers() mtpLayers} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link Model#mtpLayers() mtpLayers}.</em>
     * @param mtpLayers The value for mtpLayers 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder mtpLayers(int mtpLayers) {
      this.mtpLayers = mtpLayers;
      optBits |= OPT_BIT_MTP_LAYERS;
      return this;
    }

    /**
     * Builds a new {@link ImmutableModel ImmutableModel}.
     * @return An immutable instance of Model
     * @throws java.lang.IllegalStateException if any required attributes are missing
     */
    public ImmutableModel build() {
      if (initBits != 0) {
        throw new IllegalStateException(formatRequiredAttributesMessage());
      }
      return ImmutableModel.validate(new ImmutableModel(this));
    }

    private boolean embeddingNormIsSet() {
      return (optBits & OPT_BIT_EMBEDDING_NORM) != 0;
    }

    private boolean mtpLayersIsSet() {
      return (optBits & OPT_BIT_MTP_LAYERS) != 0;
    }

    private String formatRequiredAttributesMessage() {
      List<String> attributes = new ArrayList<>();
      if ((initBits & INIT_BIT_ID) != 0) attributes.add("id");
      if ((initBits & INIT_BIT_MODEL_TYPE) != 0) attributes.add("modelType");
      if ((initBits & INIT_BIT_SOURCE) != 0) attributes.add("source");
      if ((initBits & INIT_BIT_HIDDEN_SIZE) != 0) attributes.add("hiddenSize");
      if ((initBits & INIT_BIT_VOCAB_SIZE) != 0) attributes.add("vocabSize");
      if ((initBits & INIT_BIT_TIED_EMBEDDINGS) != 0) attributes.add("tiedEmbeddings");
      return "Cannot build Model, some of required attributes are not set " + attributes;
    }
  }
}
