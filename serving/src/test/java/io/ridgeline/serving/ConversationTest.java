package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.queueing.LruResidence;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Conversation}: a conversation's history in the prefix cache, from capacity and think. */
final class ConversationTest {
  private static final ColocatedDeployment LLAMA_8B =
      new ColocatedDeployment(RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.H100_SXM));

  @Test
  void lruResidence_workedExamples() {
    // 1,000,000 free tokens touched at 50,000 tokens/s: 1e6 / 5e4 = 20 s
    assertThat(LruResidence.seconds(1_000_000, 50_000)).isEqualTo(20.0);
    // nothing free: nothing kept
    assertThat(LruResidence.seconds(-5, 50_000)).isZero();
    // T_C = 20 s, think 10 s: 1 − e^(−2) = 0.864665
    assertThat(LruResidence.hitProbability(20, 10)).isCloseTo(0.864665, offset(1e-6));
    // an immediate return finds it; nothing kept and a wait: a miss
    assertThat(LruResidence.hitProbability(0, 0)).isEqualTo(1.0);
    assertThat(LruResidence.hitProbability(0, 5)).isZero();
  }

  @Test
  void workload_meanTurn() {
    // 8 turns of 512 + 256: mean history (8 − 1)(768) / 2 = 2,688 tokens; the mean turn is isl
    // 512 + 2,688 = 3,200, osl 256; at p = 0.5, 1,344 of its tokens hit (rate 1344 / 3200 = 0.42)
    Conversation c = Conversation.of(8, 512, 256, 30);
    assertThat(c.meanHistoryTokens()).isEqualTo(2688);
    Workload w = c.workload(0.5);
    assertThat(w.inputTokens()).isEqualTo(3200);
    assertThat(w.outputTokens()).isEqualTo(256);
    assertThat(w.prefixHitTokens()).isEqualTo(1344);
    assertThat(w.newTokens()).isEqualTo(512 + 1344);
    // a miss prefills the whole conversation; decode runs at the same context either way
    assertThat(c.workload(0).newTokens()).isEqualTo(3200);
    assertThat(c.workload(1).newTokens()).isEqualTo(512);
    assertThat(c.workload(1).finalContext()).isEqualTo(c.workload(0).finalContext());
    // one turn has no history
    assertThat(Conversation.of(1, 512, 256, 30).workload(1).newTokens()).isEqualTo(512);
  }

  @Test
  void steadyState_isAFixedPoint_andMatchesTheLruFormula() {
    Conversation c = Conversation.of(8, 512, 256, 30);
    for (int batch : List.of(1, 16, 64)) {
      Conversation.Steady s = c.steadyState(LLAMA_8B, batch);
      FrontierPoint p = s.point();
      // the point is the mean turn's at the found hit rate
      FrontierPoint direct = LLAMA_8B.point(batch, c.workload(s.hitRate()));
      assertThat(p.tpot().seconds()).isEqualTo(direct.tpot().seconds());
      assertThat(p.ttft().seconds()).isEqualTo(direct.ttft().seconds());
      // and the rate is the LRU hit probability of that point's residence (up to the bisection
      // and the whole tokens the rate is rounded to)
      assertThat(LruResidence.hitProbability(s.residenceSeconds(), 30))
          .isCloseTo(s.hitRate(), offset(0.01));
      assertThat(p.note()).contains("histories").contains("prefix cache");
    }
  }

  @Test
  void steadyState_fullCache_missesEveryHistory_immediateReturnHitsIt() {
    Conversation c = Conversation.of(8, 512, 256, 30);
    int context = c.workload(0).finalContext();
    int largest = LLAMA_8B.largestBatch(context).orElseThrow();
    // at the largest batch the running turns hold nearly all of the KV cache: little is kept
    Conversation.Steady full = c.steadyState(LLAMA_8B, largest);
    assertThat(full.hitRate()).isLessThan(c.steadyState(LLAMA_8B, 1).hitRate());
    // a user who answers at once always finds the history
    assertThat(Conversation.of(8, 512, 256, 0).steadyState(LLAMA_8B, largest).hitRate())
        .isEqualTo(1.0);
  }

  @Test
  void steadyState_hitRateFallsWithThinkTime() {
    qt().withExamples(20)
        .forAll(integers().between(1, 200), doubles().between(0.1, 600))
        .checkAssert(
            (batch, think) -> {
              double shorter =
                  Conversation.of(6, 1024, 128, think).steadyState(LLAMA_8B, batch).hitRate();
              double longer =
                  Conversation.of(6, 1024, 128, 2 * think).steadyState(LLAMA_8B, batch).hitRate();
              assertThat(longer).isLessThanOrEqualTo(shorter + 1e-6);
            });
  }

  @Test
  void frontier_ofConversations() {
    ParetoFrontier f =
        ParetoFrontier.builder(LLAMA_8B).conversation(Conversation.of(8, 512, 256, 30)).build();
    assertThat(f.points()).isNotEmpty();
    for (FrontierPoint p : f.points()) {
      assertThat(p.note()).contains("8-turn conversations");
    }
    // setting a workload afterwards drops the conversations
    ParetoFrontier plain =
        ParetoFrontier.builder(LLAMA_8B)
            .conversation(Conversation.of(8, 512, 256, 30))
            .workload(Workload.of(512, 256))
            .build();
    assertThat(plain.points().get(0).note()).doesNotContain("conversations");
  }

  @Test
  void rejectsBadInput_namingFieldRuleAndValue() {
    assertThatThrownBy(() -> Conversation.of(0, 512, 256, 30))
        .hasMessage("conversation turns must be positive: 0");
    assertThatThrownBy(() -> Conversation.of(8, 512, 256, Double.NaN))
        .hasMessage("think seconds must be finite and not negative: NaN");
    assertThatThrownBy(() -> Conversation.of(8, 512, 256, 30).workload(1.5))
        .hasMessage("hit rate must be between 0 and 1: 1.5");
    RooflineModel h100 = RooflineModel.of(Models.byId("llama-3.1-8b"), Chips.H100_SXM);
    Deployment pd =
        DeploymentSpec.builder()
            .strategy(Deployment.Strategy.PD)
            .pool(PoolSpec.of(h100))
            .build()
            .build(512, 256);
    assertThatThrownBy(() -> Conversation.of(8, 512, 256, 30).steadyState(pd, 1))
        .hasMessageContaining("colocated deployments only");
  }
}
