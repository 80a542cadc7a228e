package io.ridgeline.serving.efficiency;

import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.ridgeline.core.Seconds;
import io.ridgeline.serving.TtftParts;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.ObjDoubleConsumer;
import java.util.function.ToDoubleFunction;

/**
 * The schema of an {@link Efficiency}'s parameters, each defined once: its JSON key in a profile
 * file ({@link Profiles}), its {@link #unit()}, its value with no loss ({@link #ideal()}), the
 * physically plausible range a fit searches ({@link #lower()} to {@link #upper()}, with its source
 * in the constant's javadoc), the start of a fit ({@link #start()}), whether a fit searches it
 * ({@link #fitted()}), and how to read it from an {@link Efficiency} and set it on a builder.
 *
 * <p>Values are in the parameter's {@link #unit()}: fractions, hidden shares, tokens, elements,
 * microseconds or milliseconds, as in the JSON form. Adding a parameter means adding a constant
 * here, its attribute on {@link Efficiency} (with its part of {@link Efficiency#toString()}) and
 * the model code that uses it; the command line's table of fitted values does not compile until it
 * has a column for it. What the fitted values are is in the built-in {@code profiles.json}, not
 * here.
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
   * torch.matmul} found by a shape search, the chip's {@code achievable_matmul_fraction} of its
   * peak; FP8 GEMMs reach the FP8 rows' share of the FP8 peak where measured ({@link
   * io.ridgeline.hardware.Chip#matmulFraction(io.ridgeline.core.Precision)}). Range 0.45–1.0: an
   * engine's GEMMs at their best shapes reach the MAMF (1.0); 0.45 of it (about 35% of an H100's
   * peak) is a whole-model prefill with unfused non-GEMM work (MLPerf Inference offline submissions
   * run near 40–60% of peak FLOP/s). Start 0.75.
   */
  COMPUTE(
      key("compute", Unit.FRACTION)
          .range(0.45, 1.0)
          .start(0.75)
          .value(Efficiency::compute, Efficiency.Builder::compute)),
  /**
   * Fraction of memory bandwidth the streaming kernels reach ({@link Efficiency#memory()}). Range
   * 0.5–0.92: copy and GEMV kernels reach 85–92% of HBM bandwidth on H100 and MI300X (NVIDIA's
   * nvbandwidth and STREAM-like measurements; AMD's MI300X rocm-bandwidth-test), a decode step of
   * many small kernels as little as half. Start 0.8.
   */
  MEMORY(
      key("memory", Unit.FRACTION)
          .range(0.5, 0.92)
          .start(0.8)
          .value(Efficiency::memory, Efficiency.Builder::memory)),
  /**
   * Collective bus-bandwidth fraction of the link's per-direction bandwidth ({@link
   * Efficiency#network()}): the β of the α-β collective model, the share of the link a large
   * message's transfer reaches. Range 0.3–0.9: nccl-tests all-reduce bus bandwidth on NVLink 4
   * reaches about 360–390 GB/s of 450 GB/s at large messages (0.8–0.87), InfiniBand NDR about 0.9
   * of line rate (DeepEP's internode kernels 43–58 GB/s of 50 GB/s RDMA); decode-sized messages of
   * a few hundred kB reach a third of the link in bus bandwidth, which the α term (the per-hop
   * latency, {@link #COLLECTIVE_LATENCY}, and the link's own) already charges.
   *
   * <p><b>Held, not fitted</b> ({@link #fitted()}) at 0.8, the large-message NVLink figure above:
   * it is the one parameter that slows a tensor-parallel prefill, so a search moves it to absorb
   * whatever else makes the served TTFTs slower than the model; the shipped rows, whole served
   * deployments, cannot identify it, so it keeps its measured value.
   */
  NETWORK(
      key("network", Unit.FRACTION)
          .range(0.3, 0.9)
          .start(0.8)
          .held()
          .value(Efficiency::network, Efficiency.Builder::network)),
  /**
   * Fraction of memory bandwidth the kernels that read the KV cache reach ({@link
   * Efficiency#attention()}), their own, not relative to the other kernels'. Range 0.5–0.92, the
   * memory fraction's: FlashMLA's README reports 3,000 GB/s memory-bound on an H800 SXM5 (0.90 of
   * 3,350 GB/s), and split-KV decode kernels at short contexts and few heads per chip reach about
   * half. Start 0.8.
   */
  ATTENTION(
      key("attention", Unit.FRACTION)
          .range(0.5, 0.92)
          .start(0.8)
          .value(Efficiency::attention, Efficiency.Builder::attention)),
  /**
   * Rows (tokens) at which a GEMM reaches half of its large-M efficiency: {@code compute × M / (M +
   * half)}. Range 4–64 rows: tensor-core tiles are 64–128 rows (CUTLASS tile shapes), and published
   * small-M GEMM sweeps (e.g. the FP8 GEMM benchmarks of DeepSeek's DeepGEMM README and vLLM's
   * Marlin/CUTLASS kernel benchmarks) reach half their large-M throughput at M of about 8–64; a
   * larger half point would make a one-row GEMV slower than streaming its weights. Start 16.
   */
  GEMM_HALF_TOKENS(
      key("gemm_half_tokens", Unit.TOKENS)
          .range(4, 64)
          .start(16)
          .value(Efficiency::gemmHalfTokens, Efficiency.Builder::gemmHalfTokens)),
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
      key("gemm_half_depth", Unit.ELEMENTS)
          .range(256, 640)
          .start(360)
          .held()
          .value(Efficiency::gemmHalfDepth, Efficiency.Builder::gemmHalfDepth)),
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
   * launch with host synchronisation. Start 4 µs. (A profile file's per-layer {@code
   * layer_overhead_us} reads as this parameter: see {@link Profiles}.)
   */
  KERNEL_OVERHEAD(
      key("kernel_us", Unit.MICROSECONDS)
          .range(1, 10)
          .start(4)
          .time(Efficiency::kernelOverhead, Efficiency.Builder::kernelOverhead)),
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
      key("step_overhead_us", Unit.MICROSECONDS)
          .range(50, 3000)
          .start(1000)
          .time(Efficiency::stepOverhead, Efficiency.Builder::stepOverhead)),
  /**
   * Software latency per collective hop ({@link Efficiency#collectiveLatency()}), on top of the
   * link's own latency. Range 0.5–5 µs: NCCL's small-message all-reduce over 8 NVLink GPUs takes
   * about 10–30 µs for its 6 tree hops (nccl-tests, "NCCL performance" in NVIDIA's docs), a few
   * microseconds per hop beyond the wire; custom one-shot all-reduce kernels (TensorRT-LLM, vLLM's
   * custom all-reduce) bring it under a microsecond. Start 2 µs.
   */
  COLLECTIVE_LATENCY(
      key("collective_latency_us", Unit.MICROSECONDS)
          .range(0.5, 5)
          .start(2)
          .time(Efficiency::collectiveLatency, Efficiency.Builder::collectiveLatency)),
  /**
   * Admission latency of each request outside the accelerators ({@link Efficiency#admission()}):
   * HTTP handling, tokenisation and the scheduler's admission, one part of a served TTFT ({@link
   * TtftParts}). Plausible range 5–50 ms, start 20 ms (near the geometric middle): 5 ms for a
   * compiled frontend handed a short prompt on an idle server, 50 ms for a Python OpenAI-compatible
   * server under load. Source: the idle TTFT of served benchmarks minus the model's GPU time, e.g.
   * about 40 ms of TTFT that vLLM's {@code benchmark_serving.py} measures beyond the engine's own
   * prefill at 32 concurrent requests (tenstorrent/tt-inference-server issues 190 and 259, 2025).
   * The range bounds a fit only: a profile's value is valid when finite and non-negative, so a
   * profile fitted within other bounds still reads.
   */
  ADMISSION(
      key("admission_ms", Unit.MILLISECONDS)
          .range(5, 50)
          .start(20)
          .time(Efficiency::admission, Efficiency.Builder::admission)),
  /**
   * The host's launch time of each kernel of a prefill pass ({@link
   * Efficiency#prefillKernelOverhead()}), run without CUDA graphs. Range 10–40 µs, eager launches:
   * an eager launch costs the host's launch latency, 5–10 µs per kernel on an idle CPU in NVIDIA's
   * "Getting Started with CUDA Graphs" measurements, and Python dispatch in PyTorch-based engines
   * (vLLM, SGLang, TensorRT-LLM's PyTorch backend) adds 10–30 µs per operator (PyTorch
   * "Accelerating PyTorch with CUDA Graphs" blog, 2021). Launches are asynchronous (CUDA's stream
   * semantics: the host enqueues while the device runs), so a pass takes the longer of its device
   * time and its launches ({@link Efficiency#prefillHostSeconds}). Start 20 µs.
   */
  PREFILL_KERNEL_OVERHEAD(
      key("prefill_kernel_us", Unit.MICROSECONDS)
          .range(10, 40)
          .start(20)
          .time(Efficiency::prefillKernelOverhead, Efficiency.Builder::prefillKernelOverhead)),
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
  MOE_OVERLAP(
      key("moe_overlap", Unit.HIDDEN_SHARE)
          .range(0, 0.9)
          .start(0.5)
          .value(Efficiency::moeOverlap, Efficiency.Builder::moeOverlap)),
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
      key("pd_handover_ms", Unit.MILLISECONDS)
          .range(10, 260)
          .start(50)
          .time(Efficiency::pdHandover, Efficiency.Builder::pdHandover));

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

  private final String jsonKey;
  private final Unit unit;
  private final double lower;
  private final double upper;
  private final double start;
  private final boolean fitted;

  @SuppressWarnings("ImmutableEnumChecker") // stateless method references and lambdas
  private final ToDoubleFunction<Efficiency> getter;

  @SuppressWarnings("ImmutableEnumChecker") // stateless method references and lambdas
  private final ObjDoubleConsumer<Efficiency.Builder> setter;

  EfficiencyParameter(Schema s) {
    if (s.getter == null || !(s.lower < s.upper) || s.start < s.lower || s.start > s.upper) {
      throw new IllegalStateException(
          s.jsonKey + ": needs an accessor, a range lower < upper and a start inside it");
    }
    this.jsonKey = s.jsonKey;
    this.unit = s.unit;
    this.lower = s.lower;
    this.upper = s.upper;
    this.start = s.start;
    this.fitted = s.fitted;
    this.getter = s.getter;
    this.setter = s.setter;
  }

  /** The key in a profile's JSON form, e.g. {@code kernel_us}. */
  public String jsonKey() {
    return jsonKey;
  }

  /** The unit of {@link #get} and {@link #set}. */
  public Unit unit() {
    return unit;
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
    return fitted;
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

  /** The schema of a parameter keyed {@code jsonKey} in {@code unit}, to be completed. */
  private static Schema key(String jsonKey, Unit unit) {
    return new Schema(jsonKey, unit);
  }

  /**
   * A constant's definition, named part by part: its key and unit, {@code range(lower, upper)},
   * {@code start(value)}, {@code held()} when a fit keeps the start, and its accessor on {@link
   * Efficiency}: {@code value(get, set)} for a value stored in the unit, {@code time(get, set)} for
   * a {@link Seconds} attribute given in microseconds or milliseconds.
   */
  private static final class Schema {
    final String jsonKey;
    final Unit unit;
    double lower = Double.NaN;
    double upper = Double.NaN;
    double start = Double.NaN;
    boolean fitted = true;
    ToDoubleFunction<Efficiency> getter;
    ObjDoubleConsumer<Efficiency.Builder> setter;

    Schema(String jsonKey, Unit unit) {
      this.jsonKey = jsonKey;
      this.unit = unit;
    }

    Schema range(double lower, double upper) {
      this.lower = lower;
      this.upper = upper;
      return this;
    }

    Schema start(double start) {
      this.start = start;
      return this;
    }

    Schema held() {
      this.fitted = false;
      return this;
    }

    Schema value(
        ToDoubleFunction<Efficiency> getter, ObjDoubleConsumer<Efficiency.Builder> setter) {
      this.getter = getter;
      this.setter = setter;
      return this;
    }

    /** A {@link Seconds} attribute in µs (× 1e6, back × 1e-6) or ms (× 1e3, back / 1e3). */
    Schema time(
        Function<Efficiency, Seconds> getter, BiConsumer<Efficiency.Builder, Seconds> setter) {
      return switch (unit) {
        case MICROSECONDS ->
            value(
                e -> getter.apply(e).seconds() * 1e6,
                (b, v) -> setter.accept(b, Seconds.ofMicros(v)));
        case MILLISECONDS ->
            value(
                e -> getter.apply(e).seconds() * 1e3,
                (b, v) -> setter.accept(b, Seconds.of(v / 1e3)));
        case FRACTION, HIDDEN_SHARE, TOKENS, ELEMENTS ->
            throw new IllegalStateException(jsonKey + ": a time needs µs or ms, not " + unit);
      };
    }
  }
}
