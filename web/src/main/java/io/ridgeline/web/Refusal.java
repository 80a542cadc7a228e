package io.ridgeline.web;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request the API refuses: its HTTP status, its one-line message, the option it names (or null)
 * and any headers the answer carries ({@code Allow}, {@code Retry-After}, {@code Connection}).
 * {@link ApiServer} answers it as {@link Reply#error(int, String, String)}.
 */
final class Refusal extends RuntimeException {
  private static final long serialVersionUID = 1L;
  final int status;
  final String field;
  final Map<String, String> headers = new LinkedHashMap<>();

  Refusal(int status, String message, String field) {
    super(message, null, false, false);
    this.status = status;
    this.field = field;
  }

  Refusal header(String name, String value) {
    headers.put(name, value);
    return this;
  }

  /** {@code s} cut to its first 100 characters and "..." when longer (for quoting input). */
  static String abbreviate(String s) {
    return s.length() > 100 ? s.substring(0, 100) + "..." : s;
  }
}
