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
  default Optional<String> slowPath() {
    return Optional.of("points given one by one");
  }
}
