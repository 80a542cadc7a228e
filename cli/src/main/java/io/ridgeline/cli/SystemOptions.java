package io.ridgeline.cli;

import io.ridgeline.core.GemmInputs;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.TensorClass;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.models.Routing;
import io.ridgeline.serving.KvOffload;
import io.ridgeline.serving.PoolSpec;
import io.ridgeline.serving.RooflineModel;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Options shared by {@code roofline}, {@code frontier}, {@code crossover} and {@code intensity}:
 * what runs where, at which precision and efficiency ({@link EfficiencyOptions}).
 */
final class SystemOptions {
  @Option(
      names = "--model",
      required = true,
      description = "Model id (see `ridgeline models`) or a path to a HuggingFace config.json.")
  String model;

  @Option(
      names = "--architecture",
      paramLabel = "FAMILY",
      description =
          "Read a --model config.json as this supported model_type (e.g. llama, qwen2_moe; see"
              + " `ridgeline models`), for a checkpoint whose own model_type is unknown.")
  String architecture;

  @Option(
      names = "--chip",
      description =
          "Chip id (see `ridgeline chips`) or a path to a chip JSON file; frontier and roofline"
              + " take a comma-separated list, one system per chip (or --system instead).")
  String chip;

  @Option(
      names = "--count",
      description = "Chips in the system (default: the tensor-parallel degree).")
  Integer count;

  @Option(
      names = "--tp",
      description = "Tensor-parallel degree: chips per model replica (default: --count).")
  Integer tp;

  @Option(
      names = "--weights",
      description =
          "Precision of every weight (default: the checkpoint's, e.g. fp8 for DeepSeek-V3, mxfp4"
              + " experts for gpt-oss).")
  Precision weights;

  @Option(
      names = "--attention-weights",
      description = "Precision of attention and linear-mixer weights (overrides --weights).")
  Precision attentionWeights;

  @Option(
      names = "--expert-weights",
      description = "Precision of routed-expert weights (overrides --weights).")
  Precision expertWeights;

  @Option(
      names = "--dense-weights",
      description =
          "Precision of dense FFN, shared-expert and router weights (overrides --weights).")
  Precision denseWeights;

  @Option(
      names = "--embedding-weights",
      description = "Precision of the embedding table and LM head (overrides --weights).")
  Precision embeddingWeights;

  @Option(
      names = "--kv",
      description =
          "KV-cache and recurrent-state precision (default: the checkpoint's dtype, bf16 for"
              + " most).")
  Precision kv;

  @Option(
      names = "--activations",
      description =
          "Activation precision (default: bf16, with FP8/FP4 weights quantized to their own"
              + " precision where the chip has the units); setting it makes GEMMs weight-only.")
  Precision activations;

  @Option(
      names = "--routing-skew",
      defaultValue = "0",
      description = "Zipf exponent of MoE expert popularity; 0 = uniform routing (default).")
  double routingSkew;

  @Option(
      names = "--expert-imbalance",
      description =
          "With --ep > 1, time the routed experts at the busiest expert-parallel rank's expected"
              + " load (tokens and hit experts under uniform routing) instead of the mean rank's.")
  boolean expertImbalance;

