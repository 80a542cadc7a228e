package io.ridgeline.cli;

import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.EngineProfile;
import io.ridgeline.serving.efficiency.EngineRelease;
import io.ridgeline.serving.efficiency.Profiles;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --efficiency}, {@code --engine}, {@code --engine-version}, {@code --profile} and {@code
 * --eager-decode}: the efficiency every pool of {@code roofline}, {@code frontier}, {@code
 * crossover}, {@code intensity}, {@code plan} and {@code sweep} is built with. Calibrated (an
 * engine profile's {@link Efficiency}) by default; {@code ideal} is the roofline bound. The
 * profile's {@code max_running_requests} is not applied: batches are limited by memory (and the
 * commands' own batch options) only.
 */
final class EfficiencyOptions {
  @Option(
      names = "--efficiency",
      paramLabel = "MODE",
      description =
          "Efficiency mode: calibrated (the pooled engine profile fitted on the shipped validation"
              + " cases; default) or ideal (100%% of peak and bandwidth, no overheads: the roofline bound)."
              + " The profile's cap on running requests is not applied: memory limits the batch.")
  String efficiency;

  @Option(
      names = "--engine",
      paramLabel = "NAME",
      description =
          "Engine family whose profile calibrated uses (default: default). The built-in profiles"
              + " are one pooled profile, default, which every family uses: no engine has its own"
              + " offsets yet. In a --profile file, names match exactly, then ignoring case; a"
              + " name without a profile uses default.")
  String engine;

  @Option(
      names = "--engine-version",
      paramLabel = "V",
      description =
          "Version of the --engine family the deployment runs (e.g. 0.6.5): a digit, then letters,"
              + " digits, '.', '-', '+' or '_'. An engine offset would apply to its version series"
              + " (0.6 for 0.6.5, 1 for 1.1.0) or its family when at least two independent sources"
              + " back it; none is shipped (offsets estimated from other sources did not improve"
              + " the leave-one-source-out error), so the output says that no offset applies and"
              + " the band stays that of an unseen deployment. Needs --engine.")
  String engineVersion;

  @Option(
      names = "--profile",
      paramLabel = "FILE",
      description =
          "Engine profiles fitted by 'ridgeline calibrate --out' (JSON), used instead of the"
              + " built-in ones; implies calibrated.")
  Path profile;

  @Option(
      names = "--eager-decode",
      description =
          "The engine runs decode without CUDA graphs (vLLM --enforce-eager; TensorRT-LLM's"
              + " PyTorch backend before July 2025): each decode pass launches every kernel from"
              + " the host at the profile's eager launch cost, as prefill passes do; calibrated"
              + " only.")
  boolean eagerDecode;

  @Option(
      names = "--synchronous-scheduler",
      description =
          "The engine schedules each step after the previous one instead of overlapping the host"
              + " with the device (vLLM --no-async-scheduling or its V0 engine; SGLang"
              + " --disable-overlap-schedule; TensorRT-LLM disable_overlap_scheduler, or its"
              + " PyTorch backend before May 2025): the step's host work adds to each pass, and a"
              + " request arriving during a step joins the next one (half a step of wait, not one"
              + " and a half); calibrated only.")
  boolean synchronousScheduler;

  /**
   * The efficiency the options ask for.
   *
   * @throws IllegalArgumentException for a mode other than ideal or calibrated, for --profile,
   *     --engine, --eager-decode or --synchronous-scheduler with --efficiency ideal, and for a
   *     profile file that cannot be read
   */
  Choice resolve() {
    String mode = efficiency == null ? "calibrated" : efficiency.trim().toLowerCase(Locale.ROOT);
    if (!mode.equals("ideal") && !mode.equals("calibrated")) {
      throw new IllegalArgumentException(
          "--efficiency must be 'ideal' or 'calibrated': '" + efficiency + "'");
    }
    if (mode.equals("ideal")) {
      if (profile != null) {
        throw new IllegalArgumentException(
            "--profile needs --efficiency calibrated (or no --efficiency): '"
                + profile
                + "' with --efficiency ideal");
      }
      if (engine != null) {
        throw new IllegalArgumentException(
            "--engine needs --efficiency calibrated (or no --efficiency): '"
                + engine
                + "' with --efficiency ideal");
      }
      if (engineVersion != null) {
        throw new IllegalArgumentException(
            "--engine-version needs --efficiency calibrated (or no --efficiency): '"
                + engineVersion
                + "' with --efficiency ideal");
      }
      if (eagerDecode) {
        throw new IllegalArgumentException(
            "--eager-decode needs --efficiency calibrated (or no --efficiency): the roofline bound"
                + " launches no kernels");
      }
      if (synchronousScheduler) {
        throw new IllegalArgumentException(
            "--synchronous-scheduler needs --efficiency calibrated (or no --efficiency): the"
                + " roofline bound has no host scheduler");
      }
      return Choice.IDEAL;
    }
    String asked = engine == null ? Profiles.DEFAULT : engine.trim();
    if (asked.isEmpty()) {
      throw new IllegalArgumentException("--engine must name an engine family: '" + engine + "'");
    }
    Optional<EngineRelease> release = release(asked);
    Profiles profiles = profile == null ? Profiles.builtIn() : Profiles.read(profile);
    EngineProfile p = find(profiles, asked);
    StringBuilder label = new StringBuilder("calibrated: ").append(p.name()).append(" profile");
    if (profile != null) {
      label.append(" of ").append(profile);
    }
    if (!p.name().equalsIgnoreCase(asked)) {
      label.append(
          profile == null
              ? ", pooled: no engine has its own offsets yet, '" + asked + "' included"
              : ", no '" + asked + "' profile");
    }
    // no engine offsets are shipped (docs/decisions.md): the band is the unseen deployment's
    release.ifPresent(
        r ->
            label
                .append("; engine ")
                .append(r)
                .append(": no engine offset applies, the band is that of an unseen deployment"));
    Efficiency e = p.efficiency();
    if (eagerDecode || synchronousScheduler) {
      e =
          Efficiency.builder()
              .from(e)
              .eagerDecode(eagerDecode || e.eagerDecode())
              .overlapScheduler(!synchronousScheduler && e.overlapScheduler())
              .build();
    }
    return new Choice(e, label + " (" + e + ")", asked);
  }

  /**
   * The release {@code --engine-version} names for the family {@code asked}; empty without the
   * option.
   *
   * @throws IllegalArgumentException without {@code --engine}, for a malformed version ({@link
   *     EngineRelease#VERSION}) or a family name that is not one ({@link EngineRelease#FAMILY})
   */
  private Optional<EngineRelease> release(String asked) {
    if (engineVersion == null) {
      return Optional.empty();
    }
    if (engine == null) {
      throw new IllegalArgumentException(
          "--engine-version needs --engine NAME, the family the version belongs to: '"
              + engineVersion
              + "'");
    }
    String v = engineVersion.trim();
    if (!EngineRelease.VERSION.matcher(v).matches()) {
      throw new IllegalArgumentException(
          "--engine-version must start with a digit followed by letters, digits, '.', '-', '+' or"
              + " '_' (e.g. 0.6.5): '"
              + engineVersion
              + "'");
    }
    if (!EngineRelease.FAMILY.matcher(asked.toLowerCase(Locale.ROOT)).matches()) {
      throw new IllegalArgumentException(
          "--engine must name an engine family (a letter or digit, then letters, digits, '.', '-'"
              + " or '_') to take --engine-version: '"
              + engine
              + "'");
    }
    return Optional.of(EngineRelease.of(asked, v));
  }

  /**
   * {@code name}'s profile ({@link Profiles#forEngine}), else one whose name differs only in case,
   * else the default one.
   */
  private static EngineProfile find(Profiles profiles, String name) {
    EngineProfile exact = profiles.forEngine(name);
    if (exact.name().equals(name)) {
      return exact;
    }
    for (EngineProfile p : profiles.profiles().values()) {
      if (p.name().equalsIgnoreCase(name)) {
        return p;
      }
    }
    return exact;
  }

  /**
   * An efficiency and what it is.
   *
   * @param efficiency the efficiency of every pool
   * @param description {@code ideal}, or {@code calibrated: NAME profile[ of FILE][, no 'ENGINE'
   *     profile] (compute …, memory …, …)}, where an engine the built-in profiles do not list reads
   *     {@code calibrated: default profile, pooled: no engine has its own offsets yet, 'ENGINE'
   *     included (…)}, and {@code --engine-version V} adds {@code ; engine ENGINE V: no engine
   *     offset applies, the band is that of an unseen deployment} before the parenthesis: the JSON
   *     {@code efficiency} field
   */
  record Choice(Efficiency efficiency, String description, String engine) {
    static final Choice IDEAL = new Choice(Efficiency.ideal(), "ideal", Profiles.DEFAULT);

    /** A choice of the {@value Profiles#DEFAULT} engine. */
    Choice(Efficiency efficiency, String description) {
      this(efficiency, description, Profiles.DEFAULT);
    }

    /** Whether estimates carry the calibrated profiles' error band (not ideal, not SRAM-only). */
    boolean banded() {
      return !ideal() && !description.startsWith("sram-only");
    }

    /**
     * The error band line and a warning per property of {@code rm} the profiles have not seen, for
     * text output; empty for the roofline bound and SRAM-only chips.
     */
    java.util.List<String> bandLines(io.ridgeline.serving.RooflineModel rm) {
      return bandLines(rm.model(), java.util.List.of(rm.chip()));
    }

    /** {@link #bandLines(io.ridgeline.serving.RooflineModel)} for a model on several chips. */
    java.util.List<String> bandLines(
        io.ridgeline.models.Model model, java.util.Collection<io.ridgeline.hardware.Chip> chips) {
      if (!banded()) {
        return java.util.List.of();
      }
      io.ridgeline.serving.efficiency.ErrorBands b =
          io.ridgeline.serving.efficiency.ErrorBands.builtIn();
      java.util.List<String> out = new java.util.ArrayList<>();
      out.add(b.toString());
      warnings(model, chips).forEach(w -> out.add("warning: " + w));
      return out;
    }

    private java.util.Set<String> warnings(
        io.ridgeline.models.Model model, java.util.Collection<io.ridgeline.hardware.Chip> chips) {
      java.util.Set<String> out = new java.util.LinkedHashSet<>();
      for (io.ridgeline.hardware.Chip c : chips) {
        out.addAll(io.ridgeline.serving.efficiency.ErrorBands.builtIn().warnings(model, c, engine));
      }
      return out;
    }

    /**
     * Adds {@code error_band} (typical error per estimate, a fraction; {@code range}: each
     * estimate's asymmetric band {@code low}, {@code high}, {@code coverage}) and {@code warnings}
     * to {@code o} when estimates carry a band.
     */
    void putBand(
        com.fasterxml.jackson.databind.node.ObjectNode o, io.ridgeline.serving.RooflineModel rm) {
      putBand(o, rm.model(), java.util.List.of(rm.chip()));
    }

    /**
     * {@link #putBand(com.fasterxml.jackson.databind.node.ObjectNode,
     * io.ridgeline.serving.RooflineModel)} for a model on several chips.
     */
    void putBand(
        com.fasterxml.jackson.databind.node.ObjectNode o,
        io.ridgeline.models.Model model,
        java.util.Collection<io.ridgeline.hardware.Chip> chips) {
      if (!banded()) {
        return;
      }
      io.ridgeline.serving.efficiency.ErrorBands b =
          io.ridgeline.serving.efficiency.ErrorBands.builtIn();
      com.fasterxml.jackson.databind.node.ObjectNode band = o.putObject("error_band");
      for (io.ridgeline.serving.efficiency.ErrorBands.Estimate e :
          io.ridgeline.serving.efficiency.ErrorBands.Estimate.values()) {
        band.put(e.key(), b.typical(e));
      }
      // the asymmetric band: measured / estimate - 1 between low and high for about 60% of
      // unseen deployments; coverage is the realised share
      com.fasterxml.jackson.databind.node.ObjectNode range = band.putObject("range");
      for (io.ridgeline.serving.efficiency.ErrorBands.Estimate e :
          io.ridgeline.serving.efficiency.ErrorBands.Estimate.values()) {
        io.ridgeline.serving.efficiency.ErrorBands.Range r = b.range(e);
        range
            .putObject(e.key())
            .put("low", r.low())
            .put("high", r.high())
            .put("coverage", r.coverage());
      }
      band.put("source", b.source());
      com.fasterxml.jackson.databind.node.ArrayNode w = o.putArray("warnings");
      warnings(model, chips).forEach(w::add);
    }

    /**
     * This choice for pools of {@code chip}: itself, except that a non-ideal choice on an SRAM-only
     * chip is the roofline with a pipeline latency floor ({@link Efficiency#sramFloor}), described
     * as such rather than as calibrated.
     */
    Choice forChip(io.ridgeline.hardware.Chip chip) {
      if (ideal() || !Efficiency.sramOnly(chip)) {
        return this;
      }
      Efficiency floor = Efficiency.sramFloor(chip);
      return new Choice(
          floor,
          "sram-only: roofline + pipeline latency floor ("
              + floor
              + "; no engine profile is fitted on SRAM-only chips)");
    }

    /** Whether this is the roofline bound. */
    boolean ideal() {
      return description.equals("ideal");
    }

    /** One line for text output. */
    String line() {
      return ideal()
          ? "efficiency: ideal (100% of peak and bandwidth, no overheads: the roofline bound)"
          : "efficiency: " + description + "; --efficiency ideal for the roofline bound";
    }
  }
}
