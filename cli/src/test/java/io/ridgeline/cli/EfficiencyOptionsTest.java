package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.EngineProfile;
import io.ridgeline.serving.efficiency.Profiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --efficiency ideal|calibrated}, {@code --engine} and {@code --profile} of roofline,
 * frontier, crossover, intensity, plan and sweep. Expected values come from {@link
 * Profiles#builtIn()} at run time, never from pinned profile numbers (the profiles get refitted).
 */
final class EfficiencyOptionsTest {

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }

  /** roofline for llama-3.1-8b on one H100, batch 1, context 1024, JSON, plus {@code extra}. */
  private static CliRun roofline8b(String... extra) {
    return CliRun.roofline8b(new String[] {"--context", "1024", "--json"}, extra);
  }

  /** frontier for llama-3.1-8b on one H100, ISL 256, OSL 64, batches to 16, plus {@code extra}. */
  private static CliRun frontier8b(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "frontier",
                "--model",
                "llama-3.1-8b",
                "--chip",
                "h100-sxm",
                "--isl",
                "256",
                "--osl",
                "64",
                "--max-batch",
                "16"));
    args.addAll(List.of(extra));
    return run(args.toArray(String[]::new));
  }

  private static CliRun plan8b(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "plan",
                "--model",
                "llama-3.1-8b",
                "--isl",
                "1024",
                "--osl",
                "256",
                "--rate",
                "10",
                "--ttft",
                "1",
                "--tpot",
                "0.1",
                "--chips",
                "h100-sxm"));
    args.addAll(List.of(extra));
    return run(args.toArray(String[]::new));
  }

  /** What the JSON {@code efficiency} field says for built-in profile {@code name}. */
  private static String builtIn(String name) {
    EngineProfile p = Profiles.builtIn().forEngine(name);
    assertThat(p.name()).isEqualTo(name);
    return "calibrated: " + name + " profile (" + p.efficiency() + ")";
  }

  /**
   * What the JSON {@code efficiency} field says for {@code --engine engine}, which the built-in
   * profiles do not list: the pooled default profile, and why.
   */
  private static String pooled(String engine) {
    return "calibrated: default profile, pooled: no engine has its own offsets yet, '"
        + engine
        + "' included ("
        + Profiles.builtIn().forEngine(Profiles.DEFAULT).efficiency()
        + ")";
  }

  /** The decode step of llama-3.1-8b on one H100 at batch 1, context 1024, at {@code e}. */
  private static double decodeSeconds(Efficiency e) {
    return RooflineModel.builder()
        .model(Models.byId("llama-3.1-8b"))
        .chip(Chips.byId("h100-sxm"))
        .efficiency(e)
        .build()
        .decode(1, 1024)
        .seconds()
        .seconds();
  }

  private static List<String> keys(JsonNode o) {
    List<String> keys = new ArrayList<>();
    o.fieldNames().forEachRemaining(keys::add);
    return keys;
  }

  private static void assertOneLineError(CliRun r, String message) {
    assertThat(r.code()).as(r.out()).isNotZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("ridgeline: " + message + "\n");
  }

  @Test
  void roofline_default_isCalibratedWithTheDefaultProfile_slowerThanIdeal() throws Exception {
    CliRun calibrated = roofline8b();
    CliRun ideal = roofline8b("--efficiency", "ideal");
    assertThat(calibrated.code()).as(calibrated.err()).isZero();
    assertThat(ideal.code()).as(ideal.err()).isZero();
    assertThat(calibrated.json().get("efficiency").asText()).isEqualTo(builtIn("default"));
    assertThat(ideal.json().get("efficiency").asText()).isEqualTo("ideal");
    double calibratedStep = calibrated.json().get("decode_step_seconds").asDouble();
    double idealStep = ideal.json().get("decode_step_seconds").asDouble();
    assertThat(calibratedStep).isGreaterThan(idealStep);
    assertThat(calibratedStep)
        .isEqualTo(decodeSeconds(Profiles.builtIn().forEngine("default").efficiency()));
    assertThat(idealStep).isEqualTo(decodeSeconds(Efficiency.ideal()));
    // the same keys either way
    // calibrated adds its error band and the warnings for what the fit never saw
    assertThat(keys(calibrated.json()))
        .containsExactlyInAnyOrderElementsOf(withBand(keys(ideal.json())));
    // --efficiency calibrated is the default, spelled out
    assertThat(roofline8b("--efficiency", "calibrated").json()).isEqualTo(calibrated.json());
  }

  @Test
  void roofline_text_headerNamesTheEfficiency() {
    CliRun calibrated =
        run(
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--context",
            "1024");
    assertThat(calibrated.code()).as(calibrated.err()).isZero();
    assertThat(calibrated.out().lines().toList().get(1))
        .isEqualTo(
            "efficiency: " + builtIn("default") + "; --efficiency ideal for the roofline bound");
    CliRun ideal =
        run(
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--context",
            "1024",
            "--efficiency",
            "ideal");
    assertThat(ideal.out().lines().toList().get(1))
        .isEqualTo(
            "efficiency: ideal (100% of peak and bandwidth, no overheads: the roofline bound)");
  }

  @Test
  void frontier_default_isCalibrated_everyPointSlowerThanIdeal() throws Exception {
    CliRun calibrated = frontier8b("--json");
    CliRun ideal = frontier8b("--json", "--efficiency", "ideal");
    assertThat(calibrated.code()).as(calibrated.err()).isZero();
    assertThat(ideal.code()).as(ideal.err()).isZero();
    assertThat(calibrated.json().get("efficiency").asText()).isEqualTo(builtIn("default"));
    assertThat(ideal.json().get("efficiency").asText()).isEqualTo("ideal");
    Map<Integer, JsonNode> idealByBatch = new HashMap<>();
    ideal.json().get("points").forEach(p -> idealByBatch.put(p.get("batch").asInt(), p));
    assertThat(calibrated.json().get("points")).hasSize(5);
    for (JsonNode p : calibrated.json().get("points")) {
      JsonNode i = idealByBatch.get(p.get("batch").asInt());
      assertThat(i).as("batch %s", p.get("batch")).isNotNull();
      assertThat(p.get("tpot_seconds").asDouble()).isGreaterThan(i.get("tpot_seconds").asDouble());
      assertThat(p.get("ttft_seconds").asDouble()).isGreaterThan(i.get("ttft_seconds").asDouble());
    }
  }

  @Test
  void frontier_text_headerNamesTheProfile(@TempDir Path dir) {
    CliRun r = frontier8b("--plot", dir.resolve("f.png").toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out().lines().toList().get(1))
        .isEqualTo(
            "efficiency: " + builtIn("default") + "; --efficiency ideal for the roofline bound");
  }

  @Test
  void frontier_pdAndAfd_everyPoolCarriesTheProfile() throws Exception {
    Efficiency e = Profiles.builtIn().forEngine("vllm").efficiency();
    for (String strategy : new String[] {"pd", "afd"}) {
      CliRun r =
          run(
              "frontier",
              "--model",
              "llama-3.1-70b",
              "--chip",
              "h100-sxm",
              "--count",
              "4",
              "--max-batch",
              "4",
              "--strategy",
              strategy,
              "--engine",
              "vllm",
              "--json");
      assertThat(r.code()).as(r.err()).isZero();
      assertThat(r.json().get("efficiency").asText()).isEqualTo(pooled("vllm"));
      String deployment = r.json().get("deployments").get(0).asText();
      // every pool's description ends with the efficiency: pd has two pools, afd three
      assertThat(deployment.split(java.util.regex.Pattern.quote(e + ")"), -1))
          .as(deployment)
          .hasSize(strategy.equals("afd") ? 4 : 3);
    }
  }

  @Test
  void engine_vllm_usesThePooledProfileAndSaysWhy() throws Exception {
    // the built-in profiles are the pooled default alone: vllm computes as default does
    CliRun r = roofline8b("--engine", "vllm");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(Profiles.builtIn().profiles().keySet()).containsExactly(Profiles.DEFAULT);
    assertThat(r.json().get("efficiency").asText()).isEqualTo(pooled("vllm"));
    assertThat(r.json().get("decode_step_seconds").asDouble())
        .isEqualTo(roofline8b().json().get("decode_step_seconds").asDouble())
        .isEqualTo(decodeSeconds(Profiles.builtIn().forEngine(Profiles.DEFAULT).efficiency()));
    // the default profile, named in any case, is the default profile with nothing to explain
    assertThat(roofline8b("--engine", "Default").json().get("efficiency").asText())
        .isEqualTo(builtIn("default"));
  }

  @Test
  void engine_withoutProfile_fallsBackToDefaultAndSaysSo() throws Exception {
    CliRun r = roofline8b("--engine", "my-engine");
    assertThat(r.code()).as(r.err()).isZero();
    EngineProfile d = Profiles.builtIn().forEngine(Profiles.DEFAULT);
    assertThat(r.json().get("efficiency").asText()).isEqualTo(pooled("my-engine"));
    assertThat(r.json().get("decode_step_seconds").asDouble())
        .isEqualTo(decodeSeconds(d.efficiency()));
  }

  @Test
  void profileFile_isLoaded_andEngineChoosesWithinIt(@TempDir Path dir) throws Exception {
    Efficiency half = Efficiency.of(0.5, 0.5, 0.5);
    Efficiency quarter = Efficiency.of(0.25, 0.25, 0.25);
    Path file = dir.resolve("profile.json");
    Profiles.of(
            List.of(
                new EngineProfile("default", half, "test"),
                new EngineProfile("vllm", quarter, "test")))
        .write(file);
    CliRun r = roofline8b("--profile", file.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().get("efficiency").asText())
        .isEqualTo("calibrated: default profile of " + file + " (" + half + ")");
    assertThat(r.json().get("decode_step_seconds").asDouble()).isEqualTo(decodeSeconds(half));
    CliRun v = roofline8b("--profile", file.toString(), "--engine", "vllm");
    assertThat(v.json().get("efficiency").asText())
        .isEqualTo("calibrated: vllm profile of " + file + " (" + quarter + ")");
    assertThat(v.json().get("decode_step_seconds").asDouble()).isEqualTo(decodeSeconds(quarter));
    // names match ignoring case; a name the file does not list falls back to its default
    assertThat(roofline8b("--profile", file.toString(), "--engine", "VLLM").json())
        .isEqualTo(v.json());
    assertThat(
            roofline8b("--profile", file.toString(), "--engine", "sglang")
                .json()
                .get("efficiency")
                .asText())
        .isEqualTo(
            "calibrated: default profile of " + file + ", no 'sglang' profile (" + half + ")");
    // --efficiency calibrated with --profile is fine too
    assertThat(roofline8b("--profile", file.toString(), "--efficiency", "calibrated").json())
        .isEqualTo(r.json());
  }

  @Test
  void profileFile_missingOrMalformed_oneLineError(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("nope.json");
    CliRun r = roofline8b("--profile", missing.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("ridgeline: " + missing + ": no such file\n");
    assertThat(r.err().strip().lines().count()).isEqualTo(1);
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"profiles\": {}}", StandardCharsets.UTF_8);
    CliRun b = roofline8b("--profile", bad.toString());
    assertThat(b.code()).isEqualTo(1);
    assertThat(b.err()).startsWith("ridgeline: " + bad + ": field 'profiles.default' is missing");
    assertThat(b.err().strip().lines().count()).isEqualTo(1);
  }

  @Test
  void efficiencyBogus_oneLineNamingOptionAndValue_everyCommand(@TempDir Path dir)
      throws Exception {
    String message = "--efficiency must be 'ideal' or 'calibrated': 'bogus'";
    assertOneLineError(roofline8b("--efficiency", "bogus"), message);
    assertOneLineError(frontier8b("--efficiency", "bogus", "--json"), message);
    assertOneLineError(plan8b("--efficiency", "bogus"), message);
    assertOneLineError(
        run("crossover", "--model", "llama-3.1-8b", "--chip", "h100-sxm", "--efficiency", "bogus"),
        message);
    assertOneLineError(
        run("intensity", "--model", "llama-3.1-8b", "--chip", "h100-sxm", "--efficiency", "bogus"),
        message);
    Path grid = dir.resolve("grid.json");
    Files.writeString(grid, "{\"batch\": [1, 2]}", StandardCharsets.UTF_8);
    assertOneLineError(run("sweep", "--grid", grid.toString(), "--efficiency", "bogus"), message);
  }

  @Test
  void profileOrEngineWithIdeal_oneLineError(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("profile.json");
    Profiles.builtIn().write(file);
    String profileMessage =
        "--profile needs --efficiency calibrated (or no --efficiency): '"
            + file
            + "' with --efficiency ideal";
    assertOneLineError(
        roofline8b("--profile", file.toString(), "--efficiency", "ideal"), profileMessage);
    assertOneLineError(
        frontier8b("--efficiency", "ideal", "--profile", file.toString()), profileMessage);
    assertOneLineError(
        plan8b("--efficiency", "ideal", "--profile", file.toString()), profileMessage);
    Path grid = dir.resolve("grid.json");
    Files.writeString(grid, "{\"batch\": 1}", StandardCharsets.UTF_8);
    assertOneLineError(
        run(
            "sweep",
            "--grid",
            grid.toString(),
            "--efficiency",
            "ideal",
            "--profile",
            file.toString()),
        profileMessage);
    assertOneLineError(
        roofline8b("--engine", "vllm", "--efficiency", "ideal"),
        "--engine needs --efficiency calibrated (or no --efficiency): 'vllm' with --efficiency ideal");
  }

  @Test
  void eagerDecode_hostLaunchesEveryDecodeKernel_calibratedOnly() throws Exception {
    // Llama-3.1-8B on one H100 at batch 1: the decode step's host is the profile's step work plus
    // its 291 kernels' eager launches (Efficiency#decodeHostSeconds); the step takes the longer of
    // that and the device's pass, which is the graphed step (or shorter, when the graphed step
    // waits on its own step work, which the eager host exceeds)
    Efficiency e = Profiles.builtIn().forEngine(Profiles.DEFAULT).efficiency();
    double host = e.stepOverhead().seconds() + 291 * e.prefillKernelOverhead().seconds();
    CliRun graphed = roofline8b();
    CliRun eager = roofline8b("--eager-decode");
    assertThat(eager.code()).as(eager.err()).isZero();
    assertThat(eager.json().get("efficiency").asText()).endsWith(", eager decode)");
    double graphStep = graphed.json().get("decode_step_seconds").asDouble();
    double eagerStep = eager.json().get("decode_step_seconds").asDouble();
    assertThat(host).isGreaterThan(e.stepOverhead().seconds());
    assertThat(eagerStep).isCloseTo(Math.max(graphStep, host), within(1e-12));
    // prefill passes launch eagerly either way
    assertThat(eager.json().get("prefill_seconds").asDouble())
        .isEqualTo(graphed.json().get("prefill_seconds").asDouble());
    assertOneLineError(
        roofline8b("--eager-decode", "--efficiency", "ideal"),
        "--eager-decode needs --efficiency calibrated (or no --efficiency): the roofline bound"
            + " launches no kernels");
  }

  @Test
  void synchronousScheduler_stepWorkAddsToEachPass_calibratedOnly() throws Exception {
    // Llama-3.1-8B on one H100 at batch 1: under the default overlap scheduler the decode step is
    // the longer of the device's pass and the profile's step work (the device's here); with a
    // synchronous scheduler the step work runs between passes: device + step work
    Efficiency e = Profiles.builtIn().forEngine(Profiles.DEFAULT).efficiency();
    CliRun overlap = roofline8b();
    CliRun sync = roofline8b("--synchronous-scheduler");
    assertThat(sync.code()).as(sync.err()).isZero();
    assertThat(sync.json().get("efficiency").asText()).endsWith(", synchronous scheduler)");
    double overlapStep = overlap.json().get("decode_step_seconds").asDouble();
    double syncStep = sync.json().get("decode_step_seconds").asDouble();
    assertThat(overlapStep).isGreaterThan(e.stepOverhead().seconds());
    assertThat(syncStep - overlapStep).isCloseTo(e.stepOverhead().seconds(), within(1e-12));
    CliRun both = roofline8b("--eager-decode", "--synchronous-scheduler");
    assertThat(both.code()).as(both.err()).isZero();
    assertThat(both.json().get("efficiency").asText())
        .endsWith(", eager decode, synchronous scheduler)");
    assertOneLineError(
        roofline8b("--synchronous-scheduler", "--efficiency", "ideal"),
        "--synchronous-scheduler needs --efficiency calibrated (or no --efficiency): the roofline"
            + " bound has no host scheduler");
  }

  @Test
  void plan_default_isCalibrated_idealOnRequest() throws Exception {
    CliRun calibrated = plan8b("--json", "--engine", "trtllm");
    assertThat(calibrated.code()).as(calibrated.err()).isZero();
    assertThat(calibrated.json().get("efficiency").asText()).isEqualTo(pooled("trtllm"));
    CliRun ideal = plan8b("--json", "--efficiency", "ideal");
    assertThat(ideal.code()).as(ideal.err()).isZero();
    assertThat(ideal.json().get("efficiency").asText()).isEqualTo("ideal");
    // the same keys either way
    // calibrated adds its error band and the warnings for what the fit never saw
    assertThat(keys(calibrated.json()))
        .containsExactlyInAnyOrderElementsOf(withBand(keys(ideal.json())));
    CliRun text = plan8b();
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out().lines().toList().get(1))
        .startsWith("searched h100-sxm with colocated, pd, afd (" + builtIn("default") + "): ");
    CliRun idealText = plan8b("--efficiency", "ideal");
    assertThat(idealText.out().lines().toList().get(1))
        .startsWith("searched h100-sxm with colocated, pd, afd (ideal roofline bounds): ");
  }

  @Test
  void sweep_default_isCalibrated_stderrSaysSo_rowsSlowerThanIdeal(@TempDir Path dir)
      throws Exception {
    Path grid = dir.resolve("grid.json");
    Files.writeString(
        grid, "{\"strategy\": [\"colocated\", \"pd\"], \"batch\": [1, 8]}", StandardCharsets.UTF_8);
    CliRun calibrated = run("sweep", "--grid", grid.toString());
    CliRun ideal = run("sweep", "--grid", grid.toString(), "--efficiency", "ideal");
    assertThat(calibrated.code()).as(calibrated.err()).isZero();
    assertThat(ideal.code()).as(ideal.err()).isZero();
    List<String> errLines = calibrated.err().strip().lines().toList();
    assertThat(errLines.get(errLines.size() - 3))
        .isEqualTo(
            "sweep: efficiency: "
                + builtIn("default")
                + "; --efficiency ideal for the roofline bound");
    assertThat(errLines.get(errLines.size() - 2)).startsWith("sweep: 4 points: 2 compiled, ");
    assertThat(errLines.get(errLines.size() - 1)).startsWith("sweep: 4 points in ");
    assertThat(ideal.err()).contains("sweep: efficiency: ideal (");
    List<String> c = calibrated.out().strip().lines().skip(1).toList();
    List<String> i = ideal.out().strip().lines().skip(1).toList();
    assertThat(c).hasSize(4);
    assertThat(i).hasSize(4);
    for (int k = 0; k < c.size(); k++) {
      String[] cc = c.get(k).split(",", -1);
      String[] ic = i.get(k).split(",", -1);
      // tpot_seconds, then ttft_seconds
      assertThat(Double.parseDouble(cc[12])).isGreaterThan(Double.parseDouble(ic[12]));
      assertThat(Double.parseDouble(cc[11])).isGreaterThan(Double.parseDouble(ic[11]));
    }
  }

  @Test
  void crossoverAndIntensity_shareTheOptions() throws Exception {
    CliRun crossover =
        run(
            "crossover",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--engine",
            "sglang",
            "--json");
    assertThat(crossover.code()).as(crossover.err()).isZero();
    assertThat(crossover.json().get("efficiency").asText()).isEqualTo(pooled("sglang"));
    CliRun intensity =
        run(
            "intensity",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batches",
            "1,8",
            "--json");
    assertThat(intensity.code()).as(intensity.err()).isZero();
    assertThat(intensity.json().get("efficiency").asText()).isEqualTo(builtIn("default"));
  }

  @Test
  void help_documentsTheOptionsAndTheCap() {
    for (String command : new String[] {"roofline", "frontier", "plan", "sweep"}) {
      CliRun r = run(command, "--help");
      assertThat(r.code()).isZero();
      assertThat(r.out().replaceAll("\\s+", " "))
          .as(command)
          .contains("--efficiency=MODE")
          .contains("--engine=NAME")
          .contains("--profile=FILE")
          .contains("calibrated (the pooled engine profile fitted on the shipped validation cases;")
          .contains("no engine has its own offsets yet")
          .contains("The profile's cap on running requests is not applied");
    }
  }

  /** {@code keys} and the two keys a calibrated estimate adds. */
  private static java.util.List<String> withBand(java.util.Collection<String> keys) {
    java.util.List<String> out = new java.util.ArrayList<>(keys);
    out.add("error_band");
    out.add("warnings");
    return out;
  }
}
