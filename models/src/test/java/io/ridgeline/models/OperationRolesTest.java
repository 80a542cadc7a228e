package io.ridgeline.models;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.Phase;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.Precisions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The roles and phase kinds the catalog models emit put every operation and phase in exactly the
 * buckets serving put them in when it matched names: the sets below are the name sets serving used
 * before roles and kinds existed.
 */
final class OperationRolesTest {
  /** RooflineModel.KV_OPS: attention kernels run at the attention efficiency. */
  private static final Set<String> KV_OPS = Set.of("attention", "attention_sliding", "indexer");

  /** RooflineModel.ATTENTION_OPS: weights held once per attention data-parallel group. */
  private static final Set<String> ATTENTION_OPS =
      Set.of(
          "qkv_proj",
          "o_proj",
          "mla_proj",
          "attention",
          "attention_sliding",
          "indexer",
          "linear_proj",
          "linear_state");

  /** Deployment.side: operations of a mixed phase that run on the FFN pool. */
  private static final Set<String> FFN_OPS = Set.of("ffn", "router", "experts", "shared_experts");

  /** Crossover.ATTENTION_PHASES. */
  private static final Set<String> ATTENTION_PHASES =
      Set.of("decode_attention", "decode_attention_sliding", "decode_linear_attention");

  /** Crossover.FFN_PHASES and Deployment.FFN_PHASES. */
  private static final Set<String> FFN_PHASES = Set.of("decode_ffn", "decode_moe");

  /** A worked example per role: the names the models emit for it. */
  private static final Map<String, OperationRole> ROLE_BY_NAME =
      Map.ofEntries(
          Map.entry("attention", OperationRole.ATTENTION),
          Map.entry("attention_sliding", OperationRole.ATTENTION),
          Map.entry("indexer", OperationRole.INDEXER),
          Map.entry("qkv_proj", OperationRole.ATTENTION_PROJECTION),
          Map.entry("o_proj", OperationRole.ATTENTION_PROJECTION),
          Map.entry("mla_proj", OperationRole.ATTENTION_PROJECTION),
          Map.entry("linear_proj", OperationRole.LINEAR_PROJECTION),
          Map.entry("linear_state", OperationRole.LINEAR_STATE),
          Map.entry("ffn", OperationRole.DENSE_FFN),
          Map.entry("router", OperationRole.ROUTER),
          Map.entry("experts", OperationRole.ROUTED_EXPERTS),
          Map.entry("shared_experts", OperationRole.SHARED_EXPERTS),
          Map.entry("embedding", OperationRole.EMBEDDING),
          Map.entry("norms", OperationRole.NORM),
          Map.entry("lm_head", OperationRole.LM_HEAD));

  /** Every phase of every catalog model: decode (1 and 3 tokens per sequence) and prefill. */
  private static List<Phase> catalogPhases() {
    List<Phase> phases = new ArrayList<>();
    for (Model m : Models.all()) {
      phases.addAll(m.decodeStep(4, 2048, Precisions.bf16()));
      phases.addAll(m.decodeStep(2, 300_000, Precisions.bf16(), Routing.uniform(), 3));
      phases.add(m.prefill(2, 1024, Precisions.bf16()));
    }
    return phases;
  }

  @Test
  void role_everyCatalogOperation_isItsNamesRole() {
    Set<OperationRole> seen = EnumSet.noneOf(OperationRole.class);
    for (Phase p : catalogPhases()) {
      for (Operation o : p.operations()) {
        assertThat(o.role()).as(o.name()).isEqualTo(ROLE_BY_NAME.get(o.name()));
        seen.add(o.role());
      }
    }
    // every non-collective role occurs in the catalog
    assertThat(seen).containsExactlyInAnyOrderElementsOf(EnumSet.copyOf(ROLE_BY_NAME.values()));
  }

  @Test
  void role_everyCatalogOperation_inTheBucketsItsNameWasIn() {
    for (Phase p : catalogPhases()) {
      for (Operation o : p.operations()) {
        OperationRole r = o.role();
        assertThat(r.readsKvCache()).as(o.name()).isEqualTo(KV_OPS.contains(o.name()));
        assertThat(r.attentionSide()).as(o.name()).isEqualTo(ATTENTION_OPS.contains(o.name()));
        assertThat(r.ffnSide()).as(o.name()).isEqualTo(FFN_OPS.contains(o.name()));
        assertThat(r.collective()).as(o.name()).isFalse();
      }
    }
  }

  @Test
  void kind_everyCatalogPhase_inTheBucketsItsNameWasIn() {
    Set<PhaseKind> seen = EnumSet.noneOf(PhaseKind.class);
    for (Phase p : catalogPhases()) {
      PhaseKind k = p.kind();
      seen.add(k);
      assertThat(k.id()).isEqualTo(p.name());
      assertThat(k.attention()).as(p.name()).isEqualTo(ATTENTION_PHASES.contains(p.name()));
      assertThat(k.ffn()).as(p.name()).isEqualTo(FFN_PHASES.contains(p.name()));
      assertThat(k.mixed()).as(p.name()).isEqualTo(p.name().equals("prefill"));
    }
    // the models emit every kind but serving's decode_communication
    assertThat(seen)
        .containsExactlyInAnyOrderElementsOf(
            EnumSet.complementOf(EnumSet.of(PhaseKind.DECODE_COMMUNICATION)));
  }
}
