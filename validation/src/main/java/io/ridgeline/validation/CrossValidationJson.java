package io.ridgeline.validation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.InputFiles;
import io.ridgeline.serving.efficiency.Profiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON form of a cross-validation: its folds (scheme, name, held-out case ids, anchor point,
 * point-grouped intercepts by source, fitted profile in the {@link Profiles} format) and the
 * summary of each scheme by metric, so that the figures can be shown without refitting and replayed
 * by a test ({@link CrossValidation#replay}). The shipped one, {@value #SHIPPED_RESOURCE}, is
 * written by {@code ridgeline calibrate --cross-validate --report FILE} on the shipped cases.
 */
public final class CrossValidationJson {
  /** The shipped report's classpath resource. */
  public static final String SHIPPED_RESOURCE = "/io/ridgeline/validation/crossval.json";

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private CrossValidationJson() {}

  /** The JSON of {@code report}, fitted with {@code evaluations} per fit on {@code label}. */
  public static String toJson(CrossValidation.Report report, String label, int evaluations) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("cases", label);
    root.put("evaluations_per_fit", evaluations);
    root.set("summary", summary(report));
    ArrayNode folds = root.putArray("folds");
    for (CrossValidation.Fold f : report.folds()) {
      ObjectNode o = folds.addObject();
      o.put("scheme", f.scheme().id());
      o.put("name", f.name());
      f.anchorPoint().ifPresent(a -> o.put("anchor", a));
      ArrayNode ids = o.putArray("held_out");
      f.heldOut().forEach(ids::add);
      if (!f.intercepts().isEmpty()) {
        ObjectNode b = o.putObject("intercepts");
        f.intercepts().forEach(b::put);
      }
      try {
        o.set("profile", MAPPER.readTree(Profiles.of(List.of(f.profile())).toJson()));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("profile JSON did not parse back", e);
      }
    }
    try {
      return MAPPER.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The summary of {@code report}: per scheme, the overall median APE and the rows scored, and the
   * median APE of each metric ({@code {"leave-one-source-out": {"overall": 0.236, "count": 198,
   * "tpot_ms": 0.234, ...}, ...}}), as {@link #toJson} stores it.
   */
  public static ObjectNode summary(CrossValidation.Report report) {
    ObjectNode summary = MAPPER.createObjectNode();
    for (CrossValidation.Scheme s : CrossValidation.Scheme.values()) {
      ObjectNode o = summary.putObject(s.id());
      o.put("overall", report.summary(s).medianApe());
      o.put("count", report.summary(s).count());
      for (Map.Entry<String, Summary> e : report.by(s, c -> c.metric().id()).entrySet()) {
        o.put(e.getKey(), e.getValue().medianApe());
      }
    }
    return summary;
  }

  /**
   * The folds of a report's JSON {@code text}; {@code name} names it in error messages.
   *
   * @throws IllegalArgumentException when the text is malformed, naming the fold
   */
  public static List<CrossValidation.Fold> folds(String text, String name) {
    JsonNode root = InputFiles.readJson(text, name, false);
    List<CrossValidation.Fold> out = new ArrayList<>();
    JsonNode folds = root.path("folds");
    for (int i = 0; i < folds.size(); i++) {
      JsonNode f = folds.get(i);
      String where = name + ": folds[" + i + "]";
      List<String> ids = new ArrayList<>();
      f.path("held_out").forEach(n -> ids.add(n.asText()));
      Map<String, Double> intercepts = new LinkedHashMap<>();
      f.path("intercepts")
          .propertyStream()
          .forEach(e -> intercepts.put(e.getKey(), interceptOf(e.getValue(), where)));
      out.add(
          new CrossValidation.Fold(
              CrossValidation.Scheme.of(f.path("scheme").asText()),
              f.path("name").asText(),
              ids,
              f.hasNonNull("anchor") ? Optional.of(f.get("anchor").asText()) : Optional.empty(),
              Profiles.parse(f.path("profile").toString(), where + ".profile")
                  .forEngine(Profiles.DEFAULT),
              intercepts));
    }
    return out;
  }

  /** A fold's intercept: a finite number (ln slowdown), else an error naming the fold. */
  private static double interceptOf(JsonNode value, String where) {
    if (!value.isNumber() || !Double.isFinite(value.asDouble())) {
      throw new IllegalArgumentException(
          where + ".intercepts: each must be a finite number (ln slowdown): " + value);
    }
    return value.asDouble();
  }

  /**
   * The summary figures of a report's JSON {@code text}: scheme id → metric id (or overall) →
   * median APE.
   */
  public static JsonNode summary(String text) {
    try {
      return MAPPER.readTree(text).path("summary");
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "malformed cross-validation JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** The shipped report's text, if the build has one. */
  public static Optional<String> shipped() {
    try (InputStream in = CrossValidationJson.class.getResourceAsStream(SHIPPED_RESOURCE)) {
      return in == null
          ? Optional.empty()
          : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
