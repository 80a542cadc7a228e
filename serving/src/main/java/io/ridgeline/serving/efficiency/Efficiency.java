package io.ridgeline.serving.efficiency;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import io.ridgeline.serving.ParallelLayout;
import io.ridgeline.serving.PoolSpec;
import io.ridgeline.serving.StepResult;
import io.ridgeline.serving.plan.PlanRequest;
import io.ridgeline.serving.sweep.Sweep;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.immutables.value.Value;

/**
 * How much of a chip's roofline an engine achieves: fractions of peak FLOP/s, memory bandwidth and
 * interconnect bandwidth, how GEMM efficiency falls for small token counts, and fixed costs per
 * kernel (launch and tail) and per step (scheduling). {@link #ideal()} is 100% of each with no
 * fixed costs: the roofline bound.
 *
 * <p>Small-M GEMMs: a matrix product over M tokens reaches {@code compute × M / (M +
 * gemmHalfTokens)} of peak, a saturating curve (decode GEMMs of a few tokens cannot fill the tensor
 * cores; prefill GEMMs of thousands do), and a weight GEMM of reduction K per chip takes {@code (1
 * + gemmHalfDepth / K)} × its large-K compute time on top ({@link #gemmDepthFactor}): in all,
 * {@code flops / (peak × compute) × (1 + half / M + depth / K)}. Fixed costs: each pass through a
 * pipeline stage adds {@code kernels × kernelOverhead} to the device's time ({@link
 * #deviceOverheadSeconds}), the stage's kernels counted from the architecture by {@link
 * io.ridgeline.models.Kernels} (9 for a Llama layer, 22 for a DeepSeek-V3 MoE layer), and takes at
 * least the host's {@code stepOverhead} of scheduling, which overlaps the device's work ({@link
 * StepResult#seconds()}). Attention kernels stream the KV cache at their own {@link #attention()}
 * fraction of bandwidth; each collective hop pays {@link #collectiveLatency()} on top of the link's
 * latency; {@link #moeOverlap()} of the MoE all-to-all hides under compute.
 */
