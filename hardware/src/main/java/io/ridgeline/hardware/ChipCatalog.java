package io.ridgeline.hardware;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.Names;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * An immutable set of chips looked up by id. Extend one by composition: {@link #with(Chip)} and
 * {@link #withFile(Path)} return a new catalog and leave this one unchanged; there is no mutable
 * global registry.
 *
 * <p>Ids are matched case-insensitively ({@code "H100-SXM"} finds {@code "h100-sxm"}) and are
 * unique that way within a catalog. Chips keep the order in which they were added.
 *
 * <pre>{@code
 * ChipCatalog mine = Chips.builtIn().withFile(Path.of("my-npu.json"));
 * mine.byId("my-npu").ridgePoint(Precision.BF16);
 * }</pre>
 */
public final class ChipCatalog {
  /** Chips by lower-case id, in insertion order. */
  private final ImmutableMap<String, Chip> chips;

  private ChipCatalog(Map<String, Chip> chips) {
    this.chips = ImmutableMap.copyOf(chips);
  }

  /**
   * A catalog of {@code chips} in the given order.
   *
   * @throws IllegalArgumentException when two chips share an id (case-insensitively)
   */
  public static ChipCatalog of(Chip... chips) {
    return copyOf(List.of(chips));
  }

  /**
   * A catalog of {@code chips} in iteration order.
   *
   * @throws IllegalArgumentException when two chips share an id (case-insensitively)
   */
  public static ChipCatalog copyOf(Iterable<? extends Chip> chips) {
    Map<String, Chip> byKey = new LinkedHashMap<>();
    for (Chip chip : chips) {
      Chip previous = byKey.put(key(chip.id()), chip);
      checkArgument(
          previous == null, "chip ids must be unique in a catalog: '%s' appears twice", chip.id());
    }
    return new ChipCatalog(byKey);
  }

  /**
   * The chip with this id, ignoring case.
   *
   * @throws NoSuchElementException listing the known ids and the closest one when there is none
   */
  public Chip byId(String id) {
    return find(id).orElseThrow(() -> Names.unknown("chip", id, ids()));
  }

  /** The chip with this id, ignoring case, if any ({@code null} finds nothing). */
  public Optional<Chip> find(String id) {
    return id == null ? Optional.empty() : Optional.ofNullable(chips.get(key(id.trim())));
  }

  /** The ids of all chips, in catalog order. */
  public List<String> ids() {
    return chips.values().stream().map(Chip::id).collect(ImmutableList.toImmutableList());
  }

  /** All chips, in catalog order. */
  public List<Chip> all() {
    return chips.values().asList();
  }

  /**
   * A new catalog with {@code chip} added: it replaces, in place, a chip with the same id (ignoring
   * case) or else goes last. This catalog is unchanged.
   */
  public ChipCatalog with(Chip chip) {
    Map<String, Chip> next = new LinkedHashMap<>(chips);
    next.put(key(chip.id()), chip);
    return new ChipCatalog(next);
  }

  /**
   * A new catalog with every chip of a JSON file (one chip object or an array; format in {@link
   * Chips#fromJson(Path)}) added as by {@link #with(Chip)}. This catalog is unchanged.
   *
   * @throws IllegalArgumentException when the file is missing or breaks the format; the message
   *     names the file and the field
   * @throws UncheckedIOException when the file cannot be read
   */
  public ChipCatalog withFile(Path file) {
    ChipCatalog next = this;
    for (Chip chip : ChipJson.read(file)) {
      next = next.with(chip);
    }
    return next;
  }

  private static String key(String id) {
    return id.toLowerCase(Locale.ROOT);
  }

  /** Whether {@code other} is a catalog of equal chips in the same order. */
  @Override
  public boolean equals(Object other) {
    return other instanceof ChipCatalog c && all().equals(c.all());
  }

  @Override
  public int hashCode() {
    return all().hashCode();
  }

  /**
   * The number of chips and their ids, for example {@code "ChipCatalog[2 chips: h100-sxm, b200]"}.
   */
  @Override
  public String toString() {
    return "ChipCatalog["
        + chips.size()
        + (chips.size() == 1 ? " chip: " : " chips: ")
        + String.join(", ", ids())
        + "]";
  }
}
