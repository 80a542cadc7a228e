package io.ridgeline.serving.efficiency;

import static com.google.common.base.Preconditions.checkArgument;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.InputFiles;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Layer;
import io.ridgeline.models.Model;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * How far a calibrated estimate typically is from a measurement on a deployment the profiles were
 * not fitted on, and what the profiles have seen.
 *
 * <p>Each {@link Estimate} has two figures from leave-one-source-out cross-validation on the
 * shipped cases (written by {@code ridgeline calibrate --cross-validate --bands FILE}, or {@code
 * calibrate --replay --bands FILE} from the shipped folds, into the built-in {@value
 * #BUILT_IN_RESOURCE}):
 *
 * <ul>
 *   <li>its <b>typical error</b>, the median absolute percentage error: half of the held-out rows
 *       were closer than it, half further;
 *   <li>its <b>band</b> ({@link Range}), asymmetric: the 20th and 80th percentiles of the signed
 *       error e = measured / estimate − 1 of the held-out rows, so that the measurement lies in
 *       [estimate × (1 + low), estimate × (1 + high)] for about 60% of deployments nobody fitted.
 *       Where most misses are optimistic (a time measured longer than estimated, a rate measured
 *       lower) the band leans that way instead of hiding the direction in a ±. Its {@code coverage}
 *       is the share of held-out rows that fell inside a band computed without their own source
 *       (each source in turn left out of the percentiles): the band's realised coverage, not the
 *       60% it is built for.
 * </ul>
 *
 * <p>{@link #warnings} names what a system has that no fitted row had: a chip vendor, an attention
 * kind, dense or MoE FFNs, an engine family.
 *
 * <pre>{@code
 * ErrorBands.builtIn().typical(ErrorBands.Estimate.TPOT);       // e.g. 0.25 = 25% median APE
 * ErrorBands.builtIn().range(ErrorBands.Estimate.TTFT).low();   // e.g. -0.12: 12% below
 * }</pre>
 */
public final class ErrorBands {
  /** The classpath resource of the built-in bands. */
  public static final String BUILT_IN_RESOURCE =
      "/io/ridgeline/serving/efficiency/error-bands.json";

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** What a band describes. */
  public enum Estimate {
    /** Time to first token. */
    TTFT("ttft"),
    /** Time per output token. */
    TPOT("tpot"),
    /** Output tokens per second per user (1 / TPOT). */
    TOKENS_PER_SECOND_PER_USER("tokens_per_second_per_user"),
    /** Output tokens per second per chip. */
    TOKENS_PER_SECOND_PER_CHIP("tokens_per_second_per_chip");

    private final String key;

    Estimate(String key) {
      this.key = key;
    }

    /** The JSON key, e.g. {@code tpot}. */
    public String key() {
      return key;
    }
  }

  /** What the fitted rows covered: one set of values per dimension. */
  public enum Dimension {
    /** Chip vendors. */
    VENDOR("vendors"),
    /** Attention kinds: gqa (or mha), mla, sliding, linear. */
    ATTENTION("attention"),
    /** FFN kinds: dense, moe. */
    FFN("ffn"),
    /** Engine families. */
    ENGINE("engines");

    private final String key;

    Dimension(String key) {
      this.key = key;
    }

    /** The JSON key, e.g. {@code vendors}. */
    public String key() {
      return key;
    }
  }

  /**
   * An asymmetric band: the measurement lies in [estimate × (1 + low), estimate × (1 + high)] for
   * the share {@code coverage} of held-out rows.
   *
   * @param low the 20th percentile of measured / estimate − 1, in [−1, 10]
   * @param high the 80th percentile, in [low, 10]
   * @param coverage the realised share of held-out rows inside a band computed without their own
   *     source, in [0, 1]
   */
  public record Range(double low, double high, double coverage) {
    /**
     * Checks the bounds.
     *
     * @throws IllegalArgumentException naming the field, the rule and the value
     */
    public Range {
      checkArgument(
          Double.isFinite(low) && low >= -1 && low <= 10,
          "band low must be a fraction in [-1, 10]: %s",
          low);
      checkArgument(
          Double.isFinite(high) && high >= low && high <= 10,
          "band high must be a fraction in [low %s, 10]: %s",
          low,
          high);
      checkArgument(
          Double.isFinite(coverage) && coverage >= 0 && coverage <= 1,
          "band coverage must be a fraction in [0, 1]: %s",
          coverage);
    }

    /** e.g. {@code -12%/+35%}. */
    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%+.0f%%/%+.0f%%", 100 * low, 100 * high);
    }
  }

  private final Map<Estimate, Double> typical;
  private final Map<Estimate, Range> ranges;
  private final Map<Dimension, Set<String>> seen;
  private final String source;

  private ErrorBands(
      Map<Estimate, Double> typical,
      Map<Estimate, Range> ranges,
      Map<Dimension, Set<String>> seen,
      String source) {
    this.typical = Collections.unmodifiableMap(new EnumMap<>(typical));
    this.ranges = Collections.unmodifiableMap(new EnumMap<>(ranges));
    Map<Dimension, Set<String>> s = new EnumMap<>(Dimension.class);
    seen.forEach((k, v) -> s.put(k, Collections.unmodifiableSet(new TreeSet<>(v))));
    this.seen = Collections.unmodifiableMap(s);
    this.source = source;
  }

  /**
   * Bands from their parts.
   *
   * @param typical each estimate's typical error, a fraction in [0, 10]
   * @param ranges each estimate's asymmetric band
   * @param seen the values of each dimension the fitted rows covered (lower case)
   * @param source where the figures come from
   * @throws IllegalArgumentException naming the estimate whose band is out of range or missing
   */
  public static ErrorBands of(
      Map<Estimate, Double> typical,
      Map<Estimate, Range> ranges,
      Map<Dimension, Set<String>> seen,
      String source) {
    for (Estimate e : Estimate.values()) {
      checkArgument(typical.containsKey(e), "error band %s: typical error missing", e.key());
      checkArgument(ranges.containsKey(e), "error band %s: band missing", e.key());
    }
    typical.forEach(
        (k, v) ->
            checkArgument(
                Double.isFinite(v) && v >= 0 && v <= 10,
                "error band %s must be a fraction in [0, 10]: %s",
                k.key(),
                v));
    return new ErrorBands(typical, ranges, seen, source);
  }

  /** The built-in bands, parsed once. */
  public static ErrorBands builtIn() {
    return BuiltIn.BANDS;
  }

  private static final class BuiltIn {
    static final ErrorBands BANDS = load();
  }

  private static ErrorBands load() {
    try (InputStream in = ErrorBands.class.getResourceAsStream(BUILT_IN_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("built-in error bands missing: " + BUILT_IN_RESOURCE);
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "error-bands.json");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The bands of a JSON {@code text} ({@link #toJson}'s form); {@code name} names it in messages.
   *
   * @throws IllegalArgumentException when malformed or a band is out of range
   */
  public static ErrorBands parse(String text, String name) {
    JsonNode root = InputFiles.readJson(text, name, false);
    Map<Estimate, Double> typical = new EnumMap<>(Estimate.class);
    for (Estimate e : Estimate.values()) {
      JsonNode v = root.path("typical_error").path(e.key());
      checkArgument(v.isNumber(), "%s: typical_error.%s must be a number: %s", name, e.key(), v);
      typical.put(e, v.asDouble());
    }
    Map<Estimate, Range> ranges = new EnumMap<>(Estimate.class);
    for (Estimate e : Estimate.values()) {
      JsonNode r = root.path("band").path(e.key());
      for (String k : List.of("low", "high", "coverage")) {
        checkArgument(
            r.path(k).isNumber(),
            "%s: band.%s.%s must be a number: %s",
            name,
            e.key(),
            k,
            r.path(k));
      }
      ranges.put(
          e,
          new Range(
              r.path("low").asDouble(), r.path("high").asDouble(), r.path("coverage").asDouble()));
    }
    Map<Dimension, Set<String>> seen = new EnumMap<>(Dimension.class);
    for (Dimension d : Dimension.values()) {
      Set<String> values = new TreeSet<>();
      root.path("seen").path(d.key()).forEach(n -> values.add(n.asText()));
      seen.put(d, values);
    }
    return of(typical, ranges, seen, root.path("source").asText(""));
  }

  /**
   * The JSON form: {@code {source, typical_error{ttft, tpot, …}, band{ttft{low, high, coverage},
   * …}, seen{vendors, attention, ffn, engines}}}.
   */
  public String toJson() {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("source", source);
    ObjectNode t = root.putObject("typical_error");
    typical.forEach((k, v) -> t.put(k.key(), v));
    ObjectNode b = root.putObject("band");
    ranges.forEach(
        (k, v) ->
            b.putObject(k.key())
                .put("low", v.low())
                .put("high", v.high())
                .put("coverage", v.coverage()));
    ObjectNode s = root.putObject("seen");
    seen.forEach((k, v) -> v.forEach(s.putArray(k.key())::add));
    try {
      return MAPPER.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The typical error of {@code estimate}, a fraction (0.25 = 25% median APE). */
  public double typical(Estimate estimate) {
    return typical.get(estimate);
  }

  /** The asymmetric band of {@code estimate}. */
  public Range range(Estimate estimate) {
    return ranges.get(estimate);
  }

  /** Where the figures come from. */
  public String source() {
    return source;
  }

  /** The values of {@code d} the fitted rows covered. */
  public Set<String> seen(Dimension d) {
    return seen.getOrDefault(d, Set.of());
  }

  /** The attention kinds of {@code model}: gqa, mla, sliding, linear. */
  public static Set<String> attentionKinds(Model model) {
    Set<String> out = new TreeSet<>();
    for (Layer l : model.layers()) {
      l.attention()
          .ifPresent(
              a ->
                  out.add(
                      a.mla().isPresent()
                          ? "mla"
                          : a.slidingWindow().isPresent() ? "sliding" : "gqa"));
      l.linear().ifPresent(x -> out.add("linear"));
    }
    return out;
  }

  /** The FFN kinds of {@code model}: dense, moe. */
  public static Set<String> ffnKinds(Model model) {
    Set<String> out = new TreeSet<>();
    for (Layer l : model.layers()) {
      l.ffn().ifPresent(f -> out.add(f.isMoe() ? "moe" : "dense"));
    }
    return out;
  }

  /**
   * One warning per property of {@code model} on {@code chip} served by {@code engine} that no
   * fitted row had, and one when the chip has no measured achievable matmul rate (calibrated
   * compute then assumes {@link Chip#TYPICAL_MATMUL_FRACTION} of its peak; not on SRAM-only chips,
   * whose floor is not calibrated); empty when the profiles saw them all.
   */
  public List<String> warnings(Model model, Chip chip, String engine) {
    List<String> out = new ArrayList<>();
    String vendor = chip.vendor().toLowerCase(Locale.ROOT);
    if (!vendor.isEmpty() && !seen(Dimension.VENDOR).contains(vendor)) {
      out.add(
          "no fitted measurement on " + chip.vendor() + " chips: the error may exceed the band");
    }
    if (chip.achievableMatmulFraction().isEmpty() && !Efficiency.sramOnly(chip)) {
      out.add(
          String.format(
              Locale.ROOT,
              "%s has no measured achievable matmul rate (achievable_matmul_fraction): calibrated"
                  + " compute assumes %.3f of its peak, the median of the measured chips",
              chip.id(),
              Chip.TYPICAL_MATMUL_FRACTION));
    }
    for (String a : attentionKinds(model)) {
      if (!seen(Dimension.ATTENTION).contains(a)) {
        out.add("no fitted measurement of " + a + " attention: the error may exceed the band");
      }
    }
    for (String f : ffnKinds(model)) {
      if (!seen(Dimension.FFN).contains(f)) {
        out.add("no fitted measurement of a " + f + " FFN: the error may exceed the band");
      }
    }
    String e = engine.toLowerCase(Locale.ROOT);
    if (!e.equals(Profiles.DEFAULT) && !seen(Dimension.ENGINE).contains(e)) {
      out.add("no fitted measurement of engine '" + engine + "': the error may exceed the band");
    }
    return out;
  }

  /**
   * e.g. {@code error band (measured vs estimate, leave-one-source-out 20th-80th percentile; share
   * of unseen rows inside): ttft -12%/+35% (58%), tpot ...}.
   */
  @Override
  public String toString() {
    StringBuilder b =
        new StringBuilder(
            "error band (measured vs estimate, leave-one-source-out 20th-80th percentile;"
                + " share of unseen rows inside)");
    String sep = ": ";
    for (Map.Entry<Estimate, Range> e : ranges.entrySet()) {
      b.append(sep)
          .append(e.getKey().key())
          .append(' ')
          .append(e.getValue())
          .append(String.format(Locale.ROOT, " (%.0f%%)", 100 * e.getValue().coverage()));
      sep = ", ";
    }
    return b.toString();
  }
}
