package io.ridgeline.hardware;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.FlopsPerSecond;
import io.ridgeline.core.Precision;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Map;

/**
 * Writes a chip in the chip-file format {@link ChipJson} reads (the keys and units of its table:
 * TFLOP/s, GB, GB/s, ns, µs, W, $/h), so that {@code ChipJson} reads back the same chip: every
 * number to 12 significant digits, every optional field only when the chip has it, the tiers' and
 * links' sources and names always (a reader would otherwise default them to the file's name).
 */
final class ChipJsonWriter {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private ChipJsonWriter() {}

  /** {@code chip} as one chip object of the file format, indented, with a final newline. */
  static String write(Chip chip) {
    try {
      return MAPPER.writeValueAsString(node(chip)) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code chip} as one chip object of the file format. */
  static ObjectNode node(Chip chip) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("id", chip.id());
    o.put("name", chip.name());
    if (!chip.vendor().isEmpty()) {
      o.put("vendor", chip.vendor());
    }
    ObjectNode peaks = o.putObject("peak_tflops");
    for (Map.Entry<Precision, FlopsPerSecond> e : chip.peaks().entrySet()) {
      // TFLOP/s: 1e12 FLOP/s
      peaks.put(e.getKey().id(), decimal(e.getValue().flopsPerSecond() / 1e12));
    }
    for (MemoryTier t : chip.memory()) {
      ObjectNode m = o.withArray("memory").addObject();
      m.put("kind", t.kind().id());
      m.put("name", t.name());
      // GB and GB/s: 1e9 B and 1e9 B/s; ns: 1e-9 s
      m.put("capacity_gb", decimal(t.capacity().bytes() / 1e9));
      m.put("bandwidth_gbps", decimal(t.bandwidth().bytesPerSecond() / 1e9));
      t.latency().ifPresent(l -> m.put("latency_ns", decimal(l.seconds() * 1e9)));
      m.put("source", t.source());
    }
    chip.scaleUp().ifPresent(l -> link(o.putObject("scale_up"), l));
    chip.scaleOut().ifPresent(l -> link(o.putObject("scale_out"), l));
    chip.tdp().ifPresent(w -> o.put("tdp_w", decimal(w.watts())));
    chip.pricePerHour().ifPresent(p -> o.put("price_per_hour_usd", decimal(p.dollarsPerHour())));
    chip.achievableMatmulFraction().ifPresent(f -> o.put("achievable_matmul_fraction", f));
    if (!chip.narrowMatmulFractions().isEmpty()) {
      ObjectNode n = o.putObject("narrow_matmul_fractions");
      chip.narrowMatmulFractions().forEach((p, f) -> n.put(p.id(), f));
    }
    if (!chip.sources().isEmpty()) {
      ObjectNode s = o.putObject("sources");
      chip.sources().forEach(s::put);
    }
    if (!chip.notes().isEmpty()) {
      o.put("notes", chip.notes());
    }
    return o;
  }

  private static void link(ObjectNode n, Interconnect l) {
    n.put("name", l.name());
    // GB/s per direction: 1e9 B/s; µs: 1e-6 s
    n.put(
        "bandwidth_gbps_per_direction", decimal(l.bandwidthPerDirection().bytesPerSecond() / 1e9));
    n.put("latency_us", decimal(l.latency().seconds() * 1e6));
    n.put("domain_size", l.domainSize());
    n.put("source", l.source());
  }

  /** {@code v} to 12 significant digits: 3350.0000000000005 is written 3350.0. */
  private static double decimal(double v) {
    return new BigDecimal(v).round(new MathContext(12)).doubleValue();
  }
}
