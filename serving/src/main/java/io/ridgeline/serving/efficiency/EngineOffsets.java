package io.ridgeline.serving.efficiency;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How much slower (or faster) than the pooled profile each engine family, or each version series of
 * a family, runs, as the sources that measured it agree: an offset exists only where at least
 * {@value #MIN_SOURCES} independent sources support it. An offset {@code b} (ln slowdown) makes
 * every estimate of a deployment {@code e^b} faster: times × e^−b, rates × e^b.
 *
 * <p>{@link #forRelease} answers the most specific offset: the family's version series ({@link
 * EngineRelease#series()}) when an offset of that series exists, else the family's, else none.
 *
 * <pre>{@code
 * EngineOffsets o = EngineOffsets.of(List.of(
 *     new EngineOffsets.Offset("trtllm", Optional.empty(), -0.10, List.of("a", "b"))));
 * o.forRelease(EngineRelease.of("trtllm", "1.0")); // the trtllm offset: no series offset exists
 * o.forRelease(EngineRelease.of("vllm"));          // empty
 * }</pre>
 *
 * @param offsets the offsets, at most one per family and series
 */
public record EngineOffsets(List<Offset> offsets) {
  /** The fewest independent sources behind an offset. */
  public static final int MIN_SOURCES = 2;

  /** The largest |offset|: ln 10, a factor of 10 either way. */
  public static final double MAX_LN_OFFSET = Math.log(10);

  /** No offsets. */
  public static final EngineOffsets NONE = new EngineOffsets(List.of());

  /**
   * One offset.
   *
   * @param family the engine family ({@link EngineRelease#FAMILY})
   * @param series the version series it holds for ({@link EngineRelease#series()}); empty for the
   *     whole family
   * @param lnSlowdown ln of the factor by which the pooled profile is slower than the family (or
   *     series) measures, within ±{@link #MAX_LN_OFFSET}
   * @param sources the independent sources behind it, at least {@value #MIN_SOURCES}, distinct
   */
  public record Offset(
      String family, Optional<String> series, double lnSlowdown, List<String> sources) {
    /**
     * Checks each field.
     *
     * @throws IllegalArgumentException naming the field, the rule and the value
     */
    public Offset {
      checkNotNull(family, "family");
      checkNotNull(series, "series");
      checkNotNull(sources, "sources");
      sources = List.copyOf(sources);
      checkArgument(
          EngineRelease.FAMILY.matcher(family).matches(),
          "offset family must be a lower-case engine family name: '%s'",
          family);
      series.ifPresent(
          s ->
              checkArgument(
                  EngineRelease.VERSION.matcher(s).matches(),
                  "offset series must start with a digit: '%s'",
                  s));
      checkArgument(
          Double.isFinite(lnSlowdown) && Math.abs(lnSlowdown) <= MAX_LN_OFFSET,
          "offset ln slowdown must be finite and within ±%s: %s",
          MAX_LN_OFFSET,
          lnSlowdown);
      checkArgument(
          new LinkedHashSet<>(sources).size() == sources.size() && sources.size() >= MIN_SOURCES,
          "an offset needs at least %s distinct sources: %s",
          MIN_SOURCES,
          sources);
    }

    /** {@code family} or {@code family series.x}. */
    public String key() {
      return series.map(s -> family + " " + s + ".x").orElse(family);
    }

    /** {@code "trtllm 1.x offset: model ×1.105 slower, from 2 sources"} (or {@code faster}). */
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%s offset: model ×%.3f %s, from %d sources",
          key(),
          Math.exp(Math.abs(lnSlowdown)),
          lnSlowdown >= 0 ? "slower" : "faster",
          sources.size());
    }
  }

  /**
   * Checks that no family and series has two offsets.
   *
   * @throws IllegalArgumentException naming the repeated key
   */
  public EngineOffsets {
    checkNotNull(offsets, "offsets");
    offsets = List.copyOf(offsets);
    List<String> keys = new ArrayList<>();
    for (Offset o : offsets) {
      checkArgument(!keys.contains(o.key()), "offsets: '%s' is listed twice", o.key());
      keys.add(o.key());
    }
  }

  /** The offsets of {@code offsets}. */
  public static EngineOffsets of(List<Offset> offsets) {
    return new EngineOffsets(offsets);
  }

  /**
   * The most specific offset of {@code release}: its family and version series, else its family;
   * empty when neither has one.
   */
  public Optional<Offset> forRelease(EngineRelease release) {
    Optional<String> series = release.series();
    Optional<Offset> family = Optional.empty();
    for (Offset o : offsets) {
      if (!o.family().equals(release.family())) {
        continue;
      }
      if (o.series().isPresent() && o.series().equals(series)) {
        return Optional.of(o);
      }
      if (o.series().isEmpty()) {
        family = Optional.of(o);
      }
    }
    return family;
  }
}
