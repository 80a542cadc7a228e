package io.ridgeline.web;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A response of {@link ApiServer}: status, content type, body and extra headers; {@link
 * #send(HttpExchange)} writes it (no body for HEAD) with {@code Cache-Control: no-store}.
 */
final class Reply {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final int status;
  private final String type;
  private final byte[] body;
  private final Map<String, String> headers;

  Reply(int status, String type, byte[] body, Map<String, String> headers) {
    this.status = status;
    this.type = type;
    this.body = body;
    this.headers = headers;
  }

  static Reply json(int status, byte[] body) {
    return new Reply(status, "application/json", body, Map.of());
  }

  /** The error answer {@code {"error": MESSAGE, "field": OPTION}} (field null when none). */
  static Reply error(int status, String message, String field) {
    ObjectNode body = MAPPER.createObjectNode();
    body.put("error", message);
    if (field == null) {
      body.putNull("field");
    } else {
      body.put("field", field);
    }
    return json(status, (body.toString() + "\n").getBytes(UTF_8));
  }

  Reply with(String header, String value) {
    Map<String, String> h = new LinkedHashMap<>(headers);
    h.put(header, value);
    return new Reply(status, type, body, h);
  }

  /** Writes this reply to {@code exchange} and closes it. */
  void send(HttpExchange exchange) throws IOException {
    try {
      exchange.getResponseHeaders().set("Content-Type", type);
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      headers.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
      boolean head = exchange.getRequestMethod().equals("HEAD");
      exchange.sendResponseHeaders(status, head ? -1 : body.length);
      if (!head) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    } finally {
      exchange.close();
    }
  }
}
