package io.ridgeline.web;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * The page in a real browser: headless Chromium driven by Selenium against an {@link ApiServer} on
 * loopback port 0. Needs the Debian packages {@code chromium} and {@code chromium-driver} (at
 * {@code /usr/bin}, or where the system properties {@code ridgeline.chromium} and {@code
 * ridgeline.chromedriver} say); without them every test is skipped with a message, unless the
 * system property {@code ridgeline.browser.required=true} is set ({@code .ci/run} sets it), when
 * they fail. Screenshots of each view go to {@code target/screenshots/}.
 */
final class PageTest {
  // the Debian packages' paths; system properties name others
  private static final Path CHROMIUM =
      Path.of(System.getProperty("ridgeline.chromium", "/usr/bin/chromium"));
  private static final Path CHROMEDRIVER =
      Path.of(System.getProperty("ridgeline.chromedriver", "/usr/bin/chromedriver"));
  private static final Path SHOTS = Path.of("target", "screenshots");
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ApiServer server;
  private static String base;
  private static ChromeDriver driver;
  private static Path downloads;

  @BeforeAll
  static void start() throws IOException {
    List<String> missing = new ArrayList<>();
    for (Path p : List.of(CHROMIUM, CHROMEDRIVER)) {
      if (!Files.isExecutable(p)) {
        missing.add(p.toString());
      }
    }
    if (!missing.isEmpty()) {
      String message =
          "browser tests need "
              + String.join(" and ", missing)
              + " (apt-get install chromium chromium-driver)";
      if (Boolean.getBoolean("ridgeline.browser.required")) {
        fail(message + "; ridgeline.browser.required is set");
      }
      // surefire counts a class skipped in @BeforeAll as no test run: say why in the log
      System.err.println("PageTest: " + message + "; skipped");
      assumeTrue(false, message + "; skipped");
    }
    server = new ApiServer();
    InetSocketAddress a = server.start("127.0.0.1", 0);
    base = "http://127.0.0.1:" + a.getPort();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1500,1400",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync");
    downloads = Files.createTempDirectory("ridgeline-downloads");
    options.setExperimentalOption(
        "prefs",
        Map.of(
            "download.default_directory",
            downloads.toString(),
            "download.prompt_for_download",
            false));
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    // the driver named outright: Selenium Manager (which may download one) never runs
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    driver = new ChromeDriver(service, options);
    Files.createDirectories(SHOTS);
  }

  @AfterAll
  static void stop() throws IOException {
    if (driver != null) {
      driver.quit();
    }
    if (server != null) {
      server.stop();
    }
    if (downloads != null) {
      try (Stream<Path> files = Files.list(downloads)) {
        for (Path f : files.collect(Collectors.toList())) {
          Files.delete(f);
        }
      }
      Files.delete(downloads);
    }
  }

  /** Polls COND every 50 ms until it holds, failing after {@link #WAIT}. */
  private static void await(BooleanSupplier cond) {
    long end = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try {
        if (cond.getAsBoolean()) {
          return;
        }
      } catch (WebDriverException e) {
        // an element replaced while read: try again
      }
      if (System.nanoTime() > end) {
        fail("timed out after " + WAIT + "; status: " + status());
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  private static String status() {
    return driver.findElement(By.id("status")).getText()
        + " | "
        + driver.findElement(By.id("err-view")).getText();
  }

  /** Opens the page afresh with the state in HASH and waits for its first answer. */
  private static void open(String hash) {
    driver.get("about:blank");
    driver.get(base + "/" + (hash.isEmpty() ? "" : "#" + hash));
    waitAnswered();
  }

  private static void waitAnswered() {
    await(
        () ->
            driver.findElement(By.id("status")).getText().contains("answered")
                || !driver.findElement(By.id("err-view")).getText().isEmpty());
  }

  private static String output() {
    return driver.findElement(By.id("output")).getAttribute("innerHTML");
  }

  /** Waits until the chart differs from BEFORE, after a control changed. */
  private static String waitChanged(String before) {
    await(() -> !output().equals(before));
    return output();
  }

  /**
   * Adds CHIP to the chips chosen, as Ctrl+click does (a WebDriver click on an option of a multiple
   * select replaces the choice), with the events a user's choice fires.
   */
  private static void addChip(String chip) {
    ((JavascriptExecutor) driver)
        .executeScript(
            "const o = document.querySelector(`#chips option[value='${arguments[0]}']`);"
                + " o.selected = true;"
                + " o.parentElement.dispatchEvent(new Event('input', {bubbles: true}));"
                + " o.parentElement.dispatchEvent(new Event('change', {bubbles: true}));",
            chip);
  }

  private static int points() {
    return driver.findElements(By.cssSelector("#output circle.pt")).size();
  }

  private static void shot(String name) throws IOException {
    File f = driver.getScreenshotAs(OutputType.FILE);
    Files.copy(f.toPath(), SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }

  /** The points of the API's frontier for BODY, over every system. */
  private static int apiPoints(String body) throws IOException, InterruptedException {
    JsonNode answer = JSON.readTree(ApiServerTest.post(base, "/api/frontier", body).body());
    JsonNode systems =
        answer.has("systems") ? answer.get("systems") : JSON.createArrayNode().add(answer);
    int n = 0;
    for (JsonNode s : systems) {
      n += s.get("points").size();
    }
    return n;
  }

  @Test
  void loadsWithoutConsoleErrorsAndDrawsTheApisPoints() throws Exception {
    open("");
    List<LogEntry> errors =
        driver.manage().logs().get(LogType.BROWSER).getAll().stream()
            .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue())
            .collect(Collectors.toList());
    assertThat(errors).as("console warnings and errors").isEmpty();
    int expected =
        apiPoints(
            "{\"model\": \"llama-3.1-70b\", \"chip\": [\"h100-sxm\"], \"count\": \"8\","
                + " \"strategy\": \"colocated\", \"isl\": \"1024\", \"osl\": \"1024\","
                + " \"efficiency\": \"calibrated\", \"cached\": \"0\"}");
    assertThat(expected).isGreaterThan(3);
    assertThat(points()).isEqualTo(expected);
    assertThat(driver.findElement(By.cssSelector("#output g.series")).getAttribute("data-series"))
        .isEqualTo("h100-sxm x8");

    // a point reached by the keyboard (Tab focus) or hovered shows its figures
    WebElement first = driver.findElement(By.cssSelector("#output circle.pt[data-batch='1']"));
    ((JavascriptExecutor) driver).executeScript("arguments[0].focus();", first);
    WebElement tip = driver.findElement(By.id("tooltip"));
    await(() -> tip.isDisplayed());
    assertThat(tip.getText())
        .contains("batch 1", "TTFT", "TPOT", "tok/s/user", "tok/s/chip", "per Mtok", "error band");
    shot("frontier");
  }

  @Test
  void changingTheChipOrTheIslChangesTheChart() throws Exception {
    open("");
    String before = output();
    int alone = points();
    addChip("b200");
    String two = waitChanged(before);
    assertThat(driver.findElements(By.cssSelector("#output g.series"))).hasSize(2);
    int expected =
        apiPoints(
            "{\"model\": \"llama-3.1-70b\", \"chip\": [\"h100-sxm\", \"b200\"], \"count\": 8}");
    assertThat(points()).isEqualTo(expected).isGreaterThan(alone);
    assertThat(driver.getCurrentUrl()).contains("chips=h100-sxm%2Cb200");

    WebElement isl = driver.findElement(By.id("isl"));
    isl.clear();
    isl.sendKeys("8192");
    waitChanged(two);
    waitAnswered();
    assertThat(driver.getCurrentUrl()).contains("isl=8192");
    shot("frontier-two-chips");

    // the URL holds the state: reloading it gives the same view
    String shown = output();
    String url = driver.getCurrentUrl();
    driver.get("about:blank");
    driver.get(url);
    await(() -> output().equals(shown));
    assertThat(driver.findElement(By.id("isl")).getAttribute("value")).isEqualTo("8192");
  }

  @Test
  void anUploadedChipIsAdded() throws Exception {
    open("");
    String before = output();
    Path acme = Path.of("..", "examples", "acme-npu.json").toAbsolutePath().normalize();
    driver.findElement(By.id("chip-file")).sendKeys(acme.toString());
    waitChanged(before);
    await(
        () ->
            !driver.findElements(By.cssSelector("#output g[data-series^='acme-npu-1']")).isEmpty());
    assertThat(driver.findElements(By.cssSelector("#chips option[value='acme-npu-1']"))).hasSize(1);
    assertThat(driver.findElements(By.cssSelector("#output circle.pt")).size()).isGreaterThan(1);
    assertThat(driver.findElement(By.id("err-chip")).getText()).isEmpty();
    shot("frontier-uploaded-chip");
  }

  @Test
  void anUploadedConfigJsonIsTheModel() throws Exception {
    open("");
    String before = output();
    Path dir = Files.createTempDirectory("ridgeline-page");
    Path config = dir.resolve("config.json");
    Files.copy(
        Path.of("..", "models/src/main/resources/io/ridgeline/models/configs/Qwen__Qwen3-8B.json"),
        config);
    driver.findElement(By.id("model-file")).sendKeys(config.toAbsolutePath().toString());
    waitChanged(before);
    await(() -> driver.findElement(By.id("status")).getText().contains("answered"));
    assertThat(driver.findElement(By.id("model")).getAttribute("value"))
        .isEqualTo("uploaded-model");
    assertThat(driver.findElement(By.id("err-model")).getText()).isEmpty();
    int expected =
        apiPoints(
            "{\"model\": \"uploaded-model\", \"chip\": \"h100-sxm\", \"count\": 8,"
                + " \"model_configs\": {\"uploaded-model\": "
                + Files.readString(config, UTF_8)
                + "}}");
    assertThat(points()).isEqualTo(expected);
    Files.delete(config);
    Files.delete(dir);
  }

  @Test
  void aBadUploadShowsTheErrorText() throws Exception {
    open("");
    Path dir = Files.createTempDirectory("ridgeline-page");
    Path notJson = dir.resolve("broken.json");
    Files.writeString(notJson, "{\"id\": \"x\",", UTF_8);
    driver.findElement(By.id("chip-file")).sendKeys(notJson.toString());
    WebElement err = driver.findElement(By.id("err-chip"));
    await(() -> !err.getText().isEmpty());
    assertThat(err.getText()).startsWith("broken.json is not JSON");

    // JSON the server refuses: its message, naming the field, beside the control
    Path negative = dir.resolve("negative.json");
    Files.writeString(
        negative,
        "{\"id\": \"bad-npu\", \"name\": \"Bad\", \"peak_tflops\": {\"bf16\": -5},"
            + " \"memory\": [{\"kind\": \"hbm\", \"capacity_gb\": 96, \"bandwidth_gbps\": 2400}]}",
        UTF_8);
    ((JavascriptExecutor) driver)
        .executeScript("arguments[0].value = '';", driver.findElement(By.id("chip-file")));
    driver.findElement(By.id("chip-file")).sendKeys(negative.toString());
    await(() -> err.getText().startsWith("negative.json: "));
    assertThat(err.getText()).contains("chip_files[0]", "bf16");
    assertThat(driver.findElements(By.cssSelector("#chips option[value='bad-npu']"))).isEmpty();
    assertThat(points()).isPositive();
    shot("upload-error");
    Files.delete(notJson);
    Files.delete(negative);
    Files.delete(dir);
  }

  @Test
  void rooflineAndPlanViewsRenderFromTheUrl() throws Exception {
    open("view=roofline&chips=h100-sxm");
    assertThat(driver.findElements(By.cssSelector("#output polyline.roof"))).hasSizeGreaterThan(0);
    assertThat(driver.findElements(By.cssSelector("#output table.phases tr")))
        .hasSizeGreaterThan(2);
    assertThat(points()).isPositive();
    shot("roofline");

    open("view=plan&chips=h100-sxm%2Cb200&ttft=500&tpot=50&rate=10");
    JsonNode plan =
        JSON.readTree(
            ApiServerTest.post(
                    base,
                    "/api/plan",
                    "{\"model\": \"llama-3.1-70b\", \"chips\": [\"h100-sxm\", \"b200\"],"
                        + " \"strategies\": \"colocated\", \"isl\": 1024, \"osl\": 1024,"
                        + " \"rate\": 10, \"ttft\": \"500ms\", \"tpot\": \"50ms\"}")
                .body());
    int rows = plan.get("configurations").size();
    assertThat(rows).isPositive();
    // one header row, then one per configuration
    assertThat(driver.findElements(By.cssSelector("#output table.plan tr"))).hasSize(rows + 1);
    assertThat(driver.findElement(By.cssSelector("#output table.plan")).getAttribute("textContent"))
        .contains("vllm serve");
    shot("plan");

    // the what-if slider: CHIP* beside CHIP on the frontier
    open("chips=h100-sxm&bw=2");
    assertThat(driver.findElements(By.cssSelector("#output g.series"))).hasSize(2);
    assertThat(driver.findElement(By.id("bw-out")).getText()).isEqualTo("2.00x");
    shot("frontier-what-if");
  }

  @Test
  void conversationTurnsFromTheUrl_eachPointSaysItsHitRate() throws Exception {
    // 8 turns of 512 + 256 tokens with 30 s of thinking: the points are the API's, and a point's
    // tooltip carries its prefix-cache hit rate (the point's note)
    open("model=llama-3.1-8b&chips=h100-sxm&count=1&isl=512&osl=256&turns=8&think=30");
    assertThat(status()).contains("answered");
    assertThat(driver.findElement(By.id("turns")).getAttribute("value")).isEqualTo("8");
    int expected =
        apiPoints(
            "{\"model\": \"llama-3.1-8b\", \"chip\": [\"h100-sxm\"], \"count\": \"1\","
                + " \"strategy\": \"colocated\", \"isl\": \"512\", \"osl\": \"256\","
                + " \"efficiency\": \"calibrated\", \"turns\": \"8\", \"think\": \"30s\"}");
    assertThat(points()).isEqualTo(expected);
    WebElement first = driver.findElement(By.cssSelector("#output circle.pt[data-batch='1']"));
    ((JavascriptExecutor) driver).executeScript("arguments[0].focus();", first);
    WebElement tip = driver.findElement(By.id("tooltip"));
    await(() -> tip.isDisplayed());
    assertThat(tip.getText()).contains("8-turn conversations", "found in the prefix cache");
    shot("frontier-conversations");
    // with a disaggregated strategy the API's one-line refusal is shown
    open("model=llama-3.1-8b&chips=h100-sxm&count=2&isl=512&osl=256&turns=8&strategy=pd");
    assertThat(status()).contains("colocated deployments only");
    // the refused request is the browser's one logged failure (reading the log empties it, so the
    // console check of another test sees only its own)
    assertThat(driver.manage().logs().get(LogType.BROWSER).getAll())
        .allSatisfy(e -> assertThat(e.getMessage()).contains("400 (Bad Request)"));
  }

  /** The one file in the download folder whose name ends with SUFFIX, once complete. */
  private static Path downloaded(String suffix) throws IOException {
    Path[] found = new Path[1];
    await(
        () -> {
          try (Stream<Path> files = Files.list(downloads)) {
            found[0] =
                files
                    .filter(f -> f.getFileName().toString().endsWith(suffix))
                    .findFirst()
                    .orElse(null);
            return found[0] != null && Files.size(found[0]) > 0;
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
    return found[0];
  }

  @Test
  void downloadsAreWhatIsShown() throws Exception {
    open("chips=h100-sxm%2Cb200");
    int shown = points();
    driver.findElement(By.id("dl-csv")).click();
    List<String> csv = Files.readAllLines(downloaded(".csv"), UTF_8);
    // a header, then one row per point drawn
    assertThat(csv).hasSize(shown + 1);
    assertThat(csv.get(0)).startsWith("system,strategy,deployment,batch,ttft_seconds");
    assertThat(csv.get(1)).startsWith("h100-sxm x8,colocated,colocated,1,");

    driver.findElement(By.id("dl-json")).click();
    JsonNode json = JSON.readTree(Files.readString(downloaded(".json"), UTF_8));
    assertThat(json.get("systems")).hasSize(2);

    driver.findElement(By.id("dl-svg")).click();
    String svg = Files.readString(downloaded(".svg"), UTF_8);
    assertThat(svg).startsWith("<svg").contains("circle");
    assertThat(svg.split("class=\"pt\"", -1)).hasSize(shown + 1);

    driver.findElement(By.id("dl-png")).click();
    byte[] png = Files.readAllBytes(downloaded(".png"));
    // the PNG signature: 0x89 'P' 'N' 'G'
    assertThat(png[0] & 0xff).isEqualTo(0x89);
    assertThat(new String(png, 1, 3, UTF_8)).isEqualTo("PNG");
  }

  @Test
  void everyRequestGoesToTheServersOwnOrigin() {
    open("");
    addChip("mi300x");
    await(() -> driver.findElements(By.cssSelector("#output g.series")).size() == 2);
    @SuppressWarnings("unchecked")
    List<String> urls =
        (List<String>)
            ((JavascriptExecutor) driver)
                .executeScript(
                    "return performance.getEntries()"
                        + ".filter(e => e.entryType === 'navigation' || e.entryType === 'resource')"
                        + ".map(e => e.name);");
    assertThat(urls).isNotEmpty().allMatch(u -> u.startsWith(base + "/"));
    assertThat(urls)
        .anyMatch(u -> u.endsWith("/app.js"))
        .anyMatch(u -> u.endsWith("/api/frontier"));
  }
}
