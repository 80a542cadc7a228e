package io.ridgeline.core;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.immutables.value.Value;

/**
 * The precisions of one deployment: weights, KV cache and activations, and the rule that decides
 * the precision each weight GEMM runs at.
 *
 * <p><b>GEMM rule</b> ({@link #matmul(TensorClass)}). With {@link GemmInputs#ACTIVATION_PRECISION}
 * (the builder's default, and what an explicit activation precision means) a GEMM runs at the wider
 * of its weights and the activations: W8A16 at the BF16 rate, W8A8 (FP8 activations set explicitly)
 * at the FP8 rate. With {@link GemmInputs#WEIGHT_PRECISION} (a checkpoint's default, {@code
 * Model.defaultPrecisions()}), weights in a floating-point format narrower than the activations
 * ({@code fp8}, {@code fp4}, {@code mxfp4}) run at their own precision when the chip has matrix
 * units for it ({@link #tensorUnits()}, set by {@link #resolvedFor(ComputeTarget)}): FP8
 * checkpoints run W8A8 on Hopper, Blackwell and MI300 (TensorRT-LLM's FP8 recipe, vLLM's {@code
 * Fp8LinearMethod} and SGLang quantize each GEMM input to FP8 per token or tensor), NVFP4 and MXFP4
 * checkpoints run W4A4 at the FP4 peak on Blackwell and MI355X. Where the chip lacks the units (FP8
 * on A100, FP4 on H100), or before resolution, the GEMM is weight-only: the weights are dequantized
 * to the activation precision (vLLM's FP8 Marlin kernel on Ampere, MXFP4 Triton/Marlin kernels on
 * Hopper). Integer weights ({@code int8}, {@code int4}: AWQ/GPTQ) are weight-only.
 *
 * <p><b>Activation bytes</b> ({@link #gemmActivations(TensorClass)}): a GEMM that runs narrower
 * than the activations reads and writes its activations at its own precision (1 B/element for FP8,
 * scales included for FP4): engines quantize GEMM inputs per token, fusing the quantization into
 * the preceding norm, SwiGLU or attention epilogue, so the tensors between quantized GEMMs move at
 * the narrow width. This is a lower bound on the traffic: outputs that join the BF16 residual
 * stream are wider in practice, and activation traffic is a small share of a step's bytes either
 * way.
 *
 * <p>Attention over the cache runs at the wider of the KV and activation precisions ({@link
 * #attention()}); the rule above does not touch it.
 */
@Value.Immutable
@RidgelineStyle
public abstract class Precisions {
  Precisions() {} // subclassed only by the generated implementation

  /** Weight storage precision. */
  @Value.Default
  public Precision weights() {
    return Precision.BF16;
  }

  /**
   * Weight precisions that differ from {@link #weights()} by tensor class, for example MXFP4
   * experts with BF16 attention.
   */
  public abstract Map<TensorClass, Precision> weightOverrides();

  /**
   * The storage precision of weights of class {@code tensors}: its override, else {@link
   * #weights()}.
   */
  public Precision weights(TensorClass tensors) {
    return weightOverrides().getOrDefault(tensors, weights());
  }

  /**
   * How GEMM inputs are fed; {@link GemmInputs#ACTIVATION_PRECISION} (weight-only quantization)
   * unless set. A checkpoint's default precisions set {@link GemmInputs#WEIGHT_PRECISION}.
   */
  @Value.Default
  public GemmInputs gemmInputs() {
    return GemmInputs.ACTIVATION_PRECISION;
  }

  /**
   * The peak keys ({@link Precision#peakKey()}) for which the chip this runs on has matrix units;
   * empty until {@link #resolvedFor(ComputeTarget)} sets them, and then GEMMs are weight-only.
   */
  public abstract Set<Precision> tensorUnits();

  /**
   * These precisions resolved against {@code target}: {@link #tensorUnits()} set to the target's
   * peak keys, so that {@link #matmul(TensorClass)} applies the GEMM rule for that chip.
   */
  public Precisions resolvedFor(ComputeTarget target) {
    return Precisions.builder().from(this).tensorUnits(target.peaks().keySet()).build();
  }

  /**
   * The precision weight GEMMs of class {@code tensors} run at, by the GEMM rule of the class
   * javadoc: the weight precision for a quantized floating-point class on a chip with units for it
   * under {@link GemmInputs#WEIGHT_PRECISION}, else the wider of weights and activations.
   */
  public Precision matmul(TensorClass tensors) {
    return gemm(weights(tensors));
  }

