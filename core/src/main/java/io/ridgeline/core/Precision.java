package io.ridgeline.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Number formats for weights, KV cache and activations, with their storage cost.
 *
 * <p>{@link #bytesPerElement()} includes block-scale overhead: NVFP4 ({@link #FP4}) stores 4-bit
 * values plus one 8-bit (E4M3) scale per 16 elements, so 16 elements take 8 + 1 bytes = 0.5625
 * B/element; MXFP4 stores one 8-bit (E8M0) scale per 32 elements, 16 + 1 bytes per 32 = 0.53125
 * B/element (OCP Microscaling spec v1.0). {@link #INT4} is counted at 0.5 B/element: the
 * group-scale overhead of int4 schemes varies (AWQ/GPTQ group 128 adds 2 B per 128 elements, under
 * 4%) and is left out. {@link #TF32} is stored as FP32.
 *
 * <p>Ids are the lower-case names used in JSON and on the command line: {@code fp32, tf32, bf16,
 * fp16, fp8, int8, fp4, mxfp4, int4}.
 */
public enum Precision {
  FP32(4.0, 32),
  TF32(4.0, 32),
  BF16(2.0, 16),
  FP16(2.0, 16),
  FP8(1.0, 8),
  INT8(1.0, 8),
  /** NVFP4: 4-bit E2M1 values + one FP8 scale per 16 elements = (16·0.5 + 1)/16 B. */
  FP4(0.5625, 4),
  /** OCP MXFP4: 4-bit E2M1 values + one E8M0 scale per 32 elements = (32·0.5 + 1)/32 B. */
  MXFP4(0.53125, 4),
  INT4(0.5, 4);

  private final double bytesPerElement;
  private final int valueBits;

  Precision(double bytesPerElement, int valueBits) {
    this.bytesPerElement = bytesPerElement;
    this.valueBits = valueBits;
  }

  /** Storage per element in bytes, scale overhead included. */
  public double bytesPerElement() {
    return bytesPerElement;
  }

  /** Bits of one value, scales excluded (32, 16, 8 or 4). */
  public int valueBits() {
    return valueBits;
  }

  /** The bytes of {@code elements} elements at this precision. */
  public Bytes bytes(double elements) {
    return Bytes.of(elements * bytesPerElement);
  }

  /**
   * The precision whose peak FLOP/s a chip uses for math in this format: MXFP4 runs on FP4 tensor
   * cores, so its peak key is {@link #FP4}; every other precision is its own key.
   */
  public Precision peakKey() {
    return switch (this) {
      case MXFP4 -> FP4;
      case FP32, TF32, BF16, FP16, FP8, INT8, FP4, INT4 -> this;
    };
  }

  /**
   * Whether this is a floating-point format narrower than 16 bits ({@link #FP8}, {@link #FP4},
   * {@link #MXFP4}): a format engines quantize a GEMM's inputs to on chips with matrix units for it
   * (W8A8, W4A4) and that quantization recipes produce from 16-bit checkpoints; integer formats
   * ({@link #INT8}, {@link #INT4}) are weight-only.
   */
  public boolean narrowFloat() {
    return switch (this) {
      case FP8, FP4, MXFP4 -> true;
      case FP32, TF32, BF16, FP16, INT8, INT4 -> false;
    };
  }

  /** The lower-case id, for example {@code "bf16"}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return id();
  }

  /** The precision with this id (case-insensitive), if any. */
  public static Optional<Precision> find(String id) {
    if (id == null) {
      return Optional.empty();
    }
    String key = id.trim().toUpperCase(Locale.ROOT);
    return Arrays.stream(values()).filter(p -> p.name().equals(key)).findFirst();
  }

  /**
   * The precision with this id (case-insensitive).
   *
   * @throws NoSuchElementException listing the known ids when there is none
   */
  public static Precision of(String id) {
    return find(id)
        .orElseThrow(
            () -> new NoSuchElementException("unknown precision '" + id + "'; known: " + ids()));
  }

  /** The known ids, comma-separated. */
  public static String ids() {
    return Arrays.stream(values()).map(Precision::id).collect(Collectors.joining(", "));
  }
}
