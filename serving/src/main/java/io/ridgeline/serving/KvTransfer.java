package io.ridgeline.serving;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.hardware.Interconnect;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.Optional;

/** The KV cache's move from the prefill to the decode pool under pd. */
final class KvTransfer {
  private KvTransfer() {}

  /**
   * Seconds to hand one request's KV cache of {@code tokens} tokens from {@code prefill} to {@code
   * decode}: {@link #bytesSeconds} + {@link #setupSeconds} + the decode pool's engine hand-over
   * ({@link Efficiency#pdHandover()}: dispatch, step alignment, the first token's re-emission).
   */
  static double seconds(
      Optional<BytesPerSecond> poolLink, int tokens, RooflineModel prefill, RooflineModel decode) {
    return bytesSeconds(poolLink, tokens, prefill, decode)
        + setupSeconds(poolLink, prefill, decode)
        + decode.efficiency().pdHandover().seconds();
  }

  /**
   * Seconds to stream one request's KV cache of {@code tokens} tokens (bytes at the prefill pool's
   * KV precision, decimal) out of {@code prefill}: bytes / (link bandwidth per direction × the
   * prefill replica's chips, its links in parallel); the link is {@code poolLink} if set, else the
   * link between the pools ({@link Links#between}).
   *
   * @throws IllegalArgumentException when there is no pool link and the chip has no interconnect
   */
  static double bytesSeconds(
      Optional<BytesPerSecond> poolLink, int tokens, RooflineModel prefill, RooflineModel decode) {
    Bytes kv = prefill.model().cacheBytesPerSequence(tokens, prefill.precisions().kvCache(), 1);
    BytesPerSecond link =
        poolLink
            .or(() -> between(prefill, decode).map(Interconnect::bandwidthPerDirection))
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "chip "
                            + prefill.chip().id()
                            + " has no interconnect to move KV to the decode pool; set a pool"
                            + " link"));
    return seconds(kv, link.times(prefill.replicaChips()));
  }

  /**
   * The fixed set-up of one transfer: one hop of the link's latency (the catalog interconnect's
   * {@link Interconnect#latency()}, the first message of the transfer); zero with a {@code
   * poolLink}, which states a bandwidth only, or when the chips have no link between the pools.
   */
  static double setupSeconds(
      Optional<BytesPerSecond> poolLink, RooflineModel prefill, RooflineModel decode) {
    return poolLink.isPresent()
        ? 0
        : between(prefill, decode).map(i -> i.latency().seconds()).orElse(0.0);
  }

  private static Optional<Interconnect> between(RooflineModel prefill, RooflineModel decode) {
    return Links.between(
        prefill.chip(), prefill.replicaChips(), decode.chip(), decode.replicaChips());
  }

  /** Seconds to move {@code kv} bytes over a {@code link}: bytes / bandwidth. */
  static double seconds(Bytes kv, BytesPerSecond link) {
    return kv.at(link).seconds();
  }
}
