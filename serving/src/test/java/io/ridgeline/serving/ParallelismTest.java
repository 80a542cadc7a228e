package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Percentage.withPercentage;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Precision;
import io.ridgeline.core.TensorClass;
import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.hardware.MemoryTier;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ParallelismTest {
  private static final Model LLAMA8 = Models.byId("llama-3.1-8b");
  private static final Model LLAMA70 = Models.byId("llama-3.1-70b");
  private static final Model DEEPSEEK_V3 = Models.byId("deepseek-v3");
  private static final Chip H100 = Chips.byId("h100-sxm");
  private static final Chip H200 = Chips.byId("h200-sxm");
  private static final Chip GB200 = Chips.byId("gb200");

  private static RooflineModel pool(Model model, Chip chip, int tp, int pp, int ep, int dp) {
    return RooflineModel.builder()
        .model(model)
        .chip(chip)
        .efficiency(Efficiency.ideal())
        .tensorParallel(tp)
        .pipelineParallel(pp)
        .expertParallel(ep)
        .attentionDataParallel(dp)
        .chips(tp * pp * dp)
        .build();
  }

  private static List<String> opNames(PhaseResult phase) {
    return phase.operations().stream().map(o -> o.operation().name()).toList();
  }

  private static OperationResult op(PhaseResult phase, String name) {
    return phase.operations().stream()
        .filter(o -> o.operation().name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  // ---- pipeline parallelism ----

  @Test
  void memory_twoPipelineStages_halveWeightsPerChip() {
    // Llama-3.1-70B at bf16: 141.1e9 B / 8 = 17.64e9 B per chip at tp 8;
    // two stages of 8 chips each hold half the layers: 141.1e9 / 16 = 8.82e9 B
    RooflineModel pp1 = pool(LLAMA70, H100, 8, 1, 1, 1);
    RooflineModel pp2 = pool(LLAMA70, H100, 8, 2, 1, 1);
    assertThat(pp1.memory(1, 1024).weights().bytes()).isCloseTo(17.64e9, withPercentage(0.1));
    assertThat(pp2.memory(1, 1024).weights().bytes())
        .isCloseTo(pp1.memory(1, 1024).weights().bytes() / 2, withPercentage(1e-9));
    assertThat(pp2.replicaChips()).isEqualTo(16);
  }

  @Test
  void decode_fourStagesBatch1_takesFourStageTimes_noFasterThanOneChip() {
    RooflineModel pp4 = pool(LLAMA8, H100, 1, 4, 1, 1);
    StepResult step = pp4.decode(1, 1024);
    // one token crosses every stage in turn: 4 × (stage + hand-off); each stage reads a quarter of
    // the 15.1e9 B of weights: 15.1e9 / 4 / 3.35e12 B/s ≈ 1.13 ms, so 4 × 1.13 ≈ 4.52 ms
    assertThat(step.stages()).isEqualTo(4);
    assertThat(step.passes()).isEqualTo(4);
    assertThat(step.seconds().seconds())
        .isCloseTo(
            4 * (step.stageSeconds().seconds() + step.p2pSeconds().seconds()),
            withPercentage(1e-9));
    assertThat(step.stageSeconds().seconds()).isCloseTo(1.13e-3, withPercentage(1));
    // the bubble: at batch 1 four stages are no faster than one chip holding every layer
    double oneChip = IdealPools.of(LLAMA8, H100).decode(1, 1024).seconds().seconds();
    assertThat(step.seconds().seconds())
        .isGreaterThanOrEqualTo(oneChip)
        .isCloseTo(oneChip, withPercentage(0.5));
  }

  @Test
  void decode_fourStagesBatch4_fillsPipeline_fourTimesBatch1Throughput() {
    RooflineModel pp4 = pool(LLAMA8, H100, 1, 4, 1, 1);
    // 4 micro-batches of 1 sequence keep all 4 stages busy: the step takes the same 4 stage
    // times as batch 1 but yields 4 tokens
    double batch1 = 1 / pp4.decode(1, 1024).seconds().seconds();
    double batch4 = 4 / pp4.decode(4, 1024).seconds().seconds();
    assertThat(batch4).isCloseTo(4 * batch1, withPercentage(0.01));
  }

  @Test
  void prefill_fourStagesBatch4_fillsAndDrainsPipeline() {
    // m = 4 micro-batches through 4 stages: m + pp − 1 = 7 stage times
    StepResult prefill = pool(LLAMA8, H100, 1, 4, 1, 1).prefill(4, 512);
    assertThat(prefill.passes()).isEqualTo(7);
    assertThat(prefill.stages()).isEqualTo(4);
  }

  @Test
  void build_moreStagesThanLayers_throws() {
    assertThatThrownBy(() -> pool(LLAMA8, H100, 1, 33, 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pipeline parallel degree (33) must not exceed the 32 layers of llama-3.1-8b");
  }

  // ---- expert parallelism ----

  @Test
  void decode_deepseekV3ExpertParallel8_addsMoeAllToAll() {
    RooflineModel ep8 = pool(DEEPSEEK_V3, H200, 8, 1, 8, 1);
    assertThat(ep8.memory(8, 2048).fits()).isTrue();
    PhaseResult comm = ep8.decode(8, 2048).phase(PhaseKind.DECODE_COMMUNICATION);
    assertThat(opNames(comm)).contains("moe_all_to_all", "tp_allreduce", "ffn_allreduce");
    OperationResult a2a = op(comm, "moe_all_to_all");
    // 8 tokens over 8 chips = 1 token per chip of hidden 7168; its k = 8 experts land on
    // 7 × (1 − (7/8)^8) = 4.59474 distinct remote chips, each sent the token once: dispatch in FP8
    // with 128-element block scales (1 + 4/128 = 1.03125 B) and combine in bf16 (2 B):
    // 1 × 7168 × 3.03125 × 4.59474 = 99,834.5 B per layer × 58 MoE layers = 5,790,398.6 B (it was
    // 11,640,832 B: 8 copies × 7/8 × 7168 × 2 directions × 2 B × 58); 2 × 58 = 116 steps
    assertThat(a2a.operation().networkBytes().bytes()).isCloseTo(5_790_398.6, withPercentage(1e-6));
    assertThat(a2a.operation().networkSteps()).isEqualTo(116);
    // only the 3 dense FFN layers still all-reduce: 3 × 2·⌈log2 8⌉ = 18 hops
    assertThat(op(comm, "ffn_allreduce").operation().networkSteps()).isEqualTo(18);
  }

  @Test
  void decode_deepseekV3On16H200Ep16Batch64_allToAllDedupsAndDispatchesFp8() {
    RooflineModel ep16 = pool(DEEPSEEK_V3, H200, 16, 1, 16, 1);
    OperationResult a2a =
        op(ep16.decode(64, 4096).phase(PhaseKind.DECODE_COMMUNICATION), "moe_all_to_all");
    // 64 tokens over 16 chips = 4 tokens per chip of hidden 7168.
    // before: every top-k copy, bf16 both ways: 4 × 8 × 7168 × 15/16 × 2 × 2 B × 58 = 49,889,280 B
    // flat: 15 × (1 − (15/16)^8) = 6.04921 distinct remote chips, FP8 dispatch (1.03125 B) and
    // bf16 combine (2 B): 4 × 7168 × 3.03125 × 6.04921 × 58 = 30,493,427.9 B (−38.9%)
    // hierarchical over two 8-GPU nodes: the scale-out network carries a token once to the other
    // node when one of its 8 experts is there: 1 × (1 − (1/2)^8) = 0.99609375 remote nodes,
    // 4 × 7168 × 3.03125 × 0.99609375 × 58 = 5,021,205 B; at 50 GB/s that is 100.4 µs, above the
    // NVLink side's 30,493,427.9 B / 450 GB/s = 67.8 µs, so the scale-out side sets the time
    assertThat(a2a.operation().networkBytes().bytes()).isCloseTo(5_021_205.0, withPercentage(1e-9));
    // 16 chips cross the scale-out network; half of that time hidden under compute halves it
    Efficiency half = Efficiency.builder().from(Efficiency.ideal()).moeOverlap(0.5).build();
    RooflineModel overlapped = RooflineModel.builder().from(ep16).efficiency(half).build();
    OperationResult hidden =
        op(overlapped.decode(64, 4096).phase(PhaseKind.DECODE_COMMUNICATION), "moe_all_to_all");
    assertThat(hidden.seconds().seconds())
        .isCloseTo(a2a.seconds().seconds() / 2, withPercentage(1e-9));
    assertThat(hidden.operation()).isEqualTo(a2a.operation());
  }

  @Test
  void dispatchBytesPerElement_fp8WhereTheChipHasIt_elseTheActivations() {
    // H200 has FP8: 1 B + one 4 B scale per 128 elements; A100 has no FP8: bf16's 2 B
    assertThat(Collectives.dispatchBytesPerElement(pool(LLAMA8, H200, 1, 1, 1, 1), Precision.BF16))
        .isEqualTo(1.03125);
    Chip a100 = Chips.byId("a100-sxm-80gb");
    assertThat(Collectives.dispatchBytesPerElement(pool(LLAMA8, a100, 1, 1, 1, 1), Precision.BF16))
        .isEqualTo(2.0);
  }

  @Test
  void decodeAndPrefill_deepseekV3Collectives_inTheBucketsTheirNamesWereIn() {
    // before roles, Deployment.side put ffn_allreduce and moe_all_to_all (FFN_COLLECTIVES) on the
    // FFN side and tp_allreduce on the attention side
    Map<String, OperationRole> roles =
        Map.of(
            "tp_allreduce", OperationRole.TP_ALL_REDUCE,
            "ffn_allreduce", OperationRole.FFN_ALL_REDUCE,
            "moe_all_to_all", OperationRole.MOE_ALL_TO_ALL);
    RooflineModel ep8 = pool(DEEPSEEK_V3, H200, 8, 1, 8, 1);
    List<OperationResult> collectives = new ArrayList<>();
    collectives.addAll(ep8.decode(8, 2048).phase(PhaseKind.DECODE_COMMUNICATION).operations());
    ep8.prefill(2, 512).phase(PhaseKind.PREFILL).operations().stream()
        .filter(o -> roles.containsKey(o.operation().name()))
        .forEach(collectives::add);
    assertThat(collectives).hasSize(6);
    for (OperationResult o : collectives) {
      Operation op = o.operation();
      assertThat(op.role()).isEqualTo(roles.get(op.name()));
      assertThat(op.role().collective()).isTrue();
      assertThat(op.role().ffnSide()).isEqualTo(!op.name().equals("tp_allreduce"));
      assertThat(op.role().attentionSide()).isFalse();
      assertThat(op.role().readsKvCache()).isFalse();
    }
  }

  @Test
  void decode_deepseekV3WithoutExpertParallel_allReducesEveryFfn() {
    RooflineModel ep1 = pool(DEEPSEEK_V3, H200, 8, 1, 1, 1);
    PhaseResult comm = ep1.decode(8, 2048).phase(PhaseKind.DECODE_COMMUNICATION);
    assertThat(opNames(comm)).doesNotContain("moe_all_to_all");
    // all 61 FFN layers all-reduce over 8 chips: 61 × 6 = 366 hops
    assertThat(op(comm, "ffn_allreduce").operation().networkSteps()).isEqualTo(366);
  }

  @Test
  void build_expertParallelNotDividingStage_throws() {
    assertThatThrownBy(() -> pool(DEEPSEEK_V3, H200, 8, 1, 3, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expert parallel degree (3) must divide the 8 chips of a stage (tp × dp)");
  }

  // ---- attention data parallelism ----

  @Test
  void memory_attentionDataParallel2_halvesKvPerChip() {
    // Llama-3.1-70B: 80 layers × 2 × 8 KV heads × 128 × 2 B = 327,680 B per token; tp 4 holds 2 of
    // the 8 KV heads per chip: 81,920 B/token × 4096 tokens × 16 sequences = 5.37e9 B;
    // dp 2 gives each attention group 8 of the 16 sequences: 2.68e9 B
    RooflineModel dp1 = pool(LLAMA70, H100, 4, 1, 1, 1);
    RooflineModel dp2 = pool(LLAMA70, H100, 4, 1, 1, 2);
    assertThat(dp1.memory(16, 4096).kvCache().bytes()).isCloseTo(5.368709e9, withPercentage(1e-4));
    assertThat(dp2.memory(16, 4096).kvCache().bytes())
        .isCloseTo(dp1.memory(16, 4096).kvCache().bytes() / 2, withPercentage(1e-9));
    // attention weights are copied in each group, the rest split over all 8 chips of the stage
    double w1 = dp1.memory(16, 4096).weights().bytes();
    double w2 = dp2.memory(16, 4096).weights().bytes();
    assertThat(w2).isLessThan(w1).isGreaterThan(w1 / 2);
  }

  @Test
  void decode_attentionDataParallel2_halvesKvReadPerChip() {
    RooflineModel dp1 = pool(LLAMA70, H100, 4, 1, 1, 1);
    RooflineModel dp2 = pool(LLAMA70, H100, 4, 1, 1, 2);
    double kv1 = dp1.decode(16, 4096).phase(PhaseKind.DECODE_ATTENTION).bytes().bytes();
    double kv2 = dp2.decode(16, 4096).phase(PhaseKind.DECODE_ATTENTION).bytes().bytes();
    assertThat(kv2).isCloseTo(kv1 / 2, withPercentage(0.5));
  }

  @Test
  void prefill_deepseekV3Dep8_denseFfnRunsPerGroupWithoutStageAllReduce() {
    // attention dp 8 with tp 1, ep 8 (SGLang DP attention + DeepEP, TensorRT-LLM attention DP):
    // the 3 dense FFN layers and the shared experts run per group, so no ffn_allreduce over the
    // stage; only the routed experts cross groups (moe_all_to_all)
    RooflineModel dep8 = pool(DEEPSEEK_V3, H200, 1, 1, 8, 8);
    List<String> names =
        dep8.prefill(8, 512).phase(PhaseKind.PREFILL).operations().stream()
            .map(o -> o.operation().name())
            .toList();
    assertThat(names).contains("moe_all_to_all").doesNotContain("ffn_allreduce");
    // each chip holds a whole copy of the dense FFN layers: 3 layers × 3 × 7168 × 18432 FP8
    // weights = 1,189,085,184 elements, read once by the busiest group's prefill pass; stage-wide
    // (dp 1, tp 8) a chip holds 1/8 of them
    double perGroup = weightBytes(op(dep8.prefill(8, 512).phase(PhaseKind.PREFILL), "ffn"));
    RooflineModel tp8 = pool(DEEPSEEK_V3, H200, 8, 1, 8, 1);
    double stageWide = weightBytes(op(tp8.prefill(8, 512).phase(PhaseKind.PREFILL), "ffn"));
    assertThat(perGroup).isCloseTo(8 * stageWide, withPercentage(1e-9));
    assertThat(perGroup / 1_189_085_184.0).isBetween(1.0, 1.001); // FP8 plus its block scales
    assertThat(dep8.layout().sharding(TensorClass.DENSE_FFN))
        .isEqualTo(ParallelLayout.Sharding.ATTENTION_GROUP);
    assertThat(tp8.layout().sharding(TensorClass.DENSE_FFN))
        .isEqualTo(ParallelLayout.Sharding.STAGE);
  }

  @Test
  void prefill_deepseekV3Tp2Dp4_denseFfnAllReducesOverItsGroupOnly() {
    // tp 2 inside each of 4 attention groups, ep 8: the 3 dense FFN layers all-reduce over their
    // group's 2 chips, each group's own tokens: 4 prompts of 512 = 1 per group, 512 × 7168 elements
    // of bf16 per all-reduce, a ring sending 2 × (2 − 1)/2 of it: 3 × 512 × 7168 × 2 B = 22.0 MB
    RooflineModel tp2dp4 = pool(DEEPSEEK_V3, H200, 2, 1, 8, 4);
    OperationResult group =
        op(tp2dp4.prefill(4, 512).phase(PhaseKind.PREFILL), "group_ffn_allreduce");
    assertThat(group.operation().role()).isEqualTo(OperationRole.FFN_ALL_REDUCE);
    assertThat(group.operation().networkBytes().bytes())
        .isCloseTo(3 * 512 * 7168 * 2.0, withPercentage(1e-9));
  }

  private static double weightBytes(OperationResult r) {
    return r.operation().bytes().get(DataKind.WEIGHTS).bytes();
  }

  // ---- tensor parallelism across the scale-up domain ----

  @Test
  void decode_tensorParallelBeyondScaleUpDomain_isSlowerThanWithinIt() {
    // tp 8 stays on NVLink (1 µs per hop): 15.1e9 / 8 / 3.35e12 ≈ 0.57 ms of reads
    // + 64 all-reduces × 2·⌈log2 8⌉ = 6 hops × 1 µs ≈ 0.38 ms → ≈ 0.95 ms
    // tp 16 spills onto the 400G network (5 µs per hop): ≈ 0.28 ms of reads
    // + 64 × 8 hops × 5 µs = 2.56 ms → ≈ 2.86 ms: more chips, lower throughput at fixed batch
    double tp8 = IdealPools.of(LLAMA8, H100, 8).decode(1, 1024).seconds().seconds();
    double tp16 = IdealPools.of(LLAMA8, H100, 16).decode(1, 1024).seconds().seconds();
    assertThat(IdealPools.of(LLAMA8, H100, 16).tensorParallelLink()).isEqualTo(H100.scaleOut());
    assertThat(tp8).isCloseTo(0.95e-3, withPercentage(2));
    assertThat(tp16).isCloseTo(2.86e-3, withPercentage(2));
    assertThat(1 / tp16).isLessThan(1 / tp8);
  }

  // ---- memory tiers ----

  @Test
  void decode_gb200ModelLargerThanHbm_spillsToLpddrAndSlowsDecode() {
    Model llama405 = Models.byId("llama-3.1-405b");
    RooflineModel onGb200 =
        RooflineModel.builder()
            .model(llama405)
            .chip(GB200)
            .efficiency(Efficiency.ideal())
            .precisions(llama405.defaultPrecisions().withAllWeights(Precision.FP8))
            .build();
    MemoryTier hbm = GB200.memory().get(0);
    MemoryTier lpddr = GB200.memory().get(1);
    assertThat(hbm.name()).isEqualTo("hbm");
    assertThat(lpddr.name()).isEqualTo("lpddr");
    // 405.85e9 B of fp8 weights > 186e9 B of HBM, < 186e9 + 467.5e9 B of HBM and LPDDR together
    assertThat(onGb200.memory(1, 1024).weights().bytes()).isCloseTo(405.85e9, withPercentage(0.01));
    assertThat(onGb200.memory(1, 1024).fits()).isTrue();
    Chip bigHbm =
        Chip.builder()
            .from(GB200)
            .id("gb200-all-hbm")
            .memory(
                List.of(
                    MemoryTier.builder().from(hbm).capacity(Bytes.ofGigabytes(700)).build(), lpddr))
            .build();
    RooflineModel onBigHbm = RooflineModel.builder().from(onGb200).chip(bigHbm).build();

    StepResult spilled = onGb200.decode(1, 1024);
    StepResult allHbm = onBigHbm.decode(1, 1024);
    // KV (528.48e6 B) and workspace (357.03e6 B) are reserved in HBM; the weights take the other
    // 185.114e9 B of HBM (45.61%), LPDDR the remaining 220.739e9 B (54.39%):
    // 0.4561 × 403.7e9 B read / 8e12 B/s + 0.5439 × 403.7e9 B / 225e9 B/s
    // ≈ 23 ms + 976 ms ≈ 1.0 s
    // (KV and activations read from HBM); all in HBM: 403.7e9 / 8e12 ≈ 50.5 ms
    OperationResult ffn = op(spilled.phase(PhaseKind.DECODE_FFN), "ffn");
    double onLpddr = ffn.bytesByTier().get("lpddr").bytes();
    double onHbm = ffn.bytesByTier().get("hbm").bytes();
    assertThat(onLpddr / (onLpddr + onHbm)).isCloseTo(220.739 / 405.853, withPercentage(0.1));
    assertThat(op(allHbm.phase(PhaseKind.DECODE_FFN), "ffn").bytesByTier()).containsOnlyKeys("hbm");
    assertThat(spilled.seconds().seconds()).isCloseTo(0.999, withPercentage(1));
    assertThat(allHbm.seconds().seconds()).isCloseTo(50.5e-3, withPercentage(1));
    assertThat(spilled.seconds().seconds()).isGreaterThan(allHbm.seconds().seconds());
  }

  @Test
  void decode_gb200ModelWithinHbm_isAsFastAsBiggerHbm() {
    // 141.1e9 B of bf16 Llama-3.1-70B weights fit in 186e9 B of HBM: nothing is read from LPDDR
    RooflineModel onGb200 = IdealPools.of(LLAMA70, GB200);
    Chip bigHbm =
        Chip.builder()
            .from(GB200)
            .id("gb200-all-hbm")
            .memory(
                List.of(
                    MemoryTier.builder()
                        .from(GB200.memory().get(0))
                        .capacity(Bytes.ofGigabytes(700))
                        .build(),
                    GB200.memory().get(1)))
            .build();
    double gb200 = onGb200.decode(1, 1024).seconds().seconds();
    double big =
        RooflineModel.builder()
            .from(onGb200)
            .chip(bigHbm)
            .build()
            .decode(1, 1024)
            .seconds()
            .seconds();
    assertThat(gb200).isCloseTo(big, withPercentage(1e-6));
  }
}
