package io.ridgeline.serving;

import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.hardware.MemoryTier;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Which KV cache a pool keeps in a memory tier slower than its main one (the <b>offload tier</b>,
 * {@link #tier(Chip)}: Grace LPDDR5X behind a GH200, GB200 or GB300 over NVLink-C2C; a DDR tier),
 * and the time charged to bring it back. The default, {@link #NONE}, keeps every byte of KV in the
 * main tier, as engines reserve their KV pool in HBM: a slower tier then holds offloaded weights
 * only and never sizes the batch.
 *
 * <ul>
 *   <li>{@link #HISTORY}: the KV a request has when its prompt arrives ({@link
 *       Workload#cachedAtPrefill()}: its conversation's history and its prefix-cache hits) waits in
 *       the offload tier between turns and is copied back into the main tier when the prompt is
 *       prefilled, as TensorRT-LLM's host offloading of reusable KV blocks and vLLM's
 *       OffloadingConnector or LMCache's CPU backend bring an evicted prefix back on a hit
 *       (TensorRT LLM, "KV Cache System",
 *       https://nvidia.github.io/TensorRT-LLM/latest/features/kvcache.html; vLLM Ascend, "KV Cache
 *       CPU Offload Guide",
 *       https://docs.vllm.ai/projects/ascend/en/latest/user_guide/feature_guide/kv_cache_cpu_offload/;
 *       Ray Serve, "KV cache offloading" with LMCache,
 *       https://docs.ray.io/en/latest/serve/llm/user-guides/kv-cache-offloading.html; read
 *       2026-12-01). Each prefill of {@code p} prompts adds a {@code kv_fetch} operation that reads
 *       their cached KV from the offload tier: {@code p × cached KV bytes per chip / (bandwidth of
 *       the tier × memory fraction)}, charged before the new tokens' attention (which then reads it
 *       from the main tier as without offload), so TTFT carries it; the write into HBM streams
 *       behind the slower read and is not charged again. Decode and the memory of the running batch
 *       are as without offload (the fetched KV stays in the main tier while the request runs).
 *   <li>{@link #SPILL}: the KV of the running batch that the main tier cannot hold (after the
 *       workspace) lives in the offload tier and is read there, in place, every decode step (over
 *       NVLink-C2C, coherent on Grace Hopper and Grace Blackwell, or PCIe); no step hides it, as
 *       the layer-wise offload design of vLLM Ascend notes ("loading a complete layer during every
 *       Decode step would add transfer latency that cannot be hidden by Decode computation",
 *       https://docs.vllm.ai/projects/ascend/en/latest/developer_guide/Design_Documents/layerwise_and_sparse_kv_cache_offloading.html,
 *       read 2026-12-01). A step's memory time is then {@code KV_main / BW_main + KV_offload /
 *       BW_offload + weights by tier} (times the memory fraction), the roofline's sum over tiers;
 *       the batch fits when the workspace fits in the main tier, the spilled KV in the offload tier
 *       and everything in every tier together. Where the KV fits in the main tier nothing changes.
 *   <li>{@link #ALL}: both.
 * </ul>
 *
 * <p>Worked example (Llama-3.1-8B on one GH200, bf16 KV, 131,072 B per token): a 32,768-token
 * history is 32,768 × 131,072 B = 4.295 GB; fetched from LPDDR5X at 450 GB/s it takes 4.295e9 /
 * 450e9 = 9.54 ms at the roofline bound, added to the prompt's prefill.
 */
public enum KvOffload {
  /** All KV in the main tier (the default). */
  NONE(false, false),
  /** A request's cached KV waits in the offload tier and is fetched back at prefill. */
  HISTORY(true, false),
  /** The running batch's KV beyond the main tier is read from the offload tier every step. */
  SPILL(false, true),
  /** {@link #HISTORY} and {@link #SPILL}. */
  ALL(true, true);

  private final boolean history;
  private final boolean spill;

  KvOffload(boolean history, boolean spill) {
    this.history = history;
    this.spill = spill;
  }

  /** Whether cached KV is fetched from the offload tier at prefill. */
  public boolean history() {
    return history;
  }

  /** Whether the running batch's KV may spill into the offload tier. */
  public boolean spill() {
    return spill;
  }

  /** The lower-case id, for example {@code "spill"}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return id();
  }

  /** Every id in declaration order: {@code none, history, spill, all}. */
  public static String ids() {
    return Arrays.stream(values()).map(KvOffload::id).collect(Collectors.joining(", "));
  }

  /**
   * The policy with this id, case-insensitively.
   *
   * @throws IllegalArgumentException naming --kv-offload, the value and the known ids
   */
  public static KvOffload of(String id) {
    for (KvOffload k : values()) {
      if (k.id().equalsIgnoreCase(id == null ? "" : id.trim())) {
        return k;
      }
    }
    throw new IllegalArgumentException("--kv-offload must be one of " + ids() + ": '" + id + "'");
  }

  /**
   * The chip's offload tier: the fastest of its other tiers whose bandwidth is below the main
   * tier's (GH200: LPDDR5X 480 GB at 450 GB/s; SN40L: DDR, not its faster SRAM); empty when it has
   * none (one tier, or only faster ones such as Gaudi 3's SRAM).
   */
  public static Optional<MemoryTier> tier(Chip chip) {
    List<MemoryTier> memory = chip.memory();
    double main = memory.get(0).bandwidth().bytesPerSecond();
    return memory.subList(1, memory.size()).stream()
        .filter(t -> t.bandwidth().bytesPerSecond() < main)
        .max(
            (a, b) ->
                Double.compare(a.bandwidth().bytesPerSecond(), b.bandwidth().bytesPerSecond()));
  }

  /**
   * {@link #tier(Chip)}, required by this policy.
   *
   * @throws IllegalArgumentException naming --kv-offload when the chip has no slower tier
   */
  @CanIgnoreReturnValue
  MemoryTier requireTier(Chip chip) {
    return tier(chip)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "--kv-offload "
                        + id()
                        + " needs a memory tier slower than the main one, and chip "
                        + chip.id()
                        + " has none ("
                        + chip.memory().stream()
                            .map(MemoryTier::toString)
                            .collect(Collectors.joining(", "))
                        + "); catalog chips with one: "
                        + Chips.builtIn().all().stream()
                            .filter(c -> tier(c).isPresent())
                            .map(Chip::id)
                            .collect(Collectors.joining(", "))));
  }
}
