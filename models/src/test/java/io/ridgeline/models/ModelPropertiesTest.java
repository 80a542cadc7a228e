package io.ridgeline.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.core.Phase;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ModelPropertiesTest {
  private static double bytes(List<Phase> phases) {
    return phases.stream().mapToDouble(p -> p.bytes().bytes()).sum();
  }

  private static double flops(List<Phase> phases) {
    return phases.stream().mapToDouble(p -> p.flops().flops()).sum();
  }

  @Test
  void decodeStep_bytesAndFlops_nonDecreasingInBatchAndContext() {
    List<Model> models = Models.all();
    qt().forAll(
            integers().between(0, models.size() - 1),
            integers().between(1, 512),
            integers().between(1, 131_072),
            integers().between(0, 64))
        .checkAssert(
            (i, batch, context, extra) -> {
              Model m = models.get(i);
              Precisions p = Precisions.bf16();
              List<Phase> base = m.decodeStep(batch, context, p);
              List<Phase> moreBatch = m.decodeStep(batch + extra, context, p);
              List<Phase> moreContext = m.decodeStep(batch, context + extra, p);
              assertThat(bytes(moreBatch)).isGreaterThanOrEqualTo(bytes(base));
              assertThat(flops(moreBatch)).isGreaterThanOrEqualTo(flops(base));
              assertThat(bytes(moreContext)).isGreaterThanOrEqualTo(bytes(base));
              assertThat(flops(moreContext)).isGreaterThanOrEqualTo(flops(base));
            });
  }

  @Test
  void
      decodeStep_everyPhaseAtCheckpointPrecisionsAndSkewedRouting_nonDecreasingInBatchAndContext() {
    List<Model> models = Models.all();
    Routing skewed = Routing.zipf(0.5);
    qt().forAll(
            integers().between(0, models.size() - 1),
            integers().between(1, 256),
            integers().between(1, 262_144),
            integers().between(1, 4096))
        .checkAssert(
            (i, batch, context, extra) -> {
              Model m = models.get(i);
              Precisions p = m.defaultPrecisions();
              List<Phase> base = m.decodeStep(batch, context, p, skewed);
              List<Phase> moreBatch = m.decodeStep(batch + extra % 64, context, p, skewed);
              List<Phase> moreContext = m.decodeStep(batch, context + extra, p, skewed);
              // the phases a model has do not depend on batch or context
              assertThat(ModelTesting.names(moreBatch)).isEqualTo(ModelTesting.names(base));
              assertThat(ModelTesting.names(moreContext)).isEqualTo(ModelTesting.names(base));
              for (int k = 0; k < base.size(); k++) {
                String what = m.id() + " " + base.get(k).name();
                assertThat(moreBatch.get(k).bytes())
                    .as(what)
                    .isGreaterThanOrEqualTo(base.get(k).bytes());
                assertThat(moreBatch.get(k).flops())
                    .as(what)
                    .isGreaterThanOrEqualTo(base.get(k).flops());
                assertThat(moreContext.get(k).bytes())
                    .as(what)
                    .isGreaterThanOrEqualTo(base.get(k).bytes());
                assertThat(moreContext.get(k).flops())
                    .as(what)
                    .isGreaterThanOrEqualTo(base.get(k).flops());
              }
            });
  }

  @Test
  void decodeStep_slidingAndLinearPhases_constantPastTheWindow() {
    List<Model> models = Models.all();
    qt().forAll(
            integers().between(0, models.size() - 1),
            integers().between(1, 64),
            integers().between(4096, 200_000),
            integers().between(1, 100_000))
        .checkAssert(
            (i, batch, context, extra) -> {
              Model m = models.get(i);
              // every window in the catalog is at most 4096 tokens
              List<Phase> base = m.decodeStep(batch, context, Precisions.bf16());
              List<Phase> longer = m.decodeStep(batch, context + extra, Precisions.bf16());
              for (int k = 0; k < base.size(); k++) {
                String name = base.get(k).name();
                if (name.equals("decode_attention_sliding")
                    || name.equals("decode_linear_attention")) {
                  assertThat(longer.get(k).bytes())
                      .as(m.id() + " " + name)
                      .isEqualTo(base.get(k).bytes());
                  assertThat(longer.get(k).flops())
                      .as(m.id() + " " + name)
                      .isEqualTo(base.get(k).flops());
                }
              }
            });
  }

  @Test
  void cacheBytesPerSequence_nonDecreasingInContextAndNonIncreasingInTensorParallelism() {
    List<Model> models = Models.all();
    qt().forAll(
            integers().between(0, models.size() - 1),
            integers().between(1, 1_000_000),
            integers().between(0, 100_000),
            integers().between(1, 64))
        .checkAssert(
            (i, context, extra, tp) -> {
              Model m = models.get(i);
              double base = m.cacheBytesPerSequence(context, Precision.BF16, tp).bytes();
              assertThat(
                      m.cacheBytesPerSequence((long) context + extra, Precision.BF16, tp).bytes())
                  .as(m.id())
                  .isGreaterThanOrEqualTo(base);
              assertThat(m.cacheBytesPerSequence(context, Precision.BF16, tp + 1).bytes())
                  .as(m.id())
                  .isLessThanOrEqualTo(base);
              // one chip holds the growing part for every token plus the bounded part at most
              double whole =
                  m.kvBytesPerToken(Precision.BF16).bytes() * context
                      + m.boundedCacheBytesPerSequence(Precision.BF16).bytes();
              assertThat(m.cacheBytesPerSequence(context, Precision.BF16, 1).bytes())
                  .as(m.id())
                  .isLessThanOrEqualTo(whole * (1 + 1e-12));
            });
  }

  @Test
  void prefill_bytesAndFlops_nonDecreasingInPromptAndBatch() {
    List<Model> models = Models.all();
    qt().forAll(
            integers().between(0, models.size() - 1),
            integers().between(1, 16),
            integers().between(1, 32_768),
            integers().between(0, 4096))
        .checkAssert(
            (i, batch, prompt, extra) -> {
              Model m = models.get(i);
              Precisions p = Precisions.bf16();
              Phase base = m.prefill(batch, prompt, p);
              Phase longer = m.prefill(batch, prompt + extra, p);
              Phase wider = m.prefill(batch + 1, prompt, p);
              assertThat(longer.flops()).as(m.id()).isGreaterThanOrEqualTo(base.flops());
              assertThat(longer.bytes()).as(m.id()).isGreaterThanOrEqualTo(base.bytes());
              assertThat(wider.flops()).as(m.id()).isGreaterThanOrEqualTo(base.flops());
              assertThat(wider.bytes()).as(m.id()).isGreaterThanOrEqualTo(base.bytes());
            });
  }

  @Test
  void parameters_everyCatalogModel_totalAtLeastActiveAtLeastEmbeddingsAndPositive() {
    for (Model m : Models.all()) {
      assertThat(m.activeParameters()).as(m.id()).isPositive();
      assertThat(m.totalParameters()).as(m.id()).isGreaterThanOrEqualTo(m.activeParameters());
      assertThat(m.activeParameters())
          .as(m.id())
          .isGreaterThan(m.embeddingParameters() + m.lmHeadParameters());
      assertThat(m.weightBytes(m.defaultPrecisions()).bytes()).as(m.id()).isPositive();
    }
  }
}
