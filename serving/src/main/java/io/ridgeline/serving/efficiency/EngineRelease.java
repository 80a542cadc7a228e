package io.ridgeline.serving.efficiency;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A serving engine as a deployment runs it: its family ({@code vllm}, {@code sglang}, {@code
 * trtllm}, ... as a case file's {@code engine} column names it) and, where known, its version as
 * the engine reports it.
 *
 * <p>A version belongs to a <em>series</em> ({@link #series()}): its major number from 1.0 on
 * ({@code 1.1.0rc2.post2} is series {@code 1}), its major and minor numbers before 1.0 ({@code
 * 0.7.3.dev} is series {@code 0.7}), the semantic-versioning convention that a 0.x minor release
 * may change anything. Engine offsets ({@link EngineOffsets}) are kept per family and per series,
 * never per version: no two independent sources measure the same version.
 *
 * <pre>{@code
 * EngineRelease r = EngineRelease.of("vllm", "0.6.5");
 * r.series();                      // Optional[0.6]
 * EngineRelease.of("trtllm").version(); // Optional.empty
 * }</pre>
 *
 * @param family the engine family, lower case: a letter or digit, then letters, digits, {@code -},
 *     {@code _} or {@code .} ({@link #FAMILY})
 * @param version the engine's version, a digit first ({@link #VERSION}); empty when not stated
 */
public record EngineRelease(String family, Optional<String> version) {
  /** A family: a lower-case letter or digit, then lower-case letters, digits, '-', '_' or '.'. */
  public static final Pattern FAMILY = Pattern.compile("[a-z0-9][a-z0-9._-]*");

  /**
   * A version: a digit first, then letters, digits, {@code .}, {@code -}, {@code +} or {@code _}
   * ({@code 0.7.3}, {@code 0.4.2.post4}, {@code 1.1.0rc2.post2}).
   */
  public static final Pattern VERSION = Pattern.compile("[0-9][0-9A-Za-z.+_-]*");

  /** The leading major and optional minor number of a version. */
  private static final Pattern MAJOR_MINOR = Pattern.compile("([0-9]+)(?:\\.([0-9]+))?.*");

  /**
   * Checks the family and the version.
   *
   * @throws IllegalArgumentException naming the field, the rule and the value
   */
  public EngineRelease {
    checkNotNull(family, "family");
    checkNotNull(version, "version");
    checkArgument(
        FAMILY.matcher(family).matches(),
        "engine family must be a lower-case letter or digit followed by lower-case letters,"
            + " digits, '.', '-' or '_': '%s'",
        family);
    version.ifPresent(
        v ->
            checkArgument(
                VERSION.matcher(v).matches(),
                "engine version must start with a digit followed by letters, digits, '.', '-',"
                    + " '+' or '_': '%s'",
                v));
  }

  /**
   * The release of {@code family} (trimmed, lower-cased) at {@code version} (trimmed).
   *
   * @throws IllegalArgumentException when either is malformed ({@link #FAMILY}, {@link #VERSION})
   */
  public static EngineRelease of(String family, String version) {
    checkNotNull(version, "version");
    return new EngineRelease(normalised(family), Optional.of(version.trim()));
  }

  /**
   * {@code family} (trimmed, lower-cased) of no stated version.
   *
   * @throws IllegalArgumentException when the family is malformed ({@link #FAMILY})
   */
  public static EngineRelease of(String family) {
    return new EngineRelease(normalised(family), Optional.empty());
  }

  private static String normalised(String family) {
    checkNotNull(family, "family");
    return family.trim().toLowerCase(Locale.ROOT);
  }

  /**
   * The version's series: {@code M} for a major number M of at least 1, {@code 0.m} below 1.0
   * (minor number m; {@code 0} when the version has none); empty when no version is stated.
   */
  public Optional<String> series() {
    return version.map(EngineRelease::seriesOf);
  }

  private static String seriesOf(String version) {
    Matcher m = MAJOR_MINOR.matcher(version);
    checkArgument(m.matches(), "engine version must start with a digit: '%s'", version);
    long major = Long.parseLong(m.group(1));
    if (major >= 1) {
      return Long.toString(major);
    }
    return m.group(2) == null ? "0" : "0." + Long.parseLong(m.group(2));
  }

  /** {@code family} or {@code family version}. */
  @Override
  public String toString() {
    return version.map(v -> family + " " + v).orElse(family);
  }
}
