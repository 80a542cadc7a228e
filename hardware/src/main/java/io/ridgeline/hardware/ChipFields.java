package io.ridgeline.hardware;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.base.Splitter;
import io.ridgeline.core.Names;
import io.ridgeline.core.Precision;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The typed fields of a chip file ({@link ChipJson}): strings, numbers within the valid range of
 * their field, precision keys and known keys, each failure an {@link IllegalArgumentException}
 * whose message starts with the file and names the field path, what was expected and the value
 * found.
 */
final class ChipFields {
  /** The file name or resource name that starts every message. */
  private final String origin;

  ChipFields(String origin) {
    this.origin = origin;
  }

  /** Builds a value, prefixing a rule broken across fields with the origin and the path. */
  <T> T build(Supplier<T> builder, String path) {
    try {
      return builder.get();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new IllegalArgumentException(
          origin + ": " + (path.isEmpty() ? "" : path + ": ") + e.getMessage(), e);
    }
  }

  /** The peak precision of {@code key}: a known id that is its own peak key (not mxfp4). */
  Precision precision(String key, String path) {
    Optional<Precision> precision = Precision.find(key);
    if (precision.isEmpty()) {
      throw new IllegalArgumentException(
          origin
              + ": "
              + path
              + " is not a known precision"
              + Names.closest(key, precisionIds())
                  .map(c -> "; did you mean '" + c + "'?")
                  .orElse("")
              + " known: "
              + Precision.ids());
    }
    if (precision.get() != precision.get().peakKey()) {
      throw new IllegalArgumentException(
          origin
              + ": "
              + path
              + ": give the "
              + precision.get().id()
              + " peak as "
              + precision.get().peakKey().id()
              + " ("
              + precision.get().id()
              + " math runs at the "
              + precision.get().peakKey().id()
              + " peak)");
    }
    return precision.get();
  }

  private static List<String> precisionIds() {
    return List.of(Precision.ids().split(", "));
  }

  /** Rejects a key of {@code node} outside {@code known}, naming the closest known key. */
  void checkKeys(JsonNode node, String prefix, List<String> known) {
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      String key = e.getKey();
      if (!known.contains(key)) {
        throw new IllegalArgumentException(
            origin
                + ": "
                + prefix
                + key
                + " is not a known key"
                + Names.closest(key, known).map(c -> "; did you mean '" + c + "'?").orElse("")
                + " known keys: "
                + String.join(", ", known));
      }
    }
  }

  /** The value of {@code key}, absent when missing or {@code null}. */
  static Optional<JsonNode> present(JsonNode node, String key) {
    JsonNode value = node.get(key);
    return value == null || value.isNull() ? Optional.empty() : Optional.of(value);
  }

  /** The value of {@code key}, which must be present. */
  JsonNode required(JsonNode node, String prefix, String key) {
    return present(node, key)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    origin + ": " + prefix + key + " is required but missing"));
  }

  /** The non-blank string of {@code key}, which must be present. */
  String requiredText(JsonNode node, String prefix, String key) {
    String text = text(required(node, prefix, key), prefix + key);
    if (text.isBlank()) {
      throw fail(prefix + key, "must be a non-empty string", node.get(key));
    }
    return text;
  }

  /** The string of {@code key}, if present. */
  Optional<String> optionalText(JsonNode node, String prefix, String key) {
    return present(node, key).map(n -> text(n, prefix + key));
  }

  /** The string {@code node} must be. */
  String text(JsonNode node, String path) {
    if (!node.isTextual()) {
      throw fail(path, "must be a string", node);
    }
    return node.textValue();
  }

  /**
   * The valid range of each number field, by the field's name (docs/errors.md): wide enough for any
   * real or imagined chip, narrow enough that every time and byte count derived from it stays
   * finite.
   */
  private static final Map<String, double[]> RANGES =
      Map.of(
          "peak_tflops", new double[] {1e-3, 1e6},
          "capacity_gb", new double[] {1e-3, 1e7},
          "bandwidth_gbps", new double[] {1e-3, 1e9},
          "latency_ns", new double[] {1e-3, 1e9},
          "bandwidth_gbps_per_direction", new double[] {1e-3, 1e7},
          "latency_us", new double[] {0, 1e6},
          "tdp_w", new double[] {1e-3, 1e7},
          "price_per_hour_usd", new double[] {0, 1e6},
          "achievable_matmul_fraction", new double[] {1e-3, 1},
          "narrow_matmul_fractions", new double[] {1e-3, 1});

  /** The positive number {@code node} must be, within its field's range. */
  double positive(JsonNode node, String path) {
    if (!node.isNumber() || !Double.isFinite(node.doubleValue()) || node.doubleValue() <= 0) {
      throw fail(path, "must be a positive number", node);
    }
    return inRange(node, path);
  }

  /** The non-negative number {@code node} must be, within its field's range. */
  double nonNegative(JsonNode node, String path) {
    if (!node.isNumber() || !Double.isFinite(node.doubleValue()) || node.doubleValue() < 0) {
      throw fail(path, "must be a non-negative number", node);
    }
    return inRange(node, path);
  }

  private double inRange(JsonNode node, String path) {
    // a field's own range, else, for an entry of an object of numbers (peak_tflops.bf16,
    // narrow_matmul_fractions.fp8), the range of the object that holds it
    String[] segments = Splitter.on('.').splitToList(path).toArray(String[]::new);
    String field = segments[segments.length - 1];
    double[] range = RANGES.get(field);
    if (range == null && segments.length > 1) {
      range = RANGES.get(segments[segments.length - 2]);
    }
    double v = node.doubleValue();
    if (range != null && (v < range[0] || v > range[1])) {
      throw fail(
          path,
          String.format(Locale.ROOT, "must be in [%s, %s]", number(range[0]), number(range[1])),
          node);
    }
    return v;
  }

  private static String number(double v) {
    return v == Math.rint(v) && v < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
  }

  /** The error for {@code value} at {@code path}, which was not what {@code expected} says. */
  IllegalArgumentException fail(String path, String expected, JsonNode value) {
    // numbers print as written (-3, 0.5, Infinity); strings keep their quotes to show the type
    String shown = value == null ? "null" : value.isNumber() ? value.asText() : value.toString();
    return new IllegalArgumentException(origin + ": " + path + " " + expected + ": " + shown);
  }
}
