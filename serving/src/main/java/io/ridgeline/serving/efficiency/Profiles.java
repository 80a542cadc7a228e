package io.ridgeline.serving.efficiency;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.InputFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Engine profiles by engine family, with a {@value #DEFAULT} profile for every family a file does
 * not list. {@link #builtIn()} holds one profile, {@value #DEFAULT}: the pooled profile, fitted by
 * {@code io.ridgeline.validation.Calibration} on the shipped cases with every engine family pooled
 * (its {@link EngineProfile#source()} says on which rows and when). No engine family has offsets of
 * its own yet (the shipped cases cannot separate an engine from the sources that measured it;
 * {@code io.ridgeline.validation.EngineOffsetFit} scores {@link EngineOffsets} on sources they were
 * not estimated on, and the experiment log says what they gave), so {@link #forEngine} answers the
 * pooled profile for every family, {@code vllm} and {@code trtllm} alike. A user's file may list
 * profiles per family. {@link Efficiency#ideal()} stays the roofline bound.
 *
 * <p>JSON form ({@code docs/profile-format.md}): each efficiency parameter under its {@link
 * EfficiencyParameter#jsonKey()}, in its {@link EfficiencyParameter#unit()}; {@code compute},
 * {@code memory}, {@code network}, {@code gemm_half_tokens}, {@code kernel_us} and {@code
 * step_overhead_us} are required, the others {@link EfficiencyParameter#ideal()} when absent (an
 * {@code attention} of 1, no {@code admission_ms}); {@code max_running_requests}, the engine's cap
 * on requests running at once per model replica, is optional: absent or {@code null} means no cap
 * beyond memory, and a fractional value is rounded down (see {@link
 * EngineProfile#maxRunningRequests()}); {@code fitted_on} says where the values come from. A file's
 * {@code layer_overhead_us} (a fixed cost per layer, before kernels were counted) is read as {@code
 * kernel_us} divided by the {@value io.ridgeline.models.Kernels#REFERENCE_LAYER} kernels of a Llama
 * layer.
 *
 * <pre>{@code
 * {"profiles": {
 *   "default": {"compute": 0.6, "memory": 0.8, "network": 0.7, "attention": 0.8,
 *               "gemm_half_tokens": 32, "kernel_us": 4, "step_overhead_us": 1000,
 *               "collective_latency_us": 10, "max_running_requests": 256, "fitted_on": "..."},
 *   "vllm": {...}}}
 * }</pre>
 *
 * <pre>{@code
 * Profiles p = Profiles.builtIn();
 * p.forEngine("vllm").efficiency();   // the pooled default profile's
 * Validation.run(CaseFile.shipped(), Predictor.byProfiles(p));   // ridgeline-validation
 * }</pre>
 */
public final class Profiles {
  /** The name of the fallback profile. */
  public static final String DEFAULT = "default";

  /** Classpath location of the built-in profiles. */
  public static final String BUILT_IN_RESOURCE = "/io/ridgeline/serving/efficiency/profiles.json";

  /** Writes {@link #toJson()}, indented. */
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Map<String, EngineProfile> profiles;

  private Profiles(Map<String, EngineProfile> profiles) {
    this.profiles = Collections.unmodifiableMap(new LinkedHashMap<>(profiles));
  }

  /**
   * Profiles from {@code profiles}, keyed by their names.
   *
   * @throws IllegalArgumentException when there is no {@value #DEFAULT} profile or a name repeats
   */
  public static Profiles of(Iterable<EngineProfile> profiles) {
    Map<String, EngineProfile> map = new LinkedHashMap<>();
    for (EngineProfile p : profiles) {
      checkNotNull(p, "profile");
      checkArgument(map.put(p.name(), p) == null, "duplicate profile: %s", p.name());
    }
    checkArgument(
        map.containsKey(DEFAULT), "profiles must include '%s'; found %s", DEFAULT, map.keySet());
    return new Profiles(map);
  }

  /**
   * The built-in profiles, read from the classpath.
   *
   * @throws IllegalStateException when the resource is missing from the build
   */
  public static Profiles builtIn() {
    return BuiltIn.PROFILES;
  }

  /** Holds the built-in profiles, parsed once on first use. */
  private static final class BuiltIn {
    static final Profiles PROFILES = load();
  }

  private static Profiles load() {
    try (InputStream in = Profiles.class.getResourceAsStream(BUILT_IN_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "built-in profiles missing from the classpath: " + BUILT_IN_RESOURCE);
      }
      return parse(
          new String(in.readAllBytes(), StandardCharsets.UTF_8), "profiles.json (built-in)");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The profiles of the JSON file at {@code path}.
   *
   * @throws IllegalArgumentException when the file cannot be read or is malformed, naming the file
   *     and the field
   */
  public static Profiles read(Path path) {
    String text = InputFiles.readText(path, "profile file");
    return parse(text, path.toString());
  }

  /**
   * The profiles of JSON {@code text}; {@code name} names the file in error messages.
   *
   * @throws IllegalArgumentException when the text is malformed, naming {@code name} and the field
   */
  public static Profiles parse(String text, String name) {
    JsonNode root = InputFiles.readJson(text, name, false);
    if (root == null
        || !root.isObject()
        || !root.has("profiles")
        || !root.get("profiles").isObject()) {
      throw new IllegalArgumentException(
          name + ": field 'profiles' must be an object of profiles by engine");
    }
    unknownKeys(root, "", List.of("profiles"), name);
    Map<String, EngineProfile> map = new LinkedHashMap<>();
    JsonNode all = root.get("profiles");
    Iterator<String> it = all.fieldNames();
    while (it.hasNext()) {
      String engine = it.next();
      map.put(engine, profile(engine, all.get(engine), name));
    }
    if (!map.containsKey(DEFAULT)) {
      throw new IllegalArgumentException(
          name
              + ": field 'profiles."
              + DEFAULT
              + "' is missing; it is the fallback for unlisted engines");
    }
    return new Profiles(map);
  }

  private static EngineProfile profile(String engine, JsonNode node, String file) {
    String where = "profiles." + engine;
    if (!node.isObject()) {
      throw new IllegalArgumentException(file + ": field '" + where + "' must be an object");
    }
    List<String> known = new ArrayList<>();
    for (EfficiencyParameter p : EfficiencyParameter.values()) {
      known.add(p.jsonKey());
    }
    known.addAll(List.of("max_running_requests", "fitted_on", LEGACY_LAYER_OVERHEAD_KEY));
    unknownKeys(node, where + ".", known, file);
    Efficiency.Builder efficiency = Efficiency.builder();
    for (EfficiencyParameter p : EfficiencyParameter.values()) {
      p.set(efficiency, parameter(node, where, p, file));
    }
    OptionalInt maxRunning = maxRunningRequests(node, where, file);
    JsonNode fitted = node.get("fitted_on");
    if (fitted != null && !fitted.isTextual()) {
      throw new IllegalArgumentException(
          file + ": field '" + where + ".fitted_on' must be a string, found " + fitted);
    }
    return new EngineProfile(
        engine, efficiency.build(), maxRunning, fitted == null ? "" : fitted.asText());
  }

  /**
   * Fails on a key of {@code node} that is not in {@code known}, naming it with its path and the
   * closest known key, so that a typo never passes as an absent optional parameter.
   */
  private static void unknownKeys(JsonNode node, String where, List<String> known, String file) {
    Iterator<String> it = node.fieldNames();
    while (it.hasNext()) {
      String key = it.next();
      if (!known.contains(key)) {
        throw new IllegalArgumentException(
            file
                + ": unknown field '"
                + where
                + key
                + "'"
                + io.ridgeline.core.Names.closest(key, known)
                    .map(c -> "; did you mean '" + c + "'?")
                    .orElse("")
                + " known: "
                + String.join(", ", known));
      }
    }
  }

  /**
   * The {@code max_running_requests} of {@code node}: empty when absent or null, else a whole
   * number of requests from 1 to 2^24 (the largest batch a pool runs).
   */
  private static OptionalInt maxRunningRequests(JsonNode node, String where, String file) {
    JsonNode cap = node.get("max_running_requests");
    if (cap == null || cap.isNull()) {
      return OptionalInt.empty();
    }
    double v = number(node, where, "max_running_requests", file);
    if (!(v >= 1 && v <= MAX_RUNNING_REQUESTS && v == Math.rint(v))) {
      throw new IllegalArgumentException(
          file
              + ": field '"
              + where
              + ".max_running_requests' must be a whole number of requests from 1 to "
              + String.format(Locale.ROOT, "%,d", MAX_RUNNING_REQUESTS)
              + " (omit it for no cap), found "
              + cap);
    }
    return OptionalInt.of((int) v);
  }

  /** The largest {@code max_running_requests}: 2^24, the largest batch a pool runs. */
  private static final int MAX_RUNNING_REQUESTS = 1 << 24;

  /**
   * The parameters a profile must state; the others, added to the model after these, read as {@link
   * EfficiencyParameter#ideal()} when absent, so that older files still read.
   */
  private static final Set<EfficiencyParameter> REQUIRED =
      Collections.unmodifiableSet(
          EnumSet.of(
              EfficiencyParameter.COMPUTE,
              EfficiencyParameter.MEMORY,
              EfficiencyParameter.NETWORK,
              EfficiencyParameter.GEMM_HALF_TOKENS,
              EfficiencyParameter.KERNEL_OVERHEAD,
              EfficiencyParameter.STEP_OVERHEAD));

  /**
   * The per-layer fixed cost of files written before kernels were counted, read as {@link
   * EfficiencyParameter#KERNEL_OVERHEAD} when {@code kernel_us} is absent: divided by the {@value
   * io.ridgeline.models.Kernels#REFERENCE_LAYER} kernels of a reference Llama layer, so a Llama
   * layer costs what it did (45 µs per layer reads as 5 µs per kernel).
   */
  static final String LEGACY_LAYER_OVERHEAD_KEY = "layer_overhead_us";

  /** Whether a profile file must state {@code p}. */
  static boolean required(EfficiencyParameter p) {
    return REQUIRED.contains(p);
  }

  /** {@code p}'s value in {@code node}, checked; an optional one that is absent is ideal. */
  private static double parameter(JsonNode node, String where, EfficiencyParameter p, String file) {
    boolean legacy =
        p == EfficiencyParameter.KERNEL_OVERHEAD
            && !node.has(p.jsonKey())
            && node.has(LEGACY_LAYER_OVERHEAD_KEY);
    if (!required(p) && !node.has(p.jsonKey()) && !legacy) {
      return p.ideal();
    }
    double v =
        legacy
            ? number(node, where, LEGACY_LAYER_OVERHEAD_KEY, file)
                / io.ridgeline.models.Kernels.REFERENCE_LAYER
            : number(node, where, p.jsonKey(), file);
    Optional<String> problem = p.problem(v);
    if (problem.isPresent()) {
      throw new IllegalArgumentException(
          file
              + ": field '"
              + where
              + "."
              + p.jsonKey()
              + "' must be "
              + problem.get()
              + ", found "
              + v);
    }
    return v;
  }

  private static double number(JsonNode node, String where, String field, String file) {
    JsonNode v = node.get(field);
    if (v == null || !v.isNumber()) {
      throw new IllegalArgumentException(
          file
              + ": field '"
              + where
              + "."
              + field
              + "' must be a number, found "
              + (v == null ? "nothing" : v.toString()));
    }
    return v.asDouble();
  }

  /** The profiles by name, in file order. */
  public Map<String, EngineProfile> profiles() {
    return profiles;
  }

  /**
   * The profile of {@code engine}, or the {@value #DEFAULT} profile when it has none: for the
   * {@link #builtIn()} profiles always the pooled {@value #DEFAULT} one, since no engine family has
   * offsets of its own yet.
   */
  public EngineProfile forEngine(String engine) {
    EngineProfile p = profiles.get(engine);
    return p != null ? p : profiles.get(DEFAULT);
  }

  /** These profiles with {@code profile} added or replacing the one of its name. */
  public Profiles with(EngineProfile profile) {
    Map<String, EngineProfile> map = new LinkedHashMap<>(profiles);
    map.put(profile.name(), profile);
    return new Profiles(map);
  }

  /** The JSON form (see the class javadoc), pretty-printed. */
  public String toJson() {
    ObjectNode root = MAPPER.createObjectNode();
    ObjectNode all = root.putObject("profiles");
    profiles.forEach(
        (k, p) -> {
          Efficiency e = p.efficiency();
          ObjectNode o = all.putObject(k);
          for (EfficiencyParameter param : EfficiencyParameter.values()) {
            if (param == EfficiencyParameter.ADMISSION && p.capsRunningRequests()) {
              // the cap before admission_ms, the key order of the built-in profiles.json
              o.put("max_running_requests", p.maxRunningRequests().getAsInt());
            }
            o.put(param.jsonKey(), round(param.get(e)));
          }
          o.put("fitted_on", p.source());
        });
    try {
      return MAPPER.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes {@link #toJson()} to {@code path}.
   *
   * @throws UncheckedIOException when the file cannot be written
   */
  public void write(Path path) {
    try {
      Files.writeString(path, toJson(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write profile file " + path, e);
    }
  }

  /** Six significant digits, so that files stay readable and round trips stable. */
  private static double round(double v) {
    return v == 0 ? 0 : Double.parseDouble(String.format(Locale.ROOT, "%.6g", v));
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    profiles.values().forEach(p -> b.append(p).append('\n'));
    return b.toString();
  }
}
