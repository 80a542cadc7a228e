package io.ridgeline.cli;

import com.google.common.base.Splitter;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.DeploymentSpec;
import io.ridgeline.serving.PoolSpec;
import io.ridgeline.serving.Speculation;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.ArrayList;
import java.util.List;

/**
 * The deployments {@code ridgeline frontier} ({@link FrontierCommand}) sweeps, built from its
 * options through {@link DeploymentSpec}: one per {@code --strategy} token ({@code pd:CHIP[:COUNT]}
 * for a decode pool of another chip), with the prefill, decode, attention and FFN pools of the
 * {@code --prefill-*}, {@code --decode-*} and AFD options, the pool link and the speculation of
 * {@code --spec-*}. Reads the command's options when asked, so a spec applied to them in between
 * ({@link FrontierComparison}) is followed.
 */
final class FrontierDeployments {
  private final FrontierCommand c;

  FrontierDeployments(FrontierCommand command) {
    this.c = command;
  }

  /**
   * The deployments of --strategy ("all": every strategy), their unique labels in {@code labels}
   * (the token as given, e.g. {@code pd:groq-lpu:576}; a repeated one gets {@code #2}, …); with
   * {@code ideal}, every pool at the roofline bound.
   */
  List<Deployment> deployments(Model m, List<String> labels, boolean ideal) {
    List<String> tokens = new ArrayList<>();
    if (c.strategy.trim().equalsIgnoreCase("all")) {
      FrontierCommand.all().forEach(s -> tokens.add(s.id()));
    } else {
      for (String t : Splitter.on(',').split(c.strategy)) {
        if (!t.isBlank()) {
          tokens.add(t);
        }
      }
    }
    if (tokens.isEmpty()) {
      throw new IllegalArgumentException(
          "--strategy must name at least one strategy ("
              + String.join(", ", new FrontierCommand.StrategyIds())
              + ", all): '"
              + c.strategy
              + "'");
    }
    List<Deployment> deployments = new ArrayList<>();
    for (String token : tokens) {
      // name, or pd:CHIP[:COUNT] for a decode pool of another chip (e.g. pd:groq-lpu:576)
      List<String> parts = Splitter.on(':').splitToList(token.trim());
      Deployment.Strategy s = Deployment.Strategy.of(parts.get(0).trim());
      if (parts.size() > 1 && s != Deployment.Strategy.PD) {
        throw new IllegalArgumentException(
            "--strategy " + token + ": only pd takes a decode chip (pd:CHIP[:COUNT])");
      }
      String dChip = parts.size() > 1 ? parts.get(1) : c.decodeChip;
      Integer dCount =
          parts.size() > 2 ? count(token, parts.get(2)) : parts.size() > 1 ? null : c.decodeCount;
      deployments.add(deployment(s, m, dChip, dCount, ideal));
      String label = s.id() + token.trim().substring(parts.get(0).length());
      String unique = label;
      for (int n = 2; labels.contains(unique); n++) {
        unique = label + "#" + n;
      }
      labels.add(unique);
    }
    return deployments;
  }

  /** A chip by id or file, with its --price. */
  private Chip chip(String idOrPath) {
    return c.prices.apply(c.system.chip(idOrPath));
  }

  /** A pool of the options, at the roofline bound when {@code ideal}. */
  private PoolSpec pool(
      boolean ideal, Model m, Chip poolChip, Integer chipCount, Integer tpDegree) {
    PoolSpec p = c.system.poolSpec(m, poolChip, chipCount, tpDegree);
    return ideal ? PoolSpec.builder().from(p).efficiency(Efficiency.ideal()).build() : p;
  }

  /**
   * The PD/AFD prefill pool on chip {@code poolChip}: {@code --prefill-count} chips or sized to
   * hold a prompt, without the decode pool's {@code --pp} (its depth is what the decode pool needs
   * to hold its batch: an SRAM decode pool's 79 stages would make a GPU prefill pool 79 GPUs).
   */
  private PoolSpec prefillPool(boolean ideal, Model m, Chip poolChip) {
    return PoolSpec.builder()
        .from(pool(ideal, m, poolChip, c.prefillCount, null))
        .pipelineParallel(1)
        .build();
  }

