package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.serving.Deployment;
import org.junit.jupiter.api.Test;

/** Every list of strategy ids the CLI prints covers {@link Deployment.Strategy#values()}. */
class StrategyIdsTest {
  @Test
  void frontierHelp_strategyOption_namesEveryStrategy() {
    CliRun r = CliRun.of("frontier", "--help");
    assertThat(r.code()).isZero();
    for (Deployment.Strategy s : Deployment.Strategy.values()) {
      assertThat(r.out()).contains(s.id());
    }
  }

  @Test
  void frontier_unknownStrategy_listsTheIdsOfValues() {
    CliRun r =
        CliRun.of(
            "frontier",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--strategy",
            "tp",
            "--json");
    assertThat(r.code()).isNotZero();
    assertThat(r.lastErrLine())
        .isEqualTo("ridgeline: unknown strategy 'tp'; known: " + Deployment.Strategy.ids());
  }

  @Test
  void plan_emptyStrategies_listsEveryStrategy() {
    CliRun r =
        CliRun.of(
            "plan",
            "--model",
            "llama-3.1-8b",
            "--chips",
            "h100-sxm",
            "--isl",
            "1024",
            "--osl",
            "256",
            "--rate",
            "1",
            "--ttft",
            "1",
            "--tpot",
            "0.1",
            "--strategies",
            " ");
    assertThat(r.lastErrLine())
        .isEqualTo("ridgeline: --strategies must name at least one of static, colocated, pd, afd");
  }
}
