package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.DollarsPerHour;
import java.util.Optional;

/** Validation and text shared by the {@link Deployment} implementations. */
final class Deployments {
  private Deployments() {}

  /** Checks the arguments of {@link Deployment#point}. */
  static void checkPoint(int batch, int isl, int osl) {
    checkArgument(batch > 0, "batch must be positive: %s", batch);
    checkArgument(isl > 0, "input tokens (isl) must be positive: %s", isl);
    checkArgument(osl > 0, "output tokens (osl) must be positive: %s", osl);
  }

  /** Checks the options every deployment has. */
  static void checkOptions(Optional<Speculation> speculation, Optional<DollarsPerHour> price) {
    checkNotNull(speculation, "speculation");
    checkNotNull(price, "price");
  }

  /** Checks the link between two pools, when set. */
  static void checkPoolLink(Optional<BytesPerSecond> poolLink) {
    checkNotNull(poolLink, "poolLink")
        .ifPresent(
            l ->
                checkArgument(
                    l.bytesPerSecond() > 0, "pool link bandwidth must be positive: %s", l));
  }

  /** Checks that both pools serve one model, the first pool's named first. */
  static void checkSameModel(RooflineModel first, RooflineModel second) {
    checkNotNull(first, "first pool");
    checkNotNull(second, "second pool");
    checkArgument(
        second.model().id().equals(first.model().id()),
        "both pools must serve the same model: %s vs %s",
        first.model().id(),
        second.model().id());
  }

  /** "strategy: pools, speculative …", the text of every deployment. */
  static String describe(
      Deployment.Strategy strategy, String pools, Optional<Speculation> speculation) {
    return strategy.id() + ": " + pools + speculation.map(s -> ", speculative " + s).orElse("");
  }

  /**
   * The points of {@code d} at {@code isl} and {@code osl}: colocated serving hoists the TTFT
   * chunk's prefill out of the batch loop; the other strategies evaluate {@link Deployment#point}
   * per batch (not compiled yet).
   *
   * @throws IllegalArgumentException when a length is not positive, or what the hoisted part throws
   */
  static PointsAt at(Deployment d, int isl, int osl) {
    if (d instanceof ColocatedDeployment c) {
      return c.at(isl, osl);
    }
    checkPoint(1, isl, osl);
    return batch -> d.point(batch, isl, osl);
  }
}
