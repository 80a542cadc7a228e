package io.ridgeline.models;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.core.Phase;
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
              org.assertj.core.api.Assertions.assertThat(bytes(moreBatch))
                  .isGreaterThanOrEqualTo(bytes(base));
              org.assertj.core.api.Assertions.assertThat(flops(moreBatch))
                  .isGreaterThanOrEqualTo(flops(base));
              org.assertj.core.api.Assertions.assertThat(bytes(moreContext))
                  .isGreaterThanOrEqualTo(bytes(base));
              org.assertj.core.api.Assertions.assertThat(flops(moreContext))
                  .isGreaterThanOrEqualTo(flops(base));
            });
  }
}
