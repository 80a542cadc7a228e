package io.ridgeline.serving.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.DeploymentSpec;
import io.ridgeline.serving.PoolSpec;
import io.ridgeline.serving.Workload;
import io.ridgeline.serving.efficiency.Efficiency;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class SweepPrefixHitTest {
  @Test
  void prefixHitKey_isAGridDimension_aColumn_andLowersTtft() {
    Sweep.Grid g =
        Sweep.Grid.fromJson(
            "{\"batch\": [1], \"isl\": [4096], \"osl\": [128], \"prefix_hit\": [0, 0.75]}", "t");
    assertThat(g.size()).isEqualTo(2);
    assertThat(g.prefixHit()).containsExactly(0.0, 0.75);
    List<Sweep.Row> rows = new ArrayList<>();
    Sweep.run(g, Efficiency.ideal(), rows::add);
    // 0.75 of 4,096 prompt tokens hit: prefill computes 1,024 of them, so TTFT falls
    assertThat(rows.get(0).prefixHit()).isZero();
    assertThat(rows.get(1).prefixHit()).isEqualTo(0.75);
    assertThat(rows.get(1).point().get().ttft().seconds())
        .isLessThan(rows.get(0).point().get().ttft().seconds());
    // the same as the frontier of the workload with its hit rate
    Deployment d =
        DeploymentSpec.builder()
            .strategy(Deployment.Strategy.COLOCATED)
            .pool(
                PoolSpec.builder()
                    .model(rows.get(1).model())
                    .chip(rows.get(1).chip())
                    .count(1)
                    .tensorParallel(1)
                    .efficiency(Efficiency.ideal())
                    .build())
            .build()
            .build(4096, 128);
    assertThat(rows.get(1).point().get().ttft())
        .isEqualTo(d.point(1, Workload.of(4096, 128).withPrefixHitRate(0.75)).ttft());
    StringWriter csv = new StringWriter();
    SweepWriter.write(g, Efficiency.ideal(), SweepWriter.Format.CSV, csv, 1, n -> {});
    List<String> lines = csv.toString().lines().toList();
    assertThat(lines.get(0)).contains(",isl,osl,prefix_hit,batch,");
    assertThat(lines.get(1)).contains(",4096,128,0.0,1,");
    assertThat(lines.get(2)).contains(",4096,128,0.75,1,");
    StringWriter jsonl = new StringWriter();
    SweepWriter.write(g, Efficiency.ideal(), SweepWriter.Format.JSONL, jsonl, 1, n -> {});
    assertThat(jsonl.toString().lines().toList().get(1)).contains("\"prefix_hit\":0.75");
    // a plain grid keeps its columns
    assertThat(SweepWriter.columns(false, false)).doesNotContain("prefix_hit");
    assertThat(SweepWriter.columns(true, true))
        .containsSubsequence("osl", "cached", "prefix_hit", "batch");
  }

  @Test
  void prefixHitKey_badValue_namesTheKeyAndTheValue() {
    assertThatThrownBy(() -> Sweep.Grid.fromJson("{\"prefix_hit\": [0.5, 1]}", "t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("prefix_hit must be a number at least 0 and below 1: 1");
    assertThatThrownBy(() -> Sweep.Grid.fromJson("{\"prefix_hit\": [\"half\"]}", "t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("prefix_hit must be a number at least 0 and below 1: \"half\"");
    assertThatThrownBy(() -> Sweep.Grid.builder().prefixHit(-0.1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("prefix_hit must be at least 0 and below 1: -0.1");
  }
}