  /**
   * The precision of the activation bytes a GEMM of class {@code tensors} moves: the GEMM's own
   * precision when it takes fewer bytes per element than the activations, else the activations'.
   */
  public Precision gemmActivations(TensorClass tensors) {
    Precision g = matmul(tensors);
    return g.bytesPerElement() < activations().bytesPerElement() ? g : activations();
  }

  /** This with every weight class at {@code precision} (overrides cleared). */
  public Precisions withAllWeights(Precision precision) {
    return Precisions.builder().from(this).weights(precision).weightOverrides(Map.of()).build();
  }

  /** KV-cache storage precision. */
  @Value.Default
  public Precision kvCache() {
    return Precision.BF16;
  }

  /** Activation precision. */
  @Value.Default
  public Precision activations() {
    return Precision.BF16;
  }

  /** All three in BF16, the default of today's engines. */
  public static Precisions bf16() {
    return Precisions.builder().build();
  }

  /**
   * Weights, KV cache and activations, the activations explicit: GEMMs run at the wider of weights
   * and activations ({@link GemmInputs#ACTIVATION_PRECISION}).
   */
  public static Precisions of(Precision weights, Precision kvCache, Precision activations) {
    return Precisions.builder().weights(weights).kvCache(kvCache).activations(activations).build();
  }

  /** A new builder (precisions default to BF16, GEMM inputs to the activation precision). */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link Precisions}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutablePrecisions.Builder {
    Builder() {}
  }

  /**
   * The precision GEMMs of weights at {@link #weights()} run at (see {@link #matmul(TensorClass)}).
   */
  public Precision matmul() {
    return gemm(weights());
  }

  /** The precision attention over the cache runs at: the wider of KV cache and activations. */
  public Precision attention() {
    return wider(kvCache(), activations());
  }

  /** Whether GEMMs of {@code w} weights would run at {@code w}, given units for it. */
  private boolean quantizesInputs(Precision w) {
    return switch (gemmInputs()) {
      case ACTIVATION_PRECISION -> false;
      case WEIGHT_PRECISION -> w.narrowFloat() && w.valueBits() < activations().valueBits();
    };
  }

  private Precision gemm(Precision w) {
    return quantizesInputs(w) && tensorUnits().contains(w.peakKey()) ? w : wider(w, activations());
  }

  private static Precision wider(Precision a, Precision b) {
    return a.valueBits() >= b.valueBits() ? a : b;
  }

  @Value.Check
  void check() {
    checkArgument(
        !tensorUnits().contains(Precision.MXFP4),
        "tensorUnits holds peak keys, and mxfp4 runs on fp4 units: %s",
        tensorUnits());
  }

  /**
   * For example {@code weights fp8, kv bf16, compute fp8 (W8A8)}, {@code weights fp8, kv bf16,
   * compute bf16 (weight-only fp8)} or, for classes that compute differently, {@code weights bf16
   * (experts mxfp4), kv bf16, compute bf16, mxfp4 (W4A4) for experts}. Activations are named when
   * they are not BF16.
   */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("weights ").append(weights());
    weightOverrides()
        .forEach((k, v) -> b.append(" (").append(k.id()).append(" ").append(v).append(")"));
    b.append(", kv ").append(kvCache());
    if (activations() != Precision.BF16) {
      b.append(", activations ").append(activations());
    }
    return b.append(", compute ").append(compute()).toString();
  }

  /**
   * The compute scheme of weights at {@link #weights()}, then each other scheme with the classes
   * that run it, for example {@code bf16, mxfp4 (W4A4) for experts}.
   */
  private String compute() {
    String main = scheme(weights());
    Map<String, List<String>> others = new LinkedHashMap<>();
    for (TensorClass c : EnumSet.allOf(TensorClass.class)) {
      String scheme = scheme(weights(c));
      if (!scheme.equals(main)) {
        others.computeIfAbsent(scheme, k -> new ArrayList<>()).add(c.id());
      }
    }
    StringBuilder b = new StringBuilder(main);
    others.forEach(
        (scheme, classes) ->
            b.append(", ").append(scheme).append(" for ").append(String.join("+", classes)));
    return b.toString();
  }

  /** {@code fp8 (W8A8)}, {@code bf16 (weight-only fp8)}, or the precision alone. */
  private String scheme(Precision w) {
    Precision g = gemm(w);
    if (g.valueBits() < activations().valueBits()) {
      return g + " (W" + w.valueBits() + "A" + g.valueBits() + ")";
    }
    if (w.valueBits() < g.valueBits()) {
      String where = quantizesInputs(w) && tensorUnits().isEmpty() ? ", chip not resolved" : "";
      return g + " (weight-only " + w + where + ")";
    }
    return g.toString();
  }
}
