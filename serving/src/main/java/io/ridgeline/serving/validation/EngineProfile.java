package io.ridgeline.serving.validation;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.ridgeline.serving.Efficiency;

/**
 * The efficiency one serving-engine family achieves, with where the numbers come from.
 *
 * <p>The parameters and their starting values (the javadoc of {@link Calibration} gives the
 * derivation of each start): the fraction of peak FLOP/s at large GEMMs ({@link
 * Efficiency#compute()}), the fraction of memory bandwidth ({@link Efficiency#memory()}), the
 * fraction of interconnect bandwidth ({@link Efficiency#network()}), the tokens at which a GEMM
 * reaches half of its large-M efficiency ({@link Efficiency#gemmHalfTokens()}), and the fixed costs
 * per layer ({@link Efficiency#layerOverhead()}, kernel launches) and per step ({@link
 * Efficiency#stepOverhead()}, scheduler, sampling and host work).
 *
 * @param name the engine family as written in a case file's {@code engine} column, or {@code
 *     default}
 * @param efficiency the fitted efficiency
 * @param source how the values were obtained (e.g. "fitted on the shipped cases (110 rows) on
 *     2025-01-01")
 */
public record EngineProfile(String name, Efficiency efficiency, String source) {
  /**
   * @throws IllegalArgumentException when the name is blank
   */
  public EngineProfile {
    checkNotNull(name, "name");
    checkNotNull(efficiency, "efficiency");
    checkNotNull(source, "source");
    checkArgument(!name.isBlank(), "profile name must not be blank: '%s'", name);
  }

  @Override
  public String toString() {
    return name + ": " + efficiency + " (" + source + ")";
  }
}
