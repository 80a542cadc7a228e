package io.ridgeline.cli;

import io.ridgeline.core.Names;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.Speculation;
import io.ridgeline.serving.plan.PlanSystem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code ridgeline plan} ({@link PlanCommand}) searches, read from its options: the strategies
 * of {@code --strategies}, the systems of {@code --system}, the precision combinations of {@code
 * --weights} and {@code --kv}, and the speculation of {@code --spec-*}. Bad input is an {@link
 * IllegalArgumentException} with one line naming the option.
 */
final class PlanSearch {
  private PlanSearch() {}

  /** The ids --strategies takes, for its help: {@link #searchable()}. */
  static final class SearchableIds implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return searchable().iterator();
    }
  }

  /** The ids of the strategies the planner searches: every one, in declaration order. */
  static List<String> searchable() {
    return Arrays.stream(Deployment.Strategy.values()).map(Deployment.Strategy::id).toList();
  }

  /** The strategies of --strategies, at least one. */
  static Set<Deployment.Strategy> searched(List<String> strategies) {
    Set<Deployment.Strategy> searched = EnumSet.noneOf(Deployment.Strategy.class);
    for (String s : strategies) {
      if (!s.isBlank()) {
        searched.add(strategy(s.trim()));
      }
    }
    if (searched.isEmpty()) {
      throw new IllegalArgumentException(
          "--strategies must name at least one of " + String.join(", ", searchable()));
    }
    return searched;
  }

  /** A strategy the planner searches, by id; the message lists those and the closest. */
  private static Deployment.Strategy strategy(String id) {
    List<String> known = searchable();
    for (String k : known) {
      if (k.equalsIgnoreCase(id)) {
        return Deployment.Strategy.of(k);
      }
    }
    String hint = Names.closest(id, known).map(c -> "; did you mean '" + c + "'?").orElse(";");
    throw new IllegalArgumentException(
        "unknown strategy '" + id + "'" + hint + " known: " + String.join(", ", known));
  }

  /**
   * The specs of every --system, each with a count; empty without one.
   *
   * @param chipsGiven whether --chips was given on the command line
   * @throws IllegalArgumentException in one line when a spec is bad ({@link SystemSpec#parse}), has
   *     no count, or comes with --chips
   */
  static List<SystemSpec> systemSpecs(List<String> systems, boolean chipsGiven) {
    if (systems == null || systems.isEmpty()) {
      return List.of();
    }
    if (chipsGiven) {
      throw new IllegalArgumentException(
          "--system and --chips are exclusive: each --system names its own chip and count (e.g."
              + " --system h100-sxm:8:tp=8 --system b200:4)");
    }
    List<SystemSpec> out = new ArrayList<>();
    for (String text : systems) {
      SystemSpec s = SystemSpec.parse(text);
      if (s.count() == null) {
        throw new IllegalArgumentException(
            "--system " + text + ": give the chip count, e.g. " + s.chip() + ":8");
      }
      out.add(s);
    }
    return out;
  }

  /** The planner's system of one spec on its resolved (and priced) chip. */
  static PlanSystem planSystem(SystemSpec s, Chip chip) {
    try {
      return planSystemOf(s, chip);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--system " + s.text() + ": " + e.getMessage(), e);
    }
  }

  private static PlanSystem planSystemOf(SystemSpec s, Chip chip) {
    PlanSystem p = PlanSystem.of(chip, s.count());
    if (s.tp() != null) {
      p = p.withTensorParallel(s.tp());
    }
    if (s.pp() != null) {
      p = p.withPipelineParallel(s.pp());
    }
    if (s.ep() != null) {
      p = p.withExpertParallel(s.ep());
    }
    if (s.attentionDp() != null) {
      p = p.withAttentionDataParallel(s.attentionDp());
    }
    if (s.strategy() != null) {
      Set<Deployment.Strategy> only = EnumSet.noneOf(Deployment.Strategy.class);
      for (String id : s.strategy().split(",", -1)) {
        only.add(strategy(id.trim()));
      }
      p = p.withStrategies(only);
    }
    return p;
  }

  /**
   * Every combination of --weights and --kv (each the checkpoint's when absent, that is null),
   * without repeats.
   */
  static List<Precisions> precisionChoices(Model m, List<Precision> weights, List<Precision> kv) {
    List<Precisions> out = new ArrayList<>();
    List<Precision> ws = weights == null ? Collections.singletonList(null) : weights;
    List<Precision> ks = kv == null ? Collections.singletonList(null) : kv;
    for (Precision w : ws) {
      for (Precision k : ks) {
        Precisions p = w == null ? m.defaultPrecisions() : m.defaultPrecisions().withAllWeights(w);
        p = k == null ? p : Precisions.builder().from(p).kvCache(k).build();
        if (!out.contains(p)) {
          out.add(p);
        }
      }
    }
    return out;
  }

  /**
   * The speculation of --spec-draft, --spec-length and --spec-acceptance (each null when not
   * given), if asked for; the draft model is resolved beside {@code model} (--model) with {@code
   * architecture} (--architecture).
   */
  static Optional<Speculation> speculation(
      String specDraft,
      Integer specLength,
      Double specAcceptance,
      String model,
      String architecture) {
    if (specDraft == null) {
      if (specAcceptance != null) {
        throw new IllegalArgumentException(
            "--spec-acceptance " + specAcceptance + " needs --spec-draft MODEL|mtp");
      }
      if (specLength != null) {
        throw new IllegalArgumentException(
            "--spec-length " + specLength + " needs --spec-draft MODEL|mtp");
      }
      return Optional.empty();
    }
    int length = specLength != null ? specLength : 3;
    if (specAcceptance == null) {
      throw new IllegalArgumentException(
          "--spec-draft " + specDraft + " needs --spec-acceptance α in [0, 1)");
    }
    if (!(specAcceptance >= 0 && specAcceptance < 1)) {
      throw new IllegalArgumentException("--spec-acceptance must be in [0, 1): " + specAcceptance);
    }
    SystemOptions.positive("--spec-length", length);
    return Optional.of(
        specDraft.equalsIgnoreCase("mtp")
            ? Speculation.mtp(length, specAcceptance)
            : Speculation.withDraft(
                // one run, unique names: a draft config never takes the target's id
                SystemOptions.resolveModels(List.of(model, specDraft), architecture).get(1),
                length,
                specAcceptance));
  }
}
