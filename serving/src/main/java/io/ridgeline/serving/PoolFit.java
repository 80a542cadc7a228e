package io.ridgeline.serving;

import java.util.Optional;

/** Why a pool does not hold one request, in the words every command reports. */
final class PoolFit {
  private PoolFit() {}

  /**
   * Why {@code pool} does not hold {@code batch} sequences of {@code context} tokens, prefixed by
   * {@code label}; empty when it does.
   */
  static Optional<String> problem(String label, RooflineModel pool, int batch, int context) {
    MemoryUse one = pool.memory(batch, context);
    if (one.fits()) {
      return Optional.empty();
    }
    return Optional.of(
        label
            + pool.model().id()
            + " does not fit on "
            + pool.replicaChips()
            + "× "
            + pool.chip().id()
            + ": one request needs "
            + one.needs()
            + "; use more chips (--count/--tp/--pp) or lower precision");
  }
}
