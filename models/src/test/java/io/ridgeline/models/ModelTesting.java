package io.ridgeline.models;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Flops;
import io.ridgeline.core.Operation;
import io.ridgeline.core.Phase;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Shared helpers for the models tests: finding a phase or an operation by name, summing a decode
 * step, and reading the built-in config files as text.
 */
final class ModelTesting {
  private ModelTesting() {}

  /** The phase called {@code name}; fails the test, listing the phases present, when absent. */
  static Phase phase(List<Phase> phases, String name) {
    return phases.stream()
        .filter(p -> p.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no phase '" + name + "' in " + names(phases)));
  }

  /**
   * The operation called {@code name} of a phase, summed over layer shapes: a model whose layers
   * differ elsewhere (DeepSeek's 3 dense and 58 MoE layers) has one {@code attention} operation per
   * shape. FLOPs and bytes of each kind add up; precision and kv shards must agree.
   */
  static Operation operation(Phase phase, String name) {
    List<Operation> ops =
        phase.operations().stream().filter(o -> o.name().equals(name)).collect(Collectors.toList());
    if (ops.isEmpty()) {
      throw new AssertionError(
          "no operation '" + name + "' in " + phase.name() + ": " + phase.operations());
    }
    Operation first = ops.get(0);
    double flops = 0;
    Map<DataKind, Double> bytes = new EnumMap<>(DataKind.class);
    for (Operation o : ops) {
      if (o.precision() != first.precision() || o.kvShards() != first.kvShards()) {
        throw new AssertionError(
            "operations '" + name + "' differ in precision or kv shards: " + ops);
      }
      flops += o.flops().flops();
      o.bytes().forEach((k, v) -> bytes.merge(k, v.bytes(), Double::sum));
    }
    Operation.Builder b =
        Operation.builder()
            .name(name)
            .role(first.role())
            .precision(first.precision())
            .flops(Flops.of(flops))
            .kvShards(first.kvShards());
    bytes.forEach((k, v) -> b.putBytes(k, Bytes.of(v)));
    return b.build();
  }

  /** How many operations called {@code name} a phase has (one per layer shape). */
  static long count(Phase phase, String name) {
    return phase.operations().stream().filter(o -> o.name().equals(name)).count();
  }

  /** The single operation called {@code name} of the phase called {@code phaseName}. */
  static Operation operation(List<Phase> phases, String phaseName, String name) {
    return operation(phase(phases, phaseName), name);
  }

  /** The phase names in order. */
  static List<String> names(List<Phase> phases) {
    return phases.stream().map(Phase::name).collect(Collectors.toList());
  }

  /** Memory bytes of every phase together. */
  static double totalBytes(List<Phase> phases) {
    return phases.stream().mapToDouble(p -> p.bytes().bytes()).sum();
  }

  /** FLOPs of every phase together. */
  static double totalFlops(List<Phase> phases) {
    return phases.stream().mapToDouble(p -> p.flops().flops()).sum();
  }

  /** The text of a built-in config file under {@code configs/} (for example a non-HF file). */
  static String builtInConfig(String file) {
    String path = "/io/ridgeline/models/configs/" + file;
    try (InputStream in = ModelTesting.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new AssertionError("missing test resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
