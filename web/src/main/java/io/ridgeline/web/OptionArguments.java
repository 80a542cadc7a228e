package io.ridgeline.web;

import static io.ridgeline.web.Refusal.abbreviate;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.ridgeline.cli.RidgelineCli;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Translates the parameters of an API request (query-string or JSON-body keys, each the long name
 * of an option without its dashes) into the command line's arguments, and finds the option an error
 * message names. A key names an option of the command ({@code true}/{@code false} for a flag; an
 * array repeats a repeatable option or joins a list option with commas); options that read or write
 * files or set the format are refused (400), and requests over the grid limits ({@link
 * ApiServer#MAX_SYSTEMS} chips or system specs, {@link ApiServer#MAX_BATCH_LIST} batches) get 422.
 */
final class OptionArguments {
  // options that write files, read files or change the output format: not offered over HTTP
  private static final ImmutableSet<String> REFUSED =
      ImmutableSet.of(
          "plot", "csv", "json", "help", "version", "profile", "anchor", "log", "log-x", "log-y");

  private static final Pattern OPTION_NAME = Pattern.compile("[a-z][a-z0-9-]{0,63}");
  private static final Pattern NAMED_OPTION = Pattern.compile("--([a-z][a-z0-9-]*)");

  // option long name (without dashes) to its spec, per command: flags and repeatable options
  private final ImmutableMap<String, ImmutableMap<String, OptionSpec>> options;

  /** The options of each of {@code commands}, read from the command line's own definition. */
  OptionArguments(ImmutableSet<String> commands) {
    CommandLine root = new CommandLine(new RidgelineCli());
    ImmutableMap.Builder<String, ImmutableMap<String, OptionSpec>> b = ImmutableMap.builder();
    for (String command : commands) {
      Map<String, OptionSpec> byName = new LinkedHashMap<>();
      for (OptionSpec o : root.getSubcommands().get(command).getCommandSpec().options()) {
        byName.put(o.longestName().replaceFirst("^--", ""), o);
      }
      b.put(command, ImmutableMap.copyOf(byName));
    }
    this.options = b.buildOrThrow();
  }

  /** The options of {@code command} as command-line arguments, ending in --json. */
  List<String> arguments(String command, Map<String, List<JsonNode>> params) {
    Map<String, OptionSpec> known = options.get(command);
    List<String> args = new ArrayList<>();
    args.add(command);
    for (Map.Entry<String, List<JsonNode>> p : params.entrySet()) {
      String key = p.getKey();
      if (!OPTION_NAME.matcher(key).matches()) {
        throw new Refusal(
            400, "unknown option: '" + abbreviate(key) + "' (option names are lower-case)", key);
      }
      if (REFUSED.contains(key)) {
        throw new Refusal(
            400,
            "--"
                + key
                + " is not available over HTTP (it reads or writes files, or sets the format)",
            key);
      }
      OptionSpec spec = known.get(key);
      List<String> values = new ArrayList<>();
      for (JsonNode v : p.getValue()) {
        if (v.isNull()) {
          // null: the option left out
          continue;
        }
        if (v.isArray()) {
          List<String> items = new ArrayList<>();
          for (JsonNode item : v) {
            items.add(scalar(key, item));
          }
          if (spec != null && spec.isMultiValue()) {
            values.addAll(items);
          } else {
            values.add(String.join(",", items));
          }
        } else {
          values.add(scalar(key, v));
        }
      }
      boolean flag = spec != null && spec.arity().max() == 0;
      for (String value : values) {
        if (flag) {
          if (value.equalsIgnoreCase("true")) {
            args.add("--" + key);
          } else if (!value.equalsIgnoreCase("false")) {
            throw new Refusal(
                400,
                "--" + key + " is a flag: give true or false: '" + abbreviate(value) + "'",
                key);
          }
        } else {
          // one token, so that a value starting with '-' is never read as an option
          args.add("--" + key + "=" + value);
        }
      }
    }
    checkGrid(command, params);
    args.add("--json");
    return args;
  }

  /** 422 for a request over the grid limits: too many chips, systems or batch sizes. */
  private static void checkGrid(String command, Map<String, List<JsonNode>> params) {
    String listed = command.equals("plan") ? "chips" : "chip";
    int systems = count(params.get(listed));
    if (systems > ApiServer.MAX_SYSTEMS) {
      throw new Refusal(
          422,
          "--"
              + listed
              + " names "
              + systems
              + " chips; the API takes at most "
              + ApiServer.MAX_SYSTEMS
              + " per request",
          listed);
    }
    // each --system value is one system (a spec may hold commas: strategy=pd,afd)
    int specs = 0;
    for (JsonNode v : params.getOrDefault("system", List.of())) {
      specs += v.isArray() ? v.size() : 1;
    }
    if (specs > ApiServer.MAX_SYSTEMS) {
      throw new Refusal(
          422,
          "--system names "
              + specs
              + " systems; the API takes at most "
              + ApiServer.MAX_SYSTEMS
              + " per request",
          "system");
    }
    int batches = count(params.get("batches"));
    if (batches > ApiServer.MAX_BATCH_LIST) {
      throw new Refusal(
          422,
          "--batches lists "
              + batches
              + " batch sizes; the API takes at most "
              + ApiServer.MAX_BATCH_LIST
              + " per request",
          "batches");
    }
  }

  /** The comma-separated entries of every value of an option (arrays counted by element). */
  private static int count(List<JsonNode> values) {
    if (values == null) {
      return 0;
    }
    int n = 0;
    for (JsonNode v : values) {
      for (JsonNode item : v.isArray() ? v : List.of(v)) {
        n += Splitter.on(',').trimResults().omitEmptyStrings().splitToList(item.asText()).size();
      }
    }
    return n;
  }

  private static String scalar(String key, JsonNode v) {
    if (v.isTextual()) {
      return v.textValue();
    }
    if (v.isNumber() || v.isBoolean()) {
      return v.asText();
    }
    throw new Refusal(
        400,
        "--"
            + key
            + " takes a string, a number, true/false or an array of them: "
            + v.getNodeType(),
        key);
  }

  /**
   * The option a message names: {@code chip_files} or {@code model_configs} for a posted file, else
   * the first {@code --option} it quotes, without the dashes; null when it names none.
   */
  static String field(String message) {
    if (message == null) {
      return null;
    }
    if (message.startsWith("chip_files")) {
      return "chip_files";
    }
    if (message.startsWith("model_configs")) {
      return "model_configs";
    }
    Matcher m = NAMED_OPTION.matcher(message);
    return m.find() ? m.group(1) : null;
  }

  /**
   * {@link #field(String)}, else the option whose value the message quotes ({@code unknown chip
   * 'h100-sxmm'}) or starts with ({@code /etc/passwd: no file is read here}); null when none.
   */
  static String field(String message, Map<String, List<JsonNode>> params) {
    String named = field(message);
    if (named != null || message == null) {
      return named;
    }
    for (Map.Entry<String, List<JsonNode>> p : params.entrySet()) {
      for (JsonNode v : p.getValue()) {
        for (JsonNode item : v.isArray() ? v : List.of(v)) {
          for (String s : Splitter.on(',').trimResults().omitEmptyStrings().split(item.asText())) {
            if (message.contains("'" + s + "'") || message.startsWith(s + ":")) {
              return p.getKey();
            }
          }
        }
      }
    }
    return null;
  }
}
