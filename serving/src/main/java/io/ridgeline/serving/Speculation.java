package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.models.Model;
import java.util.Locale;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * Speculative decoding: a draft (a smaller catalog model, or the target's own
 * multi-token-prediction heads) proposes {@link #length() γ} tokens; the target verifies them in
 * one pass of γ + 1 tokens per sequence and keeps each with probability {@link #acceptance() α}.
 *
 * <p>Expected tokens per verify step (Leviathan et al., 2023): {@code (1 − α^(γ+1)) / (1 − α)}; for
 * α = 0.8, γ = 3: (1 − 0.8⁴) / 0.2 = 2.952.
 */
@Value.Immutable
@RidgelineStyle
public abstract class Speculation {
  Speculation() {} // subclassed only by the generated implementation

  /** The draft model; empty for MTP heads. */
  public abstract Optional<Model> draft();

  /** Draft tokens per verify step, γ ≥ 1. */
  public abstract int length();

  /** Per-token acceptance probability, α in [0, 1). */
  public abstract double acceptance();

  /** A draft model proposing γ tokens accepted with probability α. */
  public static Speculation withDraft(Model draft, int length, double acceptance) {
    return ImmutableSpeculation.builder()
        .draft(draft)
        .length(length)
        .acceptance(acceptance)
        .build();
  }

  /** The target's MTP heads proposing γ tokens accepted with probability α. */
  public static Speculation mtp(int length, double acceptance) {
    return ImmutableSpeculation.builder().length(length).acceptance(acceptance).build();
  }

  /** Expected tokens per verify step: (1 − α^(γ+1)) / (1 − α). */
  public double expectedTokensPerStep() {
    double a = acceptance();
    return a == 0 ? 1 : (1 - Math.pow(a, length() + 1)) / (1 - a);
  }

  /**
   * Checks that this speculation can serve {@code target}: MTP heads need a target that ships them
   * ({@link Model#mtpLayers()} ≥ 1, config field {@code num_nextn_predict_layers}); a draft model
   * must share the target's tokenizer, which a different {@link Model#vocabSize()} rules out (the
   * target verifies the draft's token ids, so both must index one vocabulary).
   *
   * @throws IllegalArgumentException naming the model and the field when it cannot
   */
  public void checkServes(Model target) {
    if (draft().isEmpty()) {
      checkArgument(
          target.mtpLayers() >= 1,
          "speculation mtp: model %s has no MTP layers (num_nextn_predict_layers is %s);"
              + " use a draft model instead",
          target.id(),
          target.mtpLayers());
      return;
    }
    Model d = draft().get();
    checkArgument(
        d.vocabSize() == target.vocabSize(),
        "speculation draft %s: its vocab_size %s differs from model %s's %s; a draft must share"
            + " the target's tokenizer",
        d.id(),
        d.vocabSize(),
        target.id(),
        target.vocabSize());
  }

  @Value.Check
  void check() {
    checkArgument(length() >= 1, "speculation length (γ) must be at least 1: %s", length());
    checkArgument(
        acceptance() >= 0 && acceptance() < 1,
        "speculation acceptance (α) must be in [0, 1): %s",
        acceptance());
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%s γ=%d α=%.2f (%.2f tokens/step)",
        draft().map(Model::id).orElse("mtp"),
        length(),
        acceptance(),
        expectedTokensPerStep());
  }
}
