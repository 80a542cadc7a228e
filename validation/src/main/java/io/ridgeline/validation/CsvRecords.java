package io.ridgeline.validation;

import java.util.ArrayList;
import java.util.List;

/**
 * CSV records per RFC 4180 (comma-separated; a field in double quotes may hold commas, line breaks
 * and doubled quotes {@code ""}), each with the line it starts on, for {@link CaseFile}. Errors are
 * {@link IllegalArgumentException}s that name the file and the line: an unterminated quote, a quote
 * inside an unquoted field, text after a closing quote.
 */
final class CsvRecords {
  private CsvRecords() {}

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
}
