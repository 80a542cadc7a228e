package io.ridgeline.validation;

import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.TensorClass;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.PoolSpec;
import io.ridgeline.serving.PrefillDecodeDeployment;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Sizing;
import io.ridgeline.serving.Speculation;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The systems a case states, built for its prediction: every {@link RooflineModel} and {@link
 * Deployment} the {@link Predictor} builds from a row is built here (precisions, speculative
 * decoding, layouts, pools), so that how a row becomes a deployment is in one place. See the {@link
 * Predictor} javadoc (<b>Layout</b>) for the rules.
 */
final class CaseSystems {
  private final ValidationCase c;
  private final Model model;
  private final Chip chip;
  private final List<String> notes;
  private final RooflineModel template;
  private Optional<Speculation> speculation = Optional.empty();

  /**
   * The systems of {@code c} on {@code model} and {@code chip} at {@code efficiency}; assumptions
   * go to {@code notes}.
   *
   * @throws Unpredictable for an unknown precision or speculative method
   */
  CaseSystems(ValidationCase c, Model model, Chip chip, Efficiency efficiency, List<String> notes) {
    this.c = c;
    this.model = model;
    this.chip = chip;
    this.notes = notes;
    this.template =
        RooflineModel.builder()
            .model(model)
            .chip(chip)
            .precisions(precisions())
            .efficiency(efficiency)
            .build();
    c.speculative().ifPresent(this::speculation);
  }

  /** The speculative decoding the row states, if any. */
  Optional<Speculation> speculation() {
    return speculation;
  }

  /** The measured system: the row's chips and parallelism. */
  RooflineModel system(int batch, int context) {
    return pool(c.chips(), c.tp(), c.pp(), c.ep(), c.attentionDp(), batch, context);
  }

  /** A pool of {@code chips} chips with the row's stated parallelism. */
  RooflineModel statedPool(OptionalInt chips, int batch, int context) {
    return pool(chips, c.tp(), c.pp(), c.ep(), c.attentionDp(), batch, context);
  }

  /** A decode pool of {@code chips} chips with the row's stated parallelism: it runs no prefill. */
  RooflineModel decodePool(OptionalInt chips, int batch, int context) {
    return RooflineModel.builder()
        .from(statedPool(chips, batch, context))
        .runsPrefill(false)
        .build();
  }

  /**
   * The prefill pool of a disaggregated row: its {@code prefill_chips} with derived parallelism, or
   * the fewest chips that hold {@code promptsPerPass} prompts of {@code isl} tokens.
   */
  RooflineModel prefillPool(int promptsPerPass, int isl) {
    if (c.prefillChips().isPresent()) {
      return pool(
          c.prefillChips(),
          OptionalInt.empty(),
          OptionalInt.empty(),
          OptionalInt.empty(),
          OptionalInt.empty(),
          promptsPerPass,
          isl);
    }
    RooflineModel prefill =
        Sizing.fewestChips(template, promptsPerPass, isl)
            .orElseThrow(
                () ->
                    new Unpredictable(
                        "does not fit: no prefill pool of " + chip.id() + " holds " + model.id()));
    notes.add(
        "prefill pool not stated: sized to the fewest chips and balanced to the decode demand");
    return prefill;
  }

  /** {@code pool} served with {@code strategy} and the row's speculative decoding. */
  Deployment deployment(Deployment.Strategy strategy, RooflineModel pool) {
    Deployment d = Deployment.of(strategy, pool);
    return speculation.map(d::withSpeculation).orElse(d);
  }

  /**
   * {@code decode} and {@code prefill} disaggregated (PD), with the row's speculative decoding; the
   * decode pool is taken as given (its workspace keeps room for a prefill chunk, as the shipped
   * profiles were fitted with).
   */
  Deployment disaggregated(RooflineModel decode, RooflineModel prefill) {
    Deployment d = new PrefillDecodeDeployment(prefill, decode);
    return speculation.map(d::withSpeculation).orElse(d);
  }

  private Precisions precisions() {
    Precisions p = model.defaultPrecisions();
    if (c.weights().isPresent()) {
      p = p.withAllWeights(precision("weights", c.weights().get()));
    }
    if (c.kvCache().isPresent()) {
      p = Precisions.builder().from(p).kvCache(precision("kv_cache", c.kvCache().get())).build();
    } else if (quantizedCheckpoint(p)) {
      // FP8/FP4 weights of a 16-bit checkpoint come from a quantization recipe (NVIDIA ModelOpt,
      // whose FP8 and NVFP4 checkpoints set kv_cache_quant_algo FP8): KV in FP8 unless stated
      p = Precisions.builder().from(p).kvCache(Precision.FP8).build();
      notes.add("kv_cache not stated: FP8, as in FP8/FP4 quantized checkpoints of 16-bit models");
    }
    return p;
  }

  /**
   * Whether the row runs FP8 or FP4 weights of a model whose checkpoint is 16-bit: a quantized
   * checkpoint made by a recipe rather than the model's own release.
   */
  private boolean quantizedCheckpoint(Precisions row) {
    Precisions checkpoint = model.defaultPrecisions();
    Precision w = row.weights();
    return c.weights().isPresent()
        && Arrays.stream(TensorClass.values())
            .allMatch(t -> checkpoint.weights(t).bytesPerElement() >= 2)
        && w.narrowFloat();
  }

  private Precision precision(String column, String id) {
    return Precision.find(id)
        .orElseThrow(() -> new Unpredictable("unknown precision: " + column + " '" + id + "'"));
  }

