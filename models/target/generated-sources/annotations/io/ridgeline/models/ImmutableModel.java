package io.ridgeline.models;

import com.google.common.primitives.Booleans;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import com.google.errorprone.annotations.Var;
import io.ridgeline.core.Precision;
import java.util.ArrayList;
import java.util.List;
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
  private final int layers;
  private final int attentionHeads;
  private final int kvHeads;
  private final int headDim;
  private final int intermediateSize;
  private final int vocabSize;
  private final Model.FfnKind ffnKind;
  private final Model.NormKind normKind;
  private final boolean tiedEmbeddings;
  private final boolean qkvBias;
  private final boolean denseBias;
  private final boolean embeddingNorm;
  private final boolean qkNorm;
  private final Integer maxContext;
  private final Precision nativePrecision;

  private ImmutableModel(ImmutableModel.Builder builder) {
    this.id = builder.id;
    this.modelType = builder.modelType;
    this.source = builder.source;
    this.hiddenSize = builder.hiddenSize;
    this.layers = builder.layers;
    this.attentionHeads = builder.attentionHeads;
    this.kvHeads = builder.kvHeads;
    this.headDim = builder.headDim;
    this.intermediateSize = builder.intermediateSize;
    this.vocabSize = builder.vocabSize;
    this.ffnKind = builder.ffnKind;
    this.normKind = builder.normKind;
    this.tiedEmbeddings = builder.tiedEmbeddings;
    this.maxContext = builder.maxContext;
    if (builder.qkvBiasIsSet()) {
      initShim.qkvBias(builder.qkvBias);
    }
    if (builder.denseBiasIsSet()) {
      initShim.denseBias(builder.denseBias);
    }
    if (builder.embeddingNormIsSet()) {
      initShim.embeddingNorm(builder.embeddingNorm);
    }
    if (builder.qkNormIsSet()) {
      initShim.qkNorm(builder.qkNorm);
    }
    if (builder.nativePrecision != null) {
      initShim.nativePrecision(builder.nativePrecision);
    }
    this.qkvBias = initShim.qkvBias();
    this.denseBias = initShim.denseBias();
    this.embeddingNorm = initShim.embeddingNorm();
    this.qkNorm = initShim.qkNorm();
    this.nativePrecision = initShim.nativePrecision();
    this.initShim = null;
  }

  private ImmutableModel(
      String id,
      String modelType,
      String source,
      int hiddenSize,
      int layers,
      int attentionHeads,
      int kvHeads,
      int headDim,
      int intermediateSize,
      int vocabSize,
      Model.FfnKind ffnKind,
      Model.NormKind normKind,
      boolean tiedEmbeddings,
      boolean qkvBias,
      boolean denseBias,
      boolean embeddingNorm,
      boolean qkNorm,
      Integer maxContext,
      Precision nativePrecision) {
    this.id = id;
    this.modelType = modelType;
    this.source = source;
    this.hiddenSize = hiddenSize;
    this.layers = layers;
    this.attentionHeads = attentionHeads;
    this.kvHeads = kvHeads;
    this.headDim = headDim;
    this.intermediateSize = intermediateSize;
    this.vocabSize = vocabSize;
    this.ffnKind = ffnKind;
    this.normKind = normKind;
    this.tiedEmbeddings = tiedEmbeddings;
    this.qkvBias = qkvBias;
    this.denseBias = denseBias;
    this.embeddingNorm = embeddingNorm;
    this.qkNorm = qkNorm;
    this.maxContext = maxContext;
    this.nativePrecision = nativePrecision;
    this.initShim = null;
  }

  private static final byte STAGE_INITIALIZING = -1;
  private static final byte STAGE_UNINITIALIZED = 0;
  private static final byte STAGE_INITIALIZED = 1;
  @SuppressWarnings("Immutable")
  private transient volatile InitShim initShim = new InitShim();

  @Generated(from = "Model", generator = "Immutables")
  private final class InitShim {
    private byte qkvBiasBuildStage = STAGE_UNINITIALIZED;
    private boolean qkvBias;

    boolean qkvBias() {
      if (qkvBiasBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (qkvBiasBuildStage == STAGE_UNINITIALIZED) {
        qkvBiasBuildStage = STAGE_INITIALIZING;
        boolean computedValue = ImmutableModel.super.qkvBias();
        this.qkvBias = computedValue;
        qkvBiasBuildStage = STAGE_INITIALIZED;
      }
      return this.qkvBias;
    }

    void qkvBias(boolean qkvBias) {
      this.qkvBias = qkvBias;
      qkvBiasBuildStage = STAGE_INITIALIZED;
    }

    private byte denseBiasBuildStage = STAGE_UNINITIALIZED;
    private boolean denseBias;

    boolean denseBias() {
      if (denseBiasBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (denseBiasBuildStage == STAGE_UNINITIALIZED) {
        denseBiasBuildStage = STAGE_INITIALIZING;
        boolean computedValue = ImmutableModel.super.denseBias();
        this.denseBias = computedValue;
        denseBiasBuildStage = STAGE_INITIALIZED;
      }
      return this.denseBias;
    }

    void denseBias(boolean denseBias) {
      this.denseBias = denseBias;
      denseBiasBuildStage = STAGE_INITIALIZED;
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

    private byte qkNormBuildStage = STAGE_UNINITIALIZED;
    private boolean qkNorm;

    boolean qkNorm() {
      if (qkNormBuildStage == STAGE_INITIALIZING) throw new IllegalStateException(formatInitCycleMessage());
      if (qkNormBuildStage == STAGE_UNINITIALIZED) {
        qkNormBuildStage = STAGE_INITIALIZING;
        boolean computedValue = ImmutableModel.super.qkNorm();
        this.qkNorm = computedValue;
        qkNormBuildStage = STAGE_INITIALIZED;
      }
      return this.qkNorm;
    }

    void qkNorm(boolean qkNorm) {
      this.qkNorm = qkNorm;
      qkNormBuildStage = STAGE_INITIALIZED;
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

    private String formatInitCycleMessage() {
      List<String> attributes = new ArrayList<>();
      if (qkvBiasBuildStage == STAGE_INITIALIZING) attributes.add("qkvBias");
      if (denseBiasBuildStage == STAGE_INITIALIZING) attributes.add("denseBias");
      if (embeddingNormBuildStage == STAGE_INITIALIZING) attributes.add("embeddingNorm");
      if (qkNormBuildStage == STAGE_INITIALIZING) attributes.add("qkNorm");
      if (nativePrecisionBuildStage == STAGE_INITIALIZING) attributes.add("nativePrecision");
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
   *Transformer blocks ({@code num_hidden_layers}). 
   */
  @Override
  public int layers() {
    return layers;
  }

  /**
   *Query heads. 
   */
  @Override
  public int attentionHeads() {
    return attentionHeads;
  }

  /**
   *Key/value heads (equal to query heads for MHA, 1 for MQA). 
   */
  @Override
  public int kvHeads() {
    return kvHeads;
  }

  /**
   *Per-head dimension; not always {@code hidden / heads}. 
   */
  @Override
  public int headDim() {
    return headDim;
  }

  /**
   *FFN inner width. 
   */
  @Override
  public int intermediateSize() {
    return intermediateSize;
  }

  /**
   *Vocabulary size. 
   */
  @Override
  public int vocabSize() {
    return vocabSize;
  }

  /**
   *Gated or plain FFN. 
   */
  @Override
  public Model.FfnKind ffnKind() {
    return ffnKind;
  }

  /**
   *RMSNorm or LayerNorm. 
   */
  @Override
  public Model.NormKind normKind() {
    return normKind;
  }

  /**
   *Whether the LM head shares the embedding matrix. 
   */
  @Override
  public boolean tiedEmbeddings() {
    return tiedEmbeddings;
  }

  /**
   *Whether Q/K/V projections carry biases. 
   */
  @Override
  public boolean qkvBias() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.qkvBias()
        : this.qkvBias;
  }

  /**
   *Whether the output projection and the FFN matrices carry biases (BLOOM). 
   */
  @Override
  public boolean denseBias() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.denseBias()
        : this.denseBias;
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
   *Whether each layer normalises Q and K per head (Qwen3's {@code q_norm}/{@code k_norm}). 
   */
  @Override
  public boolean qkNorm() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.qkNorm()
        : this.qkNorm;
  }

  /**
   *The longest context the configuration declares, if it declares one. 
   */
  @Override
  public Optional<Integer> maxContext() {
    return Optional.ofNullable(maxContext);
  }

  /**
   *The precision the checkpoint ships in ({@code torch_dtype}). 
   */
  @Override
  public Precision nativePrecision() {
    InitShim shim = this.initShim;
    return shim != null
        ? shim.nativePrecision()
        : this.nativePrecision;
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
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
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
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
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
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
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
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#layers() layers} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for layers
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withLayers(int value) {
    if (this.layers == value) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        value,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#attentionHeads() attentionHeads} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for attentionHeads
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withAttentionHeads(int value) {
    if (this.attentionHeads == value) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.layers,
        value,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#kvHeads() kvHeads} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for kvHeads
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withKvHeads(int value) {
    if (this.kvHeads == value) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.layers,
        this.attentionHeads,
        value,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#headDim() headDim} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for headDim
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withHeadDim(int value) {
    if (this.headDim == value) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        value,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#intermediateSize() intermediateSize} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for intermediateSize
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withIntermediateSize(int value) {
    if (this.intermediateSize == value) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        value,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
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
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        value,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#ffnKind() ffnKind} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for ffnKind
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withFfnKind(Model.FfnKind value) {
    Model.FfnKind newValue = Objects.requireNonNull(value, "ffnKind");
    if (this.ffnKind == newValue) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        newValue,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
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
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        newValue,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
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
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        value,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#qkvBias() qkvBias} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for qkvBias
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withQkvBias(boolean value) {
    if (this.qkvBias == value) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        value,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#denseBias() denseBias} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for denseBias
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withDenseBias(boolean value) {
    if (this.denseBias == value) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        value,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
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
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        value,
        this.qkNorm,
        this.maxContext,
        this.nativePrecision));
  }

  /**
   * Copy the current immutable object by setting a value for the {@link Model#qkNorm() qkNorm} attribute.
   * A value equality check is used to prevent copying of the same value by returning {@code this}.
   * @param value A new value for qkNorm
   * @return A modified copy or the {@code this} object
   */
  public final ImmutableModel withQkNorm(boolean value) {
    if (this.qkNorm == value) return this;
    return validate(new ImmutableModel(
        this.id,
        this.modelType,
        this.source,
        this.hiddenSize,
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        value,
        this.maxContext,
        this.nativePrecision));
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
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        newValue,
        this.nativePrecision));
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
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        value,
        this.nativePrecision));
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
        this.layers,
        this.attentionHeads,
        this.kvHeads,
        this.headDim,
        this.intermediateSize,
        this.vocabSize,
        this.ffnKind,
        this.normKind,
        this.tiedEmbeddings,
        this.qkvBias,
        this.denseBias,
        this.embeddingNorm,
        this.qkNorm,
        this.maxContext,
        newValue));
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
        && layers == another.layers
        && attentionHeads == another.attentionHeads
        && kvHeads == another.kvHeads
        && headDim == another.headDim
        && intermediateSize == another.intermediateSize
        && vocabSize == another.vocabSize
        && ffnKind.equals(another.ffnKind)
        && normKind.equals(another.normKind)
        && tiedEmbeddings == another.tiedEmbeddings
        && qkvBias == another.qkvBias
        && denseBias == another.denseBias
        && embeddingNorm == another.embeddingNorm
        && qkNorm == another.qkNorm
        && Objects.equals(maxContext, another.maxContext)
        && nativePrecision.equals(another.nativePrecision);
  }

  /**
   * Computes a hash code from attributes: {@code id}, {@code modelType}, {@code source}, {@code hiddenSize}, {@code layers}, {@code attentionHeads}, {@code kvHeads}, {@code headDim}, {@code intermediateSize}, {@code vocabSize}, {@code ffnKind}, {@code normKind}, {@code tiedEmbeddings}, {@code qkvBias}, {@code denseBias}, {@code embeddingNorm}, {@code qkNorm}, {@code maxContext}, {@code nativePrecision}.
   * @return hashCode value
   */
  @Override
  public int hashCode() {
    @Var int h = 5381;
    h += (h << 5) + id.hashCode();
    h += (h << 5) + modelType.hashCode();
    h += (h << 5) + source.hashCode();
    h += (h << 5) + hiddenSize;
    h += (h << 5) + layers;
    h += (h << 5) + attentionHeads;
    h += (h << 5) + kvHeads;
    h += (h << 5) + headDim;
    h += (h << 5) + intermediateSize;
    h += (h << 5) + vocabSize;
    h += (h << 5) + ffnKind.hashCode();
    h += (h << 5) + normKind.hashCode();
    h += (h << 5) + Booleans.hashCode(tiedEmbeddings);
    h += (h << 5) + Booleans.hashCode(qkvBias);
    h += (h << 5) + Booleans.hashCode(denseBias);
    h += (h << 5) + Booleans.hashCode(embeddingNorm);
    h += (h << 5) + Booleans.hashCode(qkNorm);
    h += (h << 5) + Objects.hashCode(maxContext);
    h += (h << 5) + nativePrecision.hashCode();
    return h;
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
   *    .layers(int) // required {@link Model#layers() layers}
   *    .attentionHeads(int) // required {@link Model#attentionHeads() attentionHeads}
   *    .kvHeads(int) // required {@link Model#kvHeads() kvHeads}
   *    .headDim(int) // required {@link Model#headDim() headDim}
   *    .intermediateSize(int) // required {@link Model#intermediateSize() intermediateSize}
   *    .vocabSize(int) // required {@link Model#vocabSize() vocabSize}
   *    .ffnKind(io.ridgeline.models.Model.FfnKind) // required {@link Model#ffnKind() ffnKind}
   *    .normKind(io.ridgeline.models.Model.NormKind) // required {@link Model#normKind() normKind}
   *    .tiedEmbeddings(boolean) // required {@link Model#tiedEmbeddings() tiedEmbeddings}
   *    .qkvBias(boolean) // optional {@link Model#qkvBias() qkvBias}
   *    .denseBias(boolean) // optional {@link Model#denseBias() denseBias}
   *    .embeddingNorm(boolean) // optional {@link Model#embeddingNorm() embeddingNorm}
   *    .qkNorm(boolean) // optional {@link Model#qkNorm() qkNorm}
   *    .maxContext(Optional&lt;Integer&gt;) // optional {@link Model#maxContext() maxContext}
   *    .nativePrecision(io.ridgeline.core.Precision) // optional {@link Model#nativePrecision() nativePrecision}
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
    private static final long INIT_BIT_LAYERS = 0x10L;
    private static final long INIT_BIT_ATTENTION_HEADS = 0x20L;
    private static final long INIT_BIT_KV_HEADS = 0x40L;
    private static final long INIT_BIT_HEAD_DIM = 0x80L;
    private static final long INIT_BIT_INTERMEDIATE_SIZE = 0x100L;
    private static final long INIT_BIT_VOCAB_SIZE = 0x200L;
    private static final long INIT_BIT_FFN_KIND = 0x400L;
    private static final long INIT_BIT_NORM_KIND = 0x800L;
    private static final long INIT_BIT_TIED_EMBEDDINGS = 0x1000L;
    private static final long OPT_BIT_QKV_BIAS = 0x1L;
    private static final long OPT_BIT_DENSE_BIAS = 0x2L;
    private static final long OPT_BIT_EMBEDDING_NORM = 0x4L;
    private static final long OPT_BIT_QK_NORM = 0x8L;
    private long initBits = 0x1fffL;
    private long optBits;

    private String id;
    private String modelType;
    private String source;
    private int hiddenSize;
    private int layers;
    private int attentionHeads;
    private int kvHeads;
    private int headDim;
    private int intermediateSize;
    private int vocabSize;
    private Model.FfnKind ffnKind;
    private Model.NormKind normKind;
    private boolean tiedEmbeddings;
    private boolean qkvBias;
    private boolean denseBias;
    private boolean embeddingNorm;
    private boolean qkNorm;
    private Integer maxContext;
    private Precision nativePrecision;

    private Builder() {
    }

    /**
     * Fill a builder with attribute values from the provided {@code Model} instance.
     * Regular attribute values will be replaced with those from the given instance.
     * Absent optional values will not replace present values.
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
      this.layers(instance.layers());
      this.attentionHeads(instance.attentionHeads());
      this.kvHeads(instance.kvHeads());
      this.headDim(instance.headDim());
      this.intermediateSize(instance.intermediateSize());
      this.vocabSize(instance.vocabSize());
      this.ffnKind(instance.ffnKind());
      this.normKind(instance.normKind());
      this.tiedEmbeddings(instance.tiedEmbeddings());
      this.qkvBias(instance.qkvBias());
      this.denseBias(instance.denseBias());
      this.embeddingNorm(instance.embeddingNorm());
      this.qkNorm(instance.qkNorm());
      Optional<Integer> maxContextOptional = instance.maxContext();
      if (maxContextOptional.isPresent()) {
        maxContext(maxContextOptional);
      }
      this.nativePrecision(instance.nativePrecision());
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
     * Initializes the value for the {@link Model#layers() layers} attribute.
     * @param layers The value for layers 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder layers(int layers) {
      this.layers = layers;
      initBits &= ~INIT_BIT_LAYERS;
      return this;
    }

    /**
     * Initializes the value for the {@link Model#attentionHeads() attentionHeads} attribute.
     * @param attentionHeads The value for attentionHeads 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder attentionHeads(int attentionHeads) {
      this.attentionHeads = attentionHeads;
      initBits &= ~INIT_BIT_ATTENTION_HEADS;
      return this;
    }

    /**
     * Initializes the value for the {@link Model#kvHeads() kvHeads} attribute.
     * @param kvHeads The value for kvHeads 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder kvHeads(int kvHeads) {
      this.kvHeads = kvHeads;
      initBits &= ~INIT_BIT_KV_HEADS;
      return this;
    }

    /**
     * Initializes the value for the {@link Model#headDim() headDim} attribute.
     * @param headDim The value for headDim 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder headDim(int headDim) {
      this.headDim = headDim;
      initBits &= ~INIT_BIT_HEAD_DIM;
      return this;
    }

    /**
     * Initializes the value for the {@link Model#intermediateSize() intermediateSize} attribute.
     * @param intermediateSize The value for intermediateSize 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder intermediateSize(int intermediateSize) {
      this.intermediateSize = intermediateSize;
      initBits &= ~INIT_BIT_INTERMEDIATE_SIZE;
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
     * Initializes the value for the {@link Model#ffnKind() ffnKind} attribute.
     * @param ffnKind The value for ffnKind 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder ffnKind(Model.FfnKind ffnKind) {
      this.ffnKind = Objects.requireNonNull(ffnKind, "ffnKind");
      initBits &= ~INIT_BIT_FFN_KIND;
      return this;
    }

    /**
     * Initializes the value for the {@link Model#normKind() normKind} attribute.
     * @param normKind The value for normKind 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder normKind(Model.NormKind normKind) {
      this.normKind = Objects.requireNonNull(normKind, "normKind");
      initBits &= ~INIT_BIT_NORM_KIND;
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
     * Initializes the value for the {@link Model#qkvBias() qkvBias} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link Model#qkvBias() qkvBias}.</em>
     * @param qkvBias The value for qkvBias 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder qkvBias(boolean qkvBias) {
      this.qkvBias = qkvBias;
      optBits |= OPT_BIT_QKV_BIAS;
      return this;
    }

    /**
     * Initializes the value for the {@link Model#denseBias() denseBias} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link Model#denseBias() denseBias}.</em>
     * @param denseBias The value for denseBias 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder denseBias(boolean denseBias) {
      this.denseBias = denseBias;
      optBits |= OPT_BIT_DENSE_BIAS;
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
     * Initializes the value for the {@link Model#qkNorm() qkNorm} attribute.
     * <p><em>If not set, this attribute will have a default value as returned by the initializer of {@link Model#qkNorm() qkNorm}.</em>
     * @param qkNorm The value for qkNorm 
     * @return {@code this} builder for use in a chained invocation
     */
    @CanIgnoreReturnValue 
    public final Builder qkNorm(boolean qkNorm) {
      this.qkNorm = qkNorm;
      optBits |= OPT_BIT_QK_NORM;
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

    private boolean qkvBiasIsSet() {
      return (optBits & OPT_BIT_QKV_BIAS) != 0;
    }

    private boolean denseBiasIsSet() {
      return (optBits & OPT_BIT_DENSE_BIAS) != 0;
    }

    private boolean embeddingNormIsSet() {
      return (optBits & OPT_BIT_EMBEDDING_NORM) != 0;
    }

    private boolean qkNormIsSet() {
      return (optBits & OPT_BIT_QK_NORM) != 0;
    }

    private String formatRequiredAttributesMessage() {
      List<String> attributes = new ArrayList<>();
      if ((initBits & INIT_BIT_ID) != 0) attributes.add("id");
      if ((initBits & INIT_BIT_MODEL_TYPE) != 0) attributes.add("modelType");
      if ((initBits & INIT_BIT_SOURCE) != 0) attributes.add("source");
      if ((initBits & INIT_BIT_HIDDEN_SIZE) != 0) attributes.add("hiddenSize");
      if ((initBits & INIT_BIT_LAYERS) != 0) attributes.add("layers");
      if ((initBits & INIT_BIT_ATTENTION_HEADS) != 0) attributes.add("attentionHeads");
      if ((initBits & INIT_BIT_KV_HEADS) != 0) attributes.add("kvHeads");
      if ((initBits & INIT_BIT_HEAD_DIM) != 0) attributes.add("headDim");
      if ((initBits & INIT_BIT_INTERMEDIATE_SIZE) != 0) attributes.add("intermediateSize");
      if ((initBits & INIT_BIT_VOCAB_SIZE) != 0) attributes.add("vocabSize");
      if ((initBits & INIT_BIT_FFN_KIND) != 0) attributes.add("ffnKind");
      if ((initBits & INIT_BIT_NORM_KIND) != 0) attributes.add("normKind");
      if ((initBits & INIT_BIT_TIED_EMBEDDINGS) != 0) attributes.add("tiedEmbeddings");
      return "Cannot build Model, some of required attributes are not set " + attributes;
    }
  }
}
