package io.ridgeline.models;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.RidgelineStyle;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * One block of a decoder: a token mixer (softmax attention or a linear mixer), an FFN, or both.
 * Most models pair an attention and an FFN in every layer; Nemotron-H counts each Mamba, MLP,
 * attention or MoE sub-layer as a layer of its own.
 */
@Value.Immutable
@RidgelineStyle
public abstract class Layer {
  Layer() {} // subclassed only by the generated implementation

  /** The softmax attention, if the layer has one. */
  public abstract Optional<Attention> attention();

  /** The linear mixer (Mamba2, Gated DeltaNet), if the layer has one. */
  public abstract Optional<LinearMixer> linear();

  /** The FFN, if the layer has one. */
  public abstract Optional<Ffn> ffn();

  /** Norms before each sub-block (2 for attention + FFN); Gemma-2/3 add 2 post-norms. */
  @Value.Default
  public int norms() {
    return (attention().isPresent() || linear().isPresent() ? 1 : 0) + (ffn().isPresent() ? 1 : 0);
  }

  /** A layer of attention then FFN. */
  public static Layer of(Attention attention, Ffn ffn) {
    return Layer.builder().attention(attention).ffn(ffn).build();
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link Layer}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableLayer.Builder {
    Builder() {}
  }

  /** Sub-blocks whose outputs a tensor-parallel group all-reduces: mixer and FFN. */
  public int subBlocks() {
    return (attention().isPresent() || linear().isPresent() ? 1 : 0) + (ffn().isPresent() ? 1 : 0);
  }

  @Value.Check
  void check() {
    checkArgument(
        !(attention().isPresent() && linear().isPresent()),
        "a layer has one token mixer: attention or linear, not both");
    checkArgument(subBlocks() > 0, "a layer must have a mixer or an FFN");
    checkArgument(norms() >= 0, "norms must not be negative: %s", norms());
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    attention().ifPresent(a -> b.append(a));
    linear().ifPresent(l -> b.append(l));
    ffn().ifPresent(f -> b.append(b.length() > 0 ? " + " : "").append(f));
    return b.toString();
  }
}