  private static Integer count(String token, String text) {
    try {
      int n = Integer.parseInt(text.trim());
      OptionLimits.Range r = OptionLimits.RANGES.get("--decode-count");
      if (!r.contains(n)) {
        throw new IllegalArgumentException(
            "--strategy " + token + ": the chip count " + r.broken(n) + ": " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--strategy " + token + ": the chip count must be a whole number: '" + text + "'", e);
    }
  }

  /**
   * The deployment of strategy {@code s} from the options, through {@link DeploymentSpec}; {@code
   * decodeChip} and {@code decodeCount} (either may be null) describe a pd decode pool; with {@code
   * ideal}, every pool runs at the roofline bound.
   */
  private Deployment deployment(
      Deployment.Strategy s, Model m, String decodeChip, Integer decodeCount, boolean ideal) {
    DeploymentSpec.Builder b =
        DeploymentSpec.builder().strategy(s).afdMicroBatches(c.afd.afdMicroBatches);
    if (c.poolLinkGbps != null) {
      b.poolLink(BytesPerSecond.ofGigabytes(c.poolLinkGbps));
    }
    if (c.specDraft == null) {
      // a speculation option without a draft would be ignored: refused instead
      if (c.specLength != null || c.specAcceptance != null) {
        throw new IllegalArgumentException(
            (c.specLength != null
                    ? "--spec-length " + c.specLength
                    : "--spec-acceptance " + c.specAcceptance)
                + " needs --spec-draft MODEL|mtp");
      }
    } else {
      int length = c.specLength != null ? c.specLength : 3;
      double acceptance = c.specAcceptance != null ? c.specAcceptance : 0.8;
      SystemOptions.positive("--spec-length", length);
      b.speculation(
          c.specDraft.equalsIgnoreCase("mtp")
              ? Speculation.mtp(length, acceptance)
              : Speculation.withDraft(
                  // one run, unique names: a draft config never takes the target's id
                  SystemOptions.resolveModels(
                          List.of(c.system.model, c.specDraft), c.system.architecture)
                      .get(1),
                  length,
                  acceptance));
    }
    DeploymentSpec spec =
        switch (s) {
          case PD -> {
            Chip decodeC = chip(decodeChip != null ? decodeChip : c.system.chip);
            Chip prefillC = chip(c.prefillChip != null ? c.prefillChip : c.system.chip);
            // --count/--tp describe the decode pool unless it has a chip of its own
            boolean ownDecodeChip = decodeChip != null;
            Integer dCount =
                decodeCount != null ? decodeCount : ownDecodeChip ? null : c.system.count;
            Integer dTp = decodeCount != null || ownDecodeChip ? null : c.system.tp;
            yield b.pool(pool(ideal, m, decodeC, dCount, dTp))
                .prefill(prefillPool(ideal, m, prefillC))
                .build();
          }
          case AFD -> {
            Chip attC = chip(c.afd.attentionChip != null ? c.afd.attentionChip : c.system.chip);
            Chip ffnC = chip(c.afd.ffnChip != null ? c.afd.ffnChip : c.system.chip);
            Integer attN =
                c.afd.attentionCount != null
                    ? c.afd.attentionCount
                    : c.afd.attentionChip == null ? c.system.count : null;
            Chip afdPrefillC = chip(c.prefillChip != null ? c.prefillChip : c.system.chip);
            PoolSpec ffnSpec = c.afd.ffnSpec(c.system, m, ffnC);
            yield b.pool(pool(ideal, m, attC, attN, attN))
                .prefill(prefillPool(ideal, m, afdPrefillC))
                .ffn(
                    ideal
                        ? PoolSpec.builder().from(ffnSpec).efficiency(Efficiency.ideal()).build()
                        : ffnSpec)
                .build();
          }
          case STATIC, COLOCATED ->
              b.pool(pool(ideal, m, chip(c.system.chip), c.system.count, c.system.tp)).build();
        };
    // pools are laid out for the KV they hold: the prompt context, history included, as the sweep
    return spec.build(c.request().promptContext(), c.osl);
  }
}
