package io.ridgeline.serving;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.hardware.Interconnect;
import java.util.Optional;

/** The KV cache's move from the prefill to the decode pool under pd. */
final class KvTransfer {
  private KvTransfer() {}

  /**
   * Seconds to move one request's KV cache of {@code tokens} tokens out of {@code prefill}: bytes
   * over the prefill replica's links in parallel ({@code poolLink} if set, else the link between the
   * pools, {@link Links#between}), plus one hop of latency.
   */
  static double seconds(
      Optional<BytesPerSecond> poolLink, int tokens, RooflineModel prefill, RooflineModel decode) {
    Bytes kv = prefill.model().cacheBytesPerSequence(tokens, prefill.precisions().kvCache(), 1);
    Optional<Interconnect> net =
        Links.between(prefill.chip(), prefill.replicaChips(), decode.chip(), decode.replicaChips());
    BytesPerSecond link =
        poolLink
            .or(() -> net.map(Interconnect::bandwidthPerDirection))
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "chip "
                            + prefill.chip().id()
                            + " has no interconnect to move KV to the decode pool; set a pool"
                            + " link"));
    double latency = poolLink.isPresent() ? 0 : net.map(i -> i.latency().seconds()).orElse(0.0);
    return seconds(kv, link.times(prefill.replicaChips())) + latency;
  }

  /** Seconds to move {@code kv} bytes over a {@code link}: bytes / bandwidth. */
  static double seconds(Bytes kv, BytesPerSecond link) {
    return kv.at(link).seconds();
  }
}
