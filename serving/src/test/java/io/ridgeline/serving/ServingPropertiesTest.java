package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Model;
import io.ridgeline.models.Models;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ServingPropertiesTest {
  private static final List<Model> MODELS = Models.all();
  private static final List<Chip> CHIPS =
      List.of(
          Chips.byId("h100-sxm"),
          Chips.byId("b200"),
          Chips.byId("mi300x"),
          Chips.byId("groq-lpu"),
          Chips.byId("tpu-v5e"));

  @Test
  void decodeTime_nonDecreasingInBatchAndContext() {
    qt().forAll(
            integers().between(0, MODELS.size() * CHIPS.size() - 1),
            integers().between(1, 256),
            integers().between(1, 65_536),
            integers().between(0, 512))
        .checkAssert(
            (pair, batch, context, extra) -> {
              // pair indexes every (model, chip) combination
              RooflineModel rm =
                  IdealPools.of(MODELS.get(pair / CHIPS.size()), CHIPS.get(pair % CHIPS.size()));
              double base = rm.decode(batch, context).seconds().seconds();
              assertThat(rm.decode(batch + extra, context).seconds().seconds())
                  .isGreaterThanOrEqualTo(base);
              assertThat(rm.decode(batch, context + extra).seconds().seconds())
                  .isGreaterThanOrEqualTo(base);
            });
  }

  @Test
  void memory_monotoneInBatch() {
    qt().forAll(
            integers().between(0, MODELS.size() - 1),
            integers().between(1, 4096),
            integers().between(1, 32_768),
            integers().between(0, 100))
        .checkAssert(
            (m, batch, context, extra) -> {
              RooflineModel rm = IdealPools.of(MODELS.get(m), Chips.byId("h100-sxm"));
              assertThat(rm.memory(batch + extra, context).total().bytes())
                  .isGreaterThanOrEqualTo(rm.memory(batch, context).total().bytes());
            });
  }
}
