package io.ridgeline.serving;

import java.util.Optional;

/**
 * A deployment's frontier points at one prompt and output length, with whatever does not depend on
 * the batch computed once ({@link Deployment#pointsAt}); a sweep asks it for every batch of a
 * block.
 */
@FunctionalInterface
public interface PointsAt {
  /**
   * Why points are evaluated one by one by the object path rather than as one compiled block
   * (18–130× slower per point), {@link PointsAt#slowPath}.
   */
  enum SlowPath {
    /** The deployment's strategy has no compiled path (static, pd, afd). */
    STRATEGY("the strategy has no compiled path", false),
    /** Speculative decoding's verify passes are not compiled. */
    SPECULATIVE_DECODING("speculative decoding is not compiled", true),
    /** Offloaded KV (its fetch, its reads from a slower tier) is not compiled. */
    KV_OFFLOAD("KV offload is not compiled", true),
    /** Pipeline parallelism (passes over stages and micro-batches) is not compiled. */
    PIPELINE_PARALLEL("pipeline parallelism is not compiled", true),
    /** A MoE all-to-all across scale-up domains takes the slower of two links: not affine. */
    MULTI_DOMAIN_ALL_TO_ALL("a MoE all-to-all across scale-up domains is not compiled", true),
    /**
     * A step whose compiled coefficients or stage time do not reproduce the object path's: a model
     * or a formula the compiled path does not follow (a defect; {@code CompileCoverageTest} fails
     * on it).
     */
    NOT_REPRODUCED("the compiled step does not reproduce the object path", true),
    /**
     * A batch the compiled run stopped at: one the object path rejects or gives no finite point.
     */
    BATCH_OUT_OF_RANGE("a batch the compiled path does not evaluate", true),
    /** Points an implementation of {@link PointsAt} gives one by one. */
    POINT_BY_POINT("points given one by one", false);

    private final String description;
    private final boolean fallback;

    SlowPath(String description, boolean fallback) {
      this.description = description;
      this.fallback = fallback;
    }

    /** What keeps the points off the compiled path, for output. */
    public String description() {
      return description;
    }

    /**
     * Whether points that have a compiled path (colocated serving) fell back from it, as opposed to
     * points of a strategy or implementation that has none.
     */
    public boolean fallback() {
      return fallback;
    }

    @Override
    public String toString() {
      return description;
    }
  }

  /**
   * The point of {@code batch} requests, equal to {@link Deployment#point(int, int, int)}'s.
   *
   * @throws IllegalArgumentException when batch is not positive
   */
  FrontierPoint point(int batch);

  /**
   * Fills {@code out} with the points of {@code batches[from..to)} as primitive figures where this
   * deployment's points are compiled, without an object per point, and says how far it got: the
   * figures are the doubles {@link #point} gives. A point that is not compiled (another strategy, a
   * step whose operations do not follow the compiled form, a batch the object path rejects) is left
   * to {@link #point}: the run stops before it.
   *
   * @return the index of the first batch not in {@code out}: {@code to} when every batch is, {@code
   *     from} (and {@code out} empty) when none is
   */
  default int points(int[] batches, int from, int to, PointBlock out) {
    out.clear();
    return from;
  }

  /**
   * Why these points are evaluated one by one by the object path rather than as one compiled block
   * (18–130× slower per point): the strategy, or the feature of the pool or workload that the
   * compiled path does not cover; empty when they are compiled.
   */
  default Optional<SlowPath> slowPath() {
    return Optional.of(SlowPath.POINT_BY_POINT);
  }
}
