package io.ridgeline.hardware;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.FlopsPerByte;
import io.ridgeline.core.FlopsPerSecond;
import io.ridgeline.core.Precision;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Watts;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.stream.Collectors;
import org.immutables.value.Value;

/**
 * One accelerator as the roofline sees it: dense peak FLOP/s per precision, memory tiers with the
 * main tier first, optional scale-up and scale-out interconnects, power, price and the source of
 * every figure.
 *
 * <p>Peaks are dense (no 2:4 structured sparsity) in FLOP/s and keyed by {@link
 * Precision#peakKey()}: a chip's MXFP4 peak is its {@link Precision#FP4} peak, so {@link
 * Precision#MXFP4} is never a key. The main tier ({@link #mainMemory()}) is the one weights and KV
 * cache live in: HBM or GDDR on GPUs, SRAM on SRAM-only chips (Groq, Cerebras), unified memory on
 * Apple silicon.
 *
 * <pre>{@code
 * Chip h100 = Chips.H100_SXM;
 * h100.ridgePoint(Precision.BF16);   // 295.343 FLOP/B = 989.4e12 FLOP/s / 3.35e12 B/s
 * h100.toComputeTarget();            // what io.ridgeline.core.Roofline evaluates against
 * }</pre>
 */
@Value.Immutable
@RidgelineStyle
public abstract class Chip {
  Chip() {} // subclassed only by the generated implementation

  /** Order of peaks in {@link #toString()}: the precisions inference uses most come first. */
  private static final List<Precision> DISPLAY_ORDER =
      List.of(
          Precision.BF16,
          Precision.FP16,
          Precision.FP8,
          Precision.FP4,
          Precision.INT8,
          Precision.INT4,
          Precision.TF32,
          Precision.FP32);

  /** The catalog id, for example {@code "h100-sxm"}; non-blank, no whitespace. */
  public abstract String id();

  /** The marketing name, for example {@code "NVIDIA H100 SXM5 80GB"}; non-blank. */
  public abstract String name();

  /** The vendor, for example {@code "NVIDIA"}; empty unless set. */
  @Value.Default
  public String vendor() {
    return "";
  }

  /** Dense peak FLOP/s (TOPS for integer formats) per peak precision; non-empty, all positive. */
  public abstract Map<Precision, FlopsPerSecond> peaks();

  /** Memory tiers, main tier first; non-empty, names unique. */
  public abstract List<MemoryTier> memory();

  /** The fabric inside a node or rack, if any (scope {@link Interconnect.Scope#SCALE_UP}). */
  public abstract Optional<Interconnect> scaleUp();

  /** The network between nodes, if known (scope {@link Interconnect.Scope#SCALE_OUT}). */
  public abstract Optional<Interconnect> scaleOut();

  /** Thermal design power of one chip (or of the unit the chip row describes); positive. */
  public abstract Optional<Watts> tdp();

  /** A rental price per chip-hour, where a dated public figure exists. */
  public abstract Optional<DollarsPerHour> pricePerHour();

  /**
   * The share of the dense BF16 peak that the best dense matrix product measured on this chip
   * reaches, its maximum achievable matmul FLOP/s (MAMF) over its peak, in (0, 1]; empty when
   * unmeasured, where {@link #matmulFraction()} uses {@value #TYPICAL_MATMUL_FRACTION}. The
   * built-in figures are those of the MAMF table in Stas Bekman's "Machine Learning Engineering"
   * ({@code compute/accelerator/README.md} of github.com/stas00/ml-engineering, August 2026: a
   * brute-force search of {@code torch.matmul} shapes, mean of 100 runs after 50 warm-up runs; H100
   * SXM 794.5 of 989 TFLOP/s = 0.803, B200 0.776, GB200 0.729, MI300X 0.514). Calibrated
   * efficiencies scale their compute fraction by it (the same software runs a GEMM at a smaller
   * share of a faster or less mature chip's peak); the roofline bound does not.
   */
  public abstract Optional<Double> achievableMatmulFraction();

  /**
   * {@value} : the median of the twelve accelerators of the MAMF table (Gaudi 2 0.969, A100 SXM
   * 0.869, GH200 0.838, A100 PCIe 0.811, H100 SXM 0.803, B300 0.786, B200 0.776, Gaudi 3 0.741,
   * GB200 0.729, MI355X 0.680, MI325X 0.604, MI300X 0.514): what a chip without a measurement is
   * assumed to reach.
   */
  public static final double TYPICAL_MATMUL_FRACTION = 0.781;

  /** {@link #achievableMatmulFraction()}, else {@link #TYPICAL_MATMUL_FRACTION}. */
  public double matmulFraction() {
    return achievableMatmulFraction().orElse(TYPICAL_MATMUL_FRACTION);
  }

