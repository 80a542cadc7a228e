package io.ridgeline.serving;

import io.ridgeline.core.PhaseKind;
import io.ridgeline.models.Model;
import java.util.Optional;

/** Speculative decoding on a decode pool: time per output token and the draft model's memory. */
final class SpeculativeDecoding {
  private SpeculativeDecoding() {}

  /**
   * Mean time per output token with speculation: (verify + γ drafts) / expected tokens per step.
   */
  static double tpot(Speculation s, RooflineModel rm, int batch, int context) {
    double verify = rm.decode(batch, context, s.length() + 1).seconds().seconds();
    double draft;
    if (s.draft().isPresent()) {
      draft =
          RooflineModel.builder()
              .from(rm)
              .model(s.draft().get())
              .precisions(s.draft().get().defaultPrecisions())
              .build()
              .decode(batch, context)
              .seconds()
              .seconds();
    } else {
      // MTP: one extra decoder layer and the LM head per draft token
      StepResult step = rm.decode(batch, context);
      double other = nonLayerSeconds(step);
      double layers = step.seconds().seconds() - step.passes() * other;
      draft = layers / rm.model().layerCount() + step.passes() * other;
    }
    return (verify + s.length() * draft) / s.expectedTokensPerStep();
  }

  /** Seconds of one pass of a decode step outside the decoder layers (embeddings, head). */
  private static double nonLayerSeconds(StepResult step) {
    return step.phases().stream()
        .filter(p -> p.kind() == PhaseKind.DECODE_OTHER)
        .mapToDouble(p -> p.seconds().seconds())
        .sum();
  }

  /** Decode TPOT of {@code rm}: speculative when {@code speculation} is on, else one step. */
  static double decodeTpot(
      Optional<Speculation> speculation, RooflineModel rm, int batch, int context) {
    return speculation.isPresent()
        ? tpot(speculation.get(), rm, batch, context)
        : rm.decode(batch, context).seconds().seconds();
  }

  /** Whether the draft model (if any) fits beside {@code batch} sequences on {@code rm}. */
  static boolean fitsWithDraft(
      Optional<Speculation> speculation, RooflineModel rm, int batch, int context) {
    if (speculation.isEmpty() || speculation.get().draft().isEmpty()) {
      return true;
    }
    Model draft = speculation.get().draft().get();
    MemoryUse target = rm.memory(batch, context);
    // the draft's weights (its checkpoint's precisions) and its KV (at the target's KV precision),
    // sharded as the target's (MemoryPlan); the draft's KV joins the target's in the main tier, its
    // weights join the target's (MemoryUse's tier rule)
    return ImmutableMemoryUse.builder()
        .from(target)
        .weights(
            target
                .weights()
                .plus(
                    MemoryPlan.weights(
                        draft, draft.defaultPrecisions(), rm.layout(), MemoryPlan.Holding.ALL)))
        .kvCache(
            target
                .kvCache()
                .plus(MemoryPlan.kvCache(draft, rm, rm.precisions().kvCache(), batch, context)))
        .build()
        .fits();
  }

  /**
   * The largest batch {@code rm} holds at {@code context}, beside the draft model if any; empty
   * when not even one sequence fits.
   */
  static java.util.OptionalInt largestBatch(
      Optional<Speculation> speculation, RooflineModel rm, int context) {
    if (speculation.isPresent() && speculation.get().draft().isPresent()) {
      int b =
          BatchSearch.largest(
              x -> rm.memory(x, context).fits() && fitsWithDraft(speculation, rm, x, context));
      return b >= 1 ? java.util.OptionalInt.of(b) : java.util.OptionalInt.empty();
    }
    return rm.largestBatch(context);
  }
}
