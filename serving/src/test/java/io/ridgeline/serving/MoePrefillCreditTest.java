package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A prefill riding a decode step is credited only the weights the running kernels read ({@link
 * RidingPrefill#sharedWeightBytes}): a routed-expert kernel at small batch reads a few experts, so
 * a new prompt's chunk streams the rest itself.
 */
final class MoePrefillCreditTest {
  private static final List<Model> MOE =
      Models.all().stream().filter(Model::hasMoe).collect(java.util.stream.Collectors.toList());
  private static final List<Chip> CHIPS =
      List.of(Chips.byId("h100-sxm"), Chips.byId("mi300x"), Chips.byId("b200"));

  @Test
  void sharedWeightBytes_chunkSharesTheRunningExperts_shareCarriesItsFractionOfTheRest() {
    // in experts' worth of bytes, Qwen3-30B-A3B (128 experts, top 8), ISL = OSL = 1024:
    // a chunk (128 experts) joining one decode token (8 experts) shares 8 of them: min(128, 8)
    assertThat(RidingPrefill.sharedWeightBytes(128, 128, 8, 1)).isEqualTo(8);
    // a step's share of 2/1024 prompts counts 15.5 experts (2 tokens: 128 (1 − (15/16)^2));
    // it carries 2/1024 of one chunk's 120 unshared experts, 0.234: credit 15.5 − 0.234 = 15.266
    assertThat(RidingPrefill.sharedWeightBytes(15.5, 128, 8, 2 / 1024.0))
        .isCloseTo(15.5 - 120 * 2 / 1024.0, within(1e-12));
    // from one chunk per step on, the chunks read their union once and share the decode kernel's:
    // 1.5 chunks per step of 100 experts' bytes, the decode kernel reading 40: credit 40
    assertThat(RidingPrefill.sharedWeightBytes(100, 90, 40, 1.5)).isEqualTo(40);
    // a dense kernel reads the same weights as the chunk: all of the prefill's are credited
    assertThat(RidingPrefill.sharedWeightBytes(3.0, 5.0, 5.0, 0.5)).isEqualTo(3.0);
    // a decode batch touching every expert shares all of them
    assertThat(RidingPrefill.sharedWeightBytes(128, 128, 128, 1)).isEqualTo(128);
  }

  @Test
  void ttft_qwen3MoeAtBatch2_streamsTheExpertsTheDecodeTokenDoesNotRead() {
    // Qwen3-30B-A3B on one H100 at the roofline bound, ISL = OSL = 1024. Batch 1: the chunk is
    // its own pass, 21.73 ms (its weights, 61 GB / 3.35 TB/s ≈ 18.2 ms, and its compute). Batch 2:
    // the chunk joins the decode step of the other sequence (1.86 ms), whose one token reads 8 of
    // each layer's 128 experts; the chunk reads the other 120 itself: 48 layers × 120 × 3 × 2048 ×
    // 768 × 2 B = 54.36 GB, 16.23 ms at 3.35 TB/s (its expert GEMMs' 3.7 TFLOP, 3.8 ms, hide
    // under it), plus its attention and projections' compute (≈ 1.9 + 0.4 ms) and the rest:
    // 23.26 ms. Crediting all 128 experts to the chunk gave 8.19 ms, less than the expert reads.
    RooflineModel pool = IdealPools.of(Models.byId("qwen3-30b-a3b"), Chips.byId("h100-sxm"));
    ColocatedDeployment d = new ColocatedDeployment(pool);
    Workload w = Workload.of(1024, 1024);
    double batch1 = d.point(1, w).ttft().seconds();
    double batch2 = d.point(2, w).ttft().seconds();
    assertThat(batch1).isCloseTo(21.73e-3, withPercentage(0.1));
    assertThat(batch2).isCloseTo(23.26e-3, withPercentage(0.1));
    assertThat(batch2 - d.point(1, w).tpot().seconds()).isGreaterThan(16.23e-3);
    // the compiled path gives the same points
    PointsAt compiled = CompiledColocated.of(d, w).orElseThrow();
    assertThat(compiled.point(2).ttft().seconds()).isCloseTo(batch2, withPercentage(1e-7));
  }

  @Test
  void ttft_moeBatch1To2_fallsByAtMostThePromptIndependentShare() {
    // from batch 1 to 2 the chunk stops being its own pass and joins the other sequence's decode
    // step: what it may save is what its pass costs whatever the prompt (the fixed costs and the
    // weight reads a one-token prompt's pass pays), never the weights the decode step does not read
    qt().withExamples(300)
        .forAll(
            integers().between(0, MOE.size() * CHIPS.size() - 1),
            integers().between(0, 7),
            integers().between(16, 20_000),
            integers().between(2, 2_048))
        .checkAssert(
            (pair, setup, isl, osl) -> {
              Chip chip = CHIPS.get(pair % CHIPS.size());
              int chips = 1 << (setup % 4);
              RooflineModel pool =
                  RooflineModel.builder()
                      .model(MOE.get(pair / CHIPS.size()))
                      .chip(chip)
                      .chips(chips)
                      .tensorParallel(chips)
                      .efficiency(setup < 4 ? Efficiency.ideal() : Efficiency.standard(chip))
                      .build();
              ColocatedDeployment d = new ColocatedDeployment(pool);
              Workload w = Workload.of(isl, osl);
              double independent =
                  ColocatedDeployment.chunks(w) * d.chunkAlone(Workload.of(1, osl));
              double batch1 = d.point(1, w).ttft().seconds();
              assertThat(d.point(2, w).ttft().seconds())
                  .as("%s isl %d osl %d", pool, isl, osl)
                  .isGreaterThanOrEqualTo(batch1 - independent);
            });
  }
}
