package io.ridgeline.serving.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ridgeline.core.Precision;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.SamePoints;
import io.ridgeline.serving.Sizing;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class SweepTest {
  private static final Model LLAMA_8B = Models.byId("llama-3.1-8b");
  private static final Model LLAMA_70B = Models.byId("llama-3.1-70b");
  private static final Chip H100 = Chips.byId("h100-sxm");
  private static final Chip H200 = Chips.byId("h200-sxm");

  private static List<Sweep.Row> rows(Sweep.Grid grid) {
    List<Sweep.Row> rows = new ArrayList<>();
    long n = Sweep.run(grid, rows::add);
    assertThat(n).isEqualTo(rows.size());
    return rows;
  }

  @Test
  void run_grid_rowCountIsProductOfListSizes() {
    Sweep.Grid grid =
        Sweep.Grid.builder()
            .models(LLAMA_8B, LLAMA_70B)
            .chips(H100, H200)
            .counts(4, 8)
            .strategies(Deployment.Strategy.COLOCATED, Deployment.Strategy.PD)
            .batches(1, 16, 256)
            .isls(1024, 8192)
            .build();
    // 2 models × 2 chips × 2 counts × 2 strategies × 3 batches × 2 ISLs = 96
    assertThat(grid.size()).isEqualTo(96);
    assertThat(rows(grid)).hasSize(96);
  }

  @Test
  void run_withEfficiency_everyPoolHasIt_standardByDefault() {
    Sweep.Grid grid =
        Sweep.Grid.builder()
            .models(LLAMA_70B)
            .counts(4)
            .strategies(
                Deployment.Strategy.COLOCATED, Deployment.Strategy.PD, Deployment.Strategy.AFD)
            .batches(1, 16)
            .build();
    Efficiency half = Efficiency.of(0.5, 0.5, 0.5);
    List<Sweep.Row> byDefault = rows(grid);
    List<Sweep.Row> standard = new ArrayList<>();
    Sweep.run(grid, Efficiency.standard(), standard::add);
    List<Sweep.Row> ideal = new ArrayList<>();
    Sweep.run(grid, Efficiency.ideal(), ideal::add);
    List<Sweep.Row> halved = new ArrayList<>();
    Sweep.run(grid, half, halved::add);
    assertThat(halved).hasSameSizeAs(ideal);
    for (int i = 0; i < ideal.size(); i++) {
      FrontierPoint p = ideal.get(i).point().orElseThrow();
      SamePoints.assertSamePoint(
          standard.get(i).point().orElseThrow(),
          byDefault.get(i).point().orElseThrow(),
          standard.get(i).toString());
      FrontierPoint h = halved.get(i).point().orElseThrow();
      assertThat(h.tpot().seconds()).as(halved.get(i).toString()).isGreaterThan(p.tpot().seconds());
      assertThat(h.ttft().seconds()).as(halved.get(i).toString()).isGreaterThan(p.ttft().seconds());
    }
    // the colocated row equals the point of a pool built with the efficiency
    RooflineModel pool =
        RooflineModel.builder()
            .model(LLAMA_70B)
            .chip(H100)
            .chips(4)
            .tensorParallel(4)
            .efficiency(half)
            .build();
    // compiled: equal to a relative 1e-12 (CompiledColocatedTest)
    SamePoints.assertSamePoint(
        halved.get(0).point().orElseThrow(),
        Deployment.of(Deployment.Strategy.COLOCATED, pool).point(1, 1024, 1024),
        "colocated row");
  }

  @Test
  void run_emptyBuilder_oneRowOfDefaults() {
    List<Sweep.Row> rows = rows(Sweep.Grid.builder().build());
    assertThat(rows).hasSize(1);
    Sweep.Row r = rows.get(0);
    assertThat(r.model().id()).isEqualTo("llama-3.1-8b");
    assertThat(r.chip().id()).isEqualTo("h100-sxm");
    assertThat(List.of(r.count(), r.tp(), r.ep(), r.batch(), r.isl(), r.osl()))
        .containsExactly(1, 1, 1, 1, 1024, 1024);
    assertThat(r.strategy()).isEqualTo(Deployment.Strategy.COLOCATED);
    assertThat(r.weights()).isEqualTo("bf16");
    assertThat(r.kv()).isEqualTo("bf16");
    assertThat(r.fits()).isTrue();
    assertThat(r.error()).isEmpty();
  }

  @Test
  void run_countWithoutTp_tpFollowsCount_andTpWithoutCount_countFollowsTp() {
    List<Sweep.Row> byCount = rows(Sweep.Grid.builder().counts(2, 8).build());
    assertThat(byCount).extracting(Sweep.Row::tp).containsExactly(2, 8);
    List<Sweep.Row> byTp = rows(Sweep.Grid.builder().tps(4).build());
    assertThat(byTp).extracting(Sweep.Row::count).containsExactly(4);
  }

  @Test
  void run_order_batchFastestModelSlowest() {
    List<Sweep.Row> rows =
        rows(Sweep.Grid.builder().models(LLAMA_8B, LLAMA_70B).counts(8).batches(1, 2).build());
    assertThat(rows)
        .extracting(r -> r.model().id() + "/" + r.batch())
        .containsExactly("llama-3.1-8b/1", "llama-3.1-8b/2", "llama-3.1-70b/1", "llama-3.1-70b/2");
  }

  @Test
  void run_colocatedCombination_equalsParetoFrontierOfTheSameDeployment() {
    int[] batches = {1, 2, 4, 64, 256};
    List<Sweep.Row> rows =
        rows(
            Sweep.Grid.builder()
                .models(LLAMA_8B)
                .chips(H100)
                .batches(batches)
                .isls(1024, 4096)
                .build());
    Deployment d = Deployment.of(Deployment.Strategy.COLOCATED, RooflineModel.of(LLAMA_8B, H100));
    int i = 0;
    for (int isl : new int[] {1024, 4096}) {
      List<Integer> sizes = new ArrayList<>();
      for (int b : batches) {
        sizes.add(b);
      }
      List<FrontierPoint> expected =
          ParetoFrontier.builder(d)
              .inputTokens(isl)
              .outputTokens(1024)
              .batches(sizes)
              .build()
              .points();
      for (FrontierPoint p : expected) {
        Sweep.Row r = rows.get(i++);
        assertThat(r.isl()).isEqualTo(isl);
        assertThat(r.batch()).isEqualTo(p.batch());
        assertThat(r.point().orElseThrow().tokensPerSecondPerChip())
            .isEqualTo(p.tokensPerSecondPerChip());
        assertThat(r.point().orElseThrow().ttft()).isEqualTo(p.ttft());
        assertThat(r.fits()).isEqualTo(p.fits());
      }
    }
  }

  @Test
  void run_pdCombination_equalsDeploymentPointWithPrefillPoolSizedPerIsl() {
    // Llama-3.1-70B at bf16 (141 GB) needs two H100s for its prefill pool; the decode pool is 8
    List<Sweep.Row> rows =
        rows(
            Sweep.Grid.builder()
                .models(LLAMA_70B)
                .counts(8)
                .strategies(Deployment.Strategy.PD)
                .batches(1, 32)
                .isls(1024, 8192)
                .build());
    // the decode pool never prefills, as in `ridgeline frontier --strategy pd`
    RooflineModel decode =
        RooflineModel.builder()
            .from(RooflineModel.of(LLAMA_70B, H100, 8))
            .runsPrefill(false)
            .build();
    for (Sweep.Row r : rows) {
      RooflineModel prefill =
          Sizing.fewestChips(RooflineModel.of(LLAMA_70B, H100), 1, r.isl()).orElseThrow();
      FrontierPoint expected =
          Deployment.disaggregated(prefill, decode).point(r.batch(), r.isl(), r.osl());
      assertThat(r.point().orElseThrow().tokensPerSecondPerChip())
          .isEqualTo(expected.tokensPerSecondPerChip());
      assertThat(r.point().orElseThrow().chipsTotal()).isEqualTo(expected.chipsTotal());
    }
  }

  @Test
  void run_tpNotDividingHeads_rowHasErrorAndNoPoint_andSweepGoesOn() {
    List<Sweep.Row> rows = rows(Sweep.Grid.builder().tps(3, 2).batches(1, 8).build());
    assertThat(rows).hasSize(4);
    for (Sweep.Row r : rows.subList(0, 2)) {
      assertThat(r.fits()).isFalse();
      assertThat(r.point()).isEmpty();
      assertThat(r.error())
          .hasValueSatisfying(
              e ->
                  assertThat(e)
                      .contains("(3) must divide the 32 attention heads")
                      .doesNotContain("\n"));
    }
    for (Sweep.Row r : rows.subList(2, 4)) {
      assertThat(r.tp()).isEqualTo(2);
      assertThat(r.fits()).isTrue();
      assertThat(r.error()).isEmpty();
    }
  }

  @Test
  void run_modelTooLargeForChips_keepsPointAndSaysItDoesNotFit() {
    // 70.55e9 parameters × 2 B = 141 GB of bf16 weights against one H100's 80 GB
    Sweep.Row r = rows(Sweep.Grid.builder().models(LLAMA_70B).build()).get(0);
    assertThat(r.fits()).isFalse();
    assertThat(r.point()).isPresent();
    assertThat(r.error())
        .hasValueSatisfying(
            e -> assertThat(e).startsWith("llama-3.1-70b does not fit on 1× h100-sxm"));
  }

  @Test
  void run_batchBeyondMemory_fitsFalseAndErrorNamesTheLargestBatch() {
    Sweep.Row r = rows(Sweep.Grid.builder().batches(100_000).build()).get(0);
    assertThat(r.fits()).isFalse();
    assertThat(r.point()).isPresent();
    // ISL 1024 + OSL 1024 = 2048 tokens per sequence; the largest batch is the pool's maxBatch
    int largest = RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.H100_SXM).maxBatch(2048);
    assertThat(largest).isBetween(100, 100_000);
    assertThat(r.error())
        .hasValue(
            "batch 100000 exceeds memory at 2048 tokens per sequence: the largest batch that fits"
                + " is "
                + largest);
  }

  @Test
  void run_precisionOverrides_appliedAndLabelled() {
    List<Sweep.Row> rows = new ArrayList<>();
    Sweep.run(
        Sweep.Grid.builder().weights(Precision.FP8).kvs(Precision.FP8, Precision.BF16).build(),
        Efficiency.ideal(),
        rows::add);
    assertThat(rows).extracting(Sweep.Row::weights).containsExactly("fp8", "fp8");
    assertThat(rows).extracting(Sweep.Row::kv).containsExactly("fp8", "bf16");
    assertThat(rows.get(0).precisions().weights()).isEqualTo(Precision.FP8);
    // FP8 KV halves the cache bytes a decode step reads: faster per token at the roofline bound
    assertThat(rows.get(0).point().orElseThrow().tpot().seconds())
        .isLessThan(rows.get(1).point().orElseThrow().tpot().seconds());
  }

  @Test
  void run_checkpointWithMixedPrecisions_labelsOverrides() {
    Sweep.Row r =
        rows(Sweep.Grid.builder().models(Models.byId("gpt-oss-120b")).counts(2).build()).get(0);
    assertThat(r.weights()).isEqualTo("bf16+experts:mxfp4");
  }

  @Test
  void run_sinkThrows_rowsAlreadyDeliveredAndSweepStops() {
    List<Integer> seen = new ArrayList<>();
    Sweep.Grid grid = Sweep.Grid.builder().batches(1, 2, 3, 4, 5, 6).build();
    assertThrows(
        IllegalStateException.class,
        () ->
            Sweep.run(
                grid,
                r -> {
                  seen.add(r.batch());
                  if (seen.size() == 3) {
                    throw new IllegalStateException("stop");
                  }
                }));
    assertThat(seen).containsExactly(1, 2, 3);
  }

  @Test
  void fromJson_listsAndScalars_parsed() {
    Sweep.Grid g =
        Sweep.Grid.fromJson(
            "{\"model\": \"llama-3.1-8b\", \"chip\": [\"h100-sxm\", \"h200-sxm\"], \"count\": 8,"
                + " \"strategy\": [\"colocated\", \"PD\", \"afd\", \"static\"], \"batch\": [1, 2,"
                + " 4], \"isl\": 2048, \"osl\": [128], \"ep\": 1, \"tp\": [8], \"weights\":"
                + " \"fp8\", \"kv\": [\"fp8\"]}",
            "grid.json");
    // 2 chips × 4 strategies × 3 batches
    assertThat(g.size()).isEqualTo(24);
    assertThat(g.chips()).extracting(Chip::id).containsExactly("h100-sxm", "h200-sxm");
    assertThat(g.strategies()).contains(Deployment.Strategy.PD);
    assertThat(g.isls()).containsExactly(2048);
    assertThat(g.weights()).containsExactly(Precision.FP8);
  }

  @Test
  void fromJson_unknownKey_errorNamesKeyAndListsKnown() {
    assertThatThrownBy(() -> Sweep.Grid.fromJson("{\"batches\": [1]}", "grid.json"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("grid.json: unknown grid key 'batches'; did you mean 'batch'?")
        .hasMessageContaining(
            "known: model, chip, count, tp, ep, strategy, batch, isl, osl, weights, kv");
  }

  @Test
  void fromJson_unknownModelId_errorNamesKeyAndValue() {
    assertThatThrownBy(
            () -> Sweep.Grid.fromJson("{\"model\": [\"llama-3.1-8b\", \"llama-9b\"]}", "g.json"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("g.json: key 'model': unknown model 'llama-9b'");
  }

  @Test
  void fromJson_badValues_errorNamesKeyAndValue() {
    assertThatThrownBy(() -> Sweep.Grid.fromJson("{\"chip\": \"h100-sx\"}", "g.json"))
        .hasMessageStartingWith(
            "g.json: key 'chip': unknown chip 'h100-sx'; did you mean 'h100-sxm'?");
    assertThatThrownBy(() -> Sweep.Grid.fromJson("{\"kv\": [\"fp9\"]}", "g.json"))
        .hasMessageStartingWith("g.json: key 'kv': unknown precision 'fp9'");
    assertThatThrownBy(() -> Sweep.Grid.fromJson("{\"batch\": [1, 0]}", "g.json"))
        .hasMessage("g.json: key 'batch': must be positive: 0");
    assertThatThrownBy(() -> Sweep.Grid.fromJson("{\"isl\": [\"1024\"]}", "g.json"))
        .hasMessage("g.json: key 'isl': expected positive integers, got \"1024\"");
    assertThatThrownBy(() -> Sweep.Grid.fromJson("{\"strategy\": \"disagg\"}", "g.json"))
        .hasMessage(
            "g.json: key 'strategy': unknown strategy 'disagg'; known: static, colocated, pd, afd");
    assertThatThrownBy(() -> Sweep.Grid.fromJson("{\"osl\": []}", "g.json"))
        .hasMessage("g.json: key 'osl': the list of values is empty");
    assertThatThrownBy(() -> Sweep.Grid.fromJson("[1, 2]", "g.json"))
        .hasMessageStartingWith("g.json: expected a JSON object");
  }

  @Test
  void builder_nonPositiveNumber_rejectedNamingKeyAndValue() {
    assertThatThrownBy(() -> Sweep.Grid.builder().batches(4, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("batch must be positive: -1");
  }
}
