package io.ridgeline.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.base.Suppliers;
import com.google.common.collect.ImmutableList;
import io.ridgeline.core.InputFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The models entry point for Java and JShell: the built-in catalog of real HuggingFace
 * configurations, and a reader for any {@code config.json}.
 *
 * <pre>{@code
 * Model m = Models.byId("llama-3.1-8b");
 * Model mine = Models.fromConfig(Path.of("config.json"));
 * Models.ids();
 * }</pre>
 *
 * <p>Every built-in configuration is a copy of a file from {@code shared/models} with its source
 * recorded in {@code catalog.json} and {@code configs/SOURCES.md} on the class path.
 */
public final class Models {
  private static final String ROOT = "/io/ridgeline/models/";
  private static final Supplier<ModelCatalog> BUILT_IN = Suppliers.memoize(Models::load);

  private Models() {}

  /** The built-in catalog. */
  public static ModelCatalog builtIn() {
    return BUILT_IN.get();
  }

  /**
   * A built-in model by id (case-insensitive).
   *
   * @throws NoSuchElementException listing the known ids and the closest match
   */
  public static Model byId(String id) {
    return builtIn().byId(id);
  }

  /** Every built-in model. */
  public static List<Model> all() {
    return builtIn().all();
  }

  /** The built-in ids. */
  public static List<String> ids() {
    return builtIn().ids();
  }

  /** The model types {@link #fromConfig} understands. */
  public static List<String> supportedModelTypes() {
    return ImmutableList.copyOf(ConfigReader.SUPPORTED);
  }

  /**
   * A built-in id, or else a path to a {@code config.json}: what {@code --model} accepts.
   *
   * @throws NoSuchElementException when it is neither a known id nor an existing file
   * @throws IllegalArgumentException when the file is not a valid config
   */
  public static Model resolve(String idOrPath) {
    return resolve(idOrPath, Optional.empty());
  }

  /**
   * As {@link #resolve(String)}, reading a config file as the model type {@code family} when one is
   * given (what {@code --architecture} does): for a checkpoint whose {@code model_type} this reader
   * does not know but whose architecture is one it does.
   *
   * @throws IllegalArgumentException when {@code family} is not a {@link #supportedModelTypes()
   *     supported type}, or is given with a built-in id (a built-in model has its own type)
   */
  public static Model resolve(String idOrPath, Optional<String> family) {
    Optional<Model> builtIn = builtIn().find(idOrPath);
    if (builtIn.isPresent()) {
      if (family.isPresent()) {
        ConfigReader.checkFamily(family.get());
        throw new IllegalArgumentException(
            "architecture '"
                + family.get()
                + "' applies to a config.json path, not to the built-in model '"
                + idOrPath
                + "'");
      }
      return builtIn.get();
    }
    Path p = Path.of(idOrPath);
    if (Files.exists(p) && !Files.isDirectory(p)) {
      // a regular file, a pipe or a device: read as a stream of at most 16 MB
      return fromConfig(p, family);
    }
    // something that looks like a path is a missing file, not a misspelled id
    if (idOrPath.endsWith(".json")
        || idOrPath.contains("/")
        || idOrPath.contains(java.io.File.separator)) {
      throw new IllegalArgumentException(
          idOrPath
              + (Files.isDirectory(p) ? ": is a directory, not a config.json" : ": no such file"));
    }
    throw unknownModel(idOrPath);
  }

  /**
   * The models of one run ({@link #resolve(String, Optional)} each), with unique ids: a config file
   * whose id an earlier model of the list already has (two files both named {@code config.json}
   * without a {@code _name_or_path}, say) gets {@code -2}, {@code -3}, … appended, so that two
   * different models never share a name in one output. The same id or path given twice is the same
   * model and keeps its id.
   */
  public static List<Model> resolveAll(List<String> idsOrPaths, Optional<String> family) {
    List<Model> out = new ArrayList<>();
    Map<String, String> pathOfId = new HashMap<>();
    for (String idOrPath : idsOrPaths) {
      Model m = resolve(idOrPath, builtIn().find(idOrPath).isPresent() ? Optional.empty() : family);
      String key = m.id().toLowerCase(Locale.ROOT);
      String where =
          builtIn().find(idOrPath).isPresent()
              ? m.id()
              : Path.of(idOrPath).normalize().toAbsolutePath().toString();
      String id = m.id();
      for (int n = 2; pathOfId.containsKey(key) && !pathOfId.get(key).equals(where); n++) {
        id = m.id() + "-" + n;
        key = id.toLowerCase(Locale.ROOT);
      }
      pathOfId.put(key, where);
      out.add(id.equals(m.id()) ? m : Model.builder().from(m).id(id).build());
    }
    return out;
  }

