package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.core.Precision;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.ColocatedDeployment;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.DeploymentSpec;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.PoolSpec;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Speculation;
import io.ridgeline.serving.StepResult;
import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.ErrorBands;
import io.ridgeline.serving.efficiency.Profiles;
import io.ridgeline.serving.plan.PlanRequest;
import io.ridgeline.serving.plan.Planner;
import io.ridgeline.serving.sweep.Crossover;
import io.ridgeline.serving.sweep.IntensitySweep;
import io.ridgeline.serving.sweep.Sweep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What JShell prints for the public values a notebook meets: readable text with units, never a
 * generated class name ({@code ImmutableChip{…}}), a record's {@code Name[field=…]} or {@code
 * Object}'s {@code Name@1f2e3d}.
 */
class ReadableToStringTest {
  @Test
  void everyPublicValue_printsReadably() {
    Model llama = Models.byId("llama-3.1-8b");
    RooflineModel rm = RooflineModel.of(llama, Chips.H100_SXM);
    StepResult step = rm.decode(8, 1024);
    PoolSpec pool = PoolSpec.builder().model(llama).chip(Chips.H100_SXM).build();
    DeploymentSpec spec =
        DeploymentSpec.builder().strategy(Deployment.Strategy.PD).pool(pool).prefill(pool).build();
    ParetoFrontier frontier =
        ParetoFrontier.builder(rm).inputTokens(1024).outputTokens(256).maxBatch(4).build();
    PlanRequest request =
        PlanRequest.builder()
            .model(llama)
            .chips(List.of(Chips.H100_SXM))
            .inputTokens(1024)
            .outputTokens(256)
            .requestsPerSecond(1)
            .ttftSlo(Seconds.of(1))
            .tpotSlo(Seconds.of(0.1))
            .build();
    var plan = Planner.plan(request);
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("chip", Chips.H100_SXM);
    values.put("memory tier", Chips.H100_SXM.mainMemory());
    values.put("scale-up link", Chips.H100_SXM.scaleUp().orElseThrow());
    values.put("model", llama);
    values.put("precisions", rm.precisions());
    values.put("roofline model", rm);
    values.put("compute target", rm.target());
    values.put("layout", rm.layout());
    values.put("step", step);
    values.put("phase", step.phases().get(0));
    values.put("memory use", rm.memory(8, 1024));
    values.put("efficiency", Efficiency.standard(Chips.H100_SXM));
    values.put("ideal", Efficiency.ideal());
    values.put("pool spec", pool);
    values.put("deployment spec", spec);
    values.put("deployment", spec.build(1024, 256));
    values.put("frontier", frontier);
    values.put("frontier point", frontier.points().get(0));
    values.put("speculation", Speculation.mtp(3, 0.8));
    values.put(
        "ttft parts",
        ((ColocatedDeployment) Deployment.of(Deployment.Strategy.COLOCATED, rm))
            .ttftParts(1, 1024, 256));
    values.put("crossover", Crossover.find(rm, 1));
    values.put("intensity sweep", IntensitySweep.of(rm, 1024, List.of(1, 8)));
    values.put("plan request", request);
    values.put("plan result", plan);
    if (!plan.configurations().isEmpty()) {
      values.put("plan configuration", plan.configurations().get(0));
    }
    values.put("error bands", ErrorBands.builtIn());
    values.put("engine profile", Profiles.builtIn().forEngine("vllm"));
    values.put("sweep grid", Sweep.Grid.builder().build());
    values.put("ridge point", Chips.H100_SXM.ridgePoint(Precision.BF16));
    values.put("kv bytes", llama.kvBytesPerToken(Precision.BF16));

    List<String> unreadable = new ArrayList<>();
    values.forEach(
        (name, v) -> {
          String s = v.toString();
          String simple = v.getClass().getSimpleName();
          boolean generated =
              s.contains("Immutable")
                  || s.matches("(?s)^\\w+\\{.*")
                  || s.startsWith(simple + "[")
                  || s.matches("(?s).*\\w@[0-9a-f]{4,}.*");
          if (generated || s.isBlank()) {
            unreadable.add(name + ": " + s);
          }
        });
    assertThat(unreadable).isEmpty();
    // units where there are quantities
    assertThat(rm.target().toString()).contains("TFLOP/s").contains("TB/s");
    assertThat(pool.toString()).startsWith("llama-3.1-8b on sized× h100-sxm (tp sized");
  }
}
