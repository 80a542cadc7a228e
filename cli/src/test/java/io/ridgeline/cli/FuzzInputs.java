package io.ridgeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.validation.CaseFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Generators of bad and extreme inputs for {@link InputFuzzTest}, one per input family: HuggingFace
 * config files, chip JSON, option sets, case CSV files and sweep grids. Each draws from a seeded
 * {@link Random}. Mutations of JSON start from the shipped files, so a field added to them is
 * fuzzed without touching this class; options come from {@link #OPTION_VALUES} (add a new option
 * there) and grid keys from {@code Sweep.Grid.KEYS}.
 */
final class FuzzInputs {
  private static final ObjectMapper MAPPER =
      com.fasterxml.jackson.databind.json.JsonMapper.builder()
          .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private FuzzInputs() {}

  // ---- values ----

  /** Numbers and other values that break naive readers: zero, negatives, overflow, non-finite. */
  static JsonNode nastyValue(Random r) {
    switch (r.nextInt(22)) {
      case 0:
        return NODES.numberNode(0);
      case 1:
        return NODES.numberNode(-1);
      case 2:
        return NODES.numberNode(Integer.MAX_VALUE);
      case 3:
        return NODES.numberNode(1L << 31);
      case 4:
        return NODES.numberNode(1L << 53);
      case 5:
        return NODES.numberNode(1e308);
      case 6:
        return NODES.numberNode(-1e308);
      case 7:
        return NODES.numberNode(1.5);
      case 8:
        return NODES.numberNode(1e-300);
      case 9:
        return NODES.textNode("NaN");
      case 10:
        return NODES.textNode("abc");
      case 11:
        return NODES.textNode("");
      case 12:
        return NODES.nullNode();
      case 13:
        return NODES.booleanNode(r.nextBoolean());
      case 14:
        return NODES.arrayNode();
      case 15:
        return NODES.objectNode();
      case 16:
        return NODES.numberNode(new java.math.BigInteger("1000000000000000000000000000000"));
      case 17:
        return NODES.numberNode(1 + r.nextInt(100_000_000));
      case 18:
        return NODES.numberNode(1 << (10 + r.nextInt(21)));
      case 19:
        {
          ArrayNode a = NODES.arrayNode();
          a.add(1).add("x").addNull();
          return a;
        }
      case 20:
        return NODES.numberNode(r.nextInt(4096) - 2048);
      default:
        return NODES.numberNode(r.nextDouble() * 1000);
    }
  }

  /** {@code s} with one character dropped, doubled or replaced: a typo. */
  static String typo(Random r, String s) {
    if (s.isEmpty()) {
      return "x";
    }
    int i = r.nextInt(s.length());
    switch (r.nextInt(3)) {
      case 0:
        return s.substring(0, i) + s.substring(i + 1);
      case 1:
        return s.substring(0, i + 1) + s.charAt(i) + s.substring(i + 1);
      default:
        return s.substring(0, i) + (char) ('a' + r.nextInt(26)) + s.substring(i + 1);
    }
  }

  // ---- JSON documents ----

  /**
   * {@code base} with one to three random mutations: a value replaced by a nasty one or scaled, a
   * key removed or added, a string misspelled; or, one time in eight, the text broken as a whole.
   */
  static String mutateJson(Random r, JsonNode base) {
    if (r.nextInt(8) == 0) {
      return brokenDocument(r, base.toString());
    }
    if (r.nextInt(8) == 0) {
      return textMutation(r, base);
    }
    JsonNode doc = base.deepCopy();
    int n = 1 + r.nextInt(3);
    for (int i = 0; i < n; i++) {
      mutateOnce(r, doc);
    }
    return doc.toString();
  }

