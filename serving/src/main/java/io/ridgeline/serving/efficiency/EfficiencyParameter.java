package io.ridgeline.serving.efficiency;

import com.google.errorprone.annotations.CanIgnoreReturnValue;
import com.google.errorprone.annotations.Immutable;
import io.ridgeline.core.Seconds;
import io.ridgeline.serving.TtftParts;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The parameters of an {@link Efficiency}, each defined once: its JSON key and unit in a profile
 * file ({@link Profiles}), its value with no loss ({@link #ideal()}), the physically plausible
 * range a fit searches ({@link #lower()} to {@link #upper()}; the javadoc of {@code
 * io.ridgeline.validation.Calibration} gives the source of each range and start), the start of a
 * fit, how to read it from an {@link Efficiency} and set it on a builder, and how the efficiency's
 * one-line description ({@link Efficiency#toString()}) prints it.
 *
 * <p>Values are in the parameter's {@link #unit()}: fractions, hidden shares, tokens, microseconds
 * or milliseconds, as in the JSON form. Adding a parameter means adding a constant here and the
 * model code that uses it.
 *
 * <pre>{@code
 * Efficiency.Builder b = Efficiency.builder().from(Efficiency.ideal());
 * EfficiencyParameter.MEMORY.set(b, 0.8);
 * EfficiencyParameter.MEMORY.get(b.build());   // 0.8
 * }</pre>
 */
public enum EfficiencyParameter {
  /**
   * Fraction of the chip's achievable matmul FLOP/s that a large GEMM in an engine reaches ({@link
   * Efficiency#compute()}); a pool computes at {@code compute ×} {@link
   * io.ridgeline.hardware.Chip#matmulFraction()} of its dense peak ({@code
   * RooflineModel.kernelEfficiency}). The achievable rate (MAMF) is the best dense {@code
   * torch.matmul} found by a shape search: 80.3% of the peak on an H100, 77.6% on a B200, 72.9% on
   * a GB200, 51.4% on an MI300X (the chip's {@code achievable_matmul_fraction}); FP8 GEMMs at the
   * FP8 rows' share of the FP8 peak where measured, 70.9% on an H100 ({@link
   * io.ridgeline.hardware.Chip#matmulFraction(io.ridgeline.core.Precision)}). Range 0.45–1.0: an
   * engine's GEMMs at their best shapes reach the MAMF (1.0); 0.45 of it (about 35% of an H100's
   * peak) is a whole-model prefill with unfused non-GEMM work (MLPerf Inference offline submissions
   * run near 40–60% of peak FLOP/s). Start 0.75.
   */
  COMPUTE(
      "compute",
      Unit.FRACTION,
      true,
      0.45,
      1.0,
      0.75,
      Efficiency::compute,
      Efficiency.Builder::compute,
      new Column("compute", 8, 3),
      0,
      e -> Optional.of(percent("compute", e.compute()))),
  /**
   * Fraction of memory bandwidth the streaming kernels reach ({@link Efficiency#memory()}). Range
   * 0.5–0.92: copy and GEMV kernels reach 85–92% of HBM bandwidth on H100 and MI300X (NVIDIA's
   * nvbandwidth and STREAM-like measurements; AMD's MI300X rocm-bandwidth-test), a decode step of
   * many small kernels as little as half. Start 0.8.
   */
  MEMORY(
      "memory",
      Unit.FRACTION,
      true,
      0.5,
      0.92,
      0.8,
      Efficiency::memory,
      Efficiency.Builder::memory,
      new Column("memory", 8, 3),
      1,
      e -> Optional.of(percent("memory", e.memory()))),
  /**
   * Collective bus-bandwidth fraction of the link's per-direction bandwidth ({@link
   * Efficiency#network()}): the β of the α-β collective model, the share of the link a large
   * message's transfer reaches. Range 0.3–0.9: nccl-tests all-reduce bus bandwidth on NVLink 4
   * reaches about 360–390 GB/s of 450 GB/s at large messages (0.8–0.87), InfiniBand NDR about 0.9
   * of line rate (DeepEP's internode kernels 43–58 GB/s of 50 GB/s RDMA); decode-sized messages of
   * a few hundred kB reach a third of the link in bus bandwidth, which the α term (the per-hop
   * latency, {@link #COLLECTIVE_LATENCY}, and the link's own) already charges.
   *
   * <p><b>Held, not fitted</b> ({@link #fitted()}): at 0.8, the large-message NVLink figure above.
   * Searched, it ended on its lower bound 0.3 in every one of the 19 cross-validation fits, because
   * it is the one parameter that slows a tensor-parallel prefill and the served TTFTs the model
   * predicts too low pulled it there (a 70B prefill's all-reduces at 0.3 took 35 ms of the main
   * job's 126 ms TTFT); the shipped rows cannot identify it, so it keeps its measured value.
   */
  NETWORK(
      "network",
      Unit.FRACTION,
      true,
      0.3,
      0.9,
      0.8,
      Efficiency::network,
      Efficiency.Builder::network,
      new Column("network", 8, 3),
      2,
      e -> Optional.of(percent("network", e.network()))),
  /**
   * Fraction of memory bandwidth the kernels that read the KV cache reach ({@link
   * Efficiency#attention()}), their own, not relative to the other kernels'. Range 0.5–0.92, the
   * memory fraction's: FlashMLA's README reports 3,000 GB/s memory-bound on an H800 SXM5 (0.90 of
   * 3,350 GB/s), and split-KV decode kernels at short contexts and few heads per chip reach about
   * half. Start 0.8.
   */
  ATTENTION(
      "attention",
      Unit.FRACTION,
      false,
      0.5,
      0.92,
      0.8,
      Efficiency::attention,
      Efficiency.Builder::attention,
      new Column("attn", 8, 3),
      4,
      e ->
          e.attention() != e.memory()
              ? Optional.of(percent("attention", e.attention()))
              : Optional.empty()),
  /**
   * Rows (tokens) at which a GEMM reaches half of its large-M efficiency: {@code compute × M / (M +
   * half)}. Range 4–64 rows: tensor-core tiles are 64–128 rows (CUTLASS tile shapes), and published
   * small-M GEMM sweeps (e.g. the FP8 GEMM benchmarks of DeepSeek's DeepGEMM README and vLLM's
   * Marlin/CUTLASS kernel benchmarks) reach half their large-M throughput at M of about 8–64; a
   * larger half point would make a one-row GEMV slower than streaming its weights. Start 16.
   */
  GEMM_HALF_TOKENS(
      "gemm_half_tokens",
      Unit.TOKENS,
      true,
      4,
      64,
      16,
      Efficiency::gemmHalfTokens,
      Efficiency.Builder::gemmHalfTokens,
      new Column("half tok", 9, 1),
      3,
      e ->
          e.gemmHalfTokens() > 0
              ? Optional.of(
                  String.format(Locale.ROOT, "GEMM half at %.0f tokens", e.gemmHalfTokens()))
              : Optional.empty()),
  /**
   * Reduction length K (in BF16 elements; a narrower format's K steps run faster by its peak over
   * BF16's) at which a weight GEMM's per-output-tile fixed cost equals its main loop ({@link
   * Efficiency#gemmHalfDepth()}): compute time {@code × (1 + depth / K)}, with K the reduction per
   * chip, so tensor parallelism's row-parallel GEMMs (attention output, FFN and expert down
   * projections: K / tp) and MLA's low-rank up-projections (K = 512–1,536) run below the large-K
   * rate. Source: the FP8 GEMM tables of DeepSeek's DeepGEMM README (February 2025 release, H800
   * SXM5, 128-element block scaling): at M = 4,096 and N ≥ 7,168, 1,358 TFLOP/s at K = 16,384,
   * 1,025 at K = 2,048, 990 at K = 1,536 and 590 at K = 512, which {@code K / (K + depth)} fits
   * with depth 655–800 FP8 elements (grouped contiguous layout, M = 8,192 per group: 559; masked, M
   * = 1,024: 1,103), 280–550 in BF16 steps. Range 256–640, <b>held, not fitted</b> ({@link
   * #fitted()}) at 360 (the dense table's 720 FP8 elements): the shipped rows measure whole
   * deployments, not GEMM shapes.
   */
  GEMM_HALF_DEPTH(
      "gemm_half_depth",
      Unit.ELEMENTS,
      false,
      256,
      640,
      360,
      Efficiency::gemmHalfDepth,
      Efficiency.Builder::gemmHalfDepth,
      new Column("half K", 7, 0),
      3,
      e ->
          e.gemmHalfDepth() > 0
              ? Optional.of(String.format(Locale.ROOT, "GEMM half-depth K %.0f", e.gemmHalfDepth()))
              : Optional.empty()),
  /**
   * Fixed cost of each kernel a pass launches ({@link Efficiency#kernelOverhead()}), charged per
   * kernel counted from the architecture ({@link io.ridgeline.models.Kernels}). Range 1–10 µs: a
   * kernel replayed from a captured CUDA graph still costs its launch on the GPU's front end and
   * its tail (the last wave draining before the dependent kernel starts). NVIDIA's "Getting Started
   * with CUDA Graphs" (A. Gray, NVIDIA Developer blog, 2019) measures about 3.4 µs per short kernel
   * launched from a graph against about 3.8 µs launched one by one; the PyTorch blog "Accelerating
   * PyTorch with CUDA Graphs" (2021) and vLLM's CUDA-graph design notes (docs.vllm.ai, "CUDA
   * Graphs") describe the same per-kernel launch cost, a few microseconds, that graphs shrink but
   * do not remove. 1 µs is a fully fused, graph-replayed kernel on a current GPU; 10 µs an eager
   * launch with host synchronisation. Start 4 µs.
   *
   * <p>Profile files written before kernel counts ({@code layer_overhead_us}, a cost per layer) are
   * read as this parameter: the per-layer value divided by the {@value
   * io.ridgeline.models.Kernels#REFERENCE_LAYER} kernels of a reference Llama layer ({@link
   * #fromLegacy}), so a Llama layer costs what it did and other layers scale with their kernels.
   */
  KERNEL_OVERHEAD(
      "kernel_us",
      Unit.MICROSECONDS,
      true,
      1,
      10,
      4,
      e -> e.kernelOverhead().seconds() * 1e6,
      (b, v) -> b.kernelOverhead(Seconds.ofMicros(v)),
      new Column("kernel µs", 10, 2),
      -1, // printed with the step overhead
      e -> Optional.empty()),
  /**
   * The host's work per step per pipeline stage ({@link Efficiency#stepOverhead()}): the
   * scheduler's batch assembly, sampling, the host synchronisation that reads the sampled tokens
   * back, and the graph launch. It overlaps the device's pass, which takes at least this long
   * ({@link io.ridgeline.serving.StepResult#seconds()}): the engines' overlap schedulers prepare
   * step n + 1 while the device runs step n. Range 0.05–3 ms: SGLang's overlap ("zero-overhead")
   * batch scheduler (SGLang v0.4 blog, LMSYS, December 2024) and TensorRT-LLM hide the scheduler
   * behind the GPU's work, leaving tens of microseconds of sampling and synchronisation; vLLM's
   * v0.6.0 performance blog (vLLM team, September 2024) profiled Llama-3-8B on an H100 with the API
   * server, scheduling and detokenisation taking most of the step, milliseconds per step, before
   * its multi-step and asynchronous fixes. Start 1 ms.
   */
  STEP_OVERHEAD(
      "step_overhead_us",
      Unit.MICROSECONDS,
      true,
      50,
      3000,
      1000,
      e -> e.stepOverhead().seconds() * 1e6,
      (b, v) -> b.stepOverhead(Seconds.ofMicros(v)),
      new Column("step µs", 10, 1),
      7,
      e ->
          e.kernelOverhead().seconds() > 0 || e.stepOverhead().seconds() > 0
              ? Optional.of(
                  "overhead " + e.stepOverhead() + "/step + " + e.kernelOverhead() + "/kernel")
              : Optional.empty()),
  /**
   * Software latency per collective hop ({@link Efficiency#collectiveLatency()}), on top of the
   * link's own latency. Range 0.5–5 µs: NCCL's small-message all-reduce over 8 NVLink GPUs takes
   * about 10–30 µs for its 6 tree hops (nccl-tests, "NCCL performance" in NVIDIA's docs), a few
   * microseconds per hop beyond the wire; custom one-shot all-reduce kernels (TensorRT-LLM, vLLM's
   * custom all-reduce) bring it under a microsecond. Start 2 µs.
   */
  COLLECTIVE_LATENCY(
      "collective_latency_us",
      Unit.MICROSECONDS,
      false,
      0.5,
      5,
      2,
      e -> e.collectiveLatency().seconds() * 1e6,
      (b, v) -> b.collectiveLatency(Seconds.ofMicros(v)),
      new Column("coll µs", 9, 2),
      5,
      e ->
          e.collectiveLatency().seconds() > 0
              ? Optional.of("collectives +" + e.collectiveLatency() + "/hop")
              : Optional.empty()),
  /**
   * Admission latency of each request outside the accelerators ({@link Efficiency#admission()}):
   * HTTP handling, tokenisation and the scheduler's admission, one part of a served TTFT ({@link
   * TtftParts}). Plausible range 5–50 ms, start 20 ms (near the geometric middle): 5 ms for a
   * compiled frontend handed a short prompt on an idle server, 50 ms for a Python OpenAI-compatible
   * server under load. Source: the idle TTFT of served benchmarks minus the model's GPU time, e.g.
   * about 40 ms of TTFT that vLLM's {@code benchmark_serving.py} measures beyond the engine's own
   * prefill at 32 concurrent requests (tenstorrent/tt-inference-server issues 190 and 259, 2025).
   * The range bounds a fit only: a profile's value is valid when finite and non-negative, so the
   * built-in profiles fitted before this range (up to a few hundred ms) still read.
   */
  ADMISSION(
      "admission_ms",
      Unit.MILLISECONDS,
      false,
      5,
      50,
      20,
      e -> e.admission().seconds() * 1e3,
      (b, v) -> b.admission(Seconds.of(v / 1e3)),
      new Column("admit ms", 9, 1),
      6,
      e ->
          e.admission().seconds() > 0
              ? Optional.of("admission " + e.admission())
              : Optional.empty()),
  /**
   * Share of the MoE all-to-all's time hidden under compute ({@link Efficiency#moeOverlap()}), a
   * {@link Unit#HIDDEN_SHARE}: ideal 0 (nothing hidden, the bound's sum of compute and
   * communication), range 0–0.9, start 0.5. Sources: DeepSeek's "Day 6: DeepSeek-V3/R1 Inference
   * System Overview" (2025) runs two micro-batches in a dual-batch overlap so that the EP dispatch
   * and combine of one hide under the other's attention and experts, in prefill and (five-stage
   * pipeline) in decode; SGLang's "Deploying DeepSeek with PD Disaggregation and Large-scale Expert
   * Parallelism on 96 H100 GPUs" (LMSYS blog, May 2025) reports two-batch overlap lifting
   * throughput by 27–35%, which hides most but not all of the communication (an upper end of 0.9:
   * the first dispatch and last combine of a step, and a micro-batch smaller than its kernels'
   * launch costs, are never hidden).
   */
  /**
   * The host's launch time of each kernel of a prefill pass ({@link
   * Efficiency#prefillKernelOverhead()}), run without CUDA graphs. Range 10–40 µs (the accuracy
   * issue's sourced range for eager launches): an eager launch costs the host's launch latency,
   * 5–10 µs per kernel on an idle CPU in NVIDIA's "Getting Started with CUDA Graphs" measurements,
   * and Python dispatch in PyTorch-based engines (vLLM, SGLang, TensorRT-LLM's PyTorch backend)
   * adds 10–30 µs per operator (PyTorch "Accelerating PyTorch with CUDA Graphs" blog, 2021).
   * Launches are asynchronous (CUDA's stream semantics: the host enqueues while the device runs),
   * so a pass takes the longer of its device time and its launches ({@link
   * Efficiency#prefillHostSeconds}). Start 20 µs.
   */
  PREFILL_KERNEL_OVERHEAD(
      "prefill_kernel_us",
      Unit.MICROSECONDS,
      false,
      10,
      40,
      20,
      e -> e.prefillKernelOverhead().seconds() * 1e6,
      (b, v) -> b.prefillKernelOverhead(Seconds.ofMicros(v)),
      new Column("pf k µs", 8, 2),
      9,
      e ->
          e.prefillKernelOverhead().seconds() > 0
              ? Optional.of("prefill " + e.prefillKernelOverhead() + "/kernel")
              : Optional.empty()),
  MOE_OVERLAP(
      "moe_overlap",
      Unit.HIDDEN_SHARE,
      false,
      0,
      0.9,
      0.5,
      Efficiency::moeOverlap,
      Efficiency.Builder::moeOverlap,
      new Column("moe ovl", 8, 3),
      8,
      e ->
          e.moeOverlap() > 0
              ? Optional.of(percent("MoE all-to-all hidden", e.moeOverlap()))
              : Optional.empty()),
  /**
   * The prefill-to-decode hand-over of a disaggregated (pd) request beyond its KV bytes ({@link
   * Efficiency#pdHandover()}): the router's dispatch to the decode pool, the decode engine's wait
   * for a step boundary to pull and register the KV, and the re-emission of the first token. Range
   * 10–260 ms, start 50 ms (near the geometric middle): vLLM's first disaggregated-prefill
   * implementation measured 30 ms of overhead for Llama-70B at tp 4 with 2,048-token prompts, KV
   * transfer included, and set under 10 ms as the goal of an ideal implementation (vLLM pull
   * request 6170, August 2024); vLLM's NixlConnector hand-over (prefill emits token 1 until the
   * client receives it) took 263 ms p50 at block size 16, 197 ms at 64, of which the KV transfer
   * itself was 29 ms, and 36 ms after removing the orchestration (vLLM RFC 50913 and pull request
   * 51919, 2026).
   */
  PD_HANDOVER(
      "pd_handover_ms",
      Unit.MILLISECONDS,
      false,
      10,
      260,
      50,
      e -> e.pdHandover().seconds() * 1e3,
      (b, v) -> b.pdHandover(Seconds.of(v / 1e3)),
      new Column("pd ms", 8, 1),
      10,
      e ->
          e.pdHandover().seconds() > 0
              ? Optional.of("pd hand-over " + e.pdHandover())
              : Optional.empty());

  /** The unit of a parameter's values. */
  public enum Unit {
    /** A fraction in (0, 1]; ideal 1. */
    FRACTION(""),
    /** A share of a time hidden under other work, in [0, 1); ideal 0 (nothing hidden). */
    HIDDEN_SHARE(""),
    /** A token count, finite and &gt;= 0; ideal 0. */
    TOKENS("tokens"),
    /** A count of elements along a GEMM's reduction dimension, finite and &gt;= 0; ideal 0. */
    ELEMENTS("elements"),
    /** Microseconds, finite and &gt;= 0; ideal 0. */
    MICROSECONDS("µs"),
    /** Milliseconds, finite and &gt;= 0; ideal 0. */
    MILLISECONDS("ms");

    private final String symbol;

    Unit(String symbol) {
      this.symbol = symbol;
    }

    /** The unit's symbol, empty for a fraction. */
    public String symbol() {
      return symbol;
    }
  }

  /**
   * How a table of fitted values prints a parameter.
   *
   * @param label the column label
   * @param width the column width in characters
   * @param decimals digits after the decimal point
   */
  @Immutable
  public record Column(String label, int width, int decimals) {}

  /** The key of the per-layer overhead in profile files written before kernel counts. */
  private static final String LEGACY_LAYER_OVERHEAD_KEY = "layer_overhead_us";

  private final String jsonKey;
  private final Unit unit;
  private final boolean required;
  private final double lower;
  private final double upper;
  private final double start;

  @SuppressWarnings("ImmutableEnumChecker") // stateless method references
  private final ToDoubleFunction<Efficiency> getter;

  @SuppressWarnings("ImmutableEnumChecker") // stateless method references
  private final BiConsumer<Efficiency.Builder, Double> setter;

  private final Column column;
  private final int descriptionRank;

  @SuppressWarnings("ImmutableEnumChecker") // stateless lambdas
  private final Function<Efficiency, Optional<String>> description;

  EfficiencyParameter(
      String jsonKey,
      Unit unit,
      boolean required,
      double lower,
      double upper,
      double start,
      ToDoubleFunction<Efficiency> getter,
      BiConsumer<Efficiency.Builder, Double> setter,
      Column column,
      int descriptionRank,
      Function<Efficiency, Optional<String>> description) {
    this.jsonKey = jsonKey;
    this.unit = unit;
    this.required = required;
    this.lower = lower;
    this.upper = upper;
    this.start = start;
    this.getter = getter;
    this.setter = setter;
    this.column = column;
    this.descriptionRank = descriptionRank;
    this.description = description;
  }

  /** The key in a profile's JSON form, e.g. {@code kernel_us}. */
  public String jsonKey() {
    return jsonKey;
  }

  /**
   * The key an older profile file gave this parameter under, if any: {@code layer_overhead_us} for
   * {@link #KERNEL_OVERHEAD}; read through {@link #fromLegacy} when the current key is absent.
   */
  public Optional<String> legacyKey() {
    return this == KERNEL_OVERHEAD ? Optional.of(LEGACY_LAYER_OVERHEAD_KEY) : Optional.empty();
  }

  /**
   * This parameter's value from the value under its {@link #legacyKey()}: for {@link
   * #KERNEL_OVERHEAD}, a cost per layer over the {@value
   * io.ridgeline.models.Kernels#REFERENCE_LAYER} kernels of a reference Llama layer (a layer
   * overhead of 45 µs reads as 5 µs per kernel).
   *
   * @throws IllegalStateException for a parameter without a legacy key
   */
  public double fromLegacy(double legacyValue) {
    if (this != KERNEL_OVERHEAD) {
      throw new IllegalStateException(jsonKey + " has no legacy key");
    }
    return legacyValue / io.ridgeline.models.Kernels.REFERENCE_LAYER;
  }

  /** The unit of {@link #get} and {@link #set}. */
  public Unit unit() {
    return unit;
  }

  /** Whether a profile file must state it; an absent optional one is {@link #ideal()}. */
  public boolean required() {
    return required;
  }

  /** The value with no loss: 1 for a fraction, 0 otherwise (a hidden share included). */
  public double ideal() {
    return unit == Unit.FRACTION ? 1 : 0;
  }

  /** The lower end of the physically plausible range a fit searches, in {@link #unit()}. */
  public double lower() {
    return lower;
  }

  /** The upper end of the physically plausible range a fit searches, in {@link #unit()}. */
  public double upper() {
    return upper;
  }

  /** The start of a fit, in {@link #unit()}; a parameter that is not {@link #fitted()} keeps it. */
  public double start() {
    return start;
  }

  /**
   * Whether a fit searches it. Every parameter is searched but {@link #NETWORK} and {@link
   * #GEMM_HALF_DEPTH}, held at their starts (their javadoc says why): a parameter the shipped
   * measurements cannot identify keeps its sourced value instead of absorbing what the model
   * misses.
   */
  public boolean fitted() {
    return this != NETWORK && this != GEMM_HALF_DEPTH;
  }

  /**
   * Whether a fit searches it on a log scale: every parameter but the fractions and hidden shares
   * is a positive scale.
   */
  public boolean logScale() {
    return unit != Unit.FRACTION && unit != Unit.HIDDEN_SHARE;
  }

  /** How a table of fitted values prints it. */
  public Column column() {
    return column;
  }

  /** Its value in {@code e}, in {@link #unit()}. */
  public double get(Efficiency e) {
    return getter.applyAsDouble(e);
  }

  /** Sets it on {@code builder} to {@code value}, in {@link #unit()}; returns the builder. */
  @CanIgnoreReturnValue
  public Efficiency.Builder set(Efficiency.Builder builder, double value) {
    setter.accept(builder, value);
    return builder;
  }

  /**
   * Whether {@code value} is valid: in (0, 1] for a fraction, in [0, 1) for a hidden share, finite
   * and &gt;= 0 otherwise.
   *
   * @return the rule broken ({@code "in (0, 1]"}, {@code "in [0, 1)"} or {@code "finite and >=
   *     0"}), or empty
   */
  public Optional<String> problem(double value) {
    if (unit == Unit.FRACTION) {
      return value > 0 && value <= 1 ? Optional.empty() : Optional.of("in (0, 1]");
    }
    if (unit == Unit.HIDDEN_SHARE) {
      return value >= 0 && value < 1 ? Optional.empty() : Optional.of("in [0, 1)");
    }
    return value >= 0 && Double.isFinite(value) ? Optional.empty() : Optional.of("finite and >= 0");
  }

  /** The efficiency with every parameter at {@code values.apply(parameter)}, in {@link #unit()}. */
  public static Efficiency efficiency(ToDoubleFunction<EfficiencyParameter> values) {
    Efficiency.Builder b = Efficiency.builder();
    for (EfficiencyParameter p : values()) {
      p.set(b, values.applyAsDouble(p));
    }
    return b.build();
  }

  /** The parts of {@link Efficiency#toString()}, in its order. */
  private static final List<EfficiencyParameter> DESCRIBED =
      Arrays.stream(values())
          .filter(p -> p.descriptionRank >= 0)
          .sorted(Comparator.comparingInt(p -> p.descriptionRank))
          .collect(Collectors.toUnmodifiableList());

  /**
   * The one-line description of a non-ideal {@code e}: "compute 95%, memory 67%, network 20%, GEMM
   * half at 128 tokens, …", the parameters that differ from ideal (compute, memory and network
   * always), the two overheads together.
   */
  static String describe(Efficiency e) {
    return DESCRIBED.stream()
        .map(p -> p.description.apply(e))
        .flatMap(Optional::stream)
        .collect(Collectors.joining(", "));
  }

  private static String percent(String name, double fraction) {
    return String.format(Locale.ROOT, "%s %.0f%%", name, 100 * fraction);
  }
}
