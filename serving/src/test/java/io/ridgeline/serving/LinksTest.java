package io.ridgeline.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.ridgeline.hardware.Chip;
import io.ridgeline.hardware.Chips;
import org.junit.jupiter.api.Test;

final class LinksTest {
  private static final Chip H100 = Chips.byId("h100-sxm");
  private static final Chip B200 = Chips.byId("b200");

  @Test
  void within_groupInsideTheNvlinkDomain_scaleUp_beyondIt_scaleOut() {
    // an HGX H100 board: 8 chips on NVLink
    assertThat(Links.within(H100, 8)).isEqualTo(H100.scaleUp());
    assertThat(Links.within(H100, 16)).isEqualTo(H100.scaleOut());
  }

  @Test
  void between_poolsOfOneChipTypeInOneDomain_scaleUp_otherwiseScaleOut() {
    // 4 decode + 1 prefill H100s fit one 8-chip NVLink domain
    assertThat(Links.between(H100, 1, H100, 4)).isEqualTo(H100.scaleUp());
    // 8 + 1 do not
    assertThat(Links.between(H100, 1, H100, 8)).isEqualTo(H100.scaleOut());
    // different chips never share a fabric: the first pool's network
    assertThat(Links.between(H100, 1, B200, 1)).isEqualTo(H100.scaleOut());
  }
}
