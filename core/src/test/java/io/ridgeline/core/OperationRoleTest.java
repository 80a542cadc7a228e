package io.ridgeline.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class OperationRoleTest {
  private static Set<OperationRole> where(Predicate<OperationRole> property) {
    return Arrays.stream(OperationRole.values())
        .filter(property)
        .collect(Collectors.toCollection(() -> EnumSet.noneOf(OperationRole.class)));
  }

  @Test
  void readsKvCache_attentionAndIndexer_only() {
    // RooflineModel.KV_OPS before roles: attention, attention_sliding, indexer
    assertThat(where(OperationRole::readsKvCache))
        .containsExactlyInAnyOrder(OperationRole.ATTENTION, OperationRole.INDEXER);
  }

  @Test
  void attentionSide_attentionBlockAndLinearMixers() {
    // RooflineModel.ATTENTION_OPS before roles: qkv_proj, o_proj, mla_proj, attention,
    // attention_sliding, indexer, linear_proj, linear_state
    assertThat(where(OperationRole::attentionSide))
        .containsExactlyInAnyOrder(
            OperationRole.ATTENTION,
            OperationRole.INDEXER,
            OperationRole.ATTENTION_PROJECTION,
            OperationRole.LINEAR_PROJECTION,
            OperationRole.LINEAR_STATE);
  }

  @Test
  void ffnSide_ffnWorkAndItsCollectives() {
    // Deployment.side before roles: ffn, router, experts, shared_experts and the FFN collectives
    // ffn_allreduce, moe_all_to_all
    assertThat(where(OperationRole::ffnSide))
        .containsExactlyInAnyOrder(
            OperationRole.DENSE_FFN,
            OperationRole.ROUTER,
            OperationRole.ROUTED_EXPERTS,
            OperationRole.SHARED_EXPERTS,
            OperationRole.FFN_ALL_REDUCE,
            OperationRole.MOE_ALL_TO_ALL);
  }

  @Test
  void collective_interconnectOperations() {
    assertThat(where(OperationRole::collective))
        .containsExactlyInAnyOrder(
            OperationRole.TP_ALL_REDUCE,
            OperationRole.FFN_ALL_REDUCE,
            OperationRole.MOE_ALL_TO_ALL,
            OperationRole.PIPELINE_SEND);
  }

  @Test
  void sides_noRole_onBothSides() {
    assertThat(where(r -> r.attentionSide() && r.ffnSide())).isEmpty();
    assertThat(where(r -> r.readsKvCache() && !r.attentionSide())).isEmpty();
  }

  @Test
  void id_routedExperts_isLowerCase() {
    assertThat(OperationRole.ROUTED_EXPERTS.id()).isEqualTo("routed_experts");
  }
}
