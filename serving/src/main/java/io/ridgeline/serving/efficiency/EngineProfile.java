package io.ridgeline.serving.efficiency;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.util.OptionalInt;

/**
 * The efficiency one serving-engine family achieves, with where the numbers come from.
 *
 * <p>The parameters and their starting values (the javadoc of {@code
 * io.ridgeline.validation.Calibration} gives the derivation of each start): the fraction of peak
 * FLOP/s at large GEMMs ({@link Efficiency#compute()}), the fraction of memory bandwidth ({@link
 * Efficiency#memory()}), the fraction of interconnect bandwidth ({@link Efficiency#network()}), the
 * tokens at which a GEMM reaches half of its large-M efficiency ({@link
 * Efficiency#gemmHalfTokens()}), and the fixed costs per kernel ({@link
 * Efficiency#kernelOverhead()}, launch and tail) and per step ({@link Efficiency#stepOverhead()},
 * scheduler, sampling and host work), and the admission latency of each request outside the
 * accelerators ({@link Efficiency#admission()}).
 *
 * <p>Besides the roofline efficiency, a profile holds one scheduler property: the engine's cap on
 * the requests it runs at once per model replica ({@code max_running_requests}: vLLM's {@code
 * max_num_seqs}, SGLang's {@code max_running_requests}, TensorRT-LLM's {@code max_batch_size}, and
 * the limits that CUDA-graph capture sizes and KV-block allocation put on them). The predictor runs
 * a batch of min(load per replica, largest batch that fits, this cap) and queues the rest ({@code
 * io.ridgeline.validation.Predictor}, closed-loop queueing). An empty cap means no cap beyond
 * memory.
 *
 * @param name the engine family as written in a case file's {@code engine} column, or {@code
 *     default}
 * @param efficiency the fitted efficiency
 * @param maxRunningRequests the engine's cap on requests running at once per model replica,
 *     positive; empty when only memory limits the batch
 * @param source how the values were obtained (e.g. "fitted on the shipped cases (110 rows) on
 *     2025-01-01")
 */
public record EngineProfile(
    String name, Efficiency efficiency, OptionalInt maxRunningRequests, String source) {
  /**
   * @throws IllegalArgumentException when the name is blank or {@code maxRunningRequests} is not
   *     positive
   */
  public EngineProfile {
    checkNotNull(name, "name");
    checkNotNull(efficiency, "efficiency");
    checkNotNull(maxRunningRequests, "maxRunningRequests");
    checkNotNull(source, "source");
    checkArgument(!name.isBlank(), "profile name must not be blank: '%s'", name);
    checkArgument(
        maxRunningRequests.orElse(1) > 0,
        "max_running_requests must be positive (empty for no cap): %s",
        maxRunningRequests.orElse(0));
  }

  /** A profile without a cap on running requests: only memory limits the batch. */
  public EngineProfile(String name, Efficiency efficiency, String source) {
    this(name, efficiency, OptionalInt.empty(), source);
  }

  /** A profile whose engine runs at most {@code maxRunningRequests} requests per replica. */
  public EngineProfile(String name, Efficiency efficiency, int maxRunningRequests, String source) {
    this(name, efficiency, OptionalInt.of(maxRunningRequests), source);
  }

  /** Whether the engine caps its running requests below what memory allows. */
  public boolean capsRunningRequests() {
    return maxRunningRequests.isPresent();
  }

  @Override
  public String toString() {
    return name
        + ": "
        + efficiency
        + (capsRunningRequests() ? ", max running requests " + maxRunningRequests.getAsInt() : "")
        + " ("
        + source
        + ")";
  }
}
