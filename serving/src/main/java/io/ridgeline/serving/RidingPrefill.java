package io.ridgeline.serving;

import io.ridgeline.core.DataKind;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A prefill's operations and its collectives' α terms, taken once, and its time riding a decode
 * step ({@link ColocatedDeployment#prefillWithoutWeights}): the TTFT chunk, the same prompts at
 * every batch, is built once for a workload's points ({@link ColocatedDeployment#at}). With the
 * per-operation arithmetic of riding ({@link #ridingSeconds}, {@link #sharedWeightBytes}, {@link
 * #joinedSeconds}), which the compiled sweep ({@link CompiledStep}) shares, and the running step's
 * kernels a prefill joins ({@link #kernels}): {@link ColocatedDeployment}'s riding prefill.
 */
final class RidingPrefill {
  private final double prompts;
  private final StepResult full;
  private final Map<String, Double> latency;
  private final double handOffLatency;
  private final double[] weights; // each operation's weight bytes per chip, in order
  private final boolean mainTier; // every byte read from the pool's main tier

  private RidingPrefill(
      double prompts,
      StepResult full,
      Map<String, Double> latency,
      double handOffLatency,
      boolean mainTier) {
    this.prompts = prompts;
    this.mainTier = mainTier;
    this.full = full;
    this.latency = latency;
    this.handOffLatency = handOffLatency;
    this.weights =
        full.phases().stream()
            .flatMap(p -> p.operations().stream())
            .mapToDouble(o -> o.operation().bytes(DataKind.WEIGHTS).bytes())
            .toArray();
  }

  static RidingPrefill of(RooflineModel rm, double prompts, Workload w) {
    StepResult full = rm.prefill(prompts, w.newTokens(), w.cachedAtPrefill(), 1);
    Map<String, Double> latency = new HashMap<>();
    Collectives.of(rm, PhaseKind.PREFILL, 0)
        .ifPresent(
            c ->
                c.operations()
                    .forEach(o -> latency.put(o.operation().name(), o.networkSeconds().seconds())));
    return new RidingPrefill(
        prompts,
        full,
        latency,
        Collectives.handOff(rm, 0).seconds(),
        onMainTier(full, rm.baseTarget().mainTier()));
  }

  /** The prefill's own pass, with nothing to ride: its {@link StepResult#seconds()}. */
  double alone() {
    return full.seconds().seconds();
  }

  /**
   * The time riding a decode step whose operations are {@code running} ({@link #kernels}; see
   * {@link ColocatedDeployment#prefillWithoutWeights}); {@code chunk}: the workload's TTFT chunk
   * (this prefill's prompts are {@code prompts / chunk.prompts} such chunks, each reading the
   * weights the running kernels do not, {@link #sharedWeightBytes}).
   */
  double seconds(Kernels running, RidingPrefill chunk) {
    Map<Occurrence, OperationResult> decodeOps = running.ops();
    // off the main tier the credit stays whole (onMainTier)
    boolean shares = mainTier && running.mainTier();
    Map<String, Integer> seen = new HashMap<>();
    double chunksPerStep = prompts / chunk.prompts;
    double stage = 0;
    int n = 0;
    for (PhaseResult p : full.phases()) {
      for (OperationResult o : p.operations()) {
        boolean collective = o.operation().networkSteps() > 0;
        OperationResult d =
            collective ? null : decodeOps.get(Occurrence.next(o.operation().name(), seen));
        double weights = weights(n);
        double chunkWeights = chunk.weights(n);
        n++;
        stage +=
            ridingSeconds(
                o.computeSeconds().seconds(),
                o.memorySeconds().seconds(),
                d == null || !shares || o.operation().role() != OperationRole.ROUTED_EXPERTS
                    ? weights
                    : sharedWeightBytes(
                        weights,
                        chunkWeights,
                        d.operation().bytes(DataKind.WEIGHTS).bytes(),
                        chunksPerStep),
                o.operation().memoryBytes().bytes(),
                o.networkSeconds().seconds(),
                collective ? latency.getOrDefault(o.operation().name(), 0.0) : 0.0,
                d == null ? 0 : d.computeSeconds().seconds(),
                d == null ? 0 : d.memorySeconds().seconds());
      }
    }
    double handOff = full.p2pSeconds().seconds() - handOffLatency; // bandwidth only
    return full.passes() * (stage + Math.max(0, handOff));
  }

  /** Operation n's weight bytes per chip (the prefill's operations in order). */
  private double weights(int n) {
    return weights[n];
  }

  /**
   * The operations of {@code running} that a prefill's operations join, by {@link Occurrence#next}
   * ("experts#1": the second operation named "experts"), collectives left out; empty without a
   * running step. Built once per step, for its prefill share and its TTFT chunk alike.
   */
  static Kernels kernels(RooflineModel pool, Optional<StepResult> running) {
    Map<Occurrence, OperationResult> kernels = new HashMap<>();
    running.ifPresent(
        d -> {
          Map<String, Integer> seen = new HashMap<>();
          for (PhaseResult p : d.phases()) {
            for (OperationResult o : p.operations()) {
              if (o.operation().networkSteps() == 0) {
                kernels.put(Occurrence.next(o.operation().name(), seen), o);
              }
            }
          }
        });
    String main = pool.baseTarget().mainTier();
    return new Kernels(kernels, running.map(d -> onMainTier(d, main)).orElse(true));
  }

  /**
   * The running decode step's kernels by {@link Occurrence#next} ({@link #kernels}), and whether
   * the step reads every byte from the main tier ({@link #onMainTier}).
   */
  record Kernels(Map<Occurrence, OperationResult> ops, boolean mainTier) {}

  /**
   * Whether every byte {@code step} reads comes from the tier {@code main} (its pool's main tier):
   * the step's target is the pool's base target ({@link MemoryPlan#placed}), as {@link
   * CompiledColocated} decides it for its steps. Where weights spill off the main tier, a riding
   * prefill keeps all of its weights credited ({@link #sharedWeightBytes} is not applied): the
   * shared bytes' tier is not separated from the operation's mean rate.
   */
  static boolean onMainTier(StepResult step, String main) {
    for (PhaseResult p : step.phases()) {
      for (OperationResult o : p.operations()) {
        for (Map.Entry<String, io.ridgeline.core.Bytes> e : o.bytesByTier().entrySet()) {
          if (!e.getKey().equals(main) && e.getValue().bytes() > 0) {
            return false;
          }
        }
      }
    }
    return true;
  }

  /**
   * One operation's time riding a decode step ({@link ColocatedDeployment#prefillWithoutWeights}):
   * the roofline of the operation's kernel with the running decode kernel's compute ({@code
   * runningCompute}) and memory ({@code runningMemory}) time, less that kernel's own time, {@code
   * max(runningCompute + compute, runningMemory + memory × (1 − weightBytes / memoryBytes)) −
   * max(runningCompute, runningMemory)} ({@code weightBytes}: the weights the decode kernel reads
   * for both, {@link #sharedWeightBytes}; their share of its memory time is read once, by the
   * decode kernel), or its network time less {@code latency} (the collective's time with no bytes;
   * 0 for local work) when that is larger. With no running kernel (both 0) it is the largest of the
   * operation's compute time, its memory time less the weights' share and its network time less the
   * latency.
   *
   * <p>Worked example: a decode GEMM streaming its weights in 10 µs with 1 µs of compute, joined by
   * a chunk's 30 µs of compute and 2 µs of non-weight memory: {@code max(1 + 30, 10 + 2) − max(1,
   * 10) = 21} µs, where riding the weights alone it added 30 µs.
   */
  static double ridingSeconds(
      double compute,
      double memory,
      double weightBytes,
      double memoryBytes,
      double network,
      double latency,
      double runningCompute,
      double runningMemory) {
    return joinedSeconds(
        compute,
        withoutWeights(memory, weightBytes, memoryBytes),
        network,
        latency,
        runningCompute,
        runningMemory);
  }

  /**
   * The weight bytes of a riding prefill's operation that the running decode kernel's read serves,
   * the prefill being {@code chunksPerStep} TTFT chunks (a mean: a step's share of the prompts that
   * join, or one chunk): with {@code prefillWeights} the operation's weight bytes at the prefill's
   * tokens, {@code chunkWeights} at one chunk's and {@code runningWeights} the decode kernel's,
   * {@code prefillWeights − chunksPerStep × max(0, chunkWeights − runningWeights)} below one chunk
   * per step, and {@code min(prefillWeights, runningWeights)} from one on (the chunks that join a
   * step read the union of their weights once, of which the decode kernel's read serves its own). A
   * chunk joins one step whole and reads, once, the weights the decode kernel does not: a dense
   * layer's kernels read the same weights (all shared: the prefill's own weights are credited); a
   * routed-expert kernel reads the experts its tokens touch ({@link
   * io.ridgeline.models.Routing#expectedDistinctExperts}, {@code E × (1 − (1 − k/E)^T)} of E
   * experts for T tokens choosing k each under uniform routing, per expert-parallel rank), so a
   * chunk, which touches nearly all of them, shares only the few a small decode batch reads and
   * streams the rest itself. For one chunk ({@code chunksPerStep} 1, {@code prefillWeights =
   * chunkWeights}) this is {@code min(chunkWeights, runningWeights)}; a step's mean share of the
   * prompts carries its fraction of the chunks' unshared reads, not the experts its fraction of
   * tokens would touch if they arrived spread over the steps (they arrive as whole chunks).
   *
   * <p>Worked example: Qwen3-30B-A3B (128 experts, top 8) at batch 2, ISL = OSL = 1024: the chunk
   * joins the decode of the one other sequence, whose 1 token touches 8 experts: 8 of the chunk's
   * 128 experts' weights are shared, 120 it reads itself (before, all 128 were credited). A step's
   * share, 2/1024 prompts (2 tokens, ≈ 15.5 experts at the fractional count), reads 2/1024 × 120 ≈
   * 0.23 experts beyond the decode kernel's; its credit is 15.5 − 0.23 ≈ 15.3 experts. At 2 chunks
   * per step (batch 256, OSL 128), the share's 2,048 tokens touch all 128 experts and the decode
   * kernel's 256 tokens all but 128 × (15/16)^256 ≈ 0: its credit is all 128.
   *
   * <p>Applied to routed-expert operations ({@link OperationRole#ROUTED_EXPERTS}), where steps
   * reading from the main tier join ({@link #onMainTier}).
   */
  static double sharedWeightBytes(
      double prefillWeights, double chunkWeights, double runningWeights, double chunksPerStep) {
    double unshared = chunkWeights - runningWeights;
    if (!(unshared > 0)) {
      return prefillWeights;
    }
    if (chunksPerStep >= 1) {
      return runningWeights < prefillWeights ? runningWeights : prefillWeights;
    }
    return prefillWeights - chunksPerStep * unshared;
  }

  /**
   * An operation's memory time less the weights' share, {@code memory × (1 − weightBytes /
   * memoryBytes)}: what it adds to a running decode kernel that reads the weights ({@link
   * #ridingSeconds}).
   */
  static double withoutWeights(double memory, double weightBytes, double memoryBytes) {
    double weightShare = weightBytes / Math.max(1e-300, memoryBytes);
    return memory * (1 - weightShare);
  }

  /**
   * {@link #ridingSeconds} of an operation whose memory time less the weights' share is {@code
   * withoutWeights} ({@link #withoutWeights}).
   */
  static double joinedSeconds(
      double compute,
      double withoutWeights,
      double network,
      double latency,
      double runningCompute,
      double runningMemory) {
    // the maxima as comparisons, not Math.max: the times are finite (never NaN), and the last
    // comparison returns +0.0 where Math.max would (a -0.0 inside cannot reach the result); a
    // compare and a branch the processor predicts, where Math.max's NaN and signed-zero handling
    // costs a sequence of blends (the compiled sweep's evaluation 211 -> 185 ns per point)
    double own = runningCompute >= runningMemory ? runningCompute : runningMemory;
    double withCompute = runningCompute + compute;
    double withMemory = runningMemory + withoutWeights;
    double joined = (withCompute >= withMemory ? withCompute : withMemory) - own;
    double transfer = network - latency;
    double floor = transfer > 0 ? transfer : 0;
    return joined > floor ? joined : floor;
  }
}
