package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.MemoryKind;
import org.immutables.value.Value;

/**
 * How much of a chip's roofline an engine achieves: fractions of peak FLOP/s, memory bandwidth and
 * interconnect bandwidth, how GEMM efficiency falls for small token counts, and fixed costs per
 * layer (kernel launches) and per step (scheduling). {@link #ideal()} is 100% of each with no fixed
 * costs: the roofline bound.
 *
 * <p>Small-M GEMMs: a matrix product over M tokens reaches {@code compute × M / (M +
 * gemmHalfTokens)} of peak, a saturating curve (decode GEMMs of a few tokens cannot fill the tensor
 * cores; prefill GEMMs of thousands do). Fixed costs: each pass through a pipeline stage adds
 * {@code stepOverhead + layers × layerOverhead}. Attention kernels reach {@link #attention()} of
 * the other kernels' fractions; each collective hop pays {@link #collectiveLatency()} on top of the
 * link's latency.
 */
@Value.Immutable
@RidgelineStyle
public abstract class Efficiency {
  /** Fraction of peak FLOP/s at large token counts, in (0, 1]. */
  @Value.Parameter
  public abstract double compute();

  /** Fraction of memory bandwidth, in (0, 1]. */
  @Value.Parameter
  public abstract double memory();

  /** Fraction of interconnect bandwidth, in (0, 1]. */
  @Value.Parameter
  public abstract double network();

  /** Tokens at which a GEMM reaches half of {@link #compute()}; 0 means no small-M penalty. */
  @Value.Default
  public double gemmHalfTokens() {
    return 0;
  }

  /**
   * Fraction of the roofline that attention kernels reach relative to other kernels, in (0, 1]: it
   * multiplies the compute and memory fractions for the operations that read the KV cache
   * (attention over the cache, sliding-window attention, the DSA indexer). FlashAttention-style
   * decode kernels split the cache over thread blocks and reduce the partial results, and reach
   * less of HBM bandwidth than a weight-streaming GEMV at short contexts and few heads per chip.
   */
  @Value.Default
  public double attention() {
    return 1;
  }

  /**
   * Software latency per hop of a collective (kernel launch, synchronisation and the communication
   * library's protocol), added to the link's own latency; NCCL all-reduce on NVLink measures a few
   * to tens of microseconds per step for small messages.
   */
  @Value.Default
  public Seconds collectiveLatency() {
    return Seconds.ZERO;
  }

  /**
   * Latency of each request outside the accelerators, the admission part of its TTFT in served
   * deployments (colocated, PD, AFD; not a static batch; see {@link TtftParts}): the serving
   * frontend's HTTP handling, tokenisation, hand-over to the scheduler and the scheduler's
   * admission. The wait for the running step and the prompt's prefill are separate parts. It is not
   * accelerator time, so steps and throughput do not change.
   */
  @Value.Default
  public Seconds admission() {
    return Seconds.ZERO;
  }

  /** Fixed cost per layer per pass (kernel launches). */
  @Value.Default
  public Seconds layerOverhead() {
    return Seconds.ZERO;
  }

  /** Fixed cost per step per pipeline stage (scheduling, sampling, host work). */
  @Value.Default
  public Seconds stepOverhead() {
    return Seconds.ZERO;
  }

  /**
   * The default efficiency everywhere (the library's builders and every command): the built-in
   * {@value Profiles#DEFAULT} engine profile ({@link Profiles#builtIn()}), fitted on the shipped
   * validation cases, for {@code chip} ({@link #forChip}: SRAM-only chips keep the ideal bound).
   * {@link #ideal()} is the roofline bound.
   */
  public static Efficiency standard(Chip chip) {
    return standard().forChip(chip);
  }

  /**
   * The built-in {@value Profiles#DEFAULT} engine profile's efficiency, before {@link #forChip}:
   * what the builders that place pools on several chips ({@link PoolSpec}, {@link PlanRequest},
   * {@link Sweep}) default to and apply per chip.
   */
  public static Efficiency standard() {
    return Profiles.builtIn().forEngine(Profiles.DEFAULT).efficiency();
  }

  /** 100% of peak and bandwidth, no fixed costs: the roofline bound. */
  public static Efficiency ideal() {
    return ImmutableEfficiency.of(1, 1, 1);
  }

  /**
   * Explicit fractions, no small-M penalty or fixed costs.
   *
   * @throws IllegalArgumentException when a fraction is outside (0, 1] or not finite
   */
  public static Efficiency of(double compute, double memory, double network) {
    return ImmutableEfficiency.of(compute, memory, network);
  }

  /** A new builder. */
  public static ImmutableEfficiency.Builder builder() {
    return ImmutableEfficiency.builder();
  }

  /** The compute fraction a GEMM over {@code tokens} tokens reaches: compute × M / (M + half). */
  public double computeAt(double tokens) {
    return gemmHalfTokens() == 0 ? compute() : compute() * tokens / (tokens + gemmHalfTokens());
  }

  /** Fixed seconds of one pass through a stage of {@code layers} layers. */
  public double overheadSeconds(double layers) {
    return stepOverhead().seconds() + layers * layerOverhead().seconds();
  }

  /**
   * This efficiency for pools of {@code chip}: itself, except that a chip whose every memory tier
   * is on-chip SRAM (statically scheduled dataflow machines such as Groq's LPU and Cerebras' WSE)
   * keeps the {@link #ideal()} bound. The engine profiles are fitted on GPU-class chips with
   * off-chip memory, whose kernel launches, scheduler steps and HBM efficiency do not carry over to
   * compiled dataflow execution; no published measurement in the shipped cases is enough to fit
   * such a chip's own profile.
   */
  public Efficiency forChip(Chip chip) {
    boolean sramOnly =
        !chip.memory().isEmpty()
            && chip.memory().stream().allMatch(t -> t.kind() == MemoryKind.SRAM);
    return sramOnly ? ideal() : this;
  }

  /** Whether every fraction is 1 and there are no fixed costs or small-M penalty. */
  public boolean isIdeal() {
    for (EfficiencyParameter p : EfficiencyParameter.values()) {
      if (p.get(this) != p.ideal()) {
        return false;
      }
    }
    return true;
  }

  @Value.Check
  void check() {
    in("compute efficiency", compute());
    in("memory efficiency", memory());
    in("network efficiency", network());
    in("attention efficiency", attention());
    checkArgument(
        collectiveLatency().seconds() >= 0 && Double.isFinite(collectiveLatency().seconds()),
        "collective latency must be finite and >= 0: %s",
        collectiveLatency());
    checkArgument(
        gemmHalfTokens() >= 0 && Double.isFinite(gemmHalfTokens()),
        "gemm half tokens must be finite and >= 0: %s",
        gemmHalfTokens());
  }

  private static void in(String what, double v) {
    checkArgument(v > 0 && v <= 1, "%s must be in (0, 1]: %s", what, v);
  }

  /**
   * {@code ideal}, or the parameters that differ from ideal (compute, memory and network always),
   * e.g. "compute 95%, memory 67%, network 20%, GEMM half at 128 tokens, attention 80%, collectives
   * +500.043 ns/hop, admission 372.606 ms, overhead 2.546 ms/step + 49.9337 µs/layer" (see {@link
   * EfficiencyParameter}).
   */
  @Override
  public String toString() {
    return isIdeal() ? "ideal" : EfficiencyParameter.describe(this);
  }
}
