package io.ridgeline.serving.sweep;

import static com.google.common.base.Preconditions.checkArgument;

import com.fasterxml.jackson.databind.JsonNode;
import io.ridgeline.core.InputFiles;
import io.ridgeline.core.Names;
import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.Limits;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntFunction;

/** Reading grid JSON: one value list per key. */
final class SweepGridJson {
  private SweepGridJson() {}

  /** A list's elements, or a scalar as one element. */
  static List<JsonNode> values(String key, JsonNode node) {
    List<JsonNode> out = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(out::add);
      checkArgument(!out.isEmpty(), "the list of values is empty");
    } else {
      out.add(node);
    }
    for (JsonNode v : out) {
      checkArgument(
          v.isValueNode() && !v.isNull(), "expected a list of %s, got %s", expected(key), v);
    }
    return out;
  }

  static void set(SweepGridBuilder b, String key, List<JsonNode> values) {
    switch (key) {
      case "model":
        {
          // one run, unique names: two config files of one name do not collapse into one
          List<String> names = new ArrayList<>();
          values.forEach(v -> names.add(text(key, v)));
          b.models(Models.resolveAll(names, Optional.empty()).toArray(Model[]::new));
          break;
        }
      case "chip":
        b.chips(map(values, v -> resolveChip(text(key, v)), Chip[]::new));
        break;
      case "strategy":
        b.strategies(
            map(values, v -> Deployment.Strategy.of(text(key, v)), Deployment.Strategy[]::new));
        break;
      case "weights":
        b.weights(map(values, v -> Precision.of(text(key, v)), Precision[]::new));
        break;
      case "kv":
        b.kvs(map(values, v -> Precision.of(text(key, v)), Precision[]::new));
        break;
      case "cached":
        {
          int[] cached = new int[values.size()];
          for (int i = 0; i < cached.length; i++) {
            JsonNode v = values.get(i);
            checkArgument(
                v.isIntegralNumber() && v.asLong() >= 0 && v.asLong() <= Limits.MAX_TOKENS,
                "cached must be an integer from 0 to 134,217,728 tokens: %s",
                v);
            cached[i] = v.intValue();
          }
          b.cached(cached);
          break;
        }
      case "prefix_hit":
        {
          double[] hits = new double[values.size()];
          for (int i = 0; i < hits.length; i++) {
            JsonNode v = values.get(i);
            checkArgument(
                v.isNumber() && v.asDouble() >= 0 && v.asDouble() < 1,
                "prefix_hit must be a number at least 0 and below 1: %s",
                v);
            hits[i] = v.asDouble();
          }
          b.prefixHit(hits);
          break;
        }
      default:
        int[] ints = new int[values.size()];
        for (int i = 0; i < ints.length; i++) {
          ints[i] = positiveInt(key, values.get(i));
        }
        switch (key) {
          case "count":
            b.counts(ints);
            break;
          case "tp":
            b.tps(ints);
            break;
          case "ep":
            b.eps(ints);
            break;
          case "batch":
            b.batches(ints);
            break;
          case "isl":
            b.isls(ints);
            break;
          default:
            b.osls(ints);
        }
    }
  }

  private static <T> T[] map(
      List<JsonNode> values, Function<JsonNode, T> f, IntFunction<T[]> array) {
    T[] out = array.apply(values.size());
    for (int i = 0; i < out.length; i++) {
      out[i] = f.apply(values.get(i));
    }
    return out;
  }

  private static String text(String key, JsonNode v) {
    checkArgument(v.isTextual(), "expected %s, got %s", expected(key), v);
    return v.textValue();
  }

  private static int positiveInt(String key, JsonNode v) {
    checkArgument(
        v.isIntegralNumber() && v.canConvertToInt(), "expected %s, got %s", expected(key), v);
    checkArgument(v.intValue() > 0, "must be positive: %s", v.intValue());
    return v.intValue();
  }

  private static String expected(String key) {
    switch (key) {
      case "model":
        return "model ids or config.json paths";
      case "chip":
        return "chip ids or chip JSON paths";
      case "strategy":
        return "strategies (" + Deployment.Strategy.ids() + ")";
      case "weights":
      case "kv":
        return "precision ids (" + Precision.ids() + ")";
      default:
        return "positive integers";
    }
  }

  /** A catalog chip id, else a path to a chip JSON file (as {@code --chip} takes). */
  private static Chip resolveChip(String idOrPath) {
    return Chips.resolve(idOrPath);
  }

  /** {@link Sweep.Grid#fromJson(Path)}. */
  static Sweep.Grid read(Path file) {
    return parse(InputFiles.readText(file, "grid file"), file.toString());
  }

  /** {@link Sweep.Grid#fromJson(String, String)}. */
  static Sweep.Grid parse(String json, String origin) {
    JsonNode root = InputFiles.readJson(json, origin, false);
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(
          origin
              + ": expected a JSON object of grid keys ("
              + String.join(", ", Sweep.KEYS)
              + ") mapped to lists of values");
    }
    SweepGridBuilder b = Sweep.Grid.builder();
    for (Map.Entry<String, JsonNode> f : root.properties()) {
      String key = f.getKey();
      if (!Sweep.KEYS.contains(key)) {
        throw new IllegalArgumentException(
            origin + ": " + Names.unknown("grid key", key, Sweep.KEYS).getMessage());
      }
      try {
        set(b, key, values(key, f.getValue()));
      } catch (IllegalArgumentException | NoSuchElementException e) {
        throw new IllegalArgumentException(origin + ": key '" + key + "': " + e.getMessage(), e);
      }
    }
    return b.build();
  }
}