  @Option(
      names = "--redundant-experts",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Redundant MoE expert slots per expert-parallel rank (EPLB: the busiest experts"
              + " replicated, each replica taking half of its tokens), which lower the busiest"
              + " rank's load under --expert-imbalance; 0 = none (default).")
  int redundantExperts;

  @Option(
      names = "--kv-offload",
      paramLabel = "POLICY",
      defaultValue = "none",
      description =
          "KV cache kept in the chip's slower offload tier (GH200/GB200 LPDDR5X): none (default,"
              + " all KV in HBM), history (a request's cached KV waits there between turns and is"
              + " fetched back at prefill, in TTFT), spill (KV that HBM cannot hold is read there"
              + " every decode step), all (both).")
  String kvOffload;

  @Mixin EfficiencyOptions efficiencyOptions;

  @Mixin ChipSetOption chipSet;

  private EfficiencyOptions.Choice choice;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Option(
      names = "--pp",
      defaultValue = "1",
      description = "Pipeline stages per replica (default: ${DEFAULT-VALUE}).")
  int pp;

  @Option(
      names = "--ep",
      defaultValue = "1",
      description = "Chips of a stage that MoE experts spread over (default: ${DEFAULT-VALUE}).")
  int ep;

  @Option(
      names = "--attention-dp",
      defaultValue = "1",
      description = "Attention data-parallel groups per stage (default: ${DEFAULT-VALUE}).")
  int attentionDp;

  /** The pool the options describe, sized for one request when neither --count nor --tp is set. */
  RooflineModel build() {
    return build(1, 1);
  }

  /**
   * The pool the options describe. When neither --count nor --tp is given and one chip cannot hold
   * {@code batch} sequences at {@code context}, the pool is sized to the fewest chips that can.
   */
  RooflineModel build(int batch, int context) {
    efficiency();
    return poolSpec(model(), chip(oneChip()), count, tp).build(batch, context);
  }

  /**
   * The chips of --chip, a comma-separated list (blanks dropped), in order.
   *
   * @throws IllegalArgumentException when the list names no chip
   */
  List<String> chipIds() {
    if (chip == null) {
      throw new IllegalArgumentException(
          "give --chip CHIP (see `ridgeline chips`)"
              + (command != null && command.findOption("--system") != null
                  ? " or --system CHIP[:COUNT][:FIELD=VALUE...]"
                  : ""));
    }
    List<String> ids = new java.util.ArrayList<>();
    for (String id : com.google.common.base.Splitter.on(',').trimResults().split(chip)) {
      if (!id.isEmpty()) {
        ids.add(id);
      }
    }
    if (ids.isEmpty()) {
      throw new IllegalArgumentException(
          "--chip must name a chip, e.g. --chip h100-sxm: '" + chip + "'");
    }
    return ids;
  }

  /**
   * Makes {@code id}, one of {@link #chipIds()}, the chip these options describe (the command's
   * next system): {@link #efficiency()} is resolved again for it.
   */
  void select(String id) {
    if (chipList == null && chip != null) {
      chipList = chipIds();
    }
    chip = id;
    choice = null;
  }

  /**
   * The one chip of --chip.
   *
   * @throws IllegalArgumentException when --chip names several (only frontier and roofline take a
   *     list)
   */
  private String oneChip() {
    if (chip == null) {
      return chipIds().get(0); // throws: no chip given
    }
    if (chip.indexOf(',') >= 0 && chipIds().size() > 1) {
      throw new IllegalArgumentException(
          "--chip takes one chip here (frontier and roofline take a list): '" + chip + "'");
    }
    return chipIds().get(0);
  }

  /**
   * The models of one command line, ids or config paths, with unique ids ({@link
   * Models#resolveAll}), config files read as {@code architecture} when it is not null.
   *
   * @throws IllegalArgumentException naming --architecture when it is not a supported model_type or
   *     is given with a built-in model id only
   */
  static List<Model> resolveModels(List<String> idsOrPaths, String architecture) {
    if (architecture != null) {
      if (!Models.supportedModelTypes().contains(architecture)) {
        throw new IllegalArgumentException(
            "--architecture must be a supported model_type ("
                + String.join(", ", Models.supportedModelTypes())
                + "): '"
                + architecture
                + "'");
      }
      if (idsOrPaths.stream().allMatch(m -> Models.builtIn().find(m).isPresent())) {
        throw new IllegalArgumentException(
            "--architecture applies to a config.json path, not to the built-in model '"
                + idsOrPaths.get(0)
                + "': '"
                + architecture
                + "'");
      }
    }
    Optional<InlineInputs> inline = InlineInputs.current();
    if (inline.isPresent()) {
      // a run with its inputs in memory (the HTTP API): named configurations, no file
      return idsOrPaths.stream()
          .map(
              m ->
                  inline
                      .get()
                      .model(
                          m,
                          Models.builtIn().find(m).isPresent()
                              ? Optional.empty()
                              : Optional.ofNullable(architecture)))
          .toList();
    }
    return Models.resolveAll(idsOrPaths, Optional.ofNullable(architecture));
  }

  /** The command these options belong to, for its error stream. */
  @picocli.CommandLine.Spec(picocli.CommandLine.Spec.Target.MIXEE)
  picocli.CommandLine.Model.CommandSpec command;

  private Model resolved;

  /**
   * The --model, read as --architecture when one is given, resolved once; a config's warnings go to
   * stderr ({@link #warn}).
   */
  Model model() {
    if (resolved == null) {
      resolved = resolveModels(List.of(model), architecture).get(0);
      warn(resolved, command);
    }
    return resolved;
  }

  /**
   * Prints a warning on the error stream of {@code command} when a sequence of {@code tokens}
   * (history, prompt and output) is longer than {@code m}'s context window ({@link
   * Model#contextWarning}).
   */
  static void warnContext(Model m, long tokens, picocli.CommandLine.Model.CommandSpec command) {
    warn(m.contextWarning(tokens).stream().toList(), command);
  }

  /** Prints {@code m}'s configuration warnings on the error stream of {@code command}. */
  static void warn(Model m, picocli.CommandLine.Model.CommandSpec command) {
    warn(m.warnings(), command);
  }

  /**
   * Prints each of {@code warnings} as a line {@code warning: ...} on the error stream of {@code
   * command} (none without a command: a library caller).
   */
  static void warn(
      java.util.Collection<String> warnings, picocli.CommandLine.Model.CommandSpec command) {
    if (command != null) {
      warnings.forEach(w -> command.commandLine().getErr().println("warning: " + w));
    }
  }

  /**
   * The efficiency of every pool, from --efficiency, --engine and --profile (resolved once), for
   * the --chip ({@link EfficiencyOptions.Choice#forChip}: SRAM-only chips are not calibrated).
   *
   * @throws IllegalArgumentException when those options are bad
   */
  EfficiencyOptions.Choice efficiency() {
    if (choice == null) {
      choice = efficiencyOptions.resolve();
      if (chip != null) {
        choice = choice.forChip(chip(oneChip()));
      }
    }
    return choice;
  }

  /**
   * The specification of a pool of {@code c} chips serving {@code m} with these options'
   * precisions, parallelism, routing and efficiency; {@code chipCount} and {@code tpDegree} may be
   * null (see {@link PoolSpec} for how they are laid out).
   *
   * @throws IllegalArgumentException when a count or degree is not positive
   */
  PoolSpec poolSpec(Model m, Chip c, Integer chipCount, Integer tpDegree) {
    return PoolSpec.builder()
        .model(m)
        .chip(c)
        .count(Optional.ofNullable(chipCount))
        .tensorParallel(Optional.ofNullable(tpDegree))
        .pipelineParallel(pp)
        .expertParallel(ep)
        .attentionDataParallel(attentionDp)
        .precisions(precisions(m))
        .routing(Routing.zipf(routingSkew))
        .expertImbalance(expertImbalance)
        .redundantExpertsPerRank(redundantExperts)
        .efficiency(efficiency().efficiency())
        .kvOffload(kvOffload())
        .build();
  }

  /**
   * The --kv-offload policy.
   *
   * @throws IllegalArgumentException naming the option and the value when it is unknown
   */
  KvOffload kvOffload() {
    return KvOffload.of(kvOffload);
  }

  /** The checkpoint's precisions with the options' overrides applied. */
  Precisions precisions(Model m) {
    Precisions p = m.defaultPrecisions();
    if (weights != null) {
      p = p.withAllWeights(weights);
    }
    Map<TensorClass, Precision> overrides = new EnumMap<>(TensorClass.class);
    overrides.putAll(p.weightOverrides());
    putIfSet(overrides, TensorClass.ATTENTION, attentionWeights);
    putIfSet(overrides, TensorClass.EXPERTS, expertWeights);
    putIfSet(overrides, TensorClass.DENSE_FFN, denseWeights);
    putIfSet(overrides, TensorClass.EMBEDDINGS, embeddingWeights);
    Precisions.Builder b = Precisions.builder().from(p).weightOverrides(overrides);
    if (kv != null) {
      b.kvCache(kv);
    }
    if (activations != null) {
      // an explicit activation precision: GEMMs run at the wider of weights and activations
      b.activations(activations).gemmInputs(GemmInputs.ACTIVATION_PRECISION);
    }
    return b.build();
  }

  private static void putIfSet(Map<TensorClass, Precision> m, TensorClass c, Precision p) {
    if (p != null) {
      m.put(c, p);
    }
  }

  /**
   * The chip {@code idOrPath} names, with its --chip-set what-if ({@link ChipSetOption#resolve}:
   * {@code CHIP*} is the modified chip).
   */
  Chip chip(String idOrPath) {
    return chipSet.resolve(
        idOrPath, chipList != null ? chipList : chip == null ? List.of() : chipIds());
  }

  /**
   * Every chip of --chip (or of the command's --system specs, {@link #useChips}), once {@link
   * #select} has moved the options to one of them.
   */
  private List<String> chipList;

  /** Makes {@code ids} the command's chips (those of its --system specs) for {@link #chip}. */
  void useChips(List<String> ids) {
    chipList = List.copyOf(ids);
  }

  static Chip resolveChip(String idOrPath) {
    Optional<InlineInputs> inline = InlineInputs.current();
    if (inline.isPresent()) {
      // a run with its inputs in memory (the HTTP API): posted chips first, no file
      return inline.get().chip(idOrPath);
    }
    return Chips.resolve(idOrPath);
  }

  static void positive(String option, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException(option + " must be positive: " + value);
    }
  }
}
