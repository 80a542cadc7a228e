package io.ridgeline.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.PhaseResult;
import java.io.UncheckedIOException;

/** JSON output helpers: pretty-printed, numbers in SI base units. */
final class Json {
  static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Json() {}

  static ObjectNode object() {
    return MAPPER.createObjectNode();
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

  static String write(Object node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {phase, flops, bytes, intensity, bound, seconds}, FLOPs and bytes multiplied by {@code chips}.
   */
  static ObjectNode phase(PhaseResult p, int chips) {
    ObjectNode o = object();
    o.put("phase", p.name());
    o.put("flops", p.flops().flops() * chips);
    o.put("bytes", p.bytes().bytes() * chips);
    o.put("intensity", p.intensity().flopsPerByte());
    o.put("bound", p.bound().id());
    o.put("seconds", p.seconds().seconds());
    return o;
  }
}
