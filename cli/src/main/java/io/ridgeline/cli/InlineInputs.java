package io.ridgeline.cli;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Chips and model configurations given as text rather than as files, for one run of the command
 * line ({@link RidgelineCli#execute(String[], java.io.PrintWriter, java.io.PrintWriter,
 * InlineInputs)}): what the HTTP API receives in a request body and holds in memory for that
 * request only. While such a run lasts, {@code --chip ID} (and every other chip option) finds a
 * chip of these files by its {@code id} before the catalog, {@code --model NAME} finds the config
 * given under NAME before the catalog, and no option reads a file: a path is refused with one line
 * saying how to send the file instead.
 *
 * <p>The chip files are in the format of {@link Chips#fromJson(String, String)} (one chip object or
 * an array), named {@code chip_files[i]} in messages; a model config is a HuggingFace {@code
 * config.json} ({@link Models#fromJson(String, String, String, Optional)}), named {@code
 * model_configs.NAME}.
 */
public final class InlineInputs {
  /** The most chip files or model configurations one run takes. */
  public static final int MAX_FILES = 16;

  private static final ThreadLocal<InlineInputs> CURRENT = new ThreadLocal<>();

  private final ImmutableList<Chip> chips;
  private final ImmutableMap<String, String> modelConfigs;

  private InlineInputs(List<Chip> chips, Map<String, String> modelConfigs) {
    this.chips = ImmutableList.copyOf(chips);
    this.modelConfigs = ImmutableMap.copyOf(modelConfigs);
  }

  /** No chip file, no model configuration: a run that reads no file at all. */
  public static InlineInputs none() {
    return new InlineInputs(List.of(), Map.of());
  }

  /**
   * The chips of {@code chipFiles} (each the text of a chip file) and the configurations of {@code
   * modelConfigs} (model name to the text of its {@code config.json}, read when a command names the
   * model). The chip files are read here.
   *
   * @throws IllegalArgumentException naming {@code chip_files[i]} and the field when a chip file is
   *     not valid JSON or breaks the format, when two chips share an id, when a model name is blank
   *     or names a built-in model, or when there are more than {@link #MAX_FILES} of either
   */
  public static InlineInputs of(List<String> chipFiles, Map<String, String> modelConfigs) {
    checkArgument(
        chipFiles.size() <= MAX_FILES,
        "chip_files must hold at most %s files: %s",
        MAX_FILES,
        chipFiles.size());
    checkArgument(
        modelConfigs.size() <= MAX_FILES,
        "model_configs must hold at most %s configurations: %s",
        MAX_FILES,
        modelConfigs.size());
    ImmutableList.Builder<Chip> chips = ImmutableList.builder();
    java.util.Set<String> ids = new java.util.HashSet<>();
    for (int i = 0; i < chipFiles.size(); i++) {
      String origin = "chip_files[" + i + "]";
      List<Chip> read = Chips.fromJson(chipFiles.get(i), origin);
      checkArgument(!read.isEmpty(), "%s: the chip file holds no chip", origin);
      for (Chip c : read) {
        checkArgument(
            ids.add(c.id().toLowerCase(Locale.ROOT)),
            "%s: a chip with id '%s' was already given",
            origin,
            c.id());
        chips.add(c);
      }
    }
    for (String name : modelConfigs.keySet()) {
      checkArgument(
          !name.isBlank() && name.length() <= 200,
          "model_configs: a model name must be 1 to 200 characters: '%s'",
          name);
      checkArgument(
          Models.builtIn().find(name).isEmpty(),
          "model_configs: '%s' is a built-in model; give the configuration another name",
          name);
    }
    return new InlineInputs(chips.build(), modelConfigs);
  }

  /** The chips of the chip files, in order. */
  public List<Chip> chips() {
    return chips;
  }

  /** The model names of the configurations, in order. */
  public List<String> modelNames() {
    return modelConfigs.keySet().asList();
  }

  /** The inputs of the run on this thread, or empty when it reads its inputs from files. */
  static Optional<InlineInputs> current() {
    return Optional.ofNullable(CURRENT.get());
  }

  /** Runs {@code body} with these inputs current on this thread. */
  <T> T with(java.util.function.Supplier<T> body) {
    InlineInputs previous = CURRENT.get();
    CURRENT.set(this);
    try {
      return body.get();
    } finally {
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    }
  }

  /**
   * The chip {@code idOrPath} names: a chip of these files by id (ignoring case), else a catalog
   * chip.
   *
   * @throws IllegalArgumentException when it names neither and looks like a path (no file is read)
   * @throws java.util.NoSuchElementException for an unknown id, with the closest ones
   */
  Chip chip(String idOrPath) {
    for (Chip c : chips) {
      if (c.id().equalsIgnoreCase(idOrPath)) {
        return c;
      }
    }
    Optional<Chip> builtIn = Chips.builtIn().find(idOrPath);
    if (builtIn.isPresent()) {
      return builtIn.get();
    }
    refusePath(idOrPath, "chip", "chip_files");
    return Chips.byId(idOrPath);
  }

  /**
   * The model {@code idOrName} names: a configuration of these inputs by name (read as {@code
   * family} when present), else a built-in model.
   *
   * @throws IllegalArgumentException when a configuration is invalid (the message names {@code
   *     model_configs.NAME} and the field) or the name looks like a path
   * @throws java.util.NoSuchElementException for an unknown name, with the closest ones
   */
  Model model(String idOrName, Optional<String> family) {
    String config = modelConfigs.get(idOrName);
    if (config != null) {
      return Models.fromJson(config, idOrName, "model_configs." + idOrName, family);
    }
    if (Models.builtIn().find(idOrName).isPresent()) {
      return Models.resolve(idOrName, family);
    }
    refusePath(idOrName, "model", "model_configs");
    return Models.byId(idOrName);
  }

  private static void refusePath(String value, String what, String key) {
    if (value.endsWith(".json") || value.contains("/") || value.contains("\\")) {
      throw new IllegalArgumentException(
          value + ": no file is read here; send the " + what + " in " + key);
    }
  }
}