  private static NoSuchElementException unknownModel(String id) {
    NoSuchElementException e = io.ridgeline.core.Names.unknown("model", id, ids());
    return new NoSuchElementException(e.getMessage() + " (or a path to a config.json)");
  }

  /**
   * Reads a HuggingFace {@code config.json}. The model is named after its file, without {@code
   * .json}; a file named {@code config.json} (as every checkpoint's is) is named after its {@code
   * _name_or_path} when it has one (its last path segment: {@code "meta-llama/Llama-3.1-8B"} gives
   * {@code Llama-3.1-8B}), else after its directory.
   *
   * @throws IllegalArgumentException naming the file and the field when the file is missing,
   *     malformed, of an unsupported {@code model_type} or lacks a required field
   */
  public static Model fromConfig(Path config) {
    return fromConfig(config, Optional.empty());
  }

  /**
   * As {@link #fromConfig(Path)}, read as the model type {@code family} when one is given.
   *
   * @throws IllegalArgumentException also when {@code family} is not a supported type
   */
  public static Model fromConfig(Path config, Optional<String> family) {
    String json = InputFiles.readText(config, "config file");
    return ConfigReader.parse(
        json, name(config, json), config.toString(), config.toString(), family);
  }

  /** The id of a config file: its file name, or for config.json its _name_or_path or folder. */
  private static String name(Path config, String json) {
    String stem = config.getFileName().toString().replaceFirst("(?i)\\.json$", "");
    if (!stem.equalsIgnoreCase("config")) {
      return stem;
    }
    Optional<String> named =
        ConfigReader.nameOrPath(json, config.toString())
            .map(n -> n.replaceAll("[/\\\\]+$", ""))
            .map(n -> n.substring(Math.max(n.lastIndexOf('/'), n.lastIndexOf('\\')) + 1))
            .filter(n -> !n.isBlank());
    if (named.isPresent()) {
      return named.get();
    }
    Path dir = config.toAbsolutePath().normalize().getParent();
    return dir != null && dir.getFileName() != null ? dir.getFileName().toString() : stem;
  }

  /** Parses config JSON text under an id; {@code origin} names it in error messages. */
  public static Model fromJson(String json, String id, String origin) {
    return ConfigReader.parse(json, id, origin, origin);
  }

  /**
   * As {@link #fromJson(String, String, String)}, read as the model type {@code family} when one is
   * given (what {@code --architecture} does for a file): a configuration received as text, such as
   * the body of an HTTP request.
   *
   * @throws IllegalArgumentException naming {@code origin} and the field when the text is not a
   *     valid config, or when {@code family} is not a {@link #supportedModelTypes() supported type}
   */
  public static Model fromJson(String json, String id, String origin, Optional<String> family) {
    return ConfigReader.parse(json, id, origin, origin, family);
  }

  private static ModelCatalog load() {
    ObjectMapper mapper = new ObjectMapper();
    ImmutableList.Builder<Model> models = ImmutableList.builder();
    JsonNode index;
    try {
      index = mapper.readTree(resource("catalog.json"));
    } catch (IOException e) {
      throw new UncheckedIOException("built-in model catalog is unreadable", e);
    }
    for (JsonNode entry : index) {
      String file = entry.get("file").asText();
      models.add(
          ConfigReader.parse(
              resource("configs/" + file),
              entry.get("id").asText(),
              "built-in " + file,
              entry.get("source").asText()));
    }
    return ModelCatalog.of(models.build());
  }

  private static String resource(String name) {
    try (InputStream in = Models.class.getResourceAsStream(ROOT + name)) {
      if (in == null) {
        throw new IllegalStateException("missing built-in resource " + ROOT + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read built-in resource " + ROOT + name, e);
    }
  }
}
