package io.ridgeline.serving.efficiency;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.util.OptionalInt;

/**
 * The efficiency one serving-engine family achieves, with where the numbers come from.
 *
 * <p>The efficiency's parameters, each with its unit, plausible range, start and their sources, are
 * those of {@link EfficiencyParameter}: fractions of peak FLOP/s, memory and interconnect
 * bandwidth, the KV-reading kernels' own fraction, the small-M and reduction-depth GEMM curves, the
 * fixed costs per kernel, per step, per collective hop and per eager prefill launch, the share of
 * the MoE all-to-all hidden under compute, the admission latency of each request and the pd
 * hand-over.
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
 *     default} (the pooled profile, the only built-in one)
 * @param efficiency the efficiency the family reaches
 * @param maxRunningRequests the engine's cap on requests running at once per model replica,
 *     positive; empty when only memory limits the batch
 * @param source how the values were obtained (e.g. "fitted on the shipped cases (N rows from S
 *     sources, all engines pooled, a random intercept per source) on DATE")
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
