package io.ridgeline.validation;

import io.ridgeline.core.InputFiles;
import io.ridgeline.serving.Limits;
import io.ridgeline.validation.CsvRecords.Record;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a validation case file: CSV per RFC 4180 (comma-separated; a field in double quotes may
 * hold commas, line breaks and doubled quotes {@code ""}), a header that names every one of {@link
 * #COLUMNS} and any of the optional {@link #RUN_COLUMNS}, in any order, then one {@link
 * ValidationCase} per record. A file without a run column (one written before they existed) reads
 * as if its cells were all empty: not stated. The format is described in {@code cases.md}, shipped
 * next to {@code cases.csv} in this package's resources.
 *
 * <p>Errors are {@link IllegalArgumentException}s that name the file, the line and the field, the
 * rule and the value: a header with a missing, unknown or repeated column, a record with the wrong
 * number of fields, a non-numeric or non-positive {@code measured}, a non-integer count, an unknown
 * {@code mode}, {@code metric}, {@code scheduler} or {@code decode_launch} (listing the known
 * ones), a malformed {@code engine_version}, a {@code range_ratio} outside [0, 1], an SLO bound
 * that is not positive or lacks the other, a {@code load_per_chip} other than {@code true} or
 * {@code false}, a duplicate {@code case_id}, an unterminated quote. The free-text {@code notes}
 * are kept as they are and never read for a value.
 *
 * <pre>{@code
 * List<ValidationCase> cases = CaseFile.shipped();          // the shipped rows
 * List<ValidationCase> mine = CaseFile.read(Path.of("my-cases.csv"));
 * }</pre>
 */
public final class CaseFile {
  /** The columns every case file has (in any order; the shipped file ends with {@code notes}). */
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

  /**
   * The optional typed columns of how a run was set up ({@link RunSetup}), in the order the shipped
   * file has them (between {@code url} and {@code notes}); an empty cell or a missing column is
   * "not stated".
   */
  public static final List<String> RUN_COLUMNS =
      List.of(
          "engine_version",
          "scheduler",
          "decode_launch",
          "max_batch_per_rank",
          "prompts",
          "range_ratio",
          "slo_ttft_ms",
          "slo_tpot_ms",
          "load_per_chip");

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
    String text = InputFiles.readText(path, "case file");
    return parse(text, path.toString());
  }

  /**
   * The cases of {@code text}; {@code name} names the file in error messages.
   *
   * @throws IllegalArgumentException when the text is malformed, naming {@code name} and the line
   */
  public static List<ValidationCase> parse(String text, String name) {
    List<Record> records = CsvRecords.records(text, name);
    if (records.isEmpty()) {
      throw new IllegalArgumentException(
          name + ": empty case file; expected a header of " + String.join(",", COLUMNS));
    }
    Record header = records.get(0);
    Map<String, Integer> index = columns(header, name);
    if (records.size() == 1) {
      throw new IllegalArgumentException(
          name + ": the case file has a header but no cases; add one row per measurement");
    }
    List<ValidationCase> cases = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (Record r : records.subList(1, records.size())) {
      ValidationCase c = toCase(r, index, name);
      if (!ids.add(c.caseId())) {
        throw new IllegalArgumentException(
            name + " line " + r.line() + ": duplicate case_id '" + c.caseId() + "'");
      }
      cases.add(c);
    }
    return List.copyOf(cases);
  }

  /**
   * The column index of {@code header}'s names.
   *
   * @throws IllegalArgumentException when a column of {@link #COLUMNS} is missing, or a name is
   *     unknown or repeated
   */
  private static Map<String, Integer> columns(Record header, String name) {
    Map<String, Integer> index = new HashMap<>();
    List<String> names = header.fields();
    for (int i = 0; i < names.size(); i++) {
      String n = names.get(i);
      if (!COLUMNS.contains(n) && !RUN_COLUMNS.contains(n)) {
        throw headerError(header, name, "unknown column '" + CsvRecords.shortened(n) + "'");
      }
      if (index.put(n, i) != null) {
        throw headerError(header, name, "column '" + n + "' appears twice");
      }
    }
    List<String> missing = new ArrayList<>();
    for (String c : COLUMNS) {
      if (!index.containsKey(c)) {
        missing.add("'" + c + "'");
      }
    }
    if (!missing.isEmpty()) {
      throw headerError(
          header,
          name,
          "missing column" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing));
    }
    return Map.copyOf(index);
  }

  private static IllegalArgumentException headerError(Record header, String name, String what) {
    return new IllegalArgumentException(
        name
            + " line "
            + header.line()
            + ": wrong header: "
            + what
            + "; a case file has the columns "
            + String.join(",", COLUMNS)
            + " in any order, and may add "
            + String.join(",", RUN_COLUMNS)
            + "; found "
            + CsvRecords.shortened(String.join(",", header.fields())));
  }

  private static ValidationCase toCase(Record r, Map<String, Integer> index, String name) {
    List<String> f = r.fields();
    if (f.size() != index.size()) {
      throw new IllegalArgumentException(
          name + " line " + r.line() + ": expected " + index.size() + " fields, found " + f.size());
    }
    CaseFields x = new CaseFields(index, f, name, r.line());
    x.checkPools();
    return new ValidationCase(
        x.required("case_id"),
        x.required("point_id"),
        x.required("model"),
        x.required("chip"),
        x.countUpTo("chips", Limits.MAX_CHIPS),
        x.countUpTo("prefill_chips", Limits.MAX_CHIPS),
        x.countUpTo("decode_chips", Limits.MAX_CHIPS),
        x.countUpTo("tp", Limits.MAX_CHIPS),
        x.countUpTo("pp", Limits.MAX_CHIPS),
        x.countUpTo("ep", Limits.MAX_CHIPS),
        x.countUpTo("attention_dp", Limits.MAX_CHIPS),
        x.optional("weights"),
        x.optional("kv_cache"),
        x.countUpTo("isl", Limits.MAX_TOKENS),
        x.countUpTo("osl", Limits.MAX_TOKENS),
        x.mode(),
        x.countUpTo("load", Limits.MAX_BATCH),
        x.optional("speculative"),
        x.text("engine"),
        x.metric(),
        x.measured(),
        x.text("confidence"),
        x.text("source"),
        x.text("url"),
        x.runSetup(),
        x.text("notes"),
        r.line());
  }
}
