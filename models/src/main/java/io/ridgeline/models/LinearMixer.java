package io.ridgeline.models;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.RidgelineStyle;
import org.immutables.value.Value;

/**
 * A token mixer with a fixed per-sequence state instead of a KV cache: Mamba2 (Nemotron-H) or Gated
 * DeltaNet (Qwen3-Next). Its work and state per token do not grow with context.
 *
 * <p>Dimensions: {@link #heads()} value heads of {@link #valueHeadDim()}; {@link #keyHeads()} key
 * heads (Mamba2: B/C groups) of {@link #keyHeadDim()} (Mamba2: the SSM state size). The recurrent
 * state is {@code heads × keyHeadDim × valueHeadDim} per sequence; a causal depthwise convolution
 * of width {@link #convKernel()} keeps {@code convKernel − 1} inputs of {@link #convChannels()}.
 */
@Value.Immutable
@RidgelineStyle
public abstract class LinearMixer {
  LinearMixer() {} // subclassed only by the generated implementation

  /** The two families. */
  public enum Kind {
    /** Mamba2 selective state space (SSD). */
    MAMBA2,
    /** Gated DeltaNet linear attention. */
    GATED_DELTANET
  }

  /** Which family. */
  public abstract Kind kind();

  /** Value heads (Mamba2: {@code mamba_num_heads}; DeltaNet: {@code linear_num_value_heads}). */
  public abstract int heads();

  /** Value head dimension. */
  public abstract int valueHeadDim();

  /** Key heads (Mamba2: {@code n_groups}; DeltaNet: {@code linear_num_key_heads}). */
  public abstract int keyHeads();

  /** Key head dimension (Mamba2: {@code ssm_state_size}). */
  public abstract int keyHeadDim();

  /** Convolution width. */
  public abstract int convKernel();

  /** Whether the convolution has a bias. */
  @Value.Default
  public boolean convBias() {
    return switch (kind()) {
      case MAMBA2 -> true;
      case GATED_DELTANET -> false;
    };
  }

  /** Mamba2 chunk size for the chunked (SSD) prefill algorithm; DeltaNet uses 64. */
  @Value.Default
  public int chunkSize() {
    return switch (kind()) {
      case MAMBA2 -> 128;
      case GATED_DELTANET -> 64;
    };
  }

  /**
   * The precision engines keep the recurrent state in, when the config sets it ({@code
   * mamba_ssm_cache_dtype}); otherwise the KV-cache precision. The convolution state is always at
   * the KV-cache precision.
   */
  public abstract java.util.Optional<io.ridgeline.core.Precision> statePrecision();

  /** Bytes of one sequence's recurrent and convolution state with the cache at {@code kv}. */
  public double stateBytes(io.ridgeline.core.Precision kv) {
    return stateElements() * statePrecision().orElse(kv).bytesPerElement()
        + convStateElements() * kv.bytesPerElement();
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link LinearMixer}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableLinearMixer.Builder {
    Builder() {}
  }

  /** Inner (value) width: heads × value head dim. */
  public long innerWidth() {
    return (long) heads() * valueHeadDim();
  }

  /** Key width: key heads × key head dim. */
  public long keyWidth() {
    return (long) keyHeads() * keyHeadDim();
  }

  /** Channels through the convolution: x, B, C (Mamba2) or q, k, v (DeltaNet). */
  public long convChannels() {
    return innerWidth() + 2 * keyWidth();
  }

  /** Width of the input projection's output. */
  public long inputProjectionWidth() {
    // Mamba2: z, x (inner each), B, C (key width each), dt (one per head)
    // DeltaNet: q, k (key width each), v, z (inner each), β and α (one per value head each)
    return switch (kind()) {
      case MAMBA2 -> 2 * innerWidth() + 2 * keyWidth() + heads();
      case GATED_DELTANET -> 2 * keyWidth() + 2 * innerWidth() + 2L * heads();
    };
  }

  /** Recurrent state elements per sequence: heads × key dim × value dim. */
  public long stateElements() {
    return (long) heads() * keyHeadDim() * valueHeadDim();
  }

  /** Convolution state elements per sequence: (kernel − 1) × channels. */
  public long convStateElements() {
    return (convKernel() - 1L) * convChannels();
  }

  /**
   * FLOPs of one token's recurrent update and readout per layer. Mamba2: decay, input and readout
   * are 5 FLOPs per state element (h = h·exp(dt·A) + dt·B·x; y = C·h). DeltaNet: S·k, the rank-one
   * delta update and the readout S·q are 7 FLOPs per state element.
   */
  public double stepFlopsPerToken() {
    double perStateElement =
        switch (kind()) {
          case MAMBA2 -> 5.0;
          case GATED_DELTANET -> 7.0;
        };
    return perStateElement * stateElements() + 2.0 * convKernel() * convChannels();
  }

  /**
   * Parameters: input and output projections, convolution, per-head A, dt bias (and D for Mamba2),
   * and the gated output norm.
   */
  public double parameters(int hidden) {
    double p = (double) hidden * inputProjectionWidth();
    p += (double) convChannels() * convKernel() + (convBias() ? convChannels() : 0);
    // per head: A and the dt bias, and D for Mamba2
    double perHead =
        switch (kind()) {
          case MAMBA2 -> 3.0;
          case GATED_DELTANET -> 2.0;
        };
    // the gated output norm: over the inner width (Mamba2) or one value head (DeltaNet)
    double norm =
        switch (kind()) {
          case MAMBA2 -> innerWidth();
          case GATED_DELTANET -> valueHeadDim();
        };
    p += perHead * heads();
    p += norm;
    p += (double) innerWidth() * hidden;
    return p;
  }

  @Value.Check
  void check() {
    checkArgument(heads() > 0, "linear mixer heads must be positive: %s", heads());
    checkArgument(valueHeadDim() > 0, "linear mixer head dim must be positive: %s", valueHeadDim());
    checkArgument(keyHeads() > 0, "linear mixer key heads/groups must be positive: %s", keyHeads());
    checkArgument(
        keyHeadDim() > 0, "linear mixer key dim/state size must be positive: %s", keyHeadDim());
    checkArgument(convKernel() > 0, "linear mixer conv kernel must be positive: %s", convKernel());
    checkArgument(
        heads() % keyHeads() == 0,
        "linear mixer heads (%s) must be a multiple of key heads/groups (%s)",
        heads(),
        keyHeads());
  }

  @Override
  public String toString() {
    String family =
        switch (kind()) {
          case MAMBA2 -> "mamba2 ";
          case GATED_DELTANET -> "gated-deltanet ";
        };
    return family + heads() + "×" + valueHeadDim() + ", state " + keyHeadDim();
  }
}
