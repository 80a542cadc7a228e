package io.ridgeline.cli;

import com.google.common.base.Splitter;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.hardware.Chip;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code --price}: dollars per chip-hour, either {@code P} for every chip or {@code CHIP=P} for one
 * (repeatable, or comma-separated: {@code --price h100-sxm=2.5,b200=4}). A per-chip price wins over
 * a plain one, which wins over the catalog's. {@link #line} says which prices were used, where each
 * came from, and which chips had none.
 */
final class PriceOption {
  private final Optional<DollarsPerHour> every;
  private final Map<String, DollarsPerHour> perChip;

  private PriceOption(Optional<DollarsPerHour> every, Map<String, DollarsPerHour> perChip) {
    this.every = every;
    this.perChip = perChip;
  }

  /** No --price: catalog prices only. */
  static final PriceOption NONE = new PriceOption(Optional.empty(), Map.of());

  /**
   * Parses the values of --price.
   *
   * @throws IllegalArgumentException naming the bad value: not a number, negative, a chip twice or
   *     two plain prices
   */
  static PriceOption parse(List<String> values) {
    if (values == null || values.isEmpty()) {
      return NONE;
    }
    Optional<DollarsPerHour> every = Optional.empty();
    Map<String, DollarsPerHour> perChip = new LinkedHashMap<>();
    for (String value : values) {
      for (String item : Splitter.on(',').split(value)) {
        String text = item.trim();
        int eq = text.indexOf('=');
        if (eq < 0) {
          if (every.isPresent()) {
            throw new IllegalArgumentException(
                "--price takes one price for every chip, then CHIP=P per chip: '" + text + "'");
          }
          every = Optional.of(dollars(text, text));
        } else {
          String id = text.substring(0, eq).trim();
          if (id.isEmpty()) {
            throw new IllegalArgumentException(
                "--price CHIP=P needs a chip id before '=': '" + text + "'");
          }
          // the chip must exist (a typo is an error, with the closest id)
          String canonical = SystemOptions.resolveChip(id).id();
          if (perChip.put(canonical, dollars(text.substring(eq + 1).trim(), text)) != null) {
            throw new IllegalArgumentException("--price gives chip " + canonical + " twice");
          }
        }
      }
    }
    return new PriceOption(every, perChip);
  }

  private static DollarsPerHour dollars(String number, String item) {
    try {
      double v = Double.parseDouble(number);
      if (v >= 0 && Double.isFinite(v)) {
        OptionLimits.checkValue("--price", v); // the option's range (docs/errors.md)
        return DollarsPerHour.of(v);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "--price must be a non-negative number of dollars per chip-hour, or CHIP=P: '"
            + item
            + "'");
  }

  /** {@code chip} with the price --price gives it, if any; else unchanged. */
  Chip apply(Chip chip) {
    Optional<DollarsPerHour> p = Optional.ofNullable(perChip.get(chip.id())).or(() -> every);
    return p.<Chip>map(d -> Chip.builder().from(chip).pricePerHour(d).build()).orElse(chip);
  }

  /**
   * One line naming each chip's price per hour and where it came from ({@code --price} or the
   * catalog), and the chips without one, for which no cost is given; empty when {@code chips} (as
   * resolved, before {@link #apply}) is empty.
   */
  Optional<String> line(Collection<Chip> chips) {
    Set<String> seen = new LinkedHashSet<>();
    List<String> priced = new ArrayList<>();
    List<String> unpriced = new ArrayList<>();
    for (Chip c : chips) {
      if (!seen.add(c.id())) {
        continue;
      }
      Optional<DollarsPerHour> given = Optional.ofNullable(perChip.get(c.id())).or(() -> every);
      if (given.isPresent()) {
        priced.add(c.id() + " " + money(given.get()) + " (--price)");
      } else if (c.pricePerHour().isPresent()) {
        priced.add(c.id() + " " + money(c.pricePerHour().get()) + " (catalog)");
      } else {
        unpriced.add(c.id());
      }
    }
    if (seen.isEmpty()) {
      return Optional.empty();
    }
    StringBuilder b = new StringBuilder("prices per chip-hour: ");
    b.append(priced.isEmpty() ? "none known" : String.join(", ", priced));
    if (!unpriced.isEmpty()) {
      b.append("; no price for ")
          .append(String.join(", ", unpriced))
          .append(" (no $/Mtok; --price CHIP=P sets one)");
    }
    return Optional.of(b.toString());
  }

  /** The chips of {@code chips} that have no price, after --price. */
  List<String> unpriced(Collection<Chip> chips) {
    return chips.stream()
        .map(this::apply)
        .filter(c -> c.pricePerHour().isEmpty())
        .map(Chip::id)
        .distinct()
        .toList();
  }

  private static String money(DollarsPerHour d) {
    return String.format(Locale.ROOT, "$%.2f/h", d.dollarsPerHour());
  }
}