  private void speculation(String method) {
    if (!method.equals("mtp") && !method.equals("mtp3")) {
      throw new Unpredictable("unknown speculative method: '" + method + "'");
    }
    speculation = Optional.of(Speculation.mtp(Predictor.MTP_LENGTH, Predictor.MTP_ACCEPTANCE));
    notes.add(
        String.format(
            Locale.ROOT,
            "%s as MTP γ=%d with acceptance α=%.2f assumed (not reported by the source)",
            method,
            Predictor.MTP_LENGTH,
            Predictor.MTP_ACCEPTANCE));
  }

  // ---- layouts ----

  /**
   * The pool of {@code chips} chips (empty: sized to the fewest that hold {@code batch} at {@code
   * context}) with the given stated parallelism.
   */
  private RooflineModel pool(
      OptionalInt chips,
      OptionalInt tpRow,
      OptionalInt ppRow,
      OptionalInt epRow,
      OptionalInt dpRow,
      int batch,
      int context) {
    try {
      int dp = dpRow.orElse(1);
      int pp = ppRow.orElse(1);
      int ep = epRow.orElse(1);
      if (chips.isEmpty() && tpRow.isEmpty() && ppRow.isEmpty() && dpRow.isEmpty()) {
        return sized(epRow, batch, context);
      }
      int tp;
      if (tpRow.isPresent()) {
        if (tpRow.getAsInt() % dp != 0) {
          throw new Unpredictable(
              "invalid layout: tp "
                  + tpRow.getAsInt()
                  + " is not a multiple of attention_dp "
                  + dp);
        }
        tp = tpRow.getAsInt() / dp;
      } else if (dpRow.isPresent()) {
        tp = 1; // DEP-N: attention data parallel over N chips
      } else if (ppRow.isEmpty() && chips.orElse(1) > 1 && latentAttention()) {
        return dataParallelAttention(chips.getAsInt(), epRow);
      } else {
        int n = chips.orElse(1);
        if (n % pp == 0 && model.tensorParallelProblem(n / pp).isEmpty()) {
          tp = n / pp;
        } else if (ppRow.isEmpty()) {
          return laidOut(n, ep, context);
        } else {
          throw new Unpredictable(
              "invalid layout: "
                  + n
                  + " chips over pp "
                  + pp
                  + " give no valid tensor-parallel degree for "
                  + model.id());
        }
      }
      int total = chips.orElse(tp * dp * pp);
      return laid(total, tp, pp, ep, dp, batch, context);
    } catch (IllegalArgumentException e) {
      throw new Unpredictable("invalid layout: " + e.getMessage());
    }
  }

  /**
   * No chips or parallelism stated: the fewest chips that hold {@code batch} at {@code context}.
   */
  private RooflineModel sized(OptionalInt epRow, int batch, int context) {
    RooflineModel sized =
        Sizing.fewestChips(template, batch, context)
            .orElseThrow(
                () ->
                    new Unpredictable(
                        "does not fit: no layout of "
                            + chip.id()
                            + " chips up to one layer per pipeline stage holds "
                            + model.id()
                            + " at batch "
                            + batch
                            + ", context "
                            + context));
    notes.add(
        "chips not stated: sized to the fewest that hold batch "
            + batch
            + " at context "
            + context);
    return epRow.isPresent()
        ? RooflineModel.builder().from(sized).expertParallel(epRow.getAsInt()).build()
        : sized;
  }

  /**
   * MLA models (DeepSeek) are served with data-parallel attention and expert parallelism when the
   * layout is not stated (DEP-N, the layout of SGLang's and TensorRT-LLM's published large-scale
   * runs): tensor parallelism would replicate the shared latent cache.
   */
  private RooflineModel dataParallelAttention(int n, OptionalInt epRow) {
    notes.add("tp not stated: MLA served as DEP-" + n + " (attention dp " + n + ", ep " + n + ")");
    return laid(n, 1, 1, epRow.orElse(n), n, 1, 1);
  }

  /**
   * The pool of this row's model, chip, precisions and efficiency with an explicit layout, built by
   * the library's one pool factory ({@link PoolSpec}): this class decides the layout a measured
   * deployment used, {@link PoolSpec#build} builds it.
   */
  private RooflineModel laid(int chips, int tp, int pp, int ep, int dp, int batch, int context) {
    return PoolSpec.builder()
        .model(model)
        .chip(chip)
        .precisions(template.precisions())
        .efficiency(template.efficiency())
        .count(chips)
        .tensorParallel(tp)
        .pipelineParallel(pp)
        .expertParallel(ep)
        .attentionDataParallel(dp)
        .build()
        .build(batch, context);
  }

  /** {@code n} chips laid out as tensor × pipeline by {@link Sizing#layoutFor}. */
  private RooflineModel laidOut(int n, int ep, int context) {
    RooflineModel laid =
        Sizing.layoutFor(template, n, context)
            .orElseThrow(
                () ->
                    new Unpredictable(
                        "invalid layout: no tensor × pipeline layout of "
                            + n
                            + " chips for "
                            + model.id()));
    notes.add(
        "tp not stated: laid out as tp "
            + laid.tensorParallel()
            + " × pp "
            + laid.pipelineParallel());
    return RooflineModel.builder().from(laid).expertParallel(ep).build();
  }

  /** Whether the model's attention keeps a latent cache shared by all heads (MLA). */
  private boolean latentAttention() {
    return model.layers().stream()
        .anyMatch(l -> l.attention().map(a -> a.mla().isPresent()).orElse(false));
  }
}
