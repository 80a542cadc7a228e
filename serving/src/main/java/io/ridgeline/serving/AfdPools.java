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
   * and hand-offs plus its own fixed costs ({@link StepResult#attentionOverheadSeconds()} or {@link
   * StepResult#ffnOverheadSeconds()}: each pool's step overhead and its own kernels).
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
    return step.passes() * (s + step.p2pSeconds().seconds() + overhead.seconds());
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
