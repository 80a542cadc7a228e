package io.ridgeline.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.serving.Roofs;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/**
 * JSON output helpers: pretty-printed, numbers in SI base units, each double as the shortest
 * decimal that reads back as it (Jackson's Schubfach writer, the text of Java 19's {@code
 * Double.toString} and of the sweep's rows; JDK 17's {@code Double.toString} is longer for a few
 * doubles, e.g. {@code 9.999999999999999E22} for 1.0E23).
 */
final class Json {
  static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
          .build();

  private Json() {}

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** Puts {@code value} under {@code key}, or null when it is absent (a key is never left out). */
  static void putOrNull(ObjectNode o, String key, Optional<Double> value) {
    if (value.isPresent()) {
      o.put(key, value.get());
    } else {
      o.putNull(key);
    }
  }

  static ArrayNode array() {
    return MAPPER.createArrayNode();
  }

  /**
   * A new object that starts with the system's keys: model, chip, chips, tp, efficiency ({@code
   * efficiency}: "ideal" or "calibrated: NAME profile (…)", see {@link EfficiencyOptions.Choice}).
   */
  static ObjectNode system(
      io.ridgeline.serving.RooflineModel rm, EfficiencyOptions.Choice efficiency) {
    ObjectNode o = object();
    o.put("model", rm.model().id());
    o.put("chip", rm.chip().id());
    o.put("chips", rm.chips());
    o.put("tp", rm.tensorParallel());
    o.put("efficiency", efficiency.description());
    efficiency.putBand(o, rm);
    return o;
  }

  /**
   * Adds {@code m}'s context-window warning for a sequence of {@code tokens} ({@link
   * io.ridgeline.models.Model#contextWarning}) to {@code o}'s {@code warnings} array, created when
   * absent; nothing within the window.
   */
  static void putContextWarning(ObjectNode o, io.ridgeline.models.Model m, long tokens) {
    m.contextWarning(tokens).ifPresent(w -> o.withArray("warnings").add(w));
  }

  /**
   * The pretty-printed JSON of {@code node}.
   *
   * @throws IllegalStateException when a number in a JSON tree is NaN or infinite: the last line of
   *     defence that keeps non-finite values from leaving the program
   */
  static String write(Object node) {
    if (node instanceof JsonNode tree) {
      requireFinite(tree, "");
    }
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Checks that every number under {@code node} is finite.
   *
   * @throws IllegalStateException naming the first non-finite value's path
   */
  static void requireFinite(JsonNode node, String path) {
    if (node.isNumber()) {
      double v = node.doubleValue();
      if (!Double.isFinite(v)) {
        throw new IllegalStateException(
            "result " + (path.isEmpty() ? "value" : path) + " is not finite (" + v + ")");
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        requireFinite(node.get(i), path + "[" + i + "]");
      }
    } else if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        requireFinite(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey());
      }
    }
  }

  /**
   * {phase, flops_total, bytes_total, intensity, bound, seconds}: the phase's per-chip FLOPs and
   * bytes multiplied by {@code chips} (the key says so), its intensity (the same per chip or in
   * total) and time.
   */
  static ObjectNode phase(PhaseResult p, int chips) {
    ObjectNode o = object();
    o.put("phase", p.name());
    o.put("flops_total", p.flops().flops() * chips);
    o.put("bytes_total", p.bytes().bytes() * chips);
    o.put("intensity", p.intensity().flopsPerByte());
    o.put("bound", p.bound().id());
    o.put("seconds", p.seconds().seconds());
    return o;
  }

  /**
   * The roofs a roofline chart draws and the points it places under them ({@link Roofs}): {@code
   * roofs[{precision, kind (datasheet|calibrated), kernels, peak_flops_per_second_per_chip,
   * bandwidth_bytes_per_second_per_chip, ridge_flops_per_byte}]} and {@code roof_points[{phase,
   * label, roof (index into roofs), flops_per_chip, bytes_per_chip, seconds, intensity,
   * achieved_flops_per_second_per_chip}]}: one chip's roofs and share.
   */
  static void putRoofs(ObjectNode o, Roofs roofs) {
    ArrayNode rs = o.putArray("roofs");
    for (Roofs.Roof r : roofs.roofs()) {
      ObjectNode n = rs.addObject();
      n.put("precision", r.precision().id());
      n.put("kind", r.kind().id());
      n.put("kernels", r.kernels());
      n.put("peak_flops_per_second_per_chip", r.peak().flopsPerSecond());
      n.put("bandwidth_bytes_per_second_per_chip", r.bandwidth().bytesPerSecond());
      n.put("ridge_flops_per_byte", r.ridge().flopsPerByte());
    }
    ArrayNode ps = o.putArray("roof_points");
    for (Roofs.Point p : roofs.points()) {
      ObjectNode n = ps.addObject();
      n.put("phase", p.phase().id());
      n.put("label", p.label());
      n.put("roof", roofs.roofs().indexOf(p.roof()));
      n.put("flops_per_chip", p.flops().flops());
      n.put("bytes_per_chip", p.bytes().bytes());
      n.put("seconds", p.seconds().seconds());
      n.put("intensity", p.intensity().flopsPerByte());
      n.put("achieved_flops_per_second_per_chip", p.achieved().flopsPerSecond());
    }
  }
}