  private static void mutateOnce(Random r, JsonNode doc) {
    List<JsonNode> containers = new ArrayList<>();
    collect(doc, containers);
    JsonNode c = containers.get(r.nextInt(containers.size()));
    if (c.isObject()) {
      ObjectNode o = (ObjectNode) c;
      List<String> keys = new ArrayList<>();
      o.fieldNames().forEachRemaining(keys::add);
      int op = r.nextInt(6);
      if (keys.isEmpty() || op == 0) {
        o.set(r.nextBoolean() ? "unknown_key" : typo(r, "num_experts"), nastyValue(r));
        return;
      }
      String k = keys.get(r.nextInt(keys.size()));
      JsonNode v = o.get(k);
      if (op == 1) {
        o.remove(k);
      } else if (op == 2 && v.isNumber()) {
        double[] factors = {0, -1, 2, 1000, 1e6, 1e-6, 1e12};
        o.put(k, v.doubleValue() * factors[r.nextInt(factors.length)]);
      } else if (op == 3 && v.isTextual()) {
        o.put(k, typo(r, v.textValue()));
      } else if (op == 4 && v.isArray() && v.size() > 0) {
        ArrayNode a = (ArrayNode) v;
        int i = r.nextInt(a.size());
        if (a.get(i).isTextual()) {
          a.set(i, NODES.textNode(typo(r, a.get(i).textValue())));
        } else {
          a.set(i, nastyValue(r));
        }
      } else {
        o.set(k, nastyValue(r));
      }
    } else {
      ArrayNode a = (ArrayNode) c;
      if (a.isEmpty() || r.nextBoolean()) {
        a.add(nastyValue(r));
      } else {
        int i = r.nextInt(a.size());
        if (r.nextBoolean()) {
          a.remove(i);
        } else {
          a.set(i, nastyValue(r));
        }
      }
    }
  }

  /**
   * A well-formed-looking document a tree mutation cannot make: a key repeated in its object
   * (plainly or written with a unicode escape), a second document or stray text after the first, a
   * number past a double's range or written with leading zeros, a key in another letter case.
   */
  static String textMutation(Random r, JsonNode base) {
    String text = base.toString();
    List<String> keys = new ArrayList<>();
    allKeys(base, keys);
    String key = keys.isEmpty() ? "x" : keys.get(r.nextInt(keys.size()));
    String quoted = "\"" + key + "\":";
    int at = text.indexOf(quoted);
    switch (r.nextInt(7)) {
      case 0:
        // the key twice in its object: a duplicate a lenient reader keeps silently
        return at < 0 ? text : text.substring(0, at) + quoted + "1," + text.substring(at);
      case 1:
        {
          // the same key with its first letter written as a JSON unicode escape (backslash, u, 4
          // hex)
          String escaped = String.format(java.util.Locale.ROOT, "\\u%04x", (int) key.charAt(0));
          return at < 0
              ? text
              : text.substring(0, at)
                  + "\""
                  + escaped
                  + key.substring(1)
                  + "\":0,"
                  + text.substring(at);
        }
      case 2:
        return text + (r.nextBoolean() ? text : " trailing");
      case 3:
        return at < 0
            ? text
            : text.substring(0, at + quoted.length()) + "1e400," + text.substring(at);
      case 4:
        return at < 0 ? text : text.substring(0, at) + quoted + "007," + text.substring(at);
      case 5:
        return at < 0
            ? text
            : text.substring(0, at)
                + "\""
                + key.toUpperCase(java.util.Locale.ROOT)
                + "\":1,"
                + text.substring(at);
      default:
        return text.replaceFirst("\\}\\s*$", ",}");
    }
  }

  private static void allKeys(JsonNode n, List<String> out) {
    if (n.isObject()) {
      out.addAll(fieldNames(n));
    }
    for (JsonNode c : n) {
      allKeys(c, out);
    }
  }

  private static void collect(JsonNode n, List<JsonNode> out) {
    if (n.isContainerNode()) {
      out.add(n);
      for (JsonNode c : n) {
        collect(c, out);
      }
    }
  }

