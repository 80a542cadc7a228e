package io.ridgeline.hardware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ridgeline.core.FlopsPerSecond;
import io.ridgeline.core.Precision;
import java.io.IOException;
import java.nio.file.Path;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ChipCatalogTest {
  @TempDir Path dir;

  @Test
  void with_newChip_leavesOriginalUnchanged() {
    ChipCatalog original = Chips.builtIn();

    ChipCatalog extended = original.with(HardwareFixtures.npu());

    assertThat(extended.ids()).hasSize(40).endsWith("my-npu");
    assertThat(original.ids()).hasSize(39).doesNotContain("my-npu");
    assertThat(original.find("my-npu")).isEmpty();
    assertThat(extended.byId("MY-NPU").name()).isEqualTo("My NPU");
  }

  @Test
  void with_sameIdOtherCase_replacesInPlace() {
    Chip faster =
        Chip.builder()
            .from(Chips.H100_SXM)
            .id("H100-SXM")
            .putPeak(Precision.FP4, FlopsPerSecond.ofTera(4000))
            .build();

    ChipCatalog catalog = Chips.builtIn().with(faster);

    assertThat(catalog.ids()).hasSize(39);
    assertThat(catalog.ids().get(3)).isEqualTo("H100-SXM");
    assertThat(catalog.byId("h100-sxm")).isSameAs(faster);
    assertThat(Chips.byId("h100-sxm").peak(Precision.FP4)).isEmpty();
  }

  @Test
  void withFile_validFile_addsItsChips() throws IOException {
    Path file = HardwareFixtures.write(dir, "my.json", HardwareFixtures.NPU_JSON);

    ChipCatalog catalog = ChipCatalog.of(Chips.H100_SXM).withFile(file);

    assertThat(catalog.ids()).containsExactly("h100-sxm", "my-npu");
  }

  @Test
  void copyOf_duplicateIds_isRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ChipCatalog.of(Chips.B200, Chips.B200));

    assertThat(e.getMessage())
        .isEqualTo("chip ids must be unique in a catalog: 'b200' appears twice");
  }

  @Test
  void byId_unknownInSmallCatalog_listsItsIds() {
    ChipCatalog catalog = ChipCatalog.of(Chips.H100_SXM, Chips.B200);

    NoSuchElementException e =
        assertThrows(NoSuchElementException.class, () -> catalog.byId("b20"));

    assertThat(e.getMessage())
        .isEqualTo("unknown chip 'b20'; did you mean 'b200'? known: h100-sxm, b200");
  }

  @Test
  void equals_sameChipsSameOrder_isEqual() {
    assertThat(ChipCatalog.of(Chips.H100_SXM, Chips.B200))
        .isEqualTo(ChipCatalog.copyOf(java.util.List.of(Chips.H100_SXM, Chips.B200)))
        .isNotEqualTo(ChipCatalog.of(Chips.B200, Chips.H100_SXM))
        .hasToString("ChipCatalog[2 chips: h100-sxm, b200]");
  }
}
