package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ridgeline.core.OperationRole;
import io.ridgeline.core.TensorClass;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class ParallelLayoutTest {
  @Test
  void shards_tp4Dp2Pp2_followTheTable() {
    // 32 chips, tp 4 × dp 2 × pp 2 = 16 per replica → 2 replicas
    ParallelLayout l = new ParallelLayout(32, 4, 2, 8, 2);
    assertThat(l.stageChips()).isEqualTo(8);
    assertThat(l.replicaChips()).isEqualTo(16);
    assertThat(l.replicas()).isEqualTo(2);
    // attention weights: tp · pp = 8 (each dp group holds a copy); the rest: tp · dp · pp = 16
    assertThat(l.shards(l.sharding(TensorClass.ATTENTION))).isEqualTo(8);
    assertThat(l.shards(l.sharding(TensorClass.EXPERTS))).isEqualTo(16);
    // a step of 2 sequences keeps both dp groups busy: GQA with 8 KV heads: 2 · min(4, 8) · pp =
    // 16;
    // an MLA latent (1 shard): 2 · 1 · pp = 4
    assertThat(l.kvShards(8, 2)).isEqualTo(16);
    assertThat(l.kvShards(1, 2)).isEqualTo(4);
    assertThat(l.kvShardsBeyondTensorParallel()).isEqualTo(4);
    assertThat(l).hasToString("tp 4, pp 2, ep 8, attention dp 2");
  }

  @Test
  void runsPerGroup_everyRole_attentionSideAndWithDpTheDenseFfnClass() {
    // the attention block always runs per dp group; with dp > 1 the dense FFN, router and shared
    // experts too (SGLang --moe-dense-tp-size 1, TensorRT-LLM attention DP); the rest stage-wide
    Set<OperationRole> attention =
        EnumSet.of(
            OperationRole.ATTENTION,
            OperationRole.INDEXER,
            OperationRole.ATTENTION_PROJECTION,
            OperationRole.LINEAR_PROJECTION,
            OperationRole.LINEAR_STATE);
    Set<OperationRole> denseFfn =
        EnumSet.of(OperationRole.DENSE_FFN, OperationRole.ROUTER, OperationRole.SHARED_EXPERTS);
    ParallelLayout dp1 = new ParallelLayout(8, 8, 1, 8, 1);
    ParallelLayout dp2 = new ParallelLayout(8, 4, 1, 8, 2);
    for (OperationRole r : OperationRole.values()) {
      assertThat(dp1.runsPerGroup(r)).as("dp 1: " + r.id()).isEqualTo(attention.contains(r));
      assertThat(dp2.runsPerGroup(r))
          .as("dp 2: " + r.id())
          .isEqualTo(attention.contains(r) || denseFfn.contains(r));
    }
  }

  @Test
  void busyAttentionGroups_dp8_theBusiestGroupSetsTheStep() {
    // dp 8: 4 sequences keep 4 / ⌈4/8⌉ = 4 groups busy; 12 keep 12 / ⌈12/8⌉ = 6; 16 keep 8; one
    // prompt (or a fraction of one, a colocated step's prefill share) keeps 1
    ParallelLayout l = new ParallelLayout(8, 1, 1, 8, 8);
    assertThat(l.busyAttentionGroups(4)).isEqualTo(4);
    assertThat(l.busyAttentionGroups(12)).isEqualTo(6);
    assertThat(l.busyAttentionGroups(16)).isEqualTo(8);
    assertThat(l.busyAttentionGroups(1)).isEqualTo(1);
    assertThat(l.busyAttentionGroups(0.25)).isEqualTo(1);
    // the attention side's work of 4 sequences divides over tp · pp · 4 busy groups; the FFN's
    // over all 8 chips
    assertThat(l.workShards(true, 4)).isEqualTo(4);
    assertThat(l.workShards(false, 4)).isEqualTo(8);
  }

  @Test
  void tensorParallel_8_isOneReplicaOfEightChips() {
    ParallelLayout l = ParallelLayout.tensorParallel(8);
    assertThat(l.replicaChips()).isEqualTo(8);
    assertThat(l.replicas()).isEqualTo(1);
    assertThat(l).hasToString("tp 8");
  }

  @Test
  void constructor_badDegrees_nameTheRuleAndValue() {
    assertThat(
            assertThrows(IllegalArgumentException.class, () -> new ParallelLayout(8, 0, 1, 1, 1)))
        .hasMessage("tensor parallel degree must be positive: 0");
    assertThat(
            assertThrows(IllegalArgumentException.class, () -> new ParallelLayout(12, 8, 1, 1, 1)))
        .hasMessage("chip count (12) must be a multiple of tp × dp × pp = 8 × 1 × 1");
    assertThat(
            assertThrows(IllegalArgumentException.class, () -> new ParallelLayout(8, 8, 1, 3, 1)))
        .hasMessage("expert parallel degree (3) must divide the 8 chips of a stage (tp × dp)");
    assertThat(
            assertThrows(
                IllegalArgumentException.class,
                () -> new ParallelLayout(8, 8, 1, 1, 1).kvShards(0, 1)))
        .hasMessage("kv shards must be positive: 0");
  }
}
