package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.Precisions;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import java.util.Optional;

/**
 * Sizes a pool to the fewest chips that hold a model: weights plus the KV cache of a batch at a
 * context, plus the workspace.
 *
 * <p>Layouts are tried from the smallest: tensor parallelism over 1, 2, 4, … chips (a divisor of
 * every layer's heads, within the scale-up domain), then pipeline stages of that group up to one
 * layer per stage. For SRAM-only chips (Groq, Cerebras) this is the pipeline of chips the model
 * needs: Llama-3.1-70B at FP8 needs at least 70.6e9 B / 230e6 B ≈ 307 Groq LPUs.
 */
public final class Sizing {
  private Sizing() {}

  /**
   * The lower bound on chips: every byte the model needs (weights, KV of {@code batch} sequences at
   * {@code context}) over one chip's total capacity, rounded up.
   */
  public static int minimumChips(
      Model model, Chip chip, Precisions precisions, int batch, int context) {
    checkArgument(batch > 0, "batch must be positive: %s", batch);
    checkArgument(context > 0, "context must be positive: %s", context);
    double need =
        model.weightBytes(precisions).bytes()
            + model.cacheBytesPerSequence(context, precisions.kvCache(), 1).bytes() * batch;
    double capacity = chip.memory().stream().mapToDouble(t -> t.capacity().bytes()).sum();
    return (int) Math.ceil(need / capacity);
  }

  /**
   * The smallest pool (fewest chips) of {@code template}'s model, chip and precisions that fits
   * {@code batch} sequences at {@code context}; empty when no layout up to one layer per stage
   * fits.
   */
  public static Optional<RooflineModel> fewestChips(
      RooflineModel template, int batch, int context) {
    Model m = template.model();
    int domain = template.chip().scaleUp().map(u -> u.domainSize()).orElse(1);
    RooflineModel best = null;
    for (int tp = 1; tp <= Math.max(1, domain); tp *= 2) {
      if (m.tensorParallelProblem(tp).isPresent()) {
        continue;
      }
      if (tp > 1 && template.chip().scaleUp().isEmpty() && template.chip().scaleOut().isEmpty()) {
        break;
      }
      RooflineModel flat = layout(template, tp, 1);
      if (flat.memory(batch, context).fits()) {
        return Optional.of(smaller(best, flat));
      }
      // pipeline stages of tp chips: at least the bytes over the group's capacity
      int lower =
          Math.max(2, minimumChips(m, template.chip(), template.precisions(), batch, context) / tp);
      for (int pp = lower; pp <= m.layerCount(); pp++) {
        if (template.chip().scaleUp().isEmpty() && template.chip().scaleOut().isEmpty()) {
          break;
        }
        RooflineModel piped = layout(template, tp, pp);
        if (piped.memory(batch, context).fits()) {
          best = smaller(best, piped);
          break;
        }
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * A layout of exactly {@code chips} chips: tensor-parallel degree (a power of two dividing every
   * layer's heads, within the scale-up domain) × pipeline stages (at most one per layer), the one
   * that holds the largest batch at {@code context} tokens (tensor parallelism beyond the KV heads
   * replicates the cache; pipeline stages do not), on a tie the larger tensor-parallel degree;
   * empty when there is none.
   */
  public static Optional<RooflineModel> layoutFor(RooflineModel template, int chips, int context) {
    checkArgument(chips > 0, "chips must be positive: %s", chips);
    Model m = template.model();
    int domain = template.chip().scaleUp().map(u -> u.domainSize()).orElse(1);
    RooflineModel best = null;
    int bestBatch = -1;
    for (int tp = Integer.highestOneBit(Math.min(chips, Math.max(1, domain))); tp >= 1; tp /= 2) {
      if (chips % tp == 0
          && m.tensorParallelProblem(tp).isEmpty()
          && chips / tp <= m.layerCount()) {
        RooflineModel candidate = layout(template, tp, chips / tp);
        int batch = candidate.largestBatch(context).orElse(0);
        if (batch > bestBatch) {
          best = candidate;
          bestBatch = batch;
        }
      }
    }
    return Optional.ofNullable(best);
  }

  private static RooflineModel layout(RooflineModel template, int tp, int pp) {
    return RooflineModel.builder()
        .from(template)
        .tensorParallel(tp)
        .pipelineParallel(pp)
        .attentionDataParallel(1)
        .expertParallel(1)
        .chips(tp * pp)
        .build();
  }

  private static RooflineModel smaller(RooflineModel a, RooflineModel b) {
    // fewest chips; on a tie, fewer pipeline stages (tensor parallelism keeps latency lower)
    if (a == null || b.chips() < a.chips()) {
      return b;
    }
    return b.chips() == a.chips() && b.pipelineParallel() < a.pipelineParallel() ? b : a;
  }
}
