package io.ridgeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.models.Model;
import io.ridgeline.serving.ParetoFrontier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The systems {@code ridgeline frontier --chip A,B,C} compares, one per chip: each system's own
 * {@link FrontierOutput} (its JSON entry, Pareto flags within the system) and their union on one
 * table, CSV and chart ({@link #combined()}, Pareto flags across the systems). A system that could
 * not be built (the model does not fit) is kept with why.
 *
 * <p>The JSON of several systems: {@code {model, isl, osl, systems: [...]}}, one entry per chip in
 * the order given: {@code {system: "h100-sxm x8", fits: true, ...}} followed by the keys of the
 * one-chip JSON (its points' {@code pareto} within the system), each point with {@code
 * pareto_across_systems}; or {@code {system: "l4 x1", fits: false, error: "..."}}.
 */
final class FrontierSystems {
  private final List<String> labels = new ArrayList<>();
  private final List<FrontierOutput> outputs = new ArrayList<>();
  private final List<ParetoFrontier> bounds = new ArrayList<>();
  private final Map<String, String> failures = new LinkedHashMap<>();
  // the order of every system, built or failed, for the JSON
  private final List<String> order = new ArrayList<>();

  /** Adds a system: its label ({@code CHIP xCOUNT}), output and ideal bounds (or none). */
  void add(String label, FrontierOutput output, List<ParetoFrontier> idealBounds) {
    labels.add(label);
    outputs.add(output);
    bounds.addAll(idealBounds);
    order.add(label);
  }

  /**
   * {@code label}, or {@code label #2}, {@code #3}, ... when a system already has it (the same chip
   * and count twice, e.g. with different pipeline degrees the label does not show).
   */
  String unique(String label) {
    String unique = label;
    for (int n = 2; order.contains(unique); n++) {
      unique = label + " #" + n;
    }
    return unique;
  }

  /** Adds a system that could not be built, with the one-line reason. */
  void failed(String label, String reason) {
    failures.put(label, reason);
    order.add(label);
  }

  /** The systems that could not be built: label to reason, in order. */
  Map<String, String> failures() {
    return failures;
  }

  /** "LABEL: REASON" for each system that could not be built. */
  List<String> failureLines() {
    List<String> lines = new ArrayList<>();
    failures.forEach((label, reason) -> lines.add(label + ": " + reason));
    return lines;
  }

  /**
   * The union of the built systems on one output, each deployment labelled by its system (and its
   * strategy when the system has several).
   *
   * @throws IllegalArgumentException with every reason when no system could be built
   */
  FrontierOutput combined() {
    if (outputs.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", failureLines()));
    }
    return FrontierOutput.combine(labels, outputs);
  }

  /** The ideal bounds of every deployment of every system (empty: none drawn). */
  List<ParetoFrontier> bounds() {
    return bounds.size() == combined().deploymentCount() ? bounds : List.of();
  }

  /** The systems' labels for a file name: {@code h100-sxm-x8-vs-b200-x8}. */
  String fileLabel() {
    return String.join("-vs-", labels).replace(' ', '-').replace("=", "").replace("#", "");
  }

  /** The JSON of every system (the class comment's shape). */
  ObjectNode json(Model m, int isl, int osl) {
    List<Boolean> across = combined().paretoFlags();
    ObjectNode o = Json.object();
    o.put("model", m.id());
    o.put("isl", isl);
    o.put("osl", osl);
    ArrayNode systems = o.putArray("systems");
    int point = 0;
    for (String label : order) {
      ObjectNode s = systems.addObject();
      s.put("system", label);
      int i = labels.indexOf(label);
      if (i < 0) {
        s.put("fits", false);
        s.put("error", failures.get(label));
        continue;
      }
      s.put("fits", true);
      s.setAll(outputs.get(i).json());
      for (JsonNode p : s.withArray("points")) {
        ((ObjectNode) p).put("pareto_across_systems", across.get(point++));
      }
    }
    return o;
  }
}
