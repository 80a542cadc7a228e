package io.ridgeline.hardware;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.DollarsPerHour;
import io.ridgeline.core.FlopsPerSecond;
import io.ridgeline.core.InputFiles;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Seconds;
import io.ridgeline.core.Watts;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;

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

  /** The typed fields of the file, with messages that start with its name. */
  private final ChipFields fields;

  /** The file name or resource name that starts every message. */
  private final String origin;

  private ChipJson(String origin) {
    this.fields = new ChipFields(origin);
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
    return new ChipJson(file.toString()).chips(InputFiles.readJson(file, "chip file", false));
  }

  /**
   * The chips in a JSON stream named {@code origin} in messages (the stream is not closed).
   *
   * @throws IllegalArgumentException when the content is not valid JSON or breaks the format
   * @throws IOException when the stream cannot be read
   */
  static List<Chip> parse(InputStream in, String origin) throws IOException {
    String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    return new ChipJson(origin).chips(InputFiles.readJson(text, origin, false));
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
        throw fields.fail(path, "must be a chip object", node);
      }
      Chip chip = chip(node, path + ".");
      if (!ids.add(chip.id().toLowerCase(Locale.ROOT))) {
        throw fields.fail(path + ".id", "must be unique in the file", node.get("id"));
      }
      chips.add(chip);
    }
    return chips.build();
  }

  /** One chip object; {@code prefix} is "" or "[i]." and starts every field path. */
  private Chip chip(JsonNode node, String prefix) {
    fields.checkKeys(node, prefix, CHIP_KEYS);
    Chip.Builder chip = Chip.builder();
    String id = fields.requiredText(node, prefix, "id");
    chip.id(id).name(fields.requiredText(node, prefix, "name"));
    fields.optionalText(node, prefix, "vendor").ifPresent(chip::vendor);
    peaks(node, prefix, chip);
    memory(node, prefix, chip);
    links(node, prefix, chip);
    ChipFields.present(node, "tdp_w")
        .ifPresent(n -> chip.tdp(Watts.of(fields.positive(n, prefix + "tdp_w"))));
    ChipFields.present(node, "price_per_hour_usd")
        .ifPresent(
            n ->
                chip.pricePerHour(
                    DollarsPerHour.of(fields.nonNegative(n, prefix + "price_per_hour_usd"))));
    ChipFields.present(node, "achievable_matmul_fraction")
        .ifPresent(
            n ->
                chip.achievableMatmulFraction(
                    fields.positive(n, prefix + "achievable_matmul_fraction")));
    ChipFields.present(node, "narrow_matmul_fractions")
        .ifPresent(n -> narrowMatmulFractions(n, prefix, chip));
    ChipFields.present(node, "sources").ifPresent(sources -> sources(sources, prefix, chip));
    fields.optionalText(node, prefix, "notes").ifPresent(chip::notes);
    return fields.build(
        () -> chip.build(), prefix.isEmpty() ? "" : prefix.substring(0, prefix.length() - 1));
  }

  /** The required {@code peak_tflops} object: precision id to TFLOP/s. */
  private void peaks(JsonNode node, String prefix, Chip.Builder chip) {
    JsonNode peaks = fields.required(node, prefix, "peak_tflops");
    if (!peaks.isObject() || peaks.isEmpty()) {
      throw fields.fail(
          prefix + "peak_tflops",
          "must be an object of precision id to TFLOP/s with at least one entry",
          peaks);
    }
    for (Map.Entry<String, JsonNode> e : peaks.properties()) {
      String path = prefix + "peak_tflops." + e.getKey();
      Precision precision = fields.precision(e.getKey(), path);
      chip.putPeak(precision, FlopsPerSecond.ofTera(fields.positive(e.getValue(), path)));
    }
  }

  /** The optional {@code narrow_matmul_fractions} object: precision id to MAMF / peak. */
  private void narrowMatmulFractions(JsonNode n, String prefix, Chip.Builder chip) {
    if (!n.isObject()) {
      throw fields.fail(
          prefix + "narrow_matmul_fractions",
          "must be an object of precision id to achievable matmul fraction",
          n);
    }
    for (Map.Entry<String, JsonNode> e : n.properties()) {
      String path = prefix + "narrow_matmul_fractions." + e.getKey();
      chip.putNarrowMatmulFraction(
          fields.precision(e.getKey(), path), fields.positive(e.getValue(), path));
    }
  }

  /** The required {@code memory} array of tiers, the main tier first. */
  private void memory(JsonNode node, String prefix, Chip.Builder chip) {
    JsonNode memory = fields.required(node, prefix, "memory");
    if (!memory.isArray() || memory.isEmpty()) {
      throw fields.fail(prefix + "memory", "must be an array of at least one memory tier", memory);
    }
    for (int i = 0; i < memory.size(); i++) {
      chip.addMemory(tier(memory.get(i), prefix + "memory[" + i + "]"));
    }
  }

  /** The optional {@code scale_up} and {@code scale_out} interconnects. */
  private void links(JsonNode node, String prefix, Chip.Builder chip) {
    ChipFields.present(node, "scale_up")
        .ifPresent(
            n ->
                chip.scaleUp(
                    link(
                        n,
                        prefix + "scale_up",
                        Interconnect.Scope.SCALE_UP,
                        DEFAULT_SCALE_UP_LATENCY_US)));
    ChipFields.present(node, "scale_out")
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
      throw fields.fail(prefix + "sources", "must be an object of field name to text", sources);
    }
    for (Map.Entry<String, JsonNode> e : sources.properties()) {
      chip.putSource(e.getKey(), fields.text(e.getValue(), prefix + "sources." + e.getKey()));
    }
  }

  private MemoryTier tier(JsonNode node, String path) {
    if (!node.isObject()) {
      throw fields.fail(path, "must be a memory tier object", node);
    }
    fields.checkKeys(node, path + ".", TIER_KEYS);
    MemoryTier.Builder tier = MemoryTier.builder();
    JsonNode kind = fields.required(node, path + ".", "kind");
    try {
      tier.kind(MemoryKind.of(fields.text(kind, path + ".kind")));
    } catch (NoSuchElementException e) {
      throw fields.fail(
          path + ".kind", "must be one of " + String.join(", ", MemoryKind.ids()), kind);
    }
    fields.optionalText(node, path + ".", "name").ifPresent(tier::name);
    tier.capacity(
        Bytes.ofGigabytes(
            fields.positive(
                fields.required(node, path + ".", "capacity_gb"), path + ".capacity_gb")));
    tier.bandwidth(
        BytesPerSecond.ofGigabytes(
            fields.positive(
                fields.required(node, path + ".", "bandwidth_gbps"), path + ".bandwidth_gbps")));
    ChipFields.present(node, "latency_ns")
        .ifPresent(n -> tier.latency(Seconds.of(fields.positive(n, path + ".latency_ns") / 1e9)));
    tier.source(fields.optionalText(node, path + ".", "source").orElse(origin));
    return fields.build(() -> tier.build(), path);
  }

  private Interconnect link(
      JsonNode node, String path, Interconnect.Scope scope, double defaultLatencyMicros) {
    if (!node.isObject()) {
      throw fields.fail(path, "must be an interconnect object", node);
    }
    fields.checkKeys(node, path + ".", LINK_KEYS);
    Interconnect.Builder link = Interconnect.builder().scope(scope);
    link.name(fields.optionalText(node, path + ".", "name").orElse(scope.id()));
    link.bandwidthPerDirection(
        BytesPerSecond.ofGigabytes(
            fields.positive(
                fields.required(node, path + ".", "bandwidth_gbps_per_direction"),
                path + ".bandwidth_gbps_per_direction")));
    JsonNode domain = fields.required(node, path + ".", "domain_size");
    if (!domain.isIntegralNumber() || !domain.canConvertToInt() || domain.intValue() < 1) {
      throw fields.fail(
          path + ".domain_size", "must be a whole number of chips, at least 1", domain);
    }
    if (domain.intValue() > MAX_DOMAIN) {
      throw fields.fail(path + ".domain_size", "must be at most " + MAX_DOMAIN + " chips", domain);
    }
    link.domainSize(domain.intValue());
    Optional<JsonNode> latency = ChipFields.present(node, "latency_us");
    double micros =
        latency.isPresent()
            ? fields.nonNegative(latency.get(), path + ".latency_us")
            : defaultLatencyMicros;
    link.latency(Seconds.of(micros / 1e6));
    String source = fields.optionalText(node, path + ".", "source").orElse(origin);
    if (latency.isEmpty()) {
      source +=
          String.format(
              Locale.ROOT, "; latency: assumed default %s µs per hop", defaultLatencyMicros);
    }
    link.source(source);
    return fields.build(() -> link.build(), path);
  }

  /** The largest scale-up or scale-out domain, chips (2^20). */
  static final int MAX_DOMAIN = 1 << 20;
}
