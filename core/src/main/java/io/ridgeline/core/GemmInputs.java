package io.ridgeline.core;

/**
 * The precision the inputs of a weight GEMM are fed at, which decides the rate it runs at (see
 * {@link Precisions#matmul(TensorClass)}).
 */
public enum GemmInputs {
  /**
   * Inputs at the activation precision: weight-only quantization (W8A16, W4A16). Narrow weights are
   * dequantized in the kernel and multiplied at the activation precision, as Marlin, AWQ and GPTQ
   * kernels do and as engines do for FP8 checkpoints on chips without FP8 units (vLLM's FP8 Marlin
   * path on Ampere). This is what an explicit activation precision means.
   */
  ACTIVATION_PRECISION,
  /**
   * Inputs quantized to the weight precision where the chip has matrix units for it: FP8
   * checkpoints run W8A8 (TensorRT-LLM, vLLM and SGLang quantize each GEMM's input to FP8 per token
   * or per tensor on Hopper, Blackwell and MI300), NVFP4 and MXFP4 checkpoints run W4A4 on FP4
   * units (Blackwell, MI355X). Elsewhere, and for integer formats (AWQ/GPTQ INT4 and INT8
   * checkpoints are weight-only), this falls back to {@link #ACTIVATION_PRECISION}. This is the
   * default of a checkpoint's precisions.
   */
  WEIGHT_PRECISION;

  /** Lower-case id, for example {@code "weight_precision"}. */
  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
