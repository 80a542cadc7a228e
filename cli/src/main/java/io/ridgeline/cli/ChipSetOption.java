package io.ridgeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.base.Splitter;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.FlopsPerSecond;
import io.ridgeline.core.Watts;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --chip-set CHIP:FIELD=VALUE[,FIELD=VALUE...]}: a what-if on a chip. The chip is written in
 * the chip-file format ({@link Chips#toJson}), the fields set there and the text read back ({@link
 * Chips#fromJson(String, String)}), so a field is named, bounded and checked as in a chip file.
 *
 * <p>FIELD is a path of the chip file: {@code peak_tflops.fp8}, {@code memory[0].bandwidth_gbps},
 * {@code scale_up.bandwidth_gbps_per_direction}, {@code tdp_w}, ...; a memory tier may be named by
 * its name ({@code hbm.bandwidth_gbps}), and {@code bandwidth_gbps}, {@code capacity_gb} and {@code
 * latency_ns} alone mean the main tier's. VALUE is a factor ({@code 2x}), a number in the field's
 * file unit ({@code 6700}), or a quantity with its unit ({@code 4.8TB/s}, {@code 141GB}, {@code
 * 2PFLOP/s}, {@code 700W}, {@code 500ns}).
 *
 * <p>The modified chip is named {@code CHIP*} (its name says what changed). It replaces CHIP
 * wherever the command chooses it; a command that names both {@code CHIP} and {@code CHIP*} (as in
 * {@code --chip h100-sxm,h100-sxm*}) compares the catalog's chip with the what-if.
 */
final class ChipSetOption {
  @Option(
      names = "--chip-set",
      paramLabel = "CHIP:FIELD=VALUE",
      description =
          "What-if on a chip: set a chip-file field (peak_tflops.fp8, bandwidth_gbps,"
              + " capacity_gb, memory[1].bandwidth_gbps, scale_up.bandwidth_gbps_per_direction,"
              + " tdp_w, ...) to a factor (2x), a number in the file's unit or a quantity"
              + " (4.8TB/s); the chip becomes CHIP*; name CHIP,CHIP* to compare (repeatable).")
  List<String> sets = List.of();

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  private final Set<String> announced = new LinkedHashSet<>();

  private static final Pattern FACTOR = Pattern.compile("([0-9.]+(?:[eE][-+]?[0-9]+)?)\\s*[x×]");
  private static final Pattern SEGMENT = Pattern.compile("([a-z0-9_]+)(?:\\[([0-9]+)\\])?");

  /**
   * The chip {@code idOrPath} names among the command's chips {@code all}: {@code CHIP*} is CHIP
   * with its --chip-set; CHIP is too, unless {@code all} also names {@code CHIP*}.
   *
   * @throws IllegalArgumentException when {@code CHIP*} has no --chip-set, or a set is malformed
   */
  Chip resolve(String idOrPath, List<String> all) {
    boolean starred = idOrPath.endsWith("*");
    String base = starred ? idOrPath.substring(0, idOrPath.length() - 1) : idOrPath;
    Chip c = SystemOptions.resolveChip(base);
    Map<String, String> fields = fields(c.id());
    if (fields.isEmpty()) {
      if (starred) {
        throw new IllegalArgumentException(
            "chip '" + idOrPath + "' is a what-if: give --chip-set " + base + ":FIELD=VALUE");
      }
      return c;
    }
    if (!starred && all.contains(idOrPath + "*")) {
      return c;
    }
    return apply(c, fields);
  }

  /** The chip with every --chip-set of its id applied, or the chip itself when it has none. */
  Chip apply(Chip c) {
    Map<String, String> fields = fields(c.id());
    return fields.isEmpty() ? c : apply(c, fields);
  }

  /** FIELD to VALUE of every --chip-set of {@code chipId}, in order (a later one wins). */
  private Map<String, String> fields(String chipId) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String set : sets) {
      int colon = set.indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException(
            "--chip-set must be CHIP:FIELD=VALUE[,FIELD=VALUE...], e.g. h100-sxm:bandwidth_gbps=2x: '"
                + set
                + "'");
      }
      if (!set.substring(0, colon).trim().equalsIgnoreCase(chipId)) {
        continue;
      }
      for (String fv :
          Splitter.on(',').trimResults().omitEmptyStrings().split(set.substring(colon + 1))) {
        int eq = fv.indexOf('=');
        if (eq <= 0 || eq == fv.length() - 1) {
          throw new IllegalArgumentException(
              "--chip-set " + set + ": expected FIELD=VALUE, e.g. bandwidth_gbps=2x: '" + fv + "'");
        }
        fields.put(fv.substring(0, eq).trim(), fv.substring(eq + 1).trim());
      }
    }
    return fields;
  }

  private Chip apply(Chip c, Map<String, String> fields) {
    ObjectNode json = (ObjectNode) readTree(Chips.toJson(c));
    List<String> changes = new ArrayList<>();
    for (Map.Entry<String, String> f : fields.entrySet()) {
      String path = path(json, f.getKey());
      ObjectNode parent = parent(json, path, f.getKey());
      String key = path.substring(path.lastIndexOf('.') + 1);
      JsonNode old = parent.get(key);
      // to 12 significant digits, as the chip file is written: 500ns is 500 ns, not
      // 500.00000000000006
      double value =
          new java.math.BigDecimal(value(f.getKey(), key, f.getValue(), old))
              .round(new java.math.MathContext(12))
              .doubleValue();
      if (old != null && old.isIntegralNumber() && value == Math.rint(value)) {
        // a whole-number field (domain_size) stays one
        parent.put(key, (long) value);
      } else {
        parent.put(key, value);
      }
      changes.add(
          path + " " + (old == null ? "(unset)" : number(old.asDouble())) + " -> " + number(value));
    }
    String what =
        String.join(
            ", ", fields.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
    json.put("id", c.id() + "*");
    json.put("name", c.name() + " [" + what + "]");
    Chip modified = Chips.fromJson(Json.write(json), "--chip-set " + c.id()).get(0);
    if (command != null && announced.add(modified.id())) {
      command
          .commandLine()
          .getErr()
          .println(
              "what-if: "
                  + modified.id()
                  + " is "
                  + c.id()
                  + " with "
                  + String.join(", ", changes));
    }
    return modified;
  }

  private static JsonNode readTree(String text) {
    try {
      return Json.MAPPER.readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The full path of {@code field}: {@code bandwidth_gbps}, {@code capacity_gb} and {@code
   * latency_ns} alone are the main tier's, and a tier may be named by its name.
   */
  private static String path(ObjectNode chip, String field) {
    String f = field.toLowerCase(Locale.ROOT);
    if (List.of("bandwidth_gbps", "capacity_gb", "latency_ns").contains(f)) {
      return "memory[0]." + f;
    }
    int dot = f.indexOf('.');
    if (dot > 0) {
      JsonNode memory = chip.path("memory");
      for (int i = 0; i < memory.size(); i++) {
        if (memory.get(i).path("name").asText().equalsIgnoreCase(f.substring(0, dot))) {
          return "memory[" + i + "]" + f.substring(dot);
        }
      }
    }
    return f;
  }

  /** The object that holds the last segment of {@code path}, created where a chip file may. */
  private static ObjectNode parent(ObjectNode chip, String path, String field) {
    List<String> segments = Splitter.on('.').splitToList(path);
    JsonNode node = chip;
    for (String s : segments.subList(0, segments.size() - 1)) {
      Matcher m = SEGMENT.matcher(s);
      if (!m.matches()) {
        throw unknown(field);
      }
      JsonNode next = node.get(m.group(1));
      if (m.group(2) != null) {
        next = next == null ? null : next.get(Integer.parseInt(m.group(2)));
      } else if (next == null && node instanceof ObjectNode o && m.group(1).equals("peak_tflops")) {
        next = o.putObject(m.group(1));
      }
      if (next == null || !next.isObject()) {
        throw unknown(field);
      }
      node = next;
    }
    return (ObjectNode) node;
  }

  private static IllegalArgumentException unknown(String field) {
    return new IllegalArgumentException(
        "--chip-set: no field '"
            + field
            + "' in this chip (chip-file paths such as peak_tflops.bf16, bandwidth_gbps,"
            + " memory[1].capacity_gb, scale_up.bandwidth_gbps_per_direction, tdp_w; see"
            + " `ridgeline chips --export ID`)");
  }

  /** VALUE in the file unit of {@code key}: a factor of {@code old}, a number or a quantity. */
  private static double value(String field, String key, String text, JsonNode old) {
    Matcher factor = FACTOR.matcher(text);
    if (factor.matches()) {
      if (old == null || !old.isNumber()) {
        throw new IllegalArgumentException(
            "--chip-set " + field + "=" + text + ": the chip has no " + field + " to scale");
      }
      return old.asDouble() * Double.parseDouble(factor.group(1));
    }
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      // a quantity with its unit, in the field's file unit
    }
    if (key.endsWith("_gbps") || key.endsWith("_gbps_per_direction")) {
      return BytesPerSecond.parse(text).bytesPerSecond() / 1e9;
    }
    if (key.endsWith("_gb")) {
      return Bytes.parse(text).bytes() / 1e9;
    }
    if (field.startsWith("peak_tflops")) {
      return FlopsPerSecond.parse(text).flopsPerSecond() / 1e12;
    }
    if (key.endsWith("_ns")) {
      return DurationOption.parse(text).seconds() * 1e9;
    }
    if (key.endsWith("_us")) {
      return DurationOption.parse(text).seconds() * 1e6;
    }
    if (key.endsWith("_w")) {
      return Watts.parse(text).watts();
    }
    throw new IllegalArgumentException(
        "--chip-set " + field + "=" + text + ": expected a factor (2x) or a number");
  }

  private static String number(double v) {
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }
}
