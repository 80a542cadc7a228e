package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class FixedCostsTest {
  private static final Efficiency OVERHEADS =
      Efficiency.builder()
          .compute(1)
          .memory(1)
          .network(1)
          .stepOverhead(Seconds.ofMicros(200))
          .kernelOverhead(Seconds.ofMicros(5))
          .build();

  private static double extra(RooflineModel ideal, int batch, int context) {
    RooflineModel rm = RooflineModel.builder().from(ideal).efficiency(OVERHEADS).build();
    return rm.decode(batch, context).seconds().seconds()
        - ideal.decode(batch, context).seconds().seconds();
  }

  @Test
  void deepSeekV3_paysItsMoeKernels_llamaItsNine() {
    // Llama-3.1-8B on 8× H100 at tp 8: 32 × (9 + 2 all-reduces) + 3 head + 1 logits gather = 356
    // kernels: 356 × 5 µs = 1,780 µs more per decode step on the device, which hides the host's 200
    // µs of step work
    RooflineModel llama = IdealPools.of(Models.byId("llama-3.1-8b"), Chips.byId("h100-sxm"), 8);
    assertThat(llama.kernels().total()).isEqualTo(356);
    assertThat(extra(llama, 8, 1024)).isCloseTo(1780e-6, withPercentage(0.01));
    // DeepSeek-V3 on 8× H200 at tp 8: 3 dense × 17 + 58 MoE × 24 + 4 = 1,447 kernels:
    // 1,447 × 5 µs = 7,235 µs, where a per-layer constant charged both models alike
    RooflineModel ds = IdealPools.of(Models.byId("deepseek-v3"), Chips.byId("h200-sxm"), 8);
    assertThat(ds.kernels().total()).isEqualTo(1447);
    assertThat(extra(ds, 8, 1024)).isCloseTo(7235e-6, withPercentage(0.01));
  }

  @Test
  void afdPools_eachPayTheirOwnSidesKernels() {
    RooflineModel rm =
        RooflineModel.builder()
            .from(IdealPools.of(Models.byId("deepseek-v3"), Chips.byId("h200-sxm"), 8))
            .efficiency(OVERHEADS)
            .build();
    StepResult s = rm.decode(8, 1024);
    // mixer side: 61 × (2 norms + 10 MLA + 1 all-reduce) + 4 head = 797 → 797 × 5 = 3,985 µs
    // FFN side: 3 × (3 + 1) + 58 × (7 + 3 + 1) = 650 → 650 × 5 = 3,250 µs on the device; each
    // pool's 200 µs of host step work overlaps its side
    assertThat(rm.kernels().mixer()).isEqualTo(797);
    assertThat(rm.kernels().ffn()).isEqualTo(650);
    assertThat(s.attentionOverheadSeconds().seconds()).isCloseTo(3985e-6, withPercentage(0.01));
    assertThat(s.ffnOverheadSeconds().seconds()).isCloseTo(3250e-6, withPercentage(0.01));
    assertThat(s.overheadSeconds().seconds()).isCloseTo(7235e-6, withPercentage(0.01));
    assertThat(s.hostSeconds().seconds()).isCloseTo(200e-6, withPercentage(1e-9));
  }

  @Test
  void cerebras_llama8b_singleStream_floorIsKernelsTimesLatency() {
    RooflineModel rm =
        PoolSpec.builder()
            .model(Models.byId("llama-3.1-8b"))
            .chip(Chips.byId("cerebras-wse3"))
            .count(Optional.of(1))
            .efficiency(Efficiency.standard())
            .build()
            .build(1, 1024);
    RooflineModel ideal = RooflineModel.builder().from(rm).efficiency(Efficiency.ideal()).build();
    // one wafer, pp 1: 291 kernels × 1.27 µs (the SRAM tier's latency, from WaferLLM's measured
    // decode on a WSE-2) = 369.57 µs floor, added to the ideal ~0.7 µs of streaming 16 GB at
    // 21 PB/s: ≈ 2,700 tok/s/user (WaferLLM's figure), not ~1.4M
    double floor = rm.decode(1, 1024).seconds().seconds();
    assertThat(floor - ideal.decode(1, 1024).seconds().seconds())
        .isCloseTo(369.57e-6, withPercentage(0.01));
    assertThat(1 / floor).isBetween(2650.0, 2750.0);
  }

  @Test
  void groq_llama2_70b_singleStream_floorAddsKernelsTimesLatency() {
    RooflineModel rm =
        PoolSpec.builder()
            .model(Models.byId("llama-2-70b"))
            .chip(Chips.byId("groq-lpu"))
            .efficiency(Efficiency.standard())
            .build()
            .build(1, 700);
    RooflineModel ideal = RooflineModel.builder().from(rm).efficiency(Efficiency.ideal()).build();
    // 80 layers × (9 + 2 all-reduces) + 4 = 884 kernels, pp stages each running 884 / pp of them
    // at 900 ns, crossed pp times per token: 884 × 0.9 µs = 795.6 µs more per token than the
    // ideal (whose pipeline hand-offs and tp collectives already pay the 1 µs link hops)
    assertThat(rm.kernels().total()).isEqualTo(884);
    assertThat(rm.decode(1, 700).seconds().seconds() - ideal.decode(1, 700).seconds().seconds())
        .isCloseTo(795.6e-6, withPercentage(0.01));
  }
}
