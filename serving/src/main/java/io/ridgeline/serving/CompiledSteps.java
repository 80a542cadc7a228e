package io.ridgeline.serving;

import io.ridgeline.core.OperationResult;
import io.ridgeline.core.Phase;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.hardware.Interconnect;
import io.ridgeline.models.Model;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleFunction;

/**
 * Builds {@link CompiledStep}s: probes the object path at x = 1 and 2 (and at no tokens for the
 * collectives' latency), checks the coefficients at {@link #CHECKS}, and answers empty for a step
 * that does not compile (pipeline parallelism, a MoE all-to-all over several scale-up domains, or
 * coefficients that do not reproduce the object path).
 */
final class CompiledSteps {
  private CompiledSteps() {}

  /** The sizes x at which every compiled step is checked against the object path. */
  private static final double[] CHECKS = {3, 1000.5};

  /**
   * The decode step of {@code pool} at {@code context} with {@code queries} tokens per sequence,
   * compiled in sequences per micro-batch; empty when it does not compile (see the class comment).
   */
  static Optional<CompiledStep> decode(RooflineModel pool, int context, int queries) {
    Model m = pool.model();
    DoubleFunction<List<Phase>> ops =
        x -> m.decodeStep(x, context, pool.computePrecisions(), pool.routing(), queries);
    DoubleFunction<List<OperationResult>> coll =
        x -> collectives(pool, PhaseKind.DECODE_COMMUNICATION, x * queries);
    return compile(pool, queries, ops, coll);
  }

  /**
   * The prefill of a workload's new tokens after its cached ones, riding a decode step ({@link
   * ColocatedDeployment#prefillWithoutWeights}), compiled in prompts; empty when it does not
   * compile.
   */
  static Optional<CompiledStep> prefill(RooflineModel pool, Workload w) {
    Model m = pool.model();
    int isl = w.newTokens();
    int cached = w.cachedAtPrefill();
    DoubleFunction<List<Phase>> ops =
        x -> List.of(m.prefill(x, isl, cached, pool.computePrecisions(), pool.routing()));
    DoubleFunction<List<OperationResult>> coll = x -> collectives(pool, PhaseKind.PREFILL, x * isl);
    return compile(pool, isl, ops, coll);
  }

  private static Optional<CompiledStep> compile(
      RooflineModel pool,
      double tokensPerX,
      DoubleFunction<List<Phase>> ops,
      DoubleFunction<List<OperationResult>> coll) {
    if (pool.pipelineParallel() != 1 || multiNodeAllToAll(pool)) {
      return Optional.empty();
    }
    try {
      CompiledStep s =
          new CompiledStep(
              pool,
              tokensPerX,
              ops.apply(1),
              ops.apply(2),
              coll.apply(1),
              coll.apply(2),
              coll.apply(0));
      for (double x : CHECKS) {
        if (!s.matches(x, ops.apply(x), coll.apply(x))) {
          return Optional.empty();
        }
      }
      return Optional.of(s);
    } catch (IllegalArgumentException | IllegalStateException e) {
      // what the object path would throw it throws there; here the step is simply not compiled
      return Optional.empty();
    }
  }

  /** A MoE all-to-all over several scale-up domains takes the slower of two links: not affine. */
  private static boolean multiNodeAllToAll(RooflineModel pool) {
    int ep = pool.expertParallel();
    int domain = pool.chip().scaleUp().map(Interconnect::domainSize).orElse(ep);
    return ep > domain;
  }

  private static List<OperationResult> collectives(RooflineModel pool, PhaseKind kind, double t) {
    return Collectives.of(pool, kind, t).map(PhaseResult::operations).orElse(List.of());
  }
}
