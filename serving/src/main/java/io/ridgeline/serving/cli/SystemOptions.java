package io.ridgeline.serving.cli;

import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Efficiency;
import io.ridgeline.serving.RooflineModel;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options shared by {@code roofline} and {@code frontier}: what runs where, at which precision. */
final class SystemOptions {
  @Option(
      names = "--model",
      required = true,
      description = "Model id (see `ridgeline models`) or a path to a HuggingFace config.json.")
  String model;

  @Option(
      names = "--chip",
      required = true,
      description = "Chip id (see `ridgeline chips`) or a path to a chip JSON file.")
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
      defaultValue = "bf16",
      description = "Weight precision (default: ${DEFAULT-VALUE}).")
  Precision weights;

  @Option(
      names = "--kv",
      defaultValue = "bf16",
      description = "KV-cache precision (default: ${DEFAULT-VALUE}).")
  Precision kv;

  @Option(
      names = "--activations",
      defaultValue = "bf16",
      description = "Activation precision (default: ${DEFAULT-VALUE}).")
  Precision activations;

  @Option(
      names = "--efficiency",
      defaultValue = "ideal",
      description = "Efficiency mode: ideal (100%% of peak and bandwidth).")
  String efficiency;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  RooflineModel build() {
    if (!efficiency.equals("ideal")) {
      throw new IllegalArgumentException(
          "--efficiency must be 'ideal' (the only mode so far): '" + efficiency + "'");
    }
    Model m = Models.resolve(model);
    Chip c = resolveChip(chip);
    int tpDegree = tp != null ? tp : (count != null ? count : 1);
    int chips = count != null ? count : tpDegree;
    positive("--count", chips);
    positive("--tp", tpDegree);
    return RooflineModel.builder()
        .model(m)
        .chip(c)
        .chips(chips)
        .tensorParallel(tpDegree)
        .precisions(Precisions.of(weights, kv, activations))
        .efficiency(Efficiency.ideal())
        .build();
  }

  static Chip resolveChip(String idOrPath) {
    if (Chips.builtIn().find(idOrPath).isPresent()) {
      return Chips.byId(idOrPath);
    }
    Path p = Path.of(idOrPath);
    if (idOrPath.endsWith(".json") && Files.isRegularFile(p)) {
      return Chips.fromJson(p).get(0);
    }
    return Chips.byId(idOrPath);
  }

  static void positive(String option, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException(option + " must be positive: " + value);
    }
  }
}
