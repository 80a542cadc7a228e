package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.models.Ffn;

/**
 * The validation of a {@link RooflineModel} at construction ({@link RooflineModel#check()}): each
 * rule throws {@link IllegalArgumentException} naming the attribute, the rule and the bad value.
 */
final class PoolChecks {
  private PoolChecks() {}

  /**
   * Checks the layout (degrees and their divisibility, by building it), the redundant experts per
   * rank (at least 0; with ep &gt; 1 at most the experts per rank of every MoE layer), pp against
   * the layer count, tp against the attention heads (for a pool that runs attention), an
   * interconnect for a replica over several chips, an offload tier for a KV offload, and that the
   * chip computes the pool's matmul and attention precisions at all.
   */
  static void check(RooflineModel m) {
    // the layout validates the degrees and their divisibility, naming the one that is wrong
    var unusedLayout = m.layout();
    checkArgument(
        m.redundantExpertsPerRank() >= 0,
        "redundant experts per rank must be >= 0: %s",
        m.redundantExpertsPerRank());
    for (Ffn f : PoolOperations.moeFfns(m.model())) {
      checkArgument(
          m.redundantExpertsPerRank() <= f.experts() / m.expertParallel()
              || m.expertParallel() == 1,
          "redundant experts per rank (%s) must not exceed the %s experts per rank of %s at ep %s",
          m.redundantExpertsPerRank(),
          f.experts() / m.expertParallel(),
          m.model().id(),
          m.expertParallel());
    }
    checkArgument(
        m.pipelineParallel() <= m.model().layerCount(),
        "pipeline parallel degree (%s) must not exceed the %s layers of %s",
        m.pipelineParallel(),
        m.model().layerCount(),
        m.model().id());
    if (m.runsAttention()) {
      m.model()
          .tensorParallelProblem(m.tensorParallel())
          .ifPresent(
              problem -> {
                throw new IllegalArgumentException(problem);
              });
    }
    if (m.replicaChips() > 1) {
      checkArgument(
          m.chip().scaleUp().isPresent() || m.chip().scaleOut().isPresent(),
          "chip %s has no interconnect, so a replica over %s chips is impossible",
          m.chip().id(),
          m.replicaChips());
    }
    if (m.kvOffload() != KvOffload.NONE && m.runsAttention()) {
      m.kvOffload().requireTier(m.chip());
    }
    // the chip must be able to run the precisions at all
    var unusedMatmul = m.target().effectivePrecision(m.computePrecisions().matmul());
    var unusedAttention = m.target().effectivePrecision(m.computePrecisions().attention());
  }
}
