package io.ridgeline.validation;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Reads a validation case file: CSV per RFC 4180 (comma-separated; a field in double quotes may
 * hold commas, line breaks and doubled quotes {@code ""}), a header of exactly {@link #COLUMNS},
 * one {@link ValidationCase} per record. The format is described in {@code cases.md}, shipped next
 * to {@code cases.csv} in this package's resources.
 *
 * <p>Errors are {@link IllegalArgumentException}s that name the file, the line and the field: a
 * wrong header, a record with the wrong number of fields, a non-numeric or non-positive {@code
 * measured}, a non-integer count, an unknown {@code mode} or {@code metric} (listing the known
 * ones), a duplicate {@code case_id}, an unterminated quote.
 *
 * <pre>{@code
 * List<ValidationCase> cases = CaseFile.shipped();          // the 223 shipped rows
 * List<ValidationCase> mine = CaseFile.read(Path.of("my-cases.csv"));
 * }</pre>
 */
public final class CaseFile {
  /** The header, in order. */
  public static final List<String> COLUMNS =
      List.of(
          "case_id",
          "point_id",
          "model",
          "chip",
          "chips",
          "prefill_chips",
          "decode_chips",
          "tp",
          "pp",
          "ep",
          "attention_dp",
          "weights",
          "kv_cache",
          "isl",
          "osl",
          "mode",
          "load",
          "speculative",
          "engine",
          "metric",
          "measured",
          "confidence",
          "source",
          "url",
          "notes");

  /** The largest case file read, in bytes (16 MB; the shipped one is about 100 KB). */
  static final long MAX_FILE_BYTES = 16_000_000;

  /** Classpath location of the shipped case file. */
  public static final String SHIPPED_RESOURCE = "/io/ridgeline/validation/cases.csv";

  private CaseFile() {}

  /**
   * The shipped case file (a copy of the published-measurement cases, read from the classpath).
   *
   * @throws IllegalStateException when the resource is missing from the build
   */
  public static List<ValidationCase> shipped() {
    try (InputStream in = CaseFile.class.getResourceAsStream(SHIPPED_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "shipped case file missing from the classpath: " + SHIPPED_RESOURCE);
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "cases.csv (shipped)");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The cases of the file at {@code path} (UTF-8).
   *
   * @throws IllegalArgumentException when the file cannot be read or is malformed, naming it
   */
  public static List<ValidationCase> read(Path path) {
    String text;
    try {
      if (Files.isRegularFile(path) && Files.size(path) > MAX_FILE_BYTES) {
        throw new IllegalArgumentException(
            path + ": case file is larger than 16 MB (" + Files.size(path) + " bytes)");
      }
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new IllegalArgumentException(path + ": no such file", e);
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new IllegalArgumentException(path + ": not UTF-8 text", e);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read case file " + path + ": " + e.getMessage(), e);
    }
    return parse(text, path.toString());
  }

  /**
   * The cases of {@code text}; {@code name} names the file in error messages.
   *
   * @throws IllegalArgumentException when the text is malformed, naming {@code name} and the line
   */
  public static List<ValidationCase> parse(String text, String name) {
    List<Record> records = records(text, name);
    if (records.isEmpty()) {
      throw new IllegalArgumentException(
          name + ": empty case file; expected the header " + String.join(",", COLUMNS));
    }
    Record header = records.get(0);
    if (!header.fields().equals(COLUMNS)) {
      throw new IllegalArgumentException(
          name
              + " line "
              + header.line()
              + ": wrong header; expected "
              + String.join(",", COLUMNS)
              + " but found "
              + shortened(String.join(",", header.fields())));
    }
    if (records.size() == 1) {
      throw new IllegalArgumentException(
          name + ": the case file has a header but no cases; add one row per measurement");
    }
    List<ValidationCase> cases = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (Record r : records.subList(1, records.size())) {
      ValidationCase c = toCase(r, name);
      if (!ids.add(c.caseId())) {
        throw new IllegalArgumentException(
            name + " line " + r.line() + ": duplicate case_id '" + c.caseId() + "'");
      }
      cases.add(c);
    }
    return List.copyOf(cases);
  }

  /** One CSV record and the line it starts on. */
  @SuppressWarnings("JavaLangClash") // package-private; no file here uses java.lang.Record
  record Record(int line, List<String> fields) {}

  /**
   * The records of {@code text} per RFC 4180; blank lines between records are skipped; CRLF and LF
   * both end a record.
   */
  static List<Record> records(String raw, String name) {
    // a spreadsheet's UTF-8 byte-order mark is not part of the first column's name
    String text = raw.startsWith("\uFEFF") ? raw.substring(1) : raw;
    return new RecordReader(text.replace("\r\n", "\n").replace('\r', '\n'), name).read();
  }

  /** {@code text} cut to 200 characters, control characters shown as '?', for messages. */
  static String shortened(String text) {
    String t = text.length() > 200 ? text.substring(0, 200) + "…" : text;
    StringBuilder b = new StringBuilder(t.length());
    t.codePoints()
        .forEach(c -> b.appendCodePoint(Character.isISOControl(c) || c == 0xFEFF ? '?' : c));
    return b.toString();
  }

  /** The state of reading records from a text with LF line ends. */
  private static final class RecordReader {
    private final String text;
    private final String name;
    private final List<Record> out = new ArrayList<>();
    private final List<String> fields = new ArrayList<>();
    private final StringBuilder field = new StringBuilder();
    private int line = 1;
    private int start = 1;
    private boolean quoted;
    private boolean wasQuoted;
    private boolean any;

    RecordReader(String text, String name) {
      this.text = text;
      this.name = name;
    }

    List<Record> read() {
      int n = text.length();
      for (int i = 0; i < n; i++) {
        char ch = text.charAt(i);
        if (quoted) {
          i = quotedChar(i, ch);
        } else {
          plainChar(ch);
        }
      }
      if (quoted) {
        throw new IllegalArgumentException(name + " line " + start + ": unterminated quoted field");
      }
      if (any || field.length() > 0) {
        fields.add(field.toString());
        out.add(new Record(start, List.copyOf(fields)));
      }
      return out;
    }

    /** Reads {@code ch} at {@code i} inside quotes; returns the index of the last char read. */
    private int quotedChar(int i, char ch) {
      if (ch == '"') {
        if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
          field.append('"');
          return i + 1;
        }
        quoted = false;
        return i;
      }
      if (ch == '\n') {
        line++;
      }
      field.append(ch);
      return i;
    }

    private void plainChar(char ch) {
      switch (ch) {
        case '"':
          if (field.length() > 0 || wasQuoted) {
            throw fieldError("has a quote inside an unquoted field");
          }
          quoted = true;
          wasQuoted = true;
          any = true;
          break;
        case ',':
          fields.add(field.toString());
          field.setLength(0);
          wasQuoted = false;
          any = true;
          break;
        case '\n':
          if (any || field.length() > 0) {
            fields.add(field.toString());
            out.add(new Record(start, List.copyOf(fields)));
          }
          fields.clear();
          field.setLength(0);
          wasQuoted = false;
          any = false;
          line++;
          start = line;
          break;
        default:
          if (wasQuoted) {
            throw fieldError("has text after its closing quote");
          }
          field.append(ch);
          any = true;
      }
    }

    private IllegalArgumentException fieldError(String what) {
      return new IllegalArgumentException(
          name + " line " + line + ": field " + (fields.size() + 1) + " " + what);
    }
  }

  private static ValidationCase toCase(Record r, String name) {
    List<String> f = r.fields();
    if (f.size() != COLUMNS.size()) {
      throw new IllegalArgumentException(
          name
              + " line "
              + r.line()
              + ": expected "
              + COLUMNS.size()
              + " fields, found "
              + f.size());
    }
    Fields x = new Fields(f, name, r.line());
    return new ValidationCase(
        x.required("case_id"),
        x.required("point_id"),
        x.required("model"),
        x.required("chip"),
        x.count("chips"),
        x.count("prefill_chips"),
        x.count("decode_chips"),
        x.count("tp"),
        x.count("pp"),
        x.count("ep"),
        x.count("attention_dp"),
        x.optional("weights"),
        x.optional("kv_cache"),
        x.count("isl"),
        x.count("osl"),
        x.mode(),
        x.count("load"),
        x.optional("speculative"),
        x.text("engine"),
        x.metric(),
        x.measured(),
        x.text("confidence"),
        x.text("source"),
        x.text("url"),
        x.text("notes"),
        r.line());
  }

  /** Typed access to one record's fields, with errors that name the file, line and column. */
  private static final class Fields {
    private final List<String> values;
    private final String name;
    private final int line;

    Fields(List<String> values, String name, int line) {
      this.values = values;
      this.name = name;
      this.line = line;
    }

    String text(String column) {
      return values.get(COLUMNS.indexOf(column)).strip();
    }

    String required(String column) {
      String v = text(column);
      if (v.isEmpty()) {
        throw error(column, "a value", v);
      }
      return v;
    }

    Optional<String> optional(String column) {
      String v = text(column);
      return v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    OptionalInt count(String column) {
      String v = text(column);
      if (v.isEmpty()) {
        return OptionalInt.empty();
      }
      try {
        int i = Integer.parseInt(v);
        if (i > 0) {
          return OptionalInt.of(i);
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw error(column, "a positive integer or nothing", v);
    }

    Mode mode() {
      String v = text("mode");
      return Mode.find(v).orElseThrow(() -> error("mode", "one of " + Mode.known(), v));
    }

    Metric metric() {
      String v = text("metric");
      return Metric.find(v).orElseThrow(() -> error("metric", "one of " + Metric.known(), v));
    }

    double measured() {
      String v = text("measured");
      try {
        double d = Double.parseDouble(v);
        if (Double.isFinite(d)
            && d > 0
            && !v.endsWith("d")
            && !v.endsWith("f")
            && !v.endsWith("D")
            && !v.endsWith("F")) {
          return d;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw error("measured", "a positive decimal number", v);
    }

    private IllegalArgumentException error(String column, String expected, String found) {
      return new IllegalArgumentException(
          name
              + " line "
              + line
              + ": field '"
              + column
              + "' must be "
              + expected
              + ", found '"
              + found
              + "'");
    }
  }
}