  /**
   * The measured achievable matmul share at precisions narrower than BF16, each of that precision's
   * own dense peak, in (0, 1], by peak key; empty unless measured. The built-in figures are the FP8
   * ({@code float8_e4m3fn}) rows of the same MAMF table as {@link #achievableMatmulFraction()}: FP8
   * matmuls reach a smaller share of their doubled peak (H100 SXM 1,402.6 of 1,978.9 TFLOP/s =
   * 0.709 against 0.803 for BF16; H200 0.734, B200 0.763, GB200 0.723). FP4, which no MAMF table
   * measures, is built in for the B200 and GB200 only: their FP8 figure × 0.767, the ratio of
   * NVFP4's to FP8's share of its own peak on the same GEMM in vLLM's CUTLASS kernel benchmarks on
   * a B200 (M = 16,384, N = 6,144, K = 4,096: NVFP4 3,904 of 9,000 TFLOP/s in vllm-project/vllm PR
   * 20646 against FP8 2,545 of 4,500 in PR 19566), so B200 0.585 and GB200 0.555.
   */
  public abstract Map<Precision, Double> narrowMatmulFractions();

  /**
   * The achievable matmul share of {@code precision}'s own peak: its {@link
   * #narrowMatmulFractions()} figure; else, for a format narrower than 16 bits, that of the
   * narrowest measured format wider than it (FP4 unmeasured on a chip takes its FP8 figure: the
   * same tensor cores at twice the rate); else {@link #matmulFraction()}, the BF16 figure or the
   * typical one.
   */
  public double matmulFraction(Precision precision) {
    Precision key = precision.peakKey();
    Double own = narrowMatmulFractions().get(key);
    if (own != null) {
      return own;
    }
    Precision wider = null;
    for (Precision p : narrowMatmulFractions().keySet()) {
      if (p.valueBits() > key.valueBits() && (wider == null || p.valueBits() < wider.valueBits())) {
        wider = p;
      }
    }
    return wider == null ? matmulFraction() : narrowMatmulFractions().get(wider);
  }

  /**
   * Where each figure comes from: field name (for example {@code "peak_tflops"}, {@code "tdp_w"})
   * to source text. Built-in chips also carry {@code "reference_row"} and the reference table's
   * {@code "derived_fields"}, {@code "estimated_or_thirdparty_fields"} and {@code "conflicts"}.
   * Memory tiers and interconnects carry their own {@code source()}.
   */
  public abstract Map<String, String> sources();

  /** Free text: variants, caveats, what was left out; empty unless set. */
  @Value.Default
  public String notes() {
    return "";
  }

  /**
   * A new builder; {@code id}, {@code name}, at least one peak and one memory tier are required.
   * {@code build()} throws {@link IllegalStateException} when one is missing and {@link
   * IllegalArgumentException} when a value breaks a rule of this class.
   *
   * <pre>{@code
   * Chip npu = Chip.builder().id("my-npu").name("My NPU")
   *     .putPeak(Precision.BF16, FlopsPerSecond.ofTera(400))
   *     .addMemory(MemoryTier.of(MemoryKind.HBM, Bytes.ofGigabytes(96), BytesPerSecond.ofTerabytes(2.4)))
   *     .build();
   * }</pre>
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link Chip}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableChip.Builder {
    Builder() {}
  }

  /** The main memory tier: the first of {@link #memory()}. */
  public MemoryTier mainMemory() {
    return memory().get(0);
  }

  /**
   * The dense peak for math in {@code precision}, looked up by its {@link Precision#peakKey()}
   * (MXFP4 gives the FP4 peak); empty when the chip publishes none. No fallback to wider formats:
   * {@link #toComputeTarget()} does that.
   */
  public Optional<FlopsPerSecond> peak(Precision precision) {
    return Optional.ofNullable(peaks().get(precision.peakKey()));
  }