@Value.Immutable
@RidgelineStyle
public abstract class Efficiency {
  Efficiency() {} // subclassed only by the generated implementation

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
   * Reduction length (K, in BF16 elements) at which a weight GEMM's per-output-tile fixed cost (its
   * prologue filling the pipeline and its epilogue writing the output tile) equals its main loop:
   * the GEMM's compute time is {@code (1 + depth / K)} × the large-K time ({@link
   * #gemmDepthFactor}); 0, the ideal value, means no such cost. Held at {@link
   * EfficiencyParameter#GEMM_HALF_DEPTH}'s sourced value in the calibrated profiles.
   */
  @Value.Default
  public double gemmHalfDepth() {
    return 0;
  }

  /**
   * Fraction of memory bandwidth that the kernels reading the KV cache reach, in (0, 1], their own
   * rather than the weight kernels' {@link #memory()} (which it defaults to): attention over the
   * cache, sliding-window attention, the DSA indexer, in decode and in prefill, stream their KV
   * bytes at {@code attention} of bandwidth and compute at the large-GEMM {@link #compute()} (no
   * small-M curve, since their tiles' M is the query heads sharing a KV head, or thousands of
   * prefill queries, not the step's tokens; see {@code KernelClass}). FlashMLA's README reports
   * 3,000 GB/s memory-bound on an H800 (0.90 of 3,350 GB/s); FlashAttention-style decode kernels
   * split the cache over thread blocks and reduce the partial results, and reach less at short
   * contexts and few heads per chip.
   */
  @Value.Default
  public double attention() {
    return memory();
  }

  /**
   * Share of the MoE expert-parallel all-to-all's time (dispatch and combine) hidden under compute,
   * in [0, 1): the step is charged {@code (1 − moeOverlap) ×} the all-to-all's α-β time. Engines
   * split a step into two micro-batches and run one's dispatch and combine while the other computes
   * (DeepSeek's V3/R1 inference system overview, 2025: dual micro-batch overlap; SGLang's two-batch
   * overlap, LMSYS blog, May 2025; TensorRT-LLM wide-EP). 0, the ideal value, hides nothing, so the
   * roofline bound ({@link #ideal()}) still adds communication to compute; full overlap would make
   * it their maximum, which is why the plausible range stops at 0.9 (see {@link
   * EfficiencyParameter#MOE_OVERLAP}).
   */
  @Value.Default
  public double moeOverlap() {
    return 0;
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
   * deployments (colocated, PD, AFD; not a static batch; see {@link
   * io.ridgeline.serving.TtftParts}): the serving frontend's HTTP handling, tokenisation, hand-over
   * to the scheduler and the scheduler's admission. The wait for the running step and the prompt's
   * prefill are separate parts. It is not accelerator time, so steps and throughput do not change.
   */
  @Value.Default
  public Seconds admission() {
    return Seconds.ZERO;
  }

  /**
   * The prefill-to-decode hand-over of a disaggregated request beyond moving its KV bytes: the
   * router's dispatch to the decode pool, the decode engine's wait for a step boundary to pull the
   * KV, and the first token's re-emission (see {@link EfficiencyParameter#PD_HANDOVER}). Part of
   * the TTFT's transfer under pd ({@link io.ridgeline.serving.TtftParts}); it is latency, not
   * accelerator time, so steps and throughput do not change. Zero by default (the roofline bound).
   */
  @Value.Default
  public Seconds pdHandover() {
    return Seconds.ZERO;
  }

  /**
   * Fixed cost of each kernel a pass launches ({@link io.ridgeline.models.Kernels}): on a GPU the
   * launch of the kernel from a captured CUDA graph and its tail (the last wave draining, the
   * dependent kernel's prologue), a few microseconds per kernel (see {@link
   * EfficiencyParameter#KERNEL_OVERHEAD}); on an SRAM-only dataflow chip the pipeline latency of
   * one dependent operation ({@link #forChip}).
   */
  @Value.Default
  public Seconds kernelOverhead() {
    return Seconds.ZERO;
  }

  /**
   * The host's launch time of each kernel of a prefill pass, which engines run eagerly: vLLM,
   * SGLang and TensorRT-LLM capture CUDA graphs for decode batch sizes only, so a prompt's pass
   * launches each kernel from the host (see {@link EfficiencyParameter#PREFILL_KERNEL_OVERHEAD}).
   * Launches are asynchronous: the host enqueues kernels while the device runs the earlier ones, so
   * a pass takes the longer of its device time and its launches ({@link #prefillHostSeconds},
   * {@link io.ridgeline.serving.StepResult#hostSeconds()}); a short prompt's pass waits on the
   * host, a long one's hides it. Zero by default (the roofline bound).
   */
  @Value.Default
  public Seconds prefillKernelOverhead() {
    return Seconds.ZERO;
  }

  /**
   * Whether decode passes launch each kernel from the host, as prefill passes do, instead of
   * replaying a captured CUDA graph: an engine run without graphs (vLLM's {@code --enforce-eager};
   * TensorRT-LLM's PyTorch backend before graphs became its default, NVIDIA/TensorRT-LLM PR 5480,
   * July 2025; vLLM before its CUDA graphs, vllm-project/vllm PR 1926, December 2023). A decode
   * pass's host then does the step's work and every kernel's launch ({@link #decodeHostSeconds}),
   * at the same {@link #prefillKernelOverhead} per kernel, and a small batch's step waits on the
   * host: for example Llama-2-70B at tp 8, 80 layers of 11 kernels at 34 µs, about 30 ms whatever
   * the tensor-parallel degree. False by default: today's engines capture decode graphs.
   */
  @Value.Default
  public boolean eagerDecode() {
    return false;
  }

  /**
   * Whether the engine's scheduler overlaps the host and the device: it schedules and launches step
   * i + 1 while the device runs step i, and handles step i's outputs after that launch (SGLang's
   * overlap scheduler, its default since sgl-project/sglang pull requests 2067 and 2105, November
   * 2024; TensorRT-LLM's PyTorch backend, its default since NVIDIA/TensorRT-LLM pull request 4174,
   * May 2025; vLLM V1's asynchronous scheduling, vllm-project/vllm pull request 19970, June 2025,
   * on by default on the vLLM roadmap for Q4 2025, and for EAGLE/MTP speculation since pull request
   * 31998, January 2026). Two consequences:
   *
   * <ul>
   *   <li>the step's host work ({@link #stepOverhead}) runs while the device works, so a pass takes
   *       the longer of the two ({@link io.ridgeline.serving.StepResult#seconds()}); a synchronous
   *       scheduler (false) does it between passes, where the device waits ({@link
   *       #deviceOverheadSeconds});
   *   <li>a request that arrives during a step is taken in only after it, when the next step has
   *       already been scheduled without it, so its prompt joins the step after that: it waits the
   *       running step's residual and one whole step ({@link #schedulingLagSteps}; {@link
   *       io.ridgeline.serving.TtftParts#stepWait}). SGLang's CI raised its median-TTFT bound from
   *       80 to 86 ms when it turned the overlap on ("we delayed the processing of the first batch
   *       in favor of launching the kernels for the next batch first", pull request 2067).
   * </ul>
   *
   * True by default (today's engines); false for vLLM's V0 engine and TensorRT-LLM's PyTorch
   * backend before May 2025 (SGLang: {@code --disable-overlap-schedule}; TensorRT-LLM: {@code
   * disable_overlap_scheduler: true}; vLLM: {@code --no-async-scheduling}).
   */
  @Value.Default
  public boolean overlapScheduler() {
    return true;
  }

  /**
   * Whole steps a request arriving during a running step waits beyond that step's residual before
   * its prompt joins one: 1 under an {@link #overlapScheduler} (the next step was scheduled before
   * the request was taken in), 0 with a synchronous scheduler, and 0 where no host scheduler runs
   * in the loop, which a {@link #stepOverhead} of zero says: the roofline bound ({@link #ideal()})
   * and the SRAM chips' dataflow floor ({@link #sramFloor}).
   */
  public int schedulingLagSteps() {
    return overlapScheduler() && stepOverhead().seconds() > 0 ? 1 : 0;
  }

  /**
   * The host's time for one decode pass through a stage of {@code kernels} kernels: {@link
   * #stepOverhead} alone when the kernels replay from a CUDA graph, {@link #prefillHostSeconds}
   * (the step's work and every kernel's eager launch) under {@link #eagerDecode}. The pass takes
   * the longer of this and its device time ({@link io.ridgeline.serving.StepResult#seconds()}).
   */
  public double decodeHostSeconds(double kernels) {
    return eagerDecode() ? prefillHostSeconds(kernels) : stepOverhead().seconds();
  }

  /**
   * The host's time for one prefill pass through a stage of {@code kernels} kernels: {@link
   * stepOverhead + kernels × prefillKernelOverhead}, the step's own host work and every kernel's
   * eager launch. The pass takes the longer of this and its device time plus {@link
   * #deviceOverheadSeconds} ({@link io.ridgeline.serving.StepResult#seconds()}): for example 291
   * kernels of Llama-3.1-8B at 40 µs are 11.64 ms of launches, the wall time of a pass whose
   * kernels run for less, hidden under a pass whose kernels run for more.
   */
  public double prefillHostSeconds(double kernels) {
    return stepOverhead().seconds() + kernels * prefillKernelOverhead().seconds();
  }

  /**
   * Fixed cost per step per pipeline stage: the scheduler's batch assembly, sampling and the host
   * synchronisation of the step (see {@link EfficiencyParameter#STEP_OVERHEAD}).
   */
  @Value.Default
  public Seconds stepOverhead() {
    return Seconds.ZERO;
  }

  /**
   * The default efficiency everywhere (the library's builders and every command): the built-in
   * {@value Profiles#DEFAULT} engine profile ({@link Profiles#builtIn()}), fitted on the shipped
   * validation cases, for {@code chip} ({@link #forChip}: SRAM-only chips get the roofline with a
   * pipeline latency floor instead). {@link #ideal()} is the roofline bound.
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
  public static Builder builder() {
    return new Builder();
  }

  /** Builds an {@link Efficiency}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableEfficiency.Builder {
    Builder() {}
  }

  /** The compute fraction a GEMM over {@code tokens} tokens reaches: compute × M / (M + half). */
  public double computeAt(double tokens) {
    return gemmHalfTokens() == 0 ? compute() : compute() * tokens / (tokens + gemmHalfTokens());
  }

  /**
   * The factor on a weight GEMM's compute time from its reduction depth: {@code 1 + depth ×
   * (inverseDepth + split × inverseSplitDepth)}, where {@code depth} is {@link #gemmHalfDepth} in
   * the operation's precision ({@code depthScale} = its peak over the chip's BF16 peak: a main-loop
   * step of K runs that many times faster, the tile's fixed cost does not) and {@code split} the
   * chips that divide its row-parallel GEMMs' K ({@link ParallelLayout#reductionSplit}). Worked
   * example: Llama-3.1-70B's O projection at tp 8 (K = 8,192 / 8 = 1,024) in BF16 at a depth of
   * 360: 1 + 360 / 1,024 = 1.35.
   */
  public double gemmDepthFactor(
      double inverseDepth, double inverseSplitDepth, double split, double depthScale) {
    return 1 + gemmHalfDepth() * depthScale * (inverseDepth + split * inverseSplitDepth);
  }

  /**
   * The device's fixed seconds of one pass through a stage of {@code kernels} kernels replayed from
   * a CUDA graph: {@code kernels × kernelOverhead}, each kernel's launch gap and tail. Under an
   * {@link #overlapScheduler} (SGLang's zero-overhead batch scheduler, vLLM's asynchronous
   * scheduling, TensorRT-LLM's overlap scheduler) the step's host work ({@link #stepOverhead}) is
   * not in it: the host prepares the next step while the device runs this one, so a decode pass
   * takes the longer of its device time and {@code stepOverhead} ({@link
   * io.ridgeline.serving.StepResult#seconds()}). For example 291 kernels at 5 µs are 1,455 µs of
   * device time, which hides a 200 µs step. A synchronous scheduler does the step's host work
   * between passes, while the device waits, so it adds here: {@code kernels × kernelOverhead +
   * stepOverhead}, and a pass takes {@link stepOverhead + max(device, the kernels' eager
   * launches)}.
   */
  public double deviceOverheadSeconds(double kernels) {
    double launches = kernels * kernelOverhead().seconds();
    return overlapScheduler() ? launches : launches + stepOverhead().seconds();
  }

  /**
   * This efficiency for pools of {@code chip}: itself, except on a chip whose every memory tier is
   * on-chip SRAM ({@link #sramOnly}: statically scheduled dataflow machines such as Groq's LPU and
   * Cerebras' WSE), where a non-ideal efficiency becomes {@link #sramFloor}: the roofline with a
   * pipeline latency floor. The engine profiles are fitted on GPU-class chips with off-chip memory,
   * whose scheduler steps, graph launches and HBM efficiency do not carry over to compiled dataflow
   * execution; no published measurement in the shipped cases is enough to fit such a chip's own
   * profile. {@link #ideal()} stays the roofline bound on every chip.
   */
  public Efficiency forChip(Chip chip) {
    return sramOnly(chip) && !isIdeal() ? sramFloor(chip) : this;
  }

  /** Whether every memory tier of {@code chip} is on-chip SRAM (and it has one). */
  public static boolean sramOnly(Chip chip) {
    return !chip.memory().isEmpty() && chip.memory().stream().allMatch(t -> t.kind().onChip());
  }

  /**
   * The efficiency of an SRAM-only chip: 100% of peak and bandwidth (no fitted fraction), no step
   * overhead (the dataflow program runs without a host scheduler in the loop), and a {@link
   * #kernelOverhead()} equal to the main tier's {@code latency_ns}: the latency of one dependent
   * operation of one token, its operands read from SRAM through the functional units and the result
   * written back, which the roofline's throughput terms do not see (0 when the chip file gives no
   * latency). Each pass through a stage then costs at least its kernels × that latency ({@link
   * #deviceOverheadSeconds}), added to the bandwidth and compute time rather than max'ed with it:
   * one token's operations form a dependent chain, and each operation's result is complete only
   * after its operands have streamed through (fill latency + streaming time). The chip-to-chip term
   * of the floor is not a parameter: every pipeline hand-off already pays the scale-up link's
   * {@code latency_us} (a decode token crosses pp hops, the last one carrying the sampled token
   * back to the first stage), and every tensor-parallel collective its hops. So a single-stream
   * decode step is at least {@code kernels × latency + pp × hop latency + collective hops}.
   */
  public static Efficiency sramFloor(Chip chip) {
    checkArgument(sramOnly(chip), "chip %s is not SRAM-only", chip.id());
    return builder()
        .from(ideal())
        .kernelOverhead(chip.mainMemory().latency().orElse(Seconds.ZERO))
        .build();
  }

  /**
   * Whether every fraction is 1 and there are no fixed costs or small-M penalty ({@link
   * #eagerDecode} launches nothing then: an ideal pass has no launch cost; nor does {@link
   * #overlapScheduler} matter: there is no step work to overlap and no scheduling lag).
   */
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
        moeOverlap() >= 0 && moeOverlap() < 1,
        "moe overlap (share of the all-to-all hidden under compute) must be in [0, 1): %s",
        moeOverlap());
    checkArgument(
        collectiveLatency().seconds() >= 0 && Double.isFinite(collectiveLatency().seconds()),
        "collective latency must be finite and >= 0: %s",
        collectiveLatency());
    checkArgument(
        gemmHalfDepth() >= 0 && Double.isFinite(gemmHalfDepth()),
        "gemm half depth must be finite and >= 0: %s",
        gemmHalfDepth());
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
   * in this order, e.g. "compute 95%, memory 67%, network 20%, GEMM half at 128 tokens, attention
   * 80%, collectives +10 µs/hop, admission 100 ms, overhead 2 ms/step + 5 µs/kernel, MoE all-to-all
   * hidden 60%", then {@code eager decode} and {@code synchronous scheduler} when they hold.
   */
  @Override
  public String toString() {
    if (isIdeal()) {
      return "ideal";
    }
    List<String> parts = new ArrayList<>();
    parts.add(percent("compute", compute()));
    parts.add(percent("memory", memory()));
    parts.add(percent("network", network()));
    if (gemmHalfTokens() > 0) {
      parts.add(String.format(Locale.ROOT, "GEMM half at %.0f tokens", gemmHalfTokens()));
    }
    if (gemmHalfDepth() > 0) {
      parts.add(String.format(Locale.ROOT, "GEMM half-depth K %.0f", gemmHalfDepth()));
    }
    if (attention() != memory()) {
      parts.add(percent("attention", attention()));
    }
    if (collectiveLatency().seconds() > 0) {
      parts.add("collectives +" + collectiveLatency() + "/hop");
    }
    if (admission().seconds() > 0) {
      parts.add("admission " + admission());
    }
    if (kernelOverhead().seconds() > 0 || stepOverhead().seconds() > 0) {
      parts.add("overhead " + stepOverhead() + "/step + " + kernelOverhead() + "/kernel");
    }
    if (moeOverlap() > 0) {
      parts.add(percent("MoE all-to-all hidden", moeOverlap()));
    }
    if (prefillKernelOverhead().seconds() > 0) {
      parts.add("prefill " + prefillKernelOverhead() + "/kernel");
    }
    if (pdHandover().seconds() > 0) {
      parts.add("pd hand-over " + pdHandover());
    }
    if (eagerDecode()) {
      parts.add("eager decode");
    }
    if (!overlapScheduler()) {
      parts.add("synchronous scheduler");
    }
    return String.join(", ", parts);
  }

  /** {@code name} and {@code fraction} as a whole percentage: "compute 67%". */
  private static String percent(String name, double fraction) {
    return String.format(Locale.ROOT, "%s %.0f%%", name, 100 * fraction);
  }
}
