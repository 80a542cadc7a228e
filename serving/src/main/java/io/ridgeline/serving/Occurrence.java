package io.ridgeline.serving;

import java.util.Map;

/**
 * The {@code k}-th operation named {@code name} of a step, from 0: how a prefill's operation finds
 * the running decode kernel it joins, on the object path ({@link ColocatedDeployment}'s riding
 * prefill) and the compiled one ({@link CompiledStep#pairWith}) alike.
 *
 * @param name the operation's name
 * @param k how many operations of that name came before it in the step
 */
record Occurrence(String name, int k) {
  /**
   * {@code name} numbered by its occurrences so far in {@code seen} (which it counts): ("experts",
   * 0), then ("experts", 1).
   */
  static Occurrence next(String name, Map<String, Integer> seen) {
    int k = seen.merge(name, 1, Integer::sum) - 1;
    return new Occurrence(name, k);
  }
}
