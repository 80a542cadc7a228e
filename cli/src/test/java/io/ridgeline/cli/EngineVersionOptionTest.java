package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.serving.efficiency.Profiles;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code --engine-version} of roofline, frontier and plan: a typed engine release ({@link
 * io.ridgeline.serving.efficiency.EngineRelease}); no engine offset is shipped, so the output says
 * that none applies and the estimate is the pooled one.
 */
final class EngineVersionOptionTest {
  private static final String NONE =
      "; engine vllm 0.6.5: no engine offset applies, the band is that of an unseen deployment";

  private static CliRun roofline8b(String... extra) {
    return CliRun.roofline8b(new String[] {"--context", "1024"}, extra);
  }

  /** The pooled description for {@code --engine vllm} with {@code clause} before the efficiency. */
  private static String pooledVllm(String clause) {
    return "calibrated: default profile, pooled: no engine has its own offsets yet, 'vllm'"
        + " included"
        + clause
        + " ("
        + Profiles.builtIn().forEngine(Profiles.DEFAULT).efficiency()
        + ")";
  }

  @Test
  void roofline_engineVersion_saysNoOffsetApplies_estimateUnchanged() throws Exception {
    CliRun r = roofline8b("--engine", "vllm", "--engine-version", "0.6.5", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().get("efficiency").asText()).isEqualTo(pooledVllm(NONE));
    CliRun family = roofline8b("--engine", "vllm", "--json");
    assertThat(family.json().get("efficiency").asText()).isEqualTo(pooledVllm(""));
    assertThat(r.json().get("decode_step_seconds").asDouble())
        .isEqualTo(family.json().get("decode_step_seconds").asDouble());
    // the text output's efficiency line says it too
    CliRun text = roofline8b("--engine", "vLLM", "--engine-version", " 0.6.5 ");
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out())
        .contains(
            "efficiency: calibrated: default profile, pooled: no engine has its own offsets yet,"
                + " 'vLLM' included"
                + NONE);
  }

  @Test
  void frontierAndPlan_engineVersion_accepted() throws Exception {
    CliRun f =
        CliRun.of(
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
            "16",
            "--engine",
            "vllm",
            "--engine-version",
            "0.6.5",
            "--json");
    assertThat(f.code()).as(f.err()).isZero();
    assertThat(f.json().get("efficiency").asText()).isEqualTo(pooledVllm(NONE));
    CliRun p =
        CliRun.of(
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
            "h100-sxm",
            "--engine",
            "vllm",
            "--engine-version",
            "0.6.5",
            "--json");
    assertThat(p.code()).as(p.err()).isZero();
    assertThat(p.out()).contains(NONE);
  }

  @Test
  void engineVersion_bad_oneLineErrorNamingOptionRuleAndValue() {
    for (List<String> args :
        List.of(
            List.of("--engine", "vllm", "--engine-version", "v0.6.5"),
            List.of("--engine-version", "0.6.5"),
            List.of("--engine", "vllm", "--engine-version", "0.6.5", "--efficiency", "ideal"),
            List.of("--engine", "my engine", "--engine-version", "0.6.5"))) {
      CliRun r = roofline8b(args.toArray(String[]::new));
      assertThat(r.code()).as(args.toString()).isNotZero();
      assertThat(r.out()).isEmpty();
      assertThat(r.err().lines().count()).as(r.err()).isEqualTo(1);
    }
    assertThat(roofline8b("--engine", "vllm", "--engine-version", "v0.6.5").err())
        .isEqualTo(
            "ridgeline: --engine-version must start with a digit followed by letters, digits,"
                + " '.', '-', '+' or '_' (e.g. 0.6.5): 'v0.6.5'\n");
    assertThat(roofline8b("--engine-version", "0.6.5").err())
        .isEqualTo(
            "ridgeline: --engine-version needs --engine NAME, the family the version belongs to:"
                + " '0.6.5'\n");
    assertThat(roofline8b("--engine-version", "0.6.5", "--efficiency", "ideal").err())
        .isEqualTo(
            "ridgeline: --engine-version needs --efficiency calibrated (or no --efficiency):"
                + " '0.6.5' with --efficiency ideal\n");
  }
}
