package io.ridgeline.serving;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Interconnect;
import io.ridgeline.models.Model;
import java.util.Optional;

/**
 * The two pools of attention/FFN disaggregation: which work runs on which side, the activations'
 * round trip between them and what each must hold.
 */
final class AfdPools {
  private final RooflineModel attention;
  private final RooflineModel ffn;
  private final Optional<BytesPerSecond> poolLink;

  AfdPools(RooflineModel attention, RooflineModel ffn, Optional<BytesPerSecond> poolLink) {
    this.attention = attention;
    this.ffn = ffn;
    this.poolLink = poolLink;
  }

  /** Whether a phase (other than communication and prefill) runs on the FFN pool. */
  private static boolean isFfnPhase(PhaseResult phase) {
    return phase.kind().ffn();
  }

  /** Whether a phase is split operation by operation between the pools. */
  private static boolean isMixedPhase(PhaseResult phase) {
    return phase.kind().mixed();
  }

  /** Whether an operation of a mixed phase runs on the FFN pool. */
  private static boolean isFfnOperation(OperationResult operation) {
    return operation.operation().role().ffnSide();
  }

  /**
   * The time of a step's attention side (ffn = false) or FFN side (ffn = true): each side's phases
   * and hand-offs plus its own kernels' fixed costs ({@link StepResult#attentionOverheadSeconds()}
   * or {@link StepResult#ffnOverheadSeconds()}), or each pool's host work per step ({@link
   * StepResult#hostSeconds()}) where that is longer.
   */
  static double side(StepResult step, boolean ffn) {
    double s = 0;
    for (PhaseResult p : step.phases()) {
      if (isMixedPhase(p)) {
        for (OperationResult o : p.operations()) {
          if (isFfnOperation(o) == ffn) {
            s += o.seconds().seconds();
          }
        }
      } else if (isFfnPhase(p) == ffn) {
        s += p.seconds().seconds();
      }
    }
    Seconds overhead = ffn ? step.ffnOverheadSeconds() : step.attentionOverheadSeconds();
    // each pool's host work overlaps its device's pass, as StepResult.seconds takes a step
    double device = s + step.p2pSeconds().seconds() + overhead.seconds();
    return step.passes() * StepResult.passSeconds(device, step.hostSeconds().seconds());
  }

  /**
   * One micro-batch's times on each side of the AFD decode step, in seconds.
   *
   * @param sequences the micro-batch's sequences
   * @param attention the attention side ({@link #side} false)
   * @param ffn the FFN side ({@link #side} true)
   * @param transfer the activations' round trip ({@link #transferSeconds})
   */
  record MicroBatch(int sequences, double attention, double ffn, double transfer) {
    /** The micro-batch's own latency through both pools: attention + FFN + transfer. */
    double chain() {
      return attention + ffn + transfer;
    }
  }

  /**
   * One AFD decode step of {@code batch} sequences at {@code context} in {@code m = min(micro,
   * batch)} micro-batches split exactly: {@code batch mod m} of ⌈batch / m⌉ sequences and the rest
   * of ⌊batch / m⌋. In ping-pong each pool and the link work through every micro-batch in turn, and
   * one micro-batch's own chain bounds the step from below, so the step takes {@code max(Σ
   * attention, Σ FFN, Σ transfer, max chain)} (with equal micro-batches, {@code max(m × bottleneck,
   * attention + FFN + transfer)}).
   *
   * @return the step's seconds and its largest micro-batch
   */
  Step step(int batch, int context, int microBatches) {
    int m = Math.min(microBatches, batch);
    int small = batch / m;
    int larger = batch % m; // micro-batches of small + 1 sequences
    MicroBatch low = microBatch(small, context);
    MicroBatch high = larger > 0 ? microBatch(small + 1, context) : low;
    int lows = m - larger;
    double a = lows * low.attention() + larger * high.attention();
    double f = lows * low.ffn() + larger * high.ffn();
    double x = lows * low.transfer() + larger * high.transfer();
    double chain = Math.max(low.chain(), high.chain());
    return new Step(Math.max(Math.max(a, f), Math.max(x, chain)), high);
  }

  /**
   * The utilisation ({@link Utilisation}) of the attention and the FFN pool over the step of {@link
   * #step}, each counting its own side's operations of every micro-batch, weighted by their chips.
   */
  Utilisation utilisation(int batch, int context, int microBatches) {
    double seconds = step(batch, context, microBatches).seconds();
    int m = Math.min(microBatches, batch);
    int small = batch / m;
    int larger = batch % m;
    Utilisation.Work a = new Utilisation.Work(attention.target());
    Utilisation.Work f = new Utilisation.Work(ffn.target());
    addSide(a, attention.decode(small, context), false, m - larger);
    addSide(f, ffn.decode(small, context), true, m - larger);
    if (larger > 0) {
      addSide(a, attention.decode(small + 1, context), false, larger);
      addSide(f, ffn.decode(small + 1, context), true, larger);
    }
    return Utilisation.weighted(
        a.over(seconds), attention.replicaChips(), f.over(seconds), ffn.replicaChips());
  }

