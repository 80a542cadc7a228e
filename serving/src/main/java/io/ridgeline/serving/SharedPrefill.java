package io.ridgeline.serving;

import java.util.Optional;

/**
 * What the compiled points of a pool's workloads with the same new and cached prompt tokens share
 * (a sweep's output lengths under one prompt length): the compiled prefill step, the TTFT chunk's
 * own pass and its side of its riding step, and the largest prefill whose bytes stay on the main
 * tier; all depend on the pool and those tokens only. A one-entry cache for {@link
 * CompiledColocated#at(ColocatedDeployment, Workload, SharedPrefill)}, not shared between threads.
 */
final class SharedPrefill {
  RooflineModel pool;
  int newTokens;
  int cachedAtPrefill;
  Optional<CompiledStep> step = Optional.empty();
  double chunkAlone = Double.NaN; // NaN: not evaluated yet
  int onMainTier;
  RidingSide chunkSide; // null: not evaluated yet

  boolean holds(RooflineModel p, Workload w) {
    return pool == p && newTokens == w.newTokens() && cachedAtPrefill == w.cachedAtPrefill();
  }

  void hold(RooflineModel p, Workload w, Optional<CompiledStep> compiled) {
    pool = p;
    newTokens = w.newTokens();
    cachedAtPrefill = w.cachedAtPrefill();
    step = compiled;
    chunkAlone = Double.NaN;
    chunkSide = null;
  }
}
