package io.ridgeline.hardware;

import io.ridgeline.core.Names;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.stream.Collectors;

/**
 * The technology of a memory tier. Ids are the lower-case names used in JSON, e.g. {@code "hbm"}.
 */
public enum MemoryKind {
  /** High-bandwidth memory stacked beside the die (HBM2, HBM2e, HBM3, HBM3e). */
  HBM,
  /** Graphics DRAM on the board (GDDR6, GDDR6X, GDDR7). */
  GDDR,
  /** On-chip SRAM used as a memory tier (Groq, Cerebras, d-Matrix, SambaNova, Gaudi). */
  SRAM,
  /** Board or host DDR DRAM (for example SambaNova's DDR5 tier). */
  DDR,
  /** Low-power DRAM (for example Grace LPDDR5X behind a GB200). */
  LPDDR,
  /** Memory shared by CPU and GPU on one package (Apple silicon). */
  UNIFIED;

  /**
   * Whether the tier is on the compute die itself ({@link #SRAM}) rather than DRAM beside it, on
   * the board or on the host: a chip whose every tier is on-chip runs as a statically scheduled
   * dataflow machine (Groq's LPU, Cerebras' WSE).
   */
  public boolean onChip() {
    return switch (this) {
      case SRAM -> true;
      case HBM, GDDR, DDR, LPDDR, UNIFIED -> false;
    };
  }

  /** The lower-case id, for example {@code "hbm"}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return id();
  }

  /**
   * The kind with this id, case-insensitively ({@code "HBM"} and {@code "hbm"} both give {@link
   * #HBM}). Generation suffixes such as {@code "hbm3e"} are not ids.
   *
   * @throws NoSuchElementException listing the known ids and the closest one when there is none
   */
  public static MemoryKind of(String id) {
    if (id != null) {
      String key = id.trim().toUpperCase(Locale.ROOT);
      for (MemoryKind kind : values()) {
        if (kind.name().equals(key)) {
          return kind;
        }
      }
    }
    throw Names.unknown("memory kind", id, ids());
  }

  /** The ids of all kinds, in declaration order. */
  public static List<String> ids() {
    return Arrays.stream(values()).map(MemoryKind::id).collect(Collectors.toUnmodifiableList());
  }
}
