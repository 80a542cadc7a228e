package io.ridgeline.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import org.quicktheories.core.Gen;

/**
 * Reference targets and operations with hand-computed numbers, shared by the core tests.
 *
 * <p>The H100-SXM-like target uses datasheet dense peaks (BF16 989.4 TFLOP/s, FP8 1978.9 TFLOP/s)
 * and HBM3 bandwidth 3.35 TB/s. The numbers derived from them are written out where they are used.
 */
final class CoreFixtures {
  private CoreFixtures() {}

  /** Dense BF16 peak of the H100-SXM-like target, FLOP/s. */
  static final double H100_BF16 = 989.4e12;

  /** Dense FP8 peak of the H100-SXM-like target, FLOP/s. */
  static final double H100_FP8 = 1978.9e12;

  /** HBM bandwidth of the H100-SXM-like target, B/s. */
  static final double H100_HBM = 3.35e12;

  /** NVLink-like link bandwidth per direction, B/s. */
  static final double LINK = 450e9;

  /** Latency of one link hop, s. */
  static final double LINK_LATENCY = 1e-6;

  /** Elements of a 4096 × 14336 weight matrix: 4096·14336 = 58,720,256. */
  static final double FFN_ELEMENTS = 4096.0 * 14336;

  /**
   * H100-SXM-like: bf16 989.4 TFLOP/s, fp8 1978.9 TFLOP/s, one "hbm" tier at 3.35 TB/s, no link.
   */
  static ComputeTarget h100() {
    return ComputeTarget.builder()
        .name("h100-like")
        .putPeak(Precision.BF16, FlopsPerSecond.ofTera(989.4))
        .putPeak(Precision.FP8, FlopsPerSecond.ofTera(1978.9))
        .putTierBandwidth("hbm", BytesPerSecond.ofTerabytes(3.35))
        .mainTier("hbm")
        .build();
  }

  /** {@link #h100()} with a 450 GB/s link of 1 µs hop latency. */
  static ComputeTarget h100WithLink() {
    return ComputeTarget.builder()
        .from(h100())
        .name("h100-linked")
        .linkBandwidth(BytesPerSecond.ofGigabytes(450))
        .linkLatency(Seconds.ofMicros(1))
        .build();
  }

  /** A target with a 10 TB/s "sram" tier that serves the weights and a 3.35 TB/s "hbm" tier. */
  static ComputeTarget h100WithSram() {
    return ComputeTarget.builder()
        .from(h100())
        .name("h100-sram")
        .putTierBandwidth("sram", BytesPerSecond.ofTerabytes(10))
        .putPlacement(DataKind.WEIGHTS, "sram")
        .build();
  }

  /**
   * Decode-step GEMV through a 4096 × 14336 BF16 weight matrix: 2·4096·14336 = 117,440,512 FLOPs
   * and 2 B · 58,720,256 = 117,440,512 weight bytes, so 1 FLOP/B.
   */
  static Operation gemv() {
    return Operation.builder()
        .name("ffn_up")
        .role(OperationRole.DENSE_FFN)
        .flops(Flops.of(2 * FFN_ELEMENTS))
        .precision(Precision.BF16)
        .putBytes(DataKind.WEIGHTS, Bytes.of(2 * FFN_ELEMENTS))
        .build();
  }

  /**
   * 8192 × 8192 × 8192 BF16 GEMM: 2·8192³ = 1,099,511,627,776 FLOPs; weights 8192²·2 B =
   * 134,217,728 B; activations in and out 2·8192²·2 B = 268,435,456 B; 402,653,184 B in all, so
   * 1,099,511,627,776 / 402,653,184 ≈ 2730.67 FLOP/B.
   */
  static Operation gemm() {
    return gemm(Precision.BF16);
  }

  /** {@link #gemm()} at another compute precision (the byte counts stay those of BF16). */
  static Operation gemm(Precision precision) {
    double n = 8192;
    return Operation.builder()
        .name("gemm_8192")
        .role(OperationRole.DENSE_FFN)
        .flops(Flops.of(2 * n * n * n))
        .precision(precision)
        .putBytes(DataKind.WEIGHTS, Bytes.of(n * n * 2))
        .putBytes(DataKind.ACTIVATIONS, Bytes.of(2 * n * n * 2))
        .build();
  }

  /**
   * Ring all-reduce of 16 MB over 8 chips: each chip sends 2·(8−1)/8 · 16e6 = 28e6 B in 2·(8−1) =
   * 14 steps; it reads and writes the 16 MB buffer (32e6 activation bytes) and adds 7e6 FLOPs.
   */
  static Operation allReduce() {
    return Operation.builder()
        .name("all_reduce")
        .role(OperationRole.TP_ALL_REDUCE)
        .flops(Flops.of(7e6))
        .precision(Precision.BF16)
        .putBytes(DataKind.ACTIVATIONS, Bytes.of(32e6))
        .networkBytes(Bytes.of(28e6))
        .networkSteps(14)
        .build();
  }

  /** Asserts {@code |actual − expected| <= relative · max(|actual|, |expected|)}. */
  static void assertRelativelyClose(double actual, double expected, double relative) {
    double scale = Math.max(Math.abs(actual), Math.abs(expected));
    assertThat(Math.abs(actual - expected))
        .as("%s vs expected %s (relative tolerance %s)", actual, expected, relative)
        .isLessThanOrEqualTo(relative * scale);
  }

  /** m·10^k for a mantissa m in [1, 10) and k in [minExponent, maxExponent]. */
  static Gen<Double> magnitudes(int minExponent, int maxExponent) {
    return integers()
        .between(minExponent, maxExponent)
        .zip(doubles().between(1.0, 10.0), (k, m) -> m * Math.pow(10, k))
        .describedAs(x -> Double.toString(x));
  }
}
