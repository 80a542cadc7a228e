package io.ridgeline.serving;

import com.google.common.collect.ImmutableMap;
import java.util.Optional;

/**
 * A deployment of one pool that both prefills and decodes: static batching ({@link
 * StaticDeployment}) or colocated serving ({@link ColocatedDeployment}). They differ only in how a
 * batch's prompts and steps interleave ({@link #point}); what the pool holds, how large a batch it
 * fits and why a request does not fit are the same, and are defined here once.
 */
public sealed interface SinglePoolDeployment extends Deployment
    permits StaticDeployment, ColocatedDeployment {
  /** The pool that prefills and decodes. */
  RooflineModel pool();

  /** The pool. */
  @Override
  default RooflineModel decodePool() {
    return pool();
  }

  /** {@code {"pool": pool()}}. */
  @Override
  default ImmutableMap<String, RooflineModel> pools() {
    return ImmutableMap.of("pool", pool());
  }

  /** Why one request of {@code isl + osl} tokens does not fit the pool; empty when it does. */
  @Override
  default Optional<String> fitProblem(int isl, int osl) {
    return PoolFit.problem("", pool(), 1, isl + osl);
  }

  /** The largest batch the pool holds at {@code context}, beside the draft model if any. */
  @Override
  default java.util.OptionalInt largestBatch(int context) {
    return SpeculativeDecoding.largestBatch(speculation(), pool(), context);
  }
}
