package io.ridgeline.hardware;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.FlopsPerSecond;
import io.ridgeline.core.Names;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Seconds;
import io.ridgeline.core.Watts;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Reads chips from JSON: a file holds one chip object or an array of them.
 *
 * <pre>{@code
 * {
 *   "id": "my-npu", "name": "My NPU", "vendor": "Acme",
 *   "peak_tflops": {"bf16": 400, "fp8": 800},
 *   "memory": [ {"kind": "hbm", "name": "hbm", "capacity_gb": 96, "bandwidth_gbps": 2400, "latency_ns": 500} ],
 *   "scale_up": {"name": "AcmeLink", "bandwidth_gbps_per_direction": 200, "latency_us": 1.0, "domain_size": 8},
 *   "scale_out": {"name": "RoCE", "bandwidth_gbps_per_direction": 50, "latency_us": 5.0, "domain_size": 1024},
 *   "tdp_w": 600, "price_per_hour_usd": 2.5,
 *   "sources": {"peak_tflops": "Acme datasheet 2026"}, "notes": "..."
 * }
 * }</pre>
 *
 * <table>
 *   <caption>Keys of a chip object</caption>
 *   <tr><th>key</th><th>required</th><th>meaning</th></tr>
 *   <tr><td>{@code id}</td><td>yes</td><td>catalog id, no whitespace; unique in the file</td></tr>
 *   <tr><td>{@code name}</td><td>yes</td><td>display name</td></tr>
 *   <tr><td>{@code vendor}</td><td>no</td><td>vendor name</td></tr>
 *   <tr><td>{@code peak_tflops}</td><td>yes</td><td>precision id ({@code fp32, tf32, bf16, fp16,
 *       fp8, int8, fp4, int4}) to dense peak in TFLOP/s (TOPS for int8/int4), 1e12 FLOP/s;
 *       positive; at least one. {@code mxfp4} is not a key: MXFP4 runs at the {@code fp4}
 *       peak</td></tr>
 *   <tr><td>{@code memory}</td><td>yes</td><td>array of tiers, the main tier first; at least
 *       one</td></tr>
 *   <tr><td>{@code memory[i].kind}</td><td>yes</td><td>{@code hbm, gddr, sram, ddr, lpddr,
 *       unified}</td></tr>
 *   <tr><td>{@code memory[i].name}</td><td>no</td><td>tier name, unique in the chip; defaults to
 *       the kind</td></tr>
 *   <tr><td>{@code memory[i].capacity_gb}</td><td>yes</td><td>capacity in GB (1e9 B);
 *       positive</td></tr>
 *   <tr><td>{@code memory[i].bandwidth_gbps}</td><td>yes</td><td>bandwidth in GB/s (1e9 B/s);
 *       positive</td></tr>
 *   <tr><td>{@code memory[i].latency_ns}</td><td>no</td><td>access latency in ns;
 *       positive</td></tr>
 *   <tr><td>{@code memory[i].source}</td><td>no</td><td>where the tier's figures come from;
 *       defaults to the file name</td></tr>
 *   <tr><td>{@code scale_up}, {@code scale_out}</td><td>no</td><td>interconnect objects: {@code
 *       bandwidth_gbps_per_direction} (required, GB/s per direction, positive), {@code
 *       domain_size} (required, whole number of chips, at least 1), {@code name} (defaults to
 *       "scale-up" / "scale-out"), {@code latency_us} (µs per hop, not negative; defaults to 1
 *       µs for scale-up and 5 µs for scale-out), {@code source}</td></tr>
 *   <tr><td>{@code tdp_w}</td><td>no</td><td>thermal design power in W; positive</td></tr>
 *   <tr><td>{@code price_per_hour_usd}</td><td>no</td><td>US dollars per chip-hour; not
 *       negative</td></tr>
 *   <tr><td>{@code achievable_matmul_fraction}</td><td>no</td><td>the share of the BF16 peak
 *       the best dense matmul measured on the chip reaches (MAMF / peak), in [0.001, 1]; without
 *       it calibrated estimates assume {@value Chip#TYPICAL_MATMUL_FRACTION}</td></tr>
 *   <tr><td>{@code narrow_matmul_fractions}</td><td>no</td><td>object of precision id (a peak
 *       precision narrower than 16 bits that the chip has a peak for, e.g. {@code fp8}) to the share
 *       of that precision's own peak its best dense matmul reaches, each in [0.001, 1] ({@link
 *       Chip#narrowMatmulFractions()})</td></tr>
 *   <tr><td>{@code sources}</td><td>no</td><td>object of strings: field name to source
 *       text</td></tr>
 *   <tr><td>{@code notes}</td><td>no</td><td>free text</td></tr>
 * </table>
 *
 * <p>A {@code null} value counts as absent. Any other key is an error naming it, so typos do not
 * pass silently; so are duplicate keys. Numbers must be JSON numbers, not strings.
 *
 * <p>Errors are {@link IllegalArgumentException}s whose message names the file, the field path,
 * what was expected and the value found, for example {@code "my.json: memory[0].bandwidth_gbps must
 * be a positive number: -3"}; in an array file the path starts with the chip's index, {@code
 * "[2].memory[0]..."}. Malformed JSON gives the line and column. A missing file is an {@link
 * IllegalArgumentException}; other I/O failures are {@link UncheckedIOException}s naming the file.
 */
final class ChipJson {
  /** With a depth and size limit: 64 levels, 16 MB (README, "Limits and errors"). */
  private static final ObjectMapper MAPPER =
      JsonMapper.builder(
              com.fasterxml.jackson.core.JsonFactory.builder()
                  .streamReadConstraints(
                      com.fasterxml.jackson.core.StreamReadConstraints.builder()
                          .maxNestingDepth(64)
                          .maxDocumentLength(16_000_000L)
                          .maxStringLength(1_000_000)
                          .maxNumberLength(100)
                          .build())
                  .build())
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private static final List<String> CHIP_KEYS =
      List.of(
          "id",
          "name",
          "vendor",
          "peak_tflops",
          "memory",
          "scale_up",
          "scale_out",
          "tdp_w",
          "price_per_hour_usd",
          "achievable_matmul_fraction",
          "narrow_matmul_fractions",
          "sources",
          "notes");
  private static final List<String> TIER_KEYS =
      List.of("kind", "name", "capacity_gb", "bandwidth_gbps", "latency_ns", "source");
  private static final List<String> LINK_KEYS =
      List.of("name", "bandwidth_gbps_per_direction", "latency_us", "domain_size", "source");

  /** Default hop latency of a scale-up fabric when a file gives none, in µs. */
  static final double DEFAULT_SCALE_UP_LATENCY_US = 1.0;

  /** Default hop latency of a scale-out network when a file gives none, in µs. */
  static final double DEFAULT_SCALE_OUT_LATENCY_US = 5.0;

  /** The file name or resource name that starts every message. */
  private final String origin;

  private ChipJson(String origin) {
    this.origin = origin;
  }

  /**
   * The chips in {@code file}, in file order.
   *
   * @throws IllegalArgumentException when the file is missing, is not valid JSON or breaks the
   *     format; the message names the file and the field
   * @throws UncheckedIOException when the file exists but cannot be read
   */
  static List<Chip> read(Path file) {
    String origin = file.toString();
    try (InputStream in = Files.newInputStream(file)) {
      return parse(in, origin);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("chip file not found: " + origin, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read chip file " + origin + ": " + e.getMessage(), e);
    }
  }

  /**
   * The chips in a JSON stream named {@code origin} in messages (the stream is not closed).
   *
   * @throws IllegalArgumentException when the content is not valid JSON or breaks the format
   * @throws IOException when the stream cannot be read
   */
  static List<Chip> parse(InputStream in, String origin) throws IOException {
    JsonNode root;
    try {
      root = MAPPER.readTree(in);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String where =
          at == null
              ? ""
              : String.format(
                  Locale.ROOT, " at line %d, column %d", at.getLineNr(), at.getColumnNr());
      throw new IllegalArgumentException(
          origin
              + ": malformed JSON"
              + where
              + ": "
              + e.getOriginalMessage().lines().findFirst().orElse(""),
          e);
    }
    return new ChipJson(origin).chips(root);
  }

  private List<Chip> chips(JsonNode root) {
    if (root == null || root.isMissingNode()) {
      throw new IllegalArgumentException(
          origin + ": file is empty; expected a chip object or an array of chip objects");
    }
    if (root.isObject()) {
      return List.of(chip(root, ""));
    }
    if (!root.isArray()) {
      throw new IllegalArgumentException(
          origin + ": expected a chip object or an array of chip objects, found: " + root);
    }
    if (root.isEmpty()) {
      throw new IllegalArgumentException(
          origin + ": the array is empty; expected at least one chip object");
    }
    ImmutableList.Builder<Chip> chips = ImmutableList.builder();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < root.size(); i++) {
      String path = "[" + i + "]";
      JsonNode node = root.get(i);
      if (!node.isObject()) {
        throw fail(path, "must be a chip object", node);
      }
      Chip chip = chip(node, path + ".");
      if (!ids.add(chip.id().toLowerCase(Locale.ROOT))) {
        throw fail(path + ".id", "must be unique in the file", node.get("id"));
      }
      chips.add(chip);
    }
    return chips.build();
  }

  /** One chip object; {@code prefix} is "" or "[i]." and starts every field path. */
  private Chip chip(JsonNode node, String prefix) {
    checkKeys(node, prefix, CHIP_KEYS);
    Chip.Builder chip = Chip.builder();
    String id = requiredText(node, prefix, "id");
    chip.id(id).name(requiredText(node, prefix, "name"));
    optionalText(node, prefix, "vendor").ifPresent(chip::vendor);
    peaks(node, prefix, chip);
    memory(node, prefix, chip);
    links(node, prefix, chip);
    present(node, "tdp_w").ifPresent(n -> chip.tdp(Watts.of(positive(n, prefix + "tdp_w"))));
    present(node, "price_per_hour_usd")
        .ifPresent(
            n ->
                chip.pricePerHour(
                    DollarsPerHour.of(nonNegative(n, prefix + "price_per_hour_usd"))));
    present(node, "achievable_matmul_fraction")
        .ifPresent(
            n -> chip.achievableMatmulFraction(positive(n, prefix + "achievable_matmul_fraction")));
    present(node, "narrow_matmul_fractions").ifPresent(n -> narrowMatmulFractions(n, prefix, chip));
    present(node, "sources").ifPresent(sources -> sources(sources, prefix, chip));
    optionalText(node, prefix, "notes").ifPresent(chip::notes);
    return build(
        () -> chip.build(), prefix.isEmpty() ? "" : prefix.substring(0, prefix.length() - 1));
  }

  /** The required {@code peak_tflops} object: precision id to TFLOP/s. */
  private void peaks(JsonNode node, String prefix, Chip.Builder chip) {
    JsonNode peaks = required(node, prefix, "peak_tflops");
    if (!peaks.isObject() || peaks.isEmpty()) {
      throw fail(
          prefix + "peak_tflops",
          "must be an object of precision id to TFLOP/s with at least one entry",
          peaks);
    }
    for (Map.Entry<String, JsonNode> e : peaks.properties()) {
      String path = prefix + "peak_tflops." + e.getKey();
      Precision precision = precision(e.getKey(), path);
      chip.putPeak(precision, FlopsPerSecond.ofTera(positive(e.getValue(), path)));
    }
  }

  /** The optional {@code narrow_matmul_fractions} object: precision id to MAMF / peak. */
  private void narrowMatmulFractions(JsonNode n, String prefix, Chip.Builder chip) {
    if (!n.isObject()) {
      throw fail(
          prefix + "narrow_matmul_fractions",
          "must be an object of precision id to achievable matmul fraction",
          n);
    }
    for (Map.Entry<String, JsonNode> e : n.properties()) {
      String path = prefix + "narrow_matmul_fractions." + e.getKey();
      chip.putNarrowMatmulFraction(precision(e.getKey(), path), positive(e.getValue(), path));
    }
  }

  /** The required {@code memory} array of tiers, the main tier first. */
  private void memory(JsonNode node, String prefix, Chip.Builder chip) {
    JsonNode memory = required(node, prefix, "memory");
    if (!memory.isArray() || memory.isEmpty()) {
      throw fail(prefix + "memory", "must be an array of at least one memory tier", memory);
    }
    for (int i = 0; i < memory.size(); i++) {
      chip.addMemory(tier(memory.get(i), prefix + "memory[" + i + "]"));
    }
  }

  /** The optional {@code scale_up} and {@code scale_out} interconnects. */
  private void links(JsonNode node, String prefix, Chip.Builder chip) {
    present(node, "scale_up")
        .ifPresent(
            n ->
                chip.scaleUp(
                    link(
                        n,
                        prefix + "scale_up",
                        Interconnect.Scope.SCALE_UP,
                        DEFAULT_SCALE_UP_LATENCY_US)));
    present(node, "scale_out")
        .ifPresent(
            n ->
                chip.scaleOut(
                    link(
                        n,
                        prefix + "scale_out",
                        Interconnect.Scope.SCALE_OUT,
                        DEFAULT_SCALE_OUT_LATENCY_US)));
  }

  /** The optional {@code sources} object: field name to source text. */
  private void sources(JsonNode sources, String prefix, Chip.Builder chip) {
    if (!sources.isObject()) {
      throw fail(prefix + "sources", "must be an object of field name to text", sources);
    }
    for (Map.Entry<String, JsonNode> e : sources.properties()) {
      chip.putSource(e.getKey(), text(e.getValue(), prefix + "sources." + e.getKey()));
    }
  }

  private MemoryTier tier(JsonNode node, String path) {
    if (!node.isObject()) {
      throw fail(path, "must be a memory tier object", node);
    }
    checkKeys(node, path + ".", TIER_KEYS);
    MemoryTier.Builder tier = MemoryTier.builder();
    JsonNode kind = required(node, path + ".", "kind");
    try {
      tier.kind(MemoryKind.of(text(kind, path + ".kind")));
    } catch (NoSuchElementException e) {
      throw fail(path + ".kind", "must be one of " + String.join(", ", MemoryKind.ids()), kind);
    }
    optionalText(node, path + ".", "name").ifPresent(tier::name);
    tier.capacity(
        Bytes.ofGigabytes(
            positive(required(node, path + ".", "capacity_gb"), path + ".capacity_gb")));
    tier.bandwidth(
        BytesPerSecond.ofGigabytes(
            positive(required(node, path + ".", "bandwidth_gbps"), path + ".bandwidth_gbps")));
    present(node, "latency_ns")
        .ifPresent(n -> tier.latency(Seconds.of(positive(n, path + ".latency_ns") / 1e9)));
    tier.source(optionalText(node, path + ".", "source").orElse(origin));
    return build(() -> tier.build(), path);
  }

  private Interconnect link(
      JsonNode node, String path, Interconnect.Scope scope, double defaultLatencyMicros) {
    if (!node.isObject()) {
      throw fail(path, "must be an interconnect object", node);
    }
    checkKeys(node, path + ".", LINK_KEYS);
    Interconnect.Builder link = Interconnect.builder().scope(scope);
    link.name(optionalText(node, path + ".", "name").orElse(scope.id()));
    link.bandwidthPerDirection(
        BytesPerSecond.ofGigabytes(
            positive(
                required(node, path + ".", "bandwidth_gbps_per_direction"),
                path + ".bandwidth_gbps_per_direction")));
    JsonNode domain = required(node, path + ".", "domain_size");
    if (!domain.isIntegralNumber() || !domain.canConvertToInt() || domain.intValue() < 1) {
      throw fail(path + ".domain_size", "must be a whole number of chips, at least 1", domain);
    }
    if (domain.intValue() > MAX_DOMAIN) {
      throw fail(path + ".domain_size", "must be at most " + MAX_DOMAIN + " chips", domain);
    }
    link.domainSize(domain.intValue());
    Optional<JsonNode> latency = present(node, "latency_us");
    double micros =
        latency.isPresent()
            ? nonNegative(latency.get(), path + ".latency_us")
            : defaultLatencyMicros;
    link.latency(Seconds.of(micros / 1e6));
    String source = optionalText(node, path + ".", "source").orElse(origin);
    if (latency.isEmpty()) {
      source +=
          String.format(
              Locale.ROOT, "; latency: assumed default %s µs per hop", defaultLatencyMicros);
    }
    link.source(source);
    return build(() -> link.build(), path);
  }

  /** Builds a value, prefixing a rule broken across fields with the origin and the path. */
  private <T> T build(Supplier<T> builder, String path) {
    try {
      return builder.get();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new IllegalArgumentException(
          origin + ": " + (path.isEmpty() ? "" : path + ": ") + e.getMessage(), e);
    }
  }

  private Precision precision(String key, String path) {
    Optional<Precision> precision = Precision.find(key);
    if (precision.isEmpty()) {
      throw new IllegalArgumentException(
          origin
              + ": "
              + path
              + " is not a known precision"
              + Names.closest(key, precisionIds())
                  .map(c -> "; did you mean '" + c + "'?")
                  .orElse("")
              + " known: "
              + Precision.ids());
    }
    if (precision.get() != precision.get().peakKey()) {
      throw new IllegalArgumentException(
          origin
              + ": "
              + path
              + ": give the "
              + precision.get().id()
              + " peak as "
              + precision.get().peakKey().id()
              + " ("
              + precision.get().id()
              + " math runs at the "
              + precision.get().peakKey().id()
              + " peak)");
    }
    return precision.get();
  }

  private static List<String> precisionIds() {
    return List.of(Precision.ids().split(", "));
  }

  private void checkKeys(JsonNode node, String prefix, List<String> known) {
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      String key = e.getKey();
      if (!known.contains(key)) {
        throw new IllegalArgumentException(
            origin
                + ": "
                + prefix
                + key
                + " is not a known key"
                + Names.closest(key, known).map(c -> "; did you mean '" + c + "'?").orElse("")
                + " known keys: "
                + String.join(", ", known));
      }
    }
  }

  private static Optional<JsonNode> present(JsonNode node, String key) {
    JsonNode value = node.get(key);
    return value == null || value.isNull() ? Optional.empty() : Optional.of(value);
  }

  private JsonNode required(JsonNode node, String prefix, String key) {
    return present(node, key)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    origin + ": " + prefix + key + " is required but missing"));
  }

  private String requiredText(JsonNode node, String prefix, String key) {
    String text = text(required(node, prefix, key), prefix + key);
    if (text.isBlank()) {
      throw fail(prefix + key, "must be a non-empty string", node.get(key));
    }
    return text;
  }

  private Optional<String> optionalText(JsonNode node, String prefix, String key) {
    return present(node, key).map(n -> text(n, prefix + key));
  }

  private String text(JsonNode node, String path) {
    if (!node.isTextual()) {
      throw fail(path, "must be a string", node);
    }
    return node.textValue();
  }

  /**
   * The valid range of each number field, by the field's name (README, "Limits and errors"): wide
   * enough for any real or imagined chip, narrow enough that every time and byte count derived from
   * it stays finite.
   */
  private static final Map<String, double[]> RANGES =
      Map.of(
          "peak_tflops", new double[] {1e-3, 1e6},
          "capacity_gb", new double[] {1e-3, 1e7},
          "bandwidth_gbps", new double[] {1e-3, 1e9},
          "latency_ns", new double[] {1e-3, 1e9},
          "bandwidth_gbps_per_direction", new double[] {1e-3, 1e7},
          "latency_us", new double[] {0, 1e6},
          "tdp_w", new double[] {1e-3, 1e7},
          "price_per_hour_usd", new double[] {0, 1e6},
          "achievable_matmul_fraction", new double[] {1e-3, 1},
          "narrow_matmul_fractions", new double[] {1e-3, 1});

  /** The largest scale-up or scale-out domain, chips (2^20). */
  static final int MAX_DOMAIN = 1 << 20;

  private double positive(JsonNode node, String path) {
    if (!node.isNumber() || !Double.isFinite(node.doubleValue()) || node.doubleValue() <= 0) {
      throw fail(path, "must be a positive number", node);
    }
    return inRange(node, path);
  }

  private double nonNegative(JsonNode node, String path) {
    if (!node.isNumber() || !Double.isFinite(node.doubleValue()) || node.doubleValue() < 0) {
      throw fail(path, "must be a non-negative number", node);
    }
    return inRange(node, path);
  }

  private double inRange(JsonNode node, String path) {
    // a field's own range, else, for an entry of an object of numbers (peak_tflops.bf16,
    // narrow_matmul_fractions.fp8), the range of the object that holds it
    String[] segments = Splitter.on('.').splitToList(path).toArray(String[]::new);
    String field = segments[segments.length - 1];
    double[] range = RANGES.get(field);
    if (range == null && segments.length > 1) {
      range = RANGES.get(segments[segments.length - 2]);
    }
    double v = node.doubleValue();
    if (range != null && (v < range[0] || v > range[1])) {
      throw fail(
          path,
          String.format(Locale.ROOT, "must be in [%s, %s]", number(range[0]), number(range[1])),
          node);
    }
    return v;
  }

  private static String number(double v) {
    return v == Math.rint(v) && v < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
  }

  private IllegalArgumentException fail(String path, String expected, JsonNode value) {
    // numbers print as written (-3, 0.5, Infinity); strings keep their quotes to show the type
    String shown = value == null ? "null" : value.isNumber() ? value.asText() : value.toString();
    return new IllegalArgumentException(origin + ": " + path + " " + expected + ": " + shown);
  }
}
