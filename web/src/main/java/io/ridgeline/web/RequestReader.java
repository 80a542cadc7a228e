package io.ridgeline.web;

import static io.ridgeline.web.Refusal.abbreviate;
import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.google.common.base.Splitter;
import com.sun.net.httpserver.HttpExchange;
import io.ridgeline.cli.InlineInputs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what a request of {@link ApiServer} carries: the query string's parameters, the body as a
 * JSON object within the size limit, and the chip files and model configurations posted in it (held
 * in memory for the request as {@link InlineInputs}). Every malformed part is a {@link Refusal}:
 * 400, or 413 for a body over the limit.
 */
final class RequestReader {
  /** The body keys that carry files, not options. */
  static final String CHIP_FILES = "chip_files";

  static final String MODEL_CONFIGS = "model_configs";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private RequestReader() {}

  /** The query string's parameters, URL-decoded; a repeated name keeps every value in order. */
  static Map<String, List<JsonNode>> query(String raw) {
    Map<String, List<JsonNode>> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : Splitter.on('&').split(raw)) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "true" : decode(pair.substring(eq + 1));
      out.computeIfAbsent(key, k -> new ArrayList<>()).add(TextNode.valueOf(value));
    }
    return out;
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, UTF_8);
    } catch (IllegalArgumentException e) {
      throw new Refusal(400, "malformed query string: '" + abbreviate(s) + "'", null);
    }
  }

  /** The body's options: every key but {@link #CHIP_FILES} and {@link #MODEL_CONFIGS}. */
  static Map<String, List<JsonNode>> options(ObjectNode body) {
    Map<String, List<JsonNode>> params = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : body.properties()) {
      if (!e.getKey().equals(CHIP_FILES) && !e.getKey().equals(MODEL_CONFIGS)) {
        params.put(e.getKey(), List.of(e.getValue()));
      }
    }
    return params;
  }

  /** The body as a JSON object; 413 past {@code maxBodyBytes}, 400 when it is not a JSON object. */
  static ObjectNode body(HttpExchange exchange, long maxBodyBytes) throws IOException {
    byte[] bytes = readBody(exchange, maxBodyBytes);
    if (bytes.length == 0) {
      return MAPPER.createObjectNode();
    }
    JsonNode tree;
    try {
      tree = MAPPER.readTree(bytes);
    } catch (JsonProcessingException e) {
      throw new Refusal(400, "the body is not valid JSON: " + e.getOriginalMessage(), null);
    }
    if (tree == null || tree.isMissingNode()) {
      return MAPPER.createObjectNode();
    }
    if (!tree.isObject()) {
      throw new Refusal(
          400, "the body must be a JSON object of options, not " + tree.getNodeType(), null);
    }
    return (ObjectNode) tree;
  }

  private static byte[] readBody(HttpExchange exchange, long limit) throws IOException {
    String declared = exchange.getRequestHeaders().getFirst("Content-Length");
    long length = -1;
    if (declared != null) {
      try {
        length = Long.parseLong(declared.trim());
      } catch (NumberFormatException e) {
        throw new Refusal(
            400, "Content-Length is not a number: '" + abbreviate(declared) + "'", null);
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = exchange.getRequestBody()) {
      if (length > limit) {
        throw tooLarge(limit, in);
      }
      byte[] buffer = new byte[16_384];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        out.write(buffer, 0, n);
        if (out.size() > limit) {
          throw tooLarge(limit, in);
        }
      }
    }
    return out.toByteArray();
  }

  /**
   * 413, after reading and dropping up to 16 MB more of the body: a connection closed with unread
   * bytes is reset, and the client may then lose the answer (its error message) with it.
   */
  private static Refusal tooLarge(long limit, InputStream in) throws IOException {
    byte[] buffer = new byte[65_536];
    long left = 16_000_000;
    int n;
    while (left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) >= 0) {
      left -= n;
    }
    return new Refusal(413, "the body is larger than the limit of " + limit + " bytes", null)
        .header("Connection", "close");
  }

  /** The chip files and model configurations of a body (400 naming the key when malformed). */
  static InlineInputs inputs(ObjectNode body) {
    JsonNode chipFiles = body.path(CHIP_FILES);
    JsonNode modelConfigs = body.path(MODEL_CONFIGS);
    List<String> chips = new ArrayList<>();
    if (!chipFiles.isMissingNode() && !chipFiles.isNull()) {
      if (!chipFiles.isArray()) {
        throw new Refusal(
            400, "chip_files must be an array of chip files (JSON objects)", CHIP_FILES);
      }
      for (JsonNode file : chipFiles) {
        if (!file.isObject() && !file.isArray()) {
          throw new Refusal(
              400,
              "chip_files must hold chip files (a chip object or an array of them), not "
                  + file.getNodeType(),
              CHIP_FILES);
        }
        chips.add(file.toString());
      }
    }
    Map<String, String> configs = new LinkedHashMap<>();
    if (!modelConfigs.isMissingNode() && !modelConfigs.isNull()) {
      if (!modelConfigs.isObject()) {
        throw new Refusal(
            400,
            "model_configs must be an object of model name to config.json object",
            MODEL_CONFIGS);
      }
      for (Map.Entry<String, JsonNode> e : modelConfigs.properties()) {
        if (!e.getValue().isObject()) {
          throw new Refusal(
              400,
              "model_configs."
                  + e.getKey()
                  + " must be a config.json object, not "
                  + e.getValue().getNodeType(),
              MODEL_CONFIGS);
        }
        configs.put(e.getKey(), e.getValue().toString());
      }
    }
    try {
      return InlineInputs.of(chips, configs);
    } catch (IllegalArgumentException e) {
      throw new Refusal(400, oneLine(e.getMessage()), OptionArguments.field(e.getMessage()));
    }
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.replace('\n', ' ').replace('\r', ' ');
  }
}
