package io.ridgeline.core;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How every input file is read (config.json, chip JSON, efficiency profiles, case CSV files, sweep
 * grids, anchors): as a stream of at most {@value #MAX_BYTES} bytes of UTF-8, whatever the file is
 * (a regular file, a pipe, {@code /dev/zero}), and JSON with one strict, bounded parser: nesting at
 * most 64 levels, strings at most 1,000,000 characters, numbers at most 100 digits, no duplicate
 * key (also when one is written with backslash escapes), nothing after the value. Errors are {@link
 * IllegalArgumentException}s in the user's terms, naming the file (and for JSON the line, column
 * and key): never a parser's class or limit name.
 */
public final class InputFiles {
  /** The largest input file read, in bytes (16 MB; published configs and chip files are KB). */
  public static final long MAX_BYTES = 16_000_000;

  private static final ObjectMapper STRICT = mapper(false);
  private static final ObjectMapper STRICT_NON_NUMERIC = mapper(true);

  /** Jackson's own names in a message: {@code `com.x.Y`}, "(for ...)", "(from ...)". */
  private static final Pattern INTERNALS =
      Pattern.compile("\\s*\\((?:for|from|through reference chain)[^)]*\\)|`[^`]*`");

  private static final Pattern DUPLICATE =
      Pattern.compile("Duplicate (?:field|Object property) '(.*)'");

  private InputFiles() {}

  /**
   * The UTF-8 text of {@code file} (a leading byte-order mark dropped), read as a stream of at most
   * {@value #MAX_BYTES} bytes, so that a device or a pipe is bounded as a regular file is.
   *
   * @throws IllegalArgumentException "FILE: no such file", "FILE: is a directory", "FILE: WHAT is
   *     larger than 16 MB", "FILE: not UTF-8 text" or "FILE: cannot read: REASON"
   */
  public static String readText(Path file, String what) {
    if (Files.isDirectory(file)) {
      throw new IllegalArgumentException(file + ": is a directory, not a " + what);
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes((int) MAX_BYTES + 1);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(file + ": no such file", e);
    } catch (AccessDeniedException e) {
      throw new IllegalArgumentException(file + ": cannot read: permission denied", e);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read: " + e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw new IllegalArgumentException(file + ": cannot read: " + e.getCause().getMessage(), e);
    }
    if (bytes.length > MAX_BYTES) {
      throw new IllegalArgumentException(file + ": " + what + " is larger than 16 MB");
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(file + ": not UTF-8 text", e);
    }
    // a UTF-8 byte-order mark (some editors write one) is not content
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  /**
   * The JSON value of {@code text}, read strictly (see the class comment); {@code origin} names the
   * file in messages. With {@code nonNumeric}, {@code NaN} and {@code Infinity} are read as numbers
   * (for a reader that refuses them itself, naming the field).
   *
   * @throws IllegalArgumentException "ORIGIN: malformed JSON at line L, column C: WHAT" (for a
   *     duplicate key, "duplicate key 'K'"; for content after the value, "content after the JSON
   *     value"); an empty text gives a {@linkplain JsonNode#isMissingNode() missing node}
   */
  public static JsonNode readJson(String text, String origin, boolean nonNumeric) {
    String json = text.startsWith("\uFEFF") ? text.substring(1) : text;
    JsonNode root;
    try {
      root = (nonNumeric ? STRICT_NON_NUMERIC : STRICT).readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          origin + ": malformed JSON" + where(e) + ": " + plain(e), e);
    }
    // an empty text: a missing node, which each reader refuses in its own terms
    return root == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : root;
  }

  /** The strict JSON value of a whole file: {@link #readText} then {@link #readJson}. */
  public static JsonNode readJson(Path file, String what, boolean nonNumeric) {
    return readJson(readText(file, what), file.toString(), nonNumeric);
  }

  private static String where(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    if (at == null || at.getLineNr() < 1) {
      return "";
    }
    return String.format(Locale.ROOT, " at line %d, column %d", at.getLineNr(), at.getColumnNr());
  }

  /** A parser message in the user's terms: its first line, without Jackson's names, short. */
  static String plain(JsonProcessingException e) {
    String m = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    Matcher dup = DUPLICATE.matcher(m);
    if (dup.find()) {
      return "duplicate key '" + dup.group(1) + "'";
    }
    if (m.startsWith("Trailing token")) {
      return "content after the JSON value (a file holds one JSON value)";
    }
    if (m.contains("nesting depth")) {
      return "nested deeper than 64 levels";
    }
    if (m.contains("document length")) {
      return "larger than 16 MB";
    }
    if (m.contains("String value length")) {
      return "a string longer than 1,000,000 characters";
    }
    if (m.contains("Number value length")) {
      return "a number longer than 100 characters";
    }
    String first = m.lines().findFirst().orElse("");
    first = INTERNALS.matcher(first).replaceAll("").strip();
    return first.length() > 300 ? first.substring(0, 300) + "…" : first;
  }

  private static ObjectMapper mapper(boolean nonNumeric) {
    JsonMapper.Builder b =
        JsonMapper.builder(
                JsonFactory.builder()
                    .streamReadConstraints(
                        StreamReadConstraints.builder()
                            .maxNestingDepth(64)
                            .maxDocumentLength(MAX_BYTES)
                            .maxStringLength(1_000_000)
                            .maxNumberLength(100)
                            .build())
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    if (nonNumeric) {
      b.enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS);
    }
    return b.build();
  }
}
