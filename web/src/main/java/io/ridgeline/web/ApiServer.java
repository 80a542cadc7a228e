package io.ridgeline.web;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static io.ridgeline.web.Refusal.abbreviate;
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
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
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
import java.util.regex.Pattern;

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

  // writes warnings into a header as ASCII (\\u escapes)
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

  private final OptionArguments arguments;

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
    this.arguments = new OptionArguments(COMMANDS);
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

  private void handle(HttpExchange exchange) throws IOException {
    Reply reply;
    try {
      reply = route(exchange);
    } catch (Refusal r) {
      reply = Reply.error(r.status, r.getMessage(), r.field);
      for (Map.Entry<String, String> h : r.headers.entrySet()) {
        reply = reply.with(h.getKey(), h.getValue());
      }
    } catch (RuntimeException e) {
      reply = Reply.error(500, "internal error: " + e.getClass().getSimpleName(), null);
    }
    reply.send(exchange);
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
      ObjectNode body = RequestReader.body(exchange, settings.maxBodyBytes());
      inputs = RequestReader.inputs(body);
      params = RequestReader.options(body);
    } else {
      params = RequestReader.query(exchange.getRequestURI().getRawQuery());
    }
    List<String> args = arguments.arguments(name, params);
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
      return Reply.error(500, message, null);
    }
    return Reply.error(400, message, OptionArguments.field(message, params));
  }

  private static String asciiJson(Object value) {
    try {
      return ASCII.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
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
}
