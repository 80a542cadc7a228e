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
    // within Limits, isl + osl and batch × context cannot overflow
    Limits.check("batch", batch, Limits.MAX_BATCH);
    Limits.check("input tokens (isl)", isl, Limits.MAX_TOKENS);
    Limits.check("output tokens (osl)", osl, Limits.MAX_TOKENS);
  }

  /**
   * Checks the options every deployment has: speculation, when on, must serve the pool's model
   * ({@link Speculation#checkServes}).
   */
  static void checkOptions(
      RooflineModel pool, Optional<Speculation> speculation, Optional<DollarsPerHour> price) {
    checkNotNull(speculation, "speculation").ifPresent(s -> s.checkServes(pool.model()));
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
   * The points of {@code d} for workload {@code w}: colocated serving compiled ({@link
   * CompiledColocated}) where it compiles, else with the TTFT chunk's prefill hoisted out of the
   * batch loop; the other strategies evaluate {@link Deployment#point} per batch, which {@link
   * PointsAt#slowPath} says ({@link PointsAt.SlowPath#STRATEGY}).
   *
   * @throws IllegalArgumentException when a length is not positive, or what the hoisted part throws
   */
  static PointsAt at(Deployment d, Workload w) {
    return at(d, w, null);
  }

  /**
   * {@link #at(Deployment, Workload)}, colocated points compiled with what they share with the
   * workloads before ({@link SharedPrefill}; null: nothing shared).
   *
   * @throws IllegalArgumentException as {@link #at(Deployment, Workload)} throws
   */
  static PointsAt at(Deployment d, Workload w, SharedPrefill shared) {
    if (d instanceof ColocatedDeployment c) {
      return CompiledColocated.at(c, w, shared);
    }
    checkPoint(1, w.inputTokens(), w.outputTokens());
    return slowPath(batch -> d.point(batch, w), PointsAt.SlowPath.STRATEGY);
  }

  /**
   * {@code points}, evaluated by the object path for the reason {@code why} ({@link
   * PointsAt#slowPath}).
   */
  static PointsAt slowPath(PointsAt points, PointsAt.SlowPath why) {
    return new ObjectPath(points, why);
  }

  /** Points of the object path and why they are not compiled. */
  private record ObjectPath(PointsAt points, PointsAt.SlowPath why) implements PointsAt {
    @Override
    public FrontierPoint point(int batch) {
      return points.point(batch);
    }

    @Override
    public Optional<PointsAt.SlowPath> slowPath() {
      return Optional.of(why);
    }
  }
}
