package io.ridgeline.models;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.RidgelineStyle;
import org.immutables.value.Value;

/**
 * A feed-forward block: dense (one FFN) or mixture-of-experts (a router, {@link #experts()} routed
 * experts of which {@link #topK()} run per token, and {@link #sharedExperts()} that always run).
 *
 * <p>Gated FFNs (SwiGLU, GeGLU) have 3 matrices of hidden × inner; plain ones (GELU, ReLU²) have 2.
 */
@Value.Immutable
@RidgelineStyle
public abstract class Ffn {
  Ffn() {} // subclassed only by the generated implementation

  /** Inner width of the dense FFN, or of one routed expert. */
  public abstract int innerSize();

  /** Gated (3 matrices) or plain (2). */
  public abstract boolean gated();

  /** Routed experts; 0 for a dense FFN. */
  @Value.Default
  public int experts() {
    return 0;
  }

  /** Experts each token is routed to; 0 for a dense FFN. */
  @Value.Default
  public int topK() {
    return 0;
  }

  /** Shared experts that run for every token (0 when none). */
  @Value.Default
  public int sharedExperts() {
    return 0;
  }

  /** Inner width of one shared expert. */
  @Value.Default
  public int sharedInnerSize() {
    return innerSize();
  }

  /**
   * Whether the shared experts' output is scaled by a learned sigmoid gate (Qwen3-Next: hidden →
   * 1).
   */
  @Value.Default
  public boolean sharedExpertGate() {
    return false;
  }

  /** Whether the matrices carry biases (BLOOM's FFN, gpt-oss experts). */
  @Value.Default
  public boolean bias() {
    return false;
  }

  /** Whether the router carries a bias (gpt-oss) or a score-correction bias (DeepSeek-V3). */
  @Value.Default
  public boolean routerBias() {
    return false;
  }

  /** A dense FFN. */
  public static Ffn dense(int inner, boolean gated) {
    return Ffn.builder().innerSize(inner).gated(gated).build();
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link Ffn}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableFfn.Builder {
    Builder() {}
  }

  /** Whether this is a mixture of experts. */
  public boolean isMoe() {
    return experts() > 0;
  }

  /** Matrices per expert: 3 gated, 2 plain. */
  public int matrices() {
    return gated() ? 3 : 2;
  }

  /** Parameters of one routed expert (or of the dense FFN). */
  public double expertParameters(int hidden) {
    double w = (double) matrices() * hidden * innerSize();
    return w + (bias() ? (matrices() - 1.0) * innerSize() + hidden : 0);
  }

  /** Parameters of all shared experts. */
  public double sharedParameters(int hidden) {
    return sharedExperts() * (double) matrices() * hidden * sharedInnerSize()
        + (sharedExpertGate() ? hidden : 0);
  }

  /** Router parameters: hidden × experts (+ bias). */
  public double routerParameters(int hidden) {
    return isMoe() ? (double) hidden * experts() + (routerBias() ? experts() : 0) : 0;
  }

  /** Every parameter of the block. */
  public double parameters(int hidden) {
    return isMoe()
        ? experts() * expertParameters(hidden) + sharedParameters(hidden) + routerParameters(hidden)
        : expertParameters(hidden);
  }

  /** Parameters one token uses: top-k routed experts, shared experts and router. */
  public double activeParameters(int hidden) {
    return isMoe()
        ? topK() * expertParameters(hidden) + sharedParameters(hidden) + routerParameters(hidden)
        : expertParameters(hidden);
  }

  @Value.Check
  void check() {
    checkArgument(innerSize() > 0, "ffn inner size must be positive: %s", innerSize());
    checkArgument(experts() >= 0, "experts must not be negative: %s", experts());
    checkArgument(
        experts() == 0 ? topK() == 0 : topK() >= 1 && topK() <= experts(),
        "experts per token (%s) must be in [1, %s experts]",
        topK(),
        experts());
    checkArgument(sharedExperts() >= 0, "shared experts must not be negative: %s", sharedExperts());
  }

  @Override
  public String toString() {
    String act = gated() ? "gated" : "plain";
    return isMoe()
        ? "moe "
            + experts()
            + "×"
            + innerSize()
            + " top-"
            + topK()
            + (sharedExperts() > 0 ? " + " + sharedExperts() + " shared×" + sharedInnerSize() : "")
            + " "
            + act
        : "ffn " + innerSize() + " " + act;
  }
}