  /**
   * The ridge point in FLOP/B: {@code peak(precision) / mainMemory().bandwidth()}. Work of higher
   * arithmetic intensity is compute-bound on the main tier, lower is memory-bound.
   *
   * @throws IllegalArgumentException naming the chip, the precision and the precisions it has when
   *     the chip has no peak for {@code precision}
   */
  public FlopsPerByte ridgePoint(Precision precision) {
    FlopsPerSecond peak =
        peak(precision)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "chip "
                            + id()
                            + " has no "
                            + precision.id()
                            + " peak; it has: "
                            + peaks().keySet().stream()
                                .map(Precision::id)
                                .collect(Collectors.joining(", "))));
    return peak.per(mainMemory().bandwidth());
  }

  /**
   * This chip as a roofline target: named by its id, with its peaks, the bandwidth of every tier
   * keyed by tier name, the main tier as main tier, and the link of {@link #scaleUp()} (else {@link
   * #scaleOut()}, else none). Efficiencies are 1.0; set them with {@link
   * ComputeTarget#withEfficiency(double, double, double)}.
   */
  public ComputeTarget toComputeTarget() {
    ComputeTarget.Builder target =
        ComputeTarget.builder().name(id()).putAllPeaks(peaks()).mainTier(mainMemory().name());
    for (MemoryTier tier : memory()) {
      target.putTierBandwidth(tier.name(), tier.bandwidth());
    }
    Optional<Interconnect> link = scaleUp().or(this::scaleOut);
    link.ifPresent(l -> target.linkBandwidth(l.bandwidthPerDirection()).linkLatency(l.latency()));
    return target.build();
  }

  @Value.Check
  void check() {
    checkArgument(
        !id().isBlank() && id().chars().noneMatch(Character::isWhitespace),
        "chip id must be non-blank without whitespace: '%s'",
        id());
    checkArgument(!name().isBlank(), "chip %s: name must not be blank", id());
    checkArgument(!peaks().isEmpty(), "chip %s: peaks must not be empty", id());
    for (Map.Entry<Precision, FlopsPerSecond> e : peaks().entrySet()) {
      checkArgument(
          e.getKey() == e.getKey().peakKey(),
          "chip %s: peaks are keyed by peak precision; give the %s peak as %s",
          id(),
          e.getKey().id(),
          e.getKey().peakKey().id());
      checkArgument(
          e.getValue().flopsPerSecond() > 0,
          "chip %s: peak for %s must be positive: %s",
          id(),
          e.getKey().id(),
          e.getValue());
    }
    checkArgument(!memory().isEmpty(), "chip %s: memory must have at least one tier", id());
    Set<String> names = new HashSet<>();
    for (MemoryTier tier : memory()) {
      checkArgument(
          names.add(tier.name()),
          "chip %s: memory tier names must be unique: '%s' appears twice",
          id(),
          tier.name());
    }
    scaleUp()
        .ifPresent(
            l ->
                checkArgument(
                    l.scope() == Interconnect.Scope.SCALE_UP,
                    "chip %s: scale-up interconnect %s must have scope scale-up: %s",
                    id(),
                    l.name(),
                    l.scope()));
    scaleOut()
        .ifPresent(
            l ->
                checkArgument(
                    l.scope() == Interconnect.Scope.SCALE_OUT,
                    "chip %s: scale-out interconnect %s must have scope scale-out: %s",
                    id(),
                    l.name(),
                    l.scope()));
    tdp()
        .ifPresent(w -> checkArgument(w.watts() > 0, "chip %s: tdp must be positive: %s", id(), w));
    achievableMatmulFraction()
        .ifPresent(
            f ->
                checkArgument(
                    f > 0 && f <= 1,
                    "chip %s: achievable matmul fraction must be in (0, 1]: %s",
                    id(),
                    f));
    for (Map.Entry<Precision, Double> e : narrowMatmulFractions().entrySet()) {
      checkArgument(
          e.getKey() == e.getKey().peakKey() && e.getKey().valueBits() < 16,
          "chip %s: narrow achievable matmul fractions are keyed by a peak precision narrower than"
              + " 16 bits: %s",
          id(),
          e.getKey().id());
      checkArgument(
          peaks().containsKey(e.getKey()),
          "chip %s: achievable matmul fraction of %s names a precision without a peak; peaks: %s",
          id(),
          e.getKey().id(),
          peaks().keySet());
      checkArgument(
          e.getValue() > 0 && e.getValue() <= 1,
          "chip %s: achievable matmul fraction of %s must be in (0, 1]: %s",
          id(),
          e.getKey().id(),
          e.getValue());
    }
  }

  /**
   * The id, name, peaks, tiers, links, power and price with units, for example {@code "h100-sxm
   * (NVIDIA H100 SXM5 80GB): bf16 989.4 TFLOP/s, fp16 989.4 TFLOP/s, ..., hbm 80 GB @ 3.35 TB/s;
   * scale-up NVLink 4 ...: 450 GB/s per direction, 1 µs per hop, 8 chips; ...; 700 W; 4.916 $/h"}.
   */
  @Override
  public String toString() {
    StringJoiner items = new StringJoiner(", ");
    for (Precision p : DISPLAY_ORDER) {
      FlopsPerSecond peak = peaks().get(p);
      if (peak != null) {
        items.add(p.id() + " " + peak);
      }
    }
    memory().forEach(t -> items.add(t.toString()));
    StringJoiner all = new StringJoiner("; ", id() + " (" + name() + "): ", "");
    all.add(items.toString());
    scaleUp().ifPresent(l -> all.add("scale-up " + l));
    scaleOut().ifPresent(l -> all.add("scale-out " + l));
    tdp().ifPresent(w -> all.add(w.toString()));
    pricePerHour().ifPresent(p -> all.add(p.toString()));
    return all.toString();
  }
}
