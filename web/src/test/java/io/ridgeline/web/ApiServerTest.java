package io.ridgeline.web;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.cli.RidgelineCli;
import io.ridgeline.hardware.Chips;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API over real HTTP on loopback ({@link HttpClient}): every endpoint answers what the command
 * line prints with {@code --json}, and every error class has its status and {@code {error, field}}
 * body.
 */
final class ApiServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private static ApiServer server;
  private static String base;

  @BeforeAll
  static void start() {
    server = new ApiServer();
    InetSocketAddress a = server.start("127.0.0.1", 0);
    base = "http://127.0.0.1:" + a.getPort();
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  /** What {@code ridgeline ARGS} prints on stdout (its exit status must be 0). */
  private static String cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RidgelineCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    assertThat(code).as("ridgeline %s: %s", String.join(" ", args), err).isZero();
    return out.toString();
  }

  static HttpResponse<String> get(String base, String path)
      throws IOException, InterruptedException {
    return CLIENT.send(
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60)).build(),
        HttpResponse.BodyHandlers.ofString(UTF_8));
  }

  static HttpResponse<String> post(String base, String path, String body)
      throws IOException, InterruptedException {
    return CLIENT.send(
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body, UTF_8))
            .build(),
        HttpResponse.BodyHandlers.ofString(UTF_8));
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return get(base, path);
  }

  private static HttpResponse<String> post(String path, String body) throws Exception {
    return post(base, path, body);
  }

  private static void assertJson(HttpResponse<String> r, String expected) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(r.body()).isEqualTo(expected);
  }

  private static void assertError(HttpResponse<String> r, int status, String field, String text)
      throws IOException {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode body = JSON.readTree(r.body());
    assertThat(body.path("error").asText()).contains(text);
    if (field == null) {
      assertThat(body.path("field").isNull()).as(r.body()).isTrue();
    } else {
      assertThat(body.path("field").asText()).isEqualTo(field);
    }
  }

  @Test
  void chipsAndModels_get_areTheCliJson() throws Exception {
    assertJson(get("/api/chips"), cli("chips", "--json"));
    assertJson(get("/api/models"), cli("models", "--json"));
  }

  @Test
  void frontier_mainJob_isTheGoldenJson() throws Exception {
    String body = "{\"model\":\"llama-3.1-70b\",\"chip\":\"h100-sxm\",\"count\":8}";
    HttpResponse<String> posted = post("/api/frontier", body);
    // the main job's golden output, as .ci/golden.sh records `frontier ... --json`
    assertJson(posted, Files.readString(Path.of("../.ci/golden/frontier-main.json"), UTF_8));
    assertJson(
        get("/api/frontier?model=llama-3.1-70b&chip=h100-sxm&count=8"),
        cli(
            "frontier",
            "--model",
            "llama-3.1-70b",
            "--chip",
            "h100-sxm",
            "--count",
            "8",
            "--json"));
  }

  @Test
  void commands_post_areTheCliJson() throws Exception {
    assertJson(
        post(
            "/api/roofline",
            "{\"model\":\"llama-3.1-8b\",\"chip\":\"h100-sxm\",\"batch\":1,\"context\":1024}"),
        cli(
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--context",
            "1024",
            "--json"));
    assertJson(
        post(
            "/api/plan",
            "{\"model\":\"llama-3.1-70b\",\"isl\":1024,\"osl\":256,\"rate\":10,\"ttft\":0.5,"
                + "\"tpot\":0.05,\"chips\":[\"h100-sxm\",\"b200\"]}"),
        cli(
            "plan",
            "--model",
            "llama-3.1-70b",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--rate",
            "10",
            "--ttft",
            "0.5",
            "--tpot",
            "0.05",
            "--chips",
            "h100-sxm,b200",
            "--json"));
    assertJson(
        post(
            "/api/crossover",
            "{\"model\":\"llama-3.1-8b\",\"chip\":\"h100-sxm\",\"batch\":64,"
                + "\"efficiency\":\"ideal\"}"),
        cli(
            "crossover",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "64",
            "--efficiency",
            "ideal",
            "--json"));
    assertJson(
        post(
            "/api/intensity",
            "{\"model\":\"llama-3.1-8b\",\"chip\":\"h100-sxm\",\"batches\":[1,8,64]}"),
        cli(
            "intensity",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batches",
            "1,8,64",
            "--json"));
  }

  @Test
  void frontier_severalSystemsFlagsAndRepeatedOptions_areTheCliJson() throws Exception {
    // an array for a list option (--chip) is joined; a repeatable one (--chip-set) repeated; true
    // sets a flag and false leaves it out
    String body =
        "{\"model\":\"llama-3.1-8b\",\"chip\":[\"h100-sxm\",\"h100-sxm*\"],\"isl\":512,"
            + "\"chip-set\":[\"h100-sxm:bandwidth_gbps=2x\",\"h100-sxm:tdp_w=800\"],"
            + "\"eager-decode\":true,\"synchronous-scheduler\":false}";
    assertJson(
        post("/api/frontier", body),
        cli(
            "frontier",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm,h100-sxm*",
            "--isl",
            "512",
            "--chip-set",
            "h100-sxm:bandwidth_gbps=2x",
            "--chip-set",
            "h100-sxm:tdp_w=800",
            "--eager-decode",
            "--json"));
    assertJson(
        get(
            "/api/frontier?model=llama-3.1-8b&chip=h100-sxm,h100-sxm*&isl=512"
                + "&chip-set=h100-sxm:bandwidth_gbps%3D2x&chip-set=h100-sxm:tdp_w%3D800"
                + "&eager-decode=true"),
        cli(
            "frontier",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm,h100-sxm*",
            "--isl",
            "512",
            "--chip-set",
            "h100-sxm:bandwidth_gbps=2x",
            "--chip-set",
            "h100-sxm:tdp_w=800",
            "--eager-decode",
            "--json"));
  }

  @Test
  void postedChipAndModel_areUsedForTheRequestOnly() throws Exception {
    // the catalog's H100 re-read under another id, and Llama-3.1-8B's shape as a config.json
    ObjectNode chip = (ObjectNode) JSON.readTree(Chips.toJson(Chips.H100_SXM));
    chip.put("id", "my-npu");
    chip.put("name", "My NPU");
    ObjectNode config = JSON.createObjectNode();
    config.put("model_type", "llama");
    config.put("hidden_size", 4096);
    config.put("intermediate_size", 14336);
    config.put("num_hidden_layers", 32);
    config.put("num_attention_heads", 32);
    config.put("num_key_value_heads", 8);
    config.put("vocab_size", 128256);
    config.put("max_position_embeddings", 131072);
    ObjectNode body = JSON.createObjectNode();
    body.put("model", "my-llama");
    body.put("chip", "my-npu");
    body.putArray("chip_files").add(chip);
    body.putObject("model_configs").set("my-llama", config);
    HttpResponse<String> r = post("/api/frontier", body.toString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode out = JSON.readTree(r.body());
    assertThat(out.path("model").asText()).isEqualTo("my-llama");
    assertThat(out.path("chip").asText()).isEqualTo("my-npu");
    // the posted chip has the catalog chip's figures: the same step times
    body.put("model", "llama-3.1-8b");
    JsonNode posted = JSON.readTree(post("/api/frontier", body.toString()).body());
    JsonNode catalog =
        JSON.readTree(
            post("/api/frontier", "{\"model\":\"llama-3.1-8b\",\"chip\":\"h100-sxm\"}").body());
    assertThat(posted.path("points").get(0).path("tpot_seconds").asDouble())
        .isPositive()
        .isEqualTo(catalog.path("points").get(0).path("tpot_seconds").asDouble());
    // held for that request only
    assertError(
        post("/api/frontier", "{\"model\":\"llama-3.1-8b\",\"chip\":\"my-npu\"}"),
        400,
        "chip",
        "unknown chip 'my-npu'");
  }

  @Test
  void openApi_describesEveryEndpoint() throws Exception {
    HttpResponse<String> r = get("/api/openapi.json");
    assertThat(r.statusCode()).isEqualTo(200);
    JsonNode doc = JSON.readTree(r.body());
    assertThat(doc.path("openapi").asText()).startsWith("3.");
    List<String> paths = new ArrayList<>();
    doc.path("paths").fieldNames().forEachRemaining(paths::add);
    List<String> expected = new ArrayList<>(List.of("/", "/api/chips", "/api/models"));
    expected.add("/api/openapi.json");
    for (String c : ApiServer.COMMANDS) {
      expected.add("/api/" + c);
      assertThat(doc.path("paths").path("/api/" + c).has("post")).isTrue();
      assertThat(doc.path("paths").path("/api/" + c).path("post").path("responses").has("422"))
          .isTrue();
    }
    assertThat(paths).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void warnings_comeBackInAHeader() throws Exception {
    // llama-2-7b's context window is 4,096 tokens: a context of 8,192 is warned about on stderr
    HttpResponse<String> r =
        get("/api/roofline?model=llama-2-7b&chip=h100-sxm&batch=1&context=8192");
    assertJson(
        r,
        cli(
            "roofline",
            "--model",
            "llama-2-7b",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--context",
            "8192",
            "--json"));
    JsonNode warnings = JSON.readTree(r.headers().firstValue("X-Ridgeline-Warnings").orElseThrow());
    assertThat(warnings.isArray()).isTrue();
    assertThat(warnings.get(0).asText())
        .startsWith(
            "warning: llama-2-7b: a sequence of 8,192 tokens is longer than its context"
                + " window of 4,096 tokens");
    assertThat(
            get("/api/roofline?model=llama-2-7b&chip=h100-sxm&batch=1&context=1024")
                .headers()
                .firstValue("X-Ridgeline-Warnings"))
        .isEmpty();
  }

  @Test
  void openApi_everyExampleBody_isAnswered() throws Exception {
    JsonNode doc = JSON.readTree(get("/api/openapi.json").body());
    for (String c : ApiServer.COMMANDS) {
      JsonNode example =
          doc.path("paths")
              .path("/api/" + c)
              .path("post")
              .path("requestBody")
              .path("content")
              .path("application/json")
              .path("example");
      assertThat(example.isObject()).as(c).isTrue();
      HttpResponse<String> r = post("/api/" + c, example.toString());
      assertThat(r.statusCode()).as(c + ": " + r.body()).isEqualTo(200);
    }
  }

  @Test
  void page_isServedFromTheJar() throws Exception {
    HttpResponse<String> r = get("/");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    assertThat(r.body()).contains("<html");
    assertThat(get("/index.html").body()).isEqualTo(r.body());
  }

  @Test
  void badOptionsAndValues_get400NamingTheField() throws Exception {
    assertError(
        get("/api/frontier?model=llama-3.1-70b&chip=h100-sxm&count=x"),
        400,
        "count",
        "Invalid value for option '--count': 'x' is not an int");
    assertError(
        post("/api/frontier", "{\"model\":\"llama-3.1-70b\",\"chip\":\"h100-sxm\",\"isl\":0}"),
        400,
        "isl",
        "--isl must be positive: 0");
    assertError(
        post("/api/roofline", "{\"model\":\"llama-3.1-8b\",\"batch\":1,\"context\":1024}"),
        400,
        "chip",
        "give --chip CHIP");
    assertError(
        post("/api/frontier", "{\"model\":\"llama-3.1-70b\",\"chip\":\"h100-sxmm\"}"),
        400,
        "chip",
        "unknown chip 'h100-sxmm'; did you mean 'h100-sxm'?");
    assertError(
        post("/api/frontier", "{\"model\":\"llama-3.1-70b\",\"chip\":\"h100-sxm\",\"nope\":1}"),
        400,
        "nope",
        "Unknown option: '--nope=1'");
    assertError(
        post("/api/frontier", "{\"model\":\"x\",\"chip\":\"h100-sxm\",\"plot\":\"f.png\"}"),
        400,
        "plot",
        "--plot is not available over HTTP");
    assertError(
        post(
            "/api/frontier",
            "{\"model\":\"llama-3.1-8b\",\"chip\":\"h100-sxm\",\"eager-decode\":2}"),
        400,
        "eager-decode",
        "--eager-decode is a flag");
    assertError(
        post("/api/frontier", "{\"model\":{\"a\":1},\"chip\":\"h100-sxm\"}"),
        400,
        "model",
        "--model takes a string");
    assertError(post("/api/frontier", "[1]"), 400, null, "must be a JSON object");
    assertError(post("/api/frontier", "{\"model\":"), 400, null, "not valid JSON");
  }

  @Test
  void filesAreNeverRead_postedFilesAreChecked() throws Exception {
    assertError(
        post("/api/frontier", "{\"model\":\"/etc/hostname\",\"chip\":\"h100-sxm\"}"),
        400,
        "model",
        "no file is read here");
    assertError(
        post("/api/frontier", "{\"model\":\"llama-3.1-8b\",\"chip\":\"../chip.json\"}"),
        400,
        "chip",
        "no file is read here");
    assertError(
        post(
            "/api/frontier",
            "{\"model\":\"llama-3.1-8b\",\"chip\":\"x\",\"chip_files\":[{\"id\":\"x\"}]}"),
        400,
        "chip_files",
        "chip_files[0]: name is required but missing");
    assertError(
        post(
            "/api/frontier",
            "{\"model\":\"m\",\"chip\":\"h100-sxm\",\"model_configs\":{\"m\":{\"model_type\":"
                + "\"llama\"}}}"),
        400,
        "model_configs",
        "model_configs.m");
    assertError(
        post("/api/frontier", "{\"model\":\"m\",\"chip\":\"h100-sxm\",\"chip_files\":3}"),
        400,
        "chip_files",
        "chip_files must be an array");
  }

  @Test
  void unknownPathsAndMethods_get404And405() throws Exception {
    assertError(get("/api/nope"), 404, null, "no such endpoint: /api/nope");
    assertError(get("/nope.html"), 404, null, "no such page");
    assertError(get("/../pom.xml"), 404, null, "no such page");
    HttpResponse<String> r =
        CLIENT.send(
            HttpRequest.newBuilder(URI.create(base + "/api/chips")).DELETE().build(),
            HttpResponse.BodyHandlers.ofString(UTF_8));
    assertError(r, 405, null, "method DELETE is not allowed here; use GET");
    assertThat(r.headers().firstValue("Allow")).hasValue("GET");
    assertError(post("/api/chips", "{}"), 405, null, "use GET");
  }

  @Test
  void bodyOverTheLimit_gets413() throws Exception {
    // 1,000,001 bytes: one over the default limit
    String big = "{\"model\":\"" + "x".repeat(1_000_001 - 12) + "\"}";
    assertThat(big.length()).isEqualTo(1_000_001);
    assertError(post("/api/frontier", big), 413, null, "larger than the limit of 1000000 bytes");
  }

  @Test
  void gridOverTheLimits_gets422() throws Exception {
    assertError(
        get(
            "/api/frontier?model=llama-3.1-8b&chip=h100-sxm,b200,h200-sxm,mi300x,l4,l40s,b300,gh200,h20"),
        422,
        "chip",
        "--chip names 9 chips; the API takes at most 8 per request");
    // --system counts each spec, commas inside a spec included: nine specs are refused
    StringBuilder specs = new StringBuilder();
    for (int i = 1; i <= 9; i++) {
      specs.append(specs.length() == 0 ? "" : ",").append("\"h100-sxm:").append(i).append('"');
    }
    assertError(
        post("/api/frontier", "{\"model\":\"llama-3.1-8b\",\"system\":[" + specs + "]}"),
        422,
        "system",
        "--system names 9 systems; the API takes at most 8 per request");
    List<Integer> batches = new ArrayList<>();
    for (int b = 1; b <= 65; b++) {
      batches.add(b);
    }
    assertError(
        post(
            "/api/intensity",
            "{\"model\":\"llama-3.1-8b\",\"chip\":\"h100-sxm\",\"batches\":" + batches + "}"),
        422,
        "batches",
        "--batches lists 65 batch sizes");
  }

  @Test
  void requestPastTheTimeLimit_gets503() throws Exception {
    // a limit of 1 ms: no frontier of every strategy is computed that fast
    ApiServer slow = new ApiServer(new ApiServer.Settings(1_000_000, Duration.ofMillis(1), 1, 4));
    String url = "http://127.0.0.1:" + slow.start("127.0.0.1", 0).getPort();
    try {
      HttpResponse<String> r =
          post(
              url,
              "/api/frontier",
              "{\"model\":\"deepseek-v3\",\"chip\":\"b200\",\"strategy\":\"all\"}");
      assertError(r, 503, null, "took longer than the limit of 0.001 s per request");
      assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
    } finally {
      slow.stop();
    }
  }

  @Test
  void saturatedServer_gets503AndAnswersTheRest() throws Exception {
    // one worker, no queue: of eight requests sent at once, the ones that find it busy get 503
    ApiServer busy = new ApiServer(new ApiServer.Settings(1_000_000, Duration.ofSeconds(60), 1, 0));
    String url = "http://127.0.0.1:" + busy.start("127.0.0.1", 0).getPort();
    try {
      List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        sent.add(
            CLIENT.sendAsync(
                HttpRequest.newBuilder(URI.create(url + "/api/frontier"))
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"model\":\"deepseek-v3\",\"chip\":\"b200\",\"strategy\":\"all\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString(UTF_8)));
      }
      int ok = 0;
      int refused = 0;
      for (CompletableFuture<HttpResponse<String>> f : sent) {
        HttpResponse<String> r = f.get();
        if (r.statusCode() == 503) {
          assertError(r, 503, null, "the server is busy (1 requests running, 0 waiting)");
          refused++;
        } else {
          assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
          ok++;
        }
      }
      assertThat(ok).isPositive();
      assertThat(refused).isPositive();
      assertThat(ok + refused).isEqualTo(8);
    } finally {
      busy.stop();
    }
  }

  @Test
  void field_isTheOptionTheMessageNames() {
    assertThat(OptionArguments.field("--isl must be positive: 0")).isEqualTo("isl");
    assertThat(OptionArguments.field("Missing required option: '--chip=<chip>'")).isEqualTo("chip");
    assertThat(OptionArguments.field("chip_files[2]: memory[0].bandwidth_gbps must be positive"))
        .isEqualTo("chip_files");
    assertThat(OptionArguments.field("model_configs.m: hidden_size is required"))
        .isEqualTo("model_configs");
    assertThat(OptionArguments.field("something else")).isNull();
  }
}
