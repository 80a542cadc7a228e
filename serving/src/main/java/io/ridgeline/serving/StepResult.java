package io.ridgeline.serving;

import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Seconds;
import java.util.List;
import java.util.NoSuchElementException;
import org.immutables.value.Value;

/**
 * The roofline of one step (a decode step or a prefill) on one chip of the system: its phases, each
 * with the chip's share of FLOPs and bytes for one micro-batch in one pipeline stage, and the
 * step's time.
 *
 * <p>Without pipeline parallelism the step's time is the sum of its phases. With {@link #stages()}
 * stages it is {@link #passes()} × (phase sum + {@link #p2pSeconds()}): a decode token crosses
 * every stage ({@code passes = stages}); a prefill of m micro-batches fills and drains the pipeline
 * ({@code passes = m + stages − 1}).
 */
@Value.Immutable
@RidgelineStyle
public abstract class StepResult {
  StepResult() {} // subclassed only by the generated implementation

  /** Phases in execution order, per chip, per micro-batch, per stage. */
  public abstract List<PhaseResult> phases();

  /** Pipeline stages. */
  @Value.Default
  public int stages() {
    return 1;
  }

  /** Stage-times the step takes (see the class comment). */
  @Value.Default
  public int passes() {
    return stages();
  }

  /** Micro-batches the step's batch is split into (the phases describe one of them). */
  @Value.Default
  public int microBatches() {
    return 1;
  }

  /** Time to hand one micro-batch's activations to the next stage. */
  @Value.Default
  public Seconds p2pSeconds() {
    return Seconds.ZERO;
  }

  /**
   * The device's fixed cost of one pass through a stage: {@link
   * io.ridgeline.serving.efficiency.Efficiency#deviceOverheadSeconds} of the stage's kernels (each
   * kernel's launch and tail; on an SRAM-only chip each dependent operation's latency). The step's
   * host work is in {@link #hostSeconds()}.
   */
  @Value.Default
  public Seconds overheadSeconds() {
    return Seconds.ZERO;
  }

  /**
   * Fixed cost of the same pass for a pool that runs only the attention side of each layer
   * (attention-FFN disaggregation): the kernels of the norms, token mixers, head and their
   * collectives. {@link #overheadSeconds()} when not set.
   */
  @Value.Default
  public Seconds attentionOverheadSeconds() {
    return overheadSeconds();
  }

  /**
   * Fixed cost of the same pass for a pool that runs only the FFN side of each layer (attention-FFN
   * disaggregation): the FFN kernels and their collectives. {@link #overheadSeconds()} when not
   * set.
   */
  @Value.Default
  public Seconds ffnOverheadSeconds() {
    return overheadSeconds();
  }

  /** Sum of the phases: one stage's time for one micro-batch. */
  @Value.Derived
  public Seconds stageSeconds() {
    double s = 0;
    for (PhaseResult p : phases()) {
      s += p.seconds().seconds();
    }
    return Seconds.of(s);
  }

  /**
   * The host's time for one pass through a stage, which runs while the device executes the kernels
   * already launched: the step's host work ({@link
   * io.ridgeline.serving.efficiency.Efficiency#stepOverhead}: an overlap scheduler prepares the
   * next step during this one) and, for a pass that launches its kernels one by one (an eager
   * prefill pass, {@link io.ridgeline.serving.efficiency.Efficiency#prefillHostSeconds}), every
   * kernel's launch. A decode pass replays its kernels from a CUDA graph.
   */
  @Value.Default
  public Seconds hostSeconds() {
    return Seconds.ZERO;
  }

  /**
   * The step's time: passes × the longer of the device's pass (stage time + hand-off + fixed
   * overhead) and the host's ({@link #hostSeconds()}), which launches the kernels while the device
   * runs them.
   */
  public Seconds seconds() {
    return Seconds.of(passes() * passSeconds(deviceSeconds(), hostSeconds().seconds()));
  }

  /** One pass's device time ({@link #deviceSeconds(double, double, double)}). */
  double deviceSeconds() {
    return deviceSeconds(
        stageSeconds().seconds(), p2pSeconds().seconds(), overheadSeconds().seconds());
  }

  /** One pass's device time: stage time + hand-off + fixed overhead. */
  static double deviceSeconds(double stageSeconds, double handOffSeconds, double overheadSeconds) {
    return stageSeconds + handOffSeconds + overheadSeconds;
  }

  /**
   * Seconds that work of {@code ridingSeconds} on the device adds to a one-pass step of {@code
   * stepSeconds} whose device part is {@code deviceSeconds} (a prefill joining a decode step's
   * kernels): it fills the device's idle time under a host-bound pass first, so the pass becomes
   * {@code max(device + riding, host)} = step + {@code max(0, riding − (step − device))}; all of it
   * when the pass is device-bound. Adding it on top of the host's time instead made a faster device
   * slower: the riding work grows as the decode kernels it hides under shrink. The one rule of the
   * object path and the compiled colocated step.
   */
  static double ridingExtraSeconds(double stepSeconds, double deviceSeconds, double ridingSeconds) {
    return Math.max(0, ridingSeconds - (stepSeconds - deviceSeconds));
  }

  /**
   * One pass's seconds from its device time and its host time, which overlap: the longer of the
   * two. The one rule of {@link #seconds()}, the compiled colocated step and the attention-FFN
   * sides.
   */
  static double passSeconds(double deviceSeconds, double hostSeconds) {
    return deviceSeconds >= hostSeconds ? deviceSeconds : hostSeconds;
  }

  /**
   * The phase of {@code kind}.
   *
   * @throws NoSuchElementException when the step has no such phase
   */
  public PhaseResult phase(PhaseKind kind) {
    return phases().stream()
        .filter(p -> p.kind() == kind)
        .findFirst()
        .orElseThrow(
            () ->
                new NoSuchElementException(
                    "no phase '"
                        + kind.id()
                        + "' in "
                        + phases().stream().map(PhaseResult::name).toList()));
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("step " + seconds());
    if (stages() > 1) {
      b.append(" ")
          .append(passes())
          .append(" passes of ")
          .append(stageSeconds())
          .append(" + ")
          .append(p2pSeconds())
          .append(" hand-off");
    }
    // the phases' FLOPs and bytes are one chip's share of one micro-batch in one stage
    b.append("; per chip:");
    for (PhaseResult p : phases()) {
      b.append("\n  ").append(p);
    }
    return b.toString();
  }
}
