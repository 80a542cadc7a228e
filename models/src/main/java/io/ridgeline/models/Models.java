package io.ridgeline.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.base.Suppliers;
import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;
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
    return builtIn()
        .find(idOrPath)
        .orElseGet(
            () -> {
              Path p = Path.of(idOrPath);
              if (Files.isRegularFile(p)) {
                return fromConfig(p);
              }
              // something that looks like a path is a missing file, not a misspelled id
              if (idOrPath.endsWith(".json")
                  || idOrPath.contains("/")
                  || idOrPath.contains(java.io.File.separator)) {
                throw new IllegalArgumentException(
                    idOrPath
                        + (Files.isDirectory(p)
                            ? ": is a directory, not a config.json"
                            : ": no such file"));
              }
              throw unknownModel(idOrPath);
            });
  }

  private static NoSuchElementException unknownModel(String id) {
    NoSuchElementException e = io.ridgeline.core.Names.unknown("model", id, ids());
    return new NoSuchElementException(e.getMessage() + " (or a path to a config.json)");
  }

  /**
   * Reads a HuggingFace {@code config.json}; the model's id is the file name without {@code .json}.
   *
   * @throws IllegalArgumentException naming the file and the field when the file is missing,
   *     malformed, of an unsupported {@code model_type} or lacks a required field
   */
  public static Model fromConfig(Path config) {
    String name = config.getFileName().toString().replaceFirst("\\.json$", "");
    try {
      if (Files.isRegularFile(config) && Files.size(config) > ConfigReader.MAX_FILE_BYTES) {
        throw new IllegalArgumentException(
            config + ": file is larger than 16 MB (" + Files.size(config) + " bytes)");
      }
      String json = Files.readString(config, StandardCharsets.UTF_8);
      return ConfigReader.parse(json, name, config.toString(), config.toString());
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(config + ": no such file", e);
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new IllegalArgumentException(config + ": not UTF-8 text", e);
    } catch (IOException e) {
      throw new UncheckedIOException(config + ": cannot read: " + e.getMessage(), e);
    }
  }

  /** Parses config JSON text under an id; {@code origin} names it in error messages. */
  public static Model fromJson(String json, String id, String origin) {
    return ConfigReader.parse(json, id, origin, origin);
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
