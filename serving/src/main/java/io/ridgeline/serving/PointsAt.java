package io.ridgeline.serving;

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
}
