package io.ridgeline.models;

import com.fasterxml.jackson.databind.JsonNode;
import io.ridgeline.core.Precision;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** Typed access to config fields with messages naming the file and the field. */
final class ConfigFields {
  /** Keys read from the enclosing object when a nested text_config lacks them. */
  private static final Set<String> INHERITED =
      Set.of("torch_dtype", "dtype", "tie_word_embeddings", "quantization_config");

  private final JsonNode node;
  private final JsonNode parent;
  private final String origin;

  ConfigFields(JsonNode node, JsonNode parent, String origin) {
    this.node = node;
    this.parent = parent;
    this.origin = origin;
  }

  private JsonNode get(String name) {
    JsonNode v = node.get(name);
    if ((v == null || v.isNull()) && parent != null && INHERITED.contains(name)) {
      return parent.get(name);
    }
    return v;
  }

  IllegalArgumentException error(String field, String problem) {
    return new IllegalArgumentException(origin + ": field '" + field + "' " + problem);
  }

  IllegalArgumentException missing(String field) {
    return new IllegalArgumentException(origin + ": missing required field '" + field + "'");
  }

  JsonNode node(String name) {
    return get(name);
  }

  Optional<String> text(String name) {
    JsonNode v = get(name);
    return v == null || v.isNull() ? Optional.empty() : Optional.of(v.asText());
  }

  Optional<Boolean> bool(String name) {
    JsonNode v = get(name);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    if (!v.isBoolean()) {
      throw error(name, "must be true or false: " + v);
    }
    return Optional.of(v.booleanValue());
  }

  List<String> stringList(String name) {
    JsonNode v = get(name);
    List<String> out = new ArrayList<>();
    if (v == null || v.isNull()) {
      return out;
    }
    if (!v.isArray()) {
      throw error(name, "must be a list of strings: " + v);
    }
    v.forEach(e -> out.add(e.asText()));
    return out;
  }

  List<Integer> intList(String name) {
    JsonNode v = get(name);
    List<Integer> out = new ArrayList<>();
    if (v == null || v.isNull()) {
      return out;
    }
    if (!v.isArray()) {
      throw error(name, "must be a list of integers: " + v);
    }
    for (JsonNode e : v) {
      if (!e.isIntegralNumber()) {
        throw error(name, "must be a list of integers: " + v);
      }
      out.add(e.intValue());
    }
    return out;
  }

  private Optional<Integer> integer(boolean allowZero, String... names) {
    for (String name : names) {
      JsonNode v = get(name);
      if (v == null || v.isNull()) {
        continue;
      }
      long min = allowZero ? 0 : 1;
      if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > Integer.MAX_VALUE) {
        throw error(
            name, "must be a " + (allowZero ? "non-negative" : "positive") + " integer: " + v);
      }
      return Optional.of(v.intValue());
    }
    return Optional.empty();
  }

  /** The first present name among {@code names}, as a positive integer. */
  Optional<Integer> optionalPositiveInt(String... names) {
    return integer(false, names);
  }

  Optional<Integer> optionalNonNegativeInt(String... names) {
    return integer(true, names);
  }

  int positiveInt(String... names) {
    return optionalPositiveInt(names)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    origin
                        + ": missing required field '"
                        + names[0]
                        + "'"
                        + (names.length > 1
                            ? " (or "
                                + String.join(
                                    ", ", java.util.Arrays.copyOfRange(names, 1, names.length))
                                + ")"
                            : "")));
  }

  int divide(int a, int b, String aName, String bName) {
    if (a % b != 0) {
      throw new IllegalArgumentException(
          origin
              + ": head_dim is absent and "
              + aName
              + " ("
              + a
              + ") is not a multiple of "
              + bName
              + " ("
              + b
              + ")");
    }
    return a / b;
  }

  /** A torch dtype name as a precision; an unknown name is an error naming torch_dtype. */
  Precision dtype(String dtype) {
    switch (dtype.toLowerCase(Locale.ROOT)) {
      case "bfloat16":
        return Precision.BF16;
      case "float16":
      case "half":
        return Precision.FP16;
      case "float32":
      case "float":
        return Precision.FP32;
      default:
        throw error("torch_dtype", "must be bfloat16, float16 or float32: '" + dtype + "'");
    }
  }
}