  private static void addSide(Utilisation.Work w, StepResult step, boolean ffn, int times) {
    for (PhaseResult p : step.phases()) {
      w.add(
          p,
          (ph, o) -> isMixedPhase(ph) ? isFfnOperation(o) == ffn : isFfnPhase(ph) == ffn,
          (double) times * step.microBatches());
    }
  }

  /** An AFD decode step: its seconds and its largest micro-batch. */
  record Step(double seconds, MicroBatch largest) {}

  private MicroBatch microBatch(int sequences, int context) {
    return new MicroBatch(
        sequences,
        side(attention.decode(sequences, context), false),
        side(ffn.decode(sequences, context), true),
        transferSeconds(sequences));
  }

  /**
   * Seconds per prompt of {@code isl} tokens when the AFD pools prefill themselves (no prefill
   * pool): a prefill pass of {@link RooflineModel#promptsPerPrefillPass} prompts through the
   * attention side, the FFN side and the activations' round trip, over its prompts.
   */
  double prefillSecondsPerPrompt(int isl) {
    int n = attention.promptsPerPrefillPass(isl);
    return prefillSeconds(n, isl) / n;
  }

  /** Seconds of one prefill pass of {@code prompts} prompts of {@code isl} tokens through both. */
  double prefillSeconds(int prompts, int isl) {
    return side(attention.prefill(prompts, isl), false)
        + side(ffn.prefill(prompts, isl), true)
        + transferSeconds((double) prompts * isl);
  }

  private Model model() {
    return attention.model();
  }

  private long ffnLayers() {
    return model().layers().stream().filter(l -> l.ffn().isPresent()).count();
  }

  /**
   * Bytes of hidden vectors crossing between the AFD pools for {@code tokens} tokens: there and
   * back per FFN layer.
   */
  double transferBytes(double tokens) {
    return 2.0
        * tokens
        * model().hiddenSize()
        * ffnLayers()
        * attention.precisions().activations().bytesPerElement();
  }

  /** Seconds of moving {@code tokens} tokens' activations there and back, with hop latencies. */
  double transferSeconds(double tokens) {
    BytesPerSecond link = link().times(attention.replicaChips());
    double latency =
        poolLink.isPresent() ? 0 : interconnect().map(i -> i.latency().seconds()).orElse(0.0);
    return transferBytes(tokens) / link.bytesPerSecond() + 2 * ffnLayers() * latency;
  }

  private Optional<Interconnect> interconnect() {
    return Links.between(
        attention.chip(), attention.replicaChips(), ffn.chip(), ffn.replicaChips());
  }

  private BytesPerSecond link() {
    return poolLink
        .or(() -> interconnect().map(Interconnect::bandwidthPerDirection))
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "chip "
                        + attention.chip().id()
                        + " has no interconnect to reach the FFN pool; set a pool link"));
  }

  /** What one chip of the attention pool holds for {@code batch} sequences at {@code context}. */
  MemoryUse attentionMemory(int batch, int context) {
    return MemoryPlan.use(attention, batch, context, MemoryPlan.Holding.ATTENTION_SIDE);
  }

  /** What one chip of the FFN pool holds: its share of the dense-FFN and expert weights. */
  MemoryUse ffnMemory() {
    return MemoryPlan.use(ffn, 1, 1, MemoryPlan.Holding.FFN_SIDE);
  }

  /** FFN weight bytes per chip of the FFN pool. */
  private double ffnWeightBytes() {
    return ffnMemory().weights().bytes();
  }

  /**
   * Whether {@code batch} sequences fit ({@link MemoryPlan}): attention and embedding weights and
   * the KV on the attention pool; FFN weights on the FFN pool.
   */
  boolean fits(int batch, int context) {
    return attentionMemory(batch, context).fits() && ffnMemory().fits();
  }

  /** Why one request of {@code context} tokens does not fit the pools; empty when it does. */
  Optional<String> fitProblem(int context) {
    if (fits(1, context)) {
      return Optional.empty();
    }
    return Optional.of(
        model().id()
            + " does not fit the AFD pools: attention on "
            + attention.replicaChips()
            + "× "
            + attention.chip().id()
            + " holds the attention weights, head and KV; FFN on "
            + ffn.replicaChips()
            + "× "
            + ffn.chip().id()
            + " holds "
            + Bytes.of(ffnWeightBytes())
            + " of FFN weights per chip of "
            + ffnMemory().capacity()
            + "; add chips to the pool that overflows");
  }
}