  /** Truncated, empty, deeply nested, huge or binary text. */
  static String brokenDocument(Random r, String text) {
    switch (r.nextInt(7)) {
      case 0:
        return text.substring(0, r.nextInt(Math.max(1, text.length())));
      case 1:
        return "";
      case 2:
        return "[".repeat(5_000 + r.nextInt(5_000));
      case 3:
        return "\uFEFF" + text;
      case 4:
        return "{\"a\":\"" + "x".repeat(2_000_000) + "\"}";
      case 5:
        return "[" + "1,".repeat(100_000) + "1]";
      default:
        return new String(
            new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2}, StandardCharsets.ISO_8859_1);
    }
  }

  // ---- shipped files ----

  static String resource(String name) {
    try (InputStream in = FuzzInputs.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode json(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every shipped config.json, parsed. */
  static List<JsonNode> shippedConfigs() {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode e : json(resource("/io/ridgeline/models/catalog.json"))) {
      out.add(json(resource("/io/ridgeline/models/configs/" + e.get("file").asText())));
    }
    return out;
  }

  /** Every catalog chip as a JSON object. */
  static List<JsonNode> shippedChips() {
    List<JsonNode> out = new ArrayList<>();
    json(resource("/io/ridgeline/hardware/chips.json")).forEach(out::add);
    return out;
  }

  /** Every profile of the built-in efficiency profile file, as a whole file of one profile. */
  static List<JsonNode> shippedProfiles() {
    List<JsonNode> out = new ArrayList<>();
    out.add(json(resource("/io/ridgeline/serving/efficiency/profiles.json")));
    return out;
  }

  // ---- options ----

  /** Models small enough to keep a case fast, and one missing file. */
  static final List<String> MODELS =
      List.of(
          "llama-3.1-8b",
          "qwen3-30b-a3b",
          "deepseek-v2-lite",
          "gpt-oss-20b",
          "gemma-2-9b",
          "nemotron-h-56b",
          "qwen3-next-80b-a3b",
          "missing/config.json",
          "llama-3.1-8");

  static final List<String> CHIPS =
      List.of("h100-sxm", "b200", "mi300x", "groq-lpu", "h200-sxm", "h100-sx", "tpu-v5e");

  static String[] ints(String... extra) {
    List<String> v =
        new ArrayList<>(
            List.of(
                "1",
                "2",
                "3",
                "8",
                "0",
                "-1",
                "-3",
                "65536",
                "65537",
                "16777216",
                "134217728",
                "134217729",
                "2147483647",
                "2147483648",
                "abc",
                "1e3",
                "",
                " 4"));
    v.addAll(List.of(extra));
    return v.toArray(String[]::new);
  }

  static String[] doubles(String... extra) {
    List<String> v =
        new ArrayList<>(
            List.of(
                "0",
                "-0.0",
                "0.5",
                "1",
                "2.5",
                "1e308",
                "-1",
                "NaN",
                "Infinity",
                "1e-320",
                "1e6",
                "abc",
                "",
                "0.999",
                "1000000.1"));
    v.addAll(List.of(extra));
    return v.toArray(String[]::new);
  }

  private static final String[] PRECISIONS = {
    "bf16", "fp8", "fp4", "mxfp4", "int4", "fp32", "int8", "xx", "BF16", ""
  };

  /** Every option the fuzzer sets, with the values it draws from; add new options here. */
  static final Map<String, String[]> OPTION_VALUES =
      Map.ofEntries(
          Map.entry("--count", ints("16", "576")),
          Map.entry("--tp", ints()),
          Map.entry("--pp", ints()),
          Map.entry("--ep", ints()),
          Map.entry("--attention-dp", ints()),
          Map.entry("--isl", ints("1024", "131072")),
          Map.entry("--osl", ints("1024", "65536")),
          Map.entry("--max-batch", ints("64", "512")),
          Map.entry("--batch", ints("64", "4096")),
          Map.entry("--context", ints("1024", "1000000")),
          Map.entry("--prompt", ints("1024")),
          Map.entry("--prefill-count", ints()),
          Map.entry("--decode-count", ints()),
          Map.entry("--attention-count", ints()),
          Map.entry("--ffn-count", ints()),
          Map.entry("--afd-microbatches", ints("1025")),
          Map.entry("--spec-length", ints("257")),
          Map.entry("--spec-acceptance", doubles("0.8", "1.0")),
          Map.entry("--spec-draft", new String[] {"llama-3.1-8b", "mtp", "nope", ""}),
          Map.entry("--routing-skew", doubles("10", "10.5")),
          Map.entry("--pool-link-gbps", doubles("0.0001", "50")),
          Map.entry("--price", doubles("2.5", "1e6")),
          Map.entry(
              "--strategy",
              new String[] {
                "colocated",
                "pd",
                "afd",
                "static",
                "all",
                ",",
                "",
                "pd:b200:4",
                "pd:b200:0",
                "pd:x",
                "afd:3",
                "colocated,,pd",
                "pd:groq-lpu:576",
                "PD",
                " afd "
              }),
          Map.entry("--weights", PRECISIONS),
          Map.entry("--kv", PRECISIONS),
          Map.entry("--activations", PRECISIONS),
          Map.entry("--expert-weights", PRECISIONS),
          Map.entry("--efficiency", new String[] {"ideal", "calibrated", "IDEAL", "x", ""}),
          Map.entry("--engine", new String[] {"vllm", "trtllm", "nope", "", " "}),
          Map.entry("--batches", new String[] {"1,2,4", "0", "-1,2", "16777217", "8"}),
          Map.entry("--rate", doubles("10", "1e9", "1.1e9")),
          Map.entry("--ttft", doubles("0.5", "1e-9")),
          Map.entry("--tpot", doubles("0.05")),
          Map.entry("--top", ints("10001")),
          Map.entry("--objective", new String[] {"chips", "cost", "x"}),
          Map.entry("--strategies", new String[] {"colocated", "colocated,pd", ",", "afd", "x"}),
          Map.entry("--chips", new String[] {"h100-sxm", "h100-sxm,b200", ",", "x", "groq-lpu"}));

  /** The options each command takes, besides its required ones. */
  static final Map<String, List<String>> COMMAND_OPTIONS =
      Map.of(
          "roofline",
          List.of(
              "--count",
              "--tp",
              "--pp",
              "--ep",
              "--attention-dp",
              "--prompt",
              "--weights",
              "--kv",
              "--activations",
              "--expert-weights",
              "--efficiency",
              "--engine",
              "--routing-skew"),
          "frontier",
          List.of(
              "--count",
              "--tp",
              "--pp",
              "--ep",
              "--attention-dp",
              "--isl",
              "--osl",
              "--max-batch",
              "--strategy",
              "--prefill-count",
              "--decode-count",
              "--attention-count",
              "--ffn-count",
              "--afd-microbatches",
              "--spec-draft",
              "--spec-length",
              "--spec-acceptance",
              "--price",
              "--pool-link-gbps",
              "--weights",
              "--kv",
              "--efficiency",
              "--engine",
              "--routing-skew"),
          "crossover",
          List.of("--count", "--tp", "--weights", "--kv", "--efficiency"),
          "intensity",
          List.of("--count", "--tp", "--context", "--batches", "--weights", "--efficiency"),
          "plan",
          List.of(
              "--top",
              "--objective",
              "--strategies",
              "--price",
              "--weights",
              "--kv",
              "--efficiency"));

  /** A random command line: a command, its required options (sometimes bad) and a few others. */
  static List<String> options(Random r) {
    // plan searches many configurations per run: drawn one time in ten, to keep the suite fast
    List<String> commands =
        List.of(
            "roofline",
            "frontier",
            "crossover",
            "intensity",
            "plan",
            "roofline",
            "frontier",
            "crossover",
            "intensity",
            "frontier");
    String cmd = commands.get(r.nextInt(commands.size()));
    List<String> args = new ArrayList<>(List.of(cmd));
    args.add("--model");
    args.add(MODELS.get(r.nextInt(MODELS.size())));
    if (cmd.equals("plan")) {
      for (String o : List.of("--isl", "--osl", "--rate", "--ttft", "--tpot", "--chips")) {
        args.add(o);
        args.add(pick(r, o, r.nextInt(3) == 0));
      }
    } else {
      args.add("--chip");
      args.add(CHIPS.get(r.nextInt(CHIPS.size())));
      if (cmd.equals("roofline") || cmd.equals("crossover")) {
        args.add("--batch");
        args.add(pick(r, "--batch", r.nextInt(3) == 0));
      }
      if (cmd.equals("roofline")) {
        args.add("--context");
        args.add(pick(r, "--context", r.nextInt(3) == 0));
      }
    }
    List<String> optional = new ArrayList<>(COMMAND_OPTIONS.get(cmd));
    java.util.Collections.shuffle(optional, r);
    int n = r.nextInt(5);
    for (String o : optional.subList(0, Math.min(n, optional.size()))) {
      args.add(o);
      args.add(pick(r, o, true));
    }
    args.add(cmd.equals("frontier") && r.nextInt(4) == 0 ? "--csv" : "--json");
    return args;
  }

  /** A value of {@code option}: any of its values when {@code wild}, else a sensible one. */
  private static String pick(Random r, String option, boolean wild) {
    String[] values = OPTION_VALUES.get(option);
    if (wild) {
      return values[r.nextInt(values.length)];
    }
    switch (option) {
      case "--rate":
        return "10";
      case "--ttft":
        return "0.5";
      case "--tpot":
        return "0.05";
      case "--chips":
        return "h100-sxm";
      default:
        return values[r.nextInt(4)];
    }
  }

  // ---- case files ----

  /**
   * The shipped case file's header and a few of its rows, mutated cell by cell or as a whole; one
   * file in four in the format without the run columns.
   */
  static String caseFile(Random r) {
    List<String> lines = resource("/io/ridgeline/validation/cases.csv").lines().toList();
    if (r.nextInt(4) == 0) {
      lines = withoutRunColumns(lines);
    }
    String header = lines.get(0);
    List<String> names = splitCsv(header);
    // every column but the free-text and provenance ones: the configuration, the measurement and
    // the run columns
    List<Integer> mutable = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      if (!List.of("confidence", "source", "url", "notes").contains(names.get(i))) {
        mutable.add(i);
      }
    }
    switch (r.nextInt(10)) {
      case 0:
        return "";
      case 1:
        return header + "\n";
      case 2:
        return "\uFEFF" + header + "\r\n" + lines.get(1 + r.nextInt(lines.size() - 1)) + "\r\n";
      case 3:
        return brokenDocument(r, header + "\n" + lines.get(1));
      default:
        break;
    }
    StringBuilder b = new StringBuilder(header).append('\n');
    int rows = 1 + r.nextInt(4);
    String[] cells = {
      "",
      "-1",
      "0",
      "1e308",
      "NaN",
      "Infinity",
      "abc",
      "2147483648",
      "1.5",
      "\"",
      "65537",
      "134217729",
      "h100-sxm",
      "llama-3.1-8b",
      "fp8",
      "offline",
      "1,2",
      "true",
      "eager",
      "synchronous",
      "0.7.3"
    };
    for (int i = 0; i < rows; i++) {
      String row = lines.get(1 + r.nextInt(lines.size() - 1));
      List<String> fields = new ArrayList<>(splitCsv(row));
      int mutations = r.nextInt(3);
      for (int m = 0; m < mutations; m++) {
        int c = mutable.get(r.nextInt(mutable.size()));
        if (c >= fields.size()) {
          continue;
        }
        fields.set(c, csvCell(cells[r.nextInt(cells.length)]));
      }
      b.append(String.join(",", fields)).append(r.nextBoolean() ? "\n" : "\r\n");
    }
    return b.toString();
  }

  /** {@code lines} of the shipped case file without its run columns (the older format). */
  private static List<String> withoutRunColumns(List<String> lines) {
    List<String> header = splitCsv(lines.get(0));
    List<Integer> keep = new ArrayList<>();
    for (int i = 0; i < header.size(); i++) {
      if (!CaseFile.RUN_COLUMNS.contains(header.get(i))) {
        keep.add(i);
      }
    }
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      List<String> fields = splitCsv(line);
      List<String> kept = new ArrayList<>();
      for (int i : keep) {
        if (i < fields.size()) {
          kept.add(fields.get(i));
        }
      }
      out.add(String.join(",", kept));
    }
    return out;
  }

  private static String csvCell(String v) {
    return v.contains(",") || v.contains("\"") ? "\"" + v.replace("\"", "\"\"") + "\"" : v;
  }

  /** Splits one CSV line into raw fields (quotes kept). */
  private static List<String> splitCsv(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder f = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char ch = line.charAt(i);
      if (ch == '"') {
        quoted = !quoted;
      }
      if (ch == ',' && !quoted) {
        out.add(f.toString());
        f.setLength(0);
      } else {
        f.append(ch);
      }
    }
    out.add(f.toString());
    return out;
  }

  // ---- sweep grids ----

  /** A grid of a few keys (sometimes unknown, misspelled or empty) with short value lists. */
  static String grid(Random r) {
    if (r.nextInt(10) == 0) {
      return brokenDocument(r, "{\"model\": [\"llama-3.1-8b\"]}");
    }
    ObjectNode g = NODES.objectNode();
    Map<String, Function<Random, JsonNode>> keys =
        Map.ofEntries(
            Map.entry("model", x -> NODES.textNode(MODELS.get(x.nextInt(MODELS.size())))),
            Map.entry("chip", x -> NODES.textNode(CHIPS.get(x.nextInt(CHIPS.size())))),
            Map.entry("count", x -> intValue(x, 8)),
            Map.entry("tp", x -> intValue(x, 8)),
            Map.entry("ep", x -> intValue(x, 1)),
            Map.entry("batch", x -> intValue(x, 64)),
            Map.entry("isl", x -> intValue(x, 1024)),
            Map.entry("osl", x -> intValue(x, 256)),
            Map.entry(
                "strategy",
                x ->
                    NODES.textNode(
                        List.of("colocated", "pd", "afd", "static", "x").get(x.nextInt(5)))),
            Map.entry("weights", x -> NODES.textNode(PRECISIONS[x.nextInt(PRECISIONS.length)])),
            Map.entry("kv", x -> NODES.textNode(PRECISIONS[x.nextInt(PRECISIONS.length)])),
            Map.entry("modle", x -> NODES.textNode("llama-3.1-8b")));
    List<String> names = new ArrayList<>(keys.keySet());
    java.util.Collections.sort(names);
    java.util.Collections.shuffle(names, r);
    for (String k : names.subList(0, 1 + r.nextInt(4))) {
      int n = r.nextInt(4);
      if (n == 0 && r.nextBoolean()) {
        g.set(k, keys.get(k).apply(r));
        continue;
      }
      ArrayNode a = g.putArray(k);
      for (int i = 0; i < n; i++) {
        a.add(keys.get(k).apply(r));
      }
    }
    return g.toString();
  }

  private static JsonNode intValue(Random r, int sensible) {
    return r.nextInt(3) == 0 ? nastyValue(r) : NODES.numberNode(sensible);
  }

  /** The names of the object fields of {@code n}, for messages. */
  static List<String> fieldNames(JsonNode n) {
    List<String> out = new ArrayList<>();
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      out.add(it.next());
    }
    return out;
  }
}
