package io.ridgeline.web;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ridgeline.cli.InlineInputs;
import io.ridgeline.cli.RidgelineCli;
import io.ridgeline.cli.WebServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The HTTP API and the web page of {@code ridgeline serve}, on the JDK's {@link HttpServer}. Each
 * API request runs a command of the command line in this process ({@link RidgelineCli#execute(
 * String[], PrintWriter, PrintWriter, InlineInputs)}) and answers with exactly what its {@code
 * --json} prints; there is no second implementation of any command.
 *
 * <ul>
 *   <li>{@code GET /api/chips}, {@code GET /api/models}: {@code chips --json}, {@code models
 *       --json}.
 *   <li>{@code POST /api/COMMAND} with a JSON object, or {@code GET /api/COMMAND?KEY=VALUE&...},
 *       for COMMAND one of {@link #COMMANDS}: the keys are the command's long option names without
 *       the dashes ({@code {"model": "llama-3.1-70b", "chip": "h100-sxm", "count": 8}}); {@code
 *       true} sets a flag, an array repeats a repeatable option or joins a list option with commas.
 *       Body keys {@code chip_files} (an array of chip-file objects) and {@code model_configs}
 *       (name to {@code config.json} object) are held in memory for the request ({@link
 *       InlineInputs}); no option reads or writes a file.
 *   <li>{@code GET /api/openapi.json}: the OpenAPI 3 document of the API.
 *   <li>{@code GET /}: the page, {@code index.html}, and the files beside it, from the jar.
 * </ul>
 *
 * <p>Errors are JSON {@code {"error": MESSAGE, "field": OPTION}} (field null where the message
 * names no option): 400 for a bad option or value (the command line's one-line message), 404 for an
 * unknown path, 405 for a method a path does not take, 413 for a body over {@link
 * Settings#maxBodyBytes()}, 422 for a request over the grid limits ({@link #MAX_SYSTEMS} chips or
 * system specs, {@link #MAX_BATCH_LIST} batches), 503 when a request runs past {@link
 * Settings#timeLimit()} or the server already holds {@link Settings#workers()} running and {@link
 * Settings#queue()} waiting requests, 500 for an internal error. A request never waits without
 * bound.
 */
public final class ApiServer implements WebServer {
  /** The commands {@code /api/COMMAND} runs with options. */
  public static final ImmutableSet<String> COMMANDS =
      ImmutableSet.of("frontier", "roofline", "plan", "crossover", "intensity");

  /** The most chips one request names (frontier and roofline's --chip, plan's --chips). */
  public static final int MAX_SYSTEMS = 8;

  /** The most batch sizes one intensity request lists (--batches). */
  public static final int MAX_BATCH_LIST = 64;

  // options that write files, read files or change the output format: not offered over HTTP
  private static final ImmutableSet<String> REFUSED =
      ImmutableSet.of(
          "plot", "csv", "json", "help", "version", "profile", "anchor", "log", "log-x", "log-y");

  private static final ImmutableMap<String, String> CONTENT_TYPES =
      ImmutableMap.<String, String>builder()
          .put("html", "text/html; charset=utf-8")
          .put("js", "text/javascript; charset=utf-8")
          .put("mjs", "text/javascript; charset=utf-8")
          .put("css", "text/css; charset=utf-8")
          .put("json", "application/json")
          .put("svg", "image/svg+xml")
          .put("png", "image/png")
          .put("ico", "image/x-icon")
          .put("txt", "text/plain; charset=utf-8")
          .buildOrThrow();

  private static final String STATIC = "/io/ridgeline/web/static/";
  private static final Pattern STATIC_PATH =
      Pattern.compile("(?:[A-Za-z0-9_-][A-Za-z0-9._-]*/)*[A-Za-z0-9_-][A-Za-z0-9._-]*");
  private static final Pattern OPTION_NAME = Pattern.compile("[a-z][a-z0-9-]{0,63}");
  private static final Pattern NAMED_OPTION = Pattern.compile("--([a-z][a-z0-9-]*)");

  // reads request bodies; writes warnings into a header as ASCII (\\u escapes)
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final ObjectMapper ASCII =
      JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

  /**
   * The limits of a server.
   *
   * @param maxBodyBytes the largest request body read, in bytes; a larger one gets 413
   * @param timeLimit the longest a request may wait and run before it gets 503
   * @param workers the requests run at once (a command is one thread of work)
   * @param queue the requests that may wait for a worker; one more gets 503 at once
   */
  public record Settings(long maxBodyBytes, Duration timeLimit, int workers, int queue) {
    /** Checks every limit. */
    public Settings {
      checkArgument(maxBodyBytes > 0, "maxBodyBytes must be positive: %s", maxBodyBytes);
      checkArgument(
          !timeLimit.isNegative() && !timeLimit.isZero(),
          "timeLimit must be positive: %s",
          timeLimit);
      checkArgument(workers > 0, "workers must be positive: %s", workers);
      checkArgument(queue >= 0, "queue must not be negative: %s", queue);
    }

    /**
     * The defaults: bodies up to 1 MB (10^6 bytes: a chip file is about 2 kB, a config.json a few
     * kB), 10 s per request, one worker per processor and 256 waiting requests.
     */
    public static Settings defaults() {
      return new Settings(
          1_000_000, Duration.ofSeconds(10), Runtime.getRuntime().availableProcessors(), 256);
    }
  }

  private final Settings settings;

  // option long name (without dashes) to its spec, per command: flags and repeatable options
  private final ImmutableMap<String, ImmutableMap<String, OptionSpec>> options;

  private HttpServer server;
  private ThreadPoolExecutor http;
  private ThreadPoolExecutor work;

  /** A server with the {@linkplain Settings#defaults() default limits} (what serve starts). */
  public ApiServer() {
    this(Settings.defaults());
  }

  /** A server with the limits of {@code settings}. */
  public ApiServer(Settings settings) {
    this.settings = settings;
    CommandLine root = new CommandLine(new RidgelineCli());
    ImmutableMap.Builder<String, ImmutableMap<String, OptionSpec>> b = ImmutableMap.builder();
    for (String command : COMMANDS) {
      Map<String, OptionSpec> byName = new LinkedHashMap<>();
      for (OptionSpec o : root.getSubcommands().get(command).getCommandSpec().options()) {
        byName.put(o.longestName().replaceFirst("^--", ""), o);
      }
      b.put(command, ImmutableMap.copyOf(byName));
    }
    this.options = b.buildOrThrow();
  }

  @Override
  public synchronized InetSocketAddress start(String host, int port) {
    checkState(server == null, "the server was already started");
    // the JDK server's own bounds on reading a request and writing a response (seconds; none by
    // default): a client that stalls mid-request cannot hold a thread for ever. Read once, when the
    // first server of the process starts; a value set on the command line (-D) is kept.
    setIfAbsent("sun.net.httpserver.maxReqTime", "30");
    setIfAbsent("sun.net.httpserver.maxRspTime", "60");
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 128);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
    }
    // the HTTP threads mostly wait for a worker: one per running or waiting request and 16 more
    // (for the catalogs, the page and the refusals), started as needed, so that a busy server
    // answers 503 from the worker queue rather than by closing connections
    http =
        pool(
            "ridgeline-http",
            16,
            settings.workers() + settings.queue() + 16,
            new java.util.concurrent.SynchronousQueue<>());
    work =
        pool(
            "ridgeline-work",
            settings.workers(),
            settings.workers(),
            settings.queue() == 0
                ? new java.util.concurrent.SynchronousQueue<>()
                : new ArrayBlockingQueue<>(settings.queue()));
    server.setExecutor(http);
    server.createContext("/", this::handle);
    server.start();
    return server.getAddress();
  }

  private static void setIfAbsent(String property, String value) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, value);
    }
  }

  @Override
  public synchronized void stop() {
    if (server == null) {
      return;
    }
    // the commands running or waiting get up to a second to finish; then the connections close
    // (HttpServer.stop(1) alone waits the whole second even when nothing runs)
    work.shutdown();
    try {
      work.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    server.stop(0);
    http.shutdownNow();
    work.shutdownNow();
  }

  private static ThreadPoolExecutor pool(
      String name,
      int threads,
      int maxThreads,
      java.util.concurrent.BlockingQueue<Runnable> queue) {
    AtomicInteger n = new AtomicInteger();
    return new ThreadPoolExecutor(
        threads,
        maxThreads,
        30,
        TimeUnit.SECONDS,
        queue,
        r -> {
          Thread t = new Thread(r, name + "-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }

  /** A response: status, content type, body and extra headers. */
  private static final class Reply {
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

    Reply with(String header, String value) {
      Map<String, String> h = new LinkedHashMap<>(headers);
      h.put(header, value);
      return new Reply(status, type, body, h);
    }
  }

  /** A request the API refuses: its status, message and the option it names (or null). */
  private static final class Refusal extends RuntimeException {
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
  }

  private void handle(HttpExchange exchange) throws IOException {
    Reply reply;
    try {
      reply = route(exchange);
    } catch (Refusal r) {
      reply = error(r.status, r.getMessage(), r.field);
      for (Map.Entry<String, String> h : r.headers.entrySet()) {
        reply = reply.with(h.getKey(), h.getValue());
      }
    } catch (RuntimeException e) {
      reply = error(500, "internal error: " + e.getClass().getSimpleName(), null);
    }
    send(exchange, reply);
  }

  private Reply route(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getRawPath();
    String method = exchange.getRequestMethod();
    if (!path.startsWith("/api/")) {
      requireMethod(method, "GET");
      return staticFile(path);
    }
    String name = path.substring("/api/".length());
    switch (name) {
      case "chips":
      case "models":
        requireMethod(method, "GET");
        return run(name, new String[] {name, "--json"}, InlineInputs.none(), Map.of());
      case "openapi.json":
        requireMethod(method, "GET");
        return Reply.json(200, resource("/io/ridgeline/web/openapi.json"));
      default:
        break;
    }
    if (!COMMANDS.contains(name)) {
      throw new Refusal(404, "no such endpoint: " + path, null);
    }
    requireMethod(method, "GET", "POST");
    Map<String, List<JsonNode>> params;
    InlineInputs inputs = InlineInputs.none();
    if (method.equals("POST")) {
      ObjectNode body = body(exchange);
      inputs = inputs(body);
      params = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> e : body.properties()) {
        if (!e.getKey().equals("chip_files") && !e.getKey().equals("model_configs")) {
          params.put(e.getKey(), List.of(e.getValue()));
        }
      }
    } else {
      params = query(exchange.getRequestURI().getRawQuery());
    }
    List<String> args = arguments(name, params);
    return run(name, args.toArray(String[]::new), inputs, params);
  }

  private static void requireMethod(String method, String... allowed) {
    for (String a : allowed) {
      if (a.equals(method)) {
        return;
      }
    }
    throw new Refusal(
            405,
            "method " + method + " is not allowed here; use " + String.join(" or ", allowed),
            null)
        .header("Allow", String.join(", ", allowed));
  }

  /** The options of {@code command} as command-line arguments, ending in --json. */
  private List<String> arguments(String command, Map<String, List<JsonNode>> params) {
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
    if (systems > MAX_SYSTEMS) {
      throw new Refusal(
          422,
          "--"
              + listed
              + " names "
              + systems
              + " chips; the API takes at most "
              + MAX_SYSTEMS
              + " per request",
          listed);
    }
    // each --system value is one system (a spec may hold commas: strategy=pd,afd)
    int specs = 0;
    for (JsonNode v : params.getOrDefault("system", List.of())) {
      specs += v.isArray() ? v.size() : 1;
    }
    if (specs > MAX_SYSTEMS) {
      throw new Refusal(
          422,
          "--system names "
              + specs
              + " systems; the API takes at most "
              + MAX_SYSTEMS
              + " per request",
          "system");
    }
    int batches = count(params.get("batches"));
    if (batches > MAX_BATCH_LIST) {
      throw new Refusal(
          422,
          "--batches lists "
              + batches
              + " batch sizes; the API takes at most "
              + MAX_BATCH_LIST
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

  /** The query string's parameters, URL-decoded; a repeated name keeps every value in order. */
  private static Map<String, List<JsonNode>> query(String raw) {
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
      out.computeIfAbsent(key, k -> new ArrayList<>())
          .add(com.fasterxml.jackson.databind.node.TextNode.valueOf(value));
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

  /** The body as a JSON object; 413 past the size limit, 400 when it is not a JSON object. */
  private ObjectNode body(HttpExchange exchange) throws IOException {
    byte[] bytes = readBody(exchange);
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

  private byte[] readBody(HttpExchange exchange) throws IOException {
    long limit = settings.maxBodyBytes();
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
  private static InlineInputs inputs(ObjectNode body) {
    JsonNode chipFiles = body.path("chip_files");
    JsonNode modelConfigs = body.path("model_configs");
    List<String> chips = new ArrayList<>();
    if (!chipFiles.isMissingNode() && !chipFiles.isNull()) {
      if (!chipFiles.isArray()) {
        throw new Refusal(
            400, "chip_files must be an array of chip files (JSON objects)", "chip_files");
      }
      for (JsonNode file : chipFiles) {
        if (!file.isObject() && !file.isArray()) {
          throw new Refusal(
              400,
              "chip_files must hold chip files (a chip object or an array of them), not "
                  + file.getNodeType(),
              "chip_files");
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
            "model_configs");
      }
      for (Map.Entry<String, JsonNode> e : modelConfigs.properties()) {
        if (!e.getValue().isObject()) {
          throw new Refusal(
              400,
              "model_configs."
                  + e.getKey()
                  + " must be a config.json object, not "
                  + e.getValue().getNodeType(),
              "model_configs");
        }
        configs.put(e.getKey(), e.getValue().toString());
      }
    }
    try {
      return InlineInputs.of(chips, configs);
    } catch (IllegalArgumentException e) {
      throw new Refusal(400, oneLine(e.getMessage()), field(e.getMessage()));
    }
  }

  /**
   * Runs the command line with {@code args} on a worker, within the time limit: 200 with what it
   * printed, 400 with its message for bad input, 503 when busy or past the limit.
   */
  private Reply run(
      String command, String[] args, InlineInputs inputs, Map<String, List<JsonNode>> params) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Future<Integer> result;
    try {
      result =
          work.submit(
              () ->
                  RidgelineCli.execute(
                      args, new PrintWriter(out, true), new PrintWriter(err, true), inputs));
    } catch (RejectedExecutionException e) {
      throw new Refusal(
              503,
              "the server is busy ("
                  + settings.workers()
                  + " requests running, "
                  + settings.queue()
                  + " waiting); retry shortly",
              null)
          .header("Retry-After", "1");
    }
    int code;
    try {
      code = result.get(settings.timeLimit().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      result.cancel(true);
      throw new Refusal(
              503,
              command
                  + " took longer than the limit of "
                  + settings.timeLimit().toMillis() / 1000.0
                  + " s per request; ask for less (fewer chips, strategies or batches)",
              null)
          .header("Retry-After", "1");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Refusal(503, "the server is stopping", null);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
    List<String> warnings = new ArrayList<>();
    String message = null;
    for (String line : Splitter.on('\n').split(err.toString())) {
      if (line.startsWith("ridgeline: ")) {
        message = line.substring("ridgeline: ".length());
      } else if (!line.isBlank()) {
        warnings.add(line);
      }
    }
    // 3: plan found no configuration, and says so in its JSON
    if (code == 0 || (code == 3 && !out.toString().isBlank())) {
      Reply ok = Reply.json(200, out.toString().getBytes(UTF_8));
      if (!warnings.isEmpty()) {
        ok = ok.with("X-Ridgeline-Warnings", asciiJson(warnings));
      }
      return code == 3 ? ok.with("X-Ridgeline-Exit-Status", "3") : ok;
    }
    if (message == null) {
      message = command + " failed (exit status " + code + ")";
    }
    if (message.startsWith("internal error")) {
      return error(500, message, null);
    }
    return error(400, message, field(message, params));
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

  private static String asciiJson(Object value) {
    try {
      return ASCII.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Reply error(int status, String message, String field) {
    ObjectNode body = MAPPER.createObjectNode();
    body.put("error", message);
    if (field == null) {
      body.putNull("field");
    } else {
      body.put("field", field);
    }
    return Reply.json(status, (body.toString() + "\n").getBytes(UTF_8));
  }

  private Reply staticFile(String path) {
    String relative = path.equals("/") ? "index.html" : path.substring(1);
    if (!STATIC_PATH.matcher(relative).matches() || relative.contains("..")) {
      throw new Refusal(404, "no such page: " + abbreviate(path), null);
    }
    byte[] bytes;
    try {
      bytes = resource(STATIC + relative);
    } catch (Refusal r) {
      throw new Refusal(404, "no such page: " + abbreviate(path), null);
    }
    String extension = relative.substring(relative.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    return new Reply(
        200, CONTENT_TYPES.getOrDefault(extension, "application/octet-stream"), bytes, Map.of());
  }

  private static byte[] resource(String name) {
    try (InputStream in = ApiServer.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new Refusal(404, "no such resource: " + name, null);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void send(HttpExchange exchange, Reply reply) throws IOException {
    try {
      exchange.getResponseHeaders().set("Content-Type", reply.type);
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      reply.headers.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
      boolean head = exchange.getRequestMethod().equals("HEAD");
      exchange.sendResponseHeaders(reply.status, head ? -1 : reply.body.length);
      if (!head) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(reply.body);
        }
      }
    } finally {
      exchange.close();
    }
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.replace('\n', ' ').replace('\r', ' ');
  }

  private static String abbreviate(String s) {
    return s.length() > 100 ? s.substring(0, 100) + "..." : s;
  }
}
