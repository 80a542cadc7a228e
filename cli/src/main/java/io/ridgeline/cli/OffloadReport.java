package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.MemoryTier;
import io.ridgeline.serving.KvOffload;
import io.ridgeline.serving.MemoryUse;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.StepResult;
import java.util.Optional;

/**
 * Which tier holds what, and the KV brought back from the offload tier ({@link KvOffload}), for the
 * {@code roofline} and {@code frontier} reports.
 */
final class OffloadReport {
  private OffloadReport() {}

  /** The KV fetched from the offload tier in a prefill: bytes across all chips, wall seconds. */
  record Fetch(double bytes, double seconds) {}

  /**
   * The {@code kv_fetch} operations of {@code prefill} ({@link KvOffload#HISTORY}): their bytes
   * times {@code chips} and the micro-batches (totals across chips, as the phase table), their time
   * times the micro-batches (each micro-batch fetches its own prompts' KV).
   */
  static Fetch fetch(StepResult prefill, int chips) {
    double bytes = 0;
    double seconds = 0;
    for (PhaseResult p : prefill.phases()) {
      for (OperationResult o : p.operations()) {
        if (o.operation().role() == OperationRole.KV_FETCH) {
          bytes += o.operation().memoryBytes().bytes();
          seconds += o.seconds().seconds();
        }
      }
    }
    int micro = prefill.microBatches();
    return new Fetch(bytes * chips * micro, seconds * micro);
  }

  /**
   * Per tier of the chip, in placement order: {@code {tier, kind, capacity_bytes_per_chip,
   * bandwidth_bytes_per_s_per_chip, weights_bytes_per_chip, kv_bytes_per_chip,
   * workspace_bytes_per_chip}}.
   */
  static ArrayNode tiers(MemoryUse mem, Chip chip) {
    ArrayNode arr = Json.MAPPER.createArrayNode();
    for (String name : mem.tiers().keySet()) {
      MemoryTier t =
          chip.memory().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
      ObjectNode n = arr.addObject();
      n.put("tier", name);
      n.put("kind", t.kind().id());
      n.put("capacity_bytes_per_chip", t.capacity().bytes());
      n.put("bandwidth_bytes_per_s_per_chip", t.bandwidth().bytesPerSecond());
      n.put("weights_bytes_per_chip", mem.weightsByTier().getOrDefault(name, Bytes.ZERO).bytes());
      n.put("kv_bytes_per_chip", mem.kvCacheByTier().getOrDefault(name, Bytes.ZERO).bytes());
      n.put("workspace_bytes_per_chip", name.equals(mem.mainTier()) ? mem.workspace().bytes() : 0);
    }
    return arr;
  }

  /**
   * One text line when the pool offloads KV: the policy, its tier, the KV on that tier per chip
   * and, for {@code history}, the prefill's fetch (totals across chips, wall time).
   */
  static Optional<String> line(RooflineModel rm, StepResult prefill, MemoryUse mem) {
    if (rm.kvOffload() == KvOffload.NONE) {
      return Optional.empty();
    }
    MemoryTier tier = KvOffload.tier(rm.chip()).orElseThrow();
    StringBuilder s =
        new StringBuilder("kv offload ")
            .append(rm.kvOffload())
            .append(" to ")
            .append(tier)
            .append(": KV in ")
            .append(tier.name())
            .append(' ')
            .append(mem.kvCacheByTier().getOrDefault(tier.name(), Bytes.ZERO))
            .append(" per chip while decoding");
    if (rm.kvOffload().history()) {
      Fetch f = fetch(prefill, rm.chips());
      s.append("; prefill fetches ")
          .append(Bytes.of(f.bytes()))
          .append(" of cached KV back in ")
          .append(Seconds.of(f.seconds()));
    }
    return Optional.of(s.toString());
  }
}
