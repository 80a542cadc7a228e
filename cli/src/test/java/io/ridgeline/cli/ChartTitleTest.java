package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Font;
import java.awt.font.FontRenderContext;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ChartTitleTest {

  @Test
  void clipped_titleOverTheLimit_isCutWithAnEllipsis() {
    String id = "x".repeat(6_000);
    String t = ChartRendering.clipped(id);
    // 399 characters of the title and one ellipsis
    assertThat(t).hasSize(ChartRendering.MAX_TITLE_CHARS).endsWith("\u2026");
    assertThat(ChartRendering.clipped("llama-3.1-70b on 8x h100-sxm"))
        .isEqualTo("llama-3.1-70b on 8x h100-sxm");
  }

  @Test
  void wrap_wordWiderThanTheRoom_isCutIntoPiecesThatFitAndKeepEveryCharacter() {
    Font f = new Font(Font.SANS_SERIF, Font.PLAIN, 14);
    FontRenderContext frc = ChartRendering.frc();
    String word = "abcdefghij".repeat(50);
    double room = 200;
    List<String> lines = ChartRendering.wrap(word, f, frc, room);
    assertThat(lines).hasSizeGreaterThan(1);
    assertThat(String.join("", lines)).isEqualTo(word);
    for (String l : lines) {
      assertThat(f.getStringBounds(l, frc).getWidth()).isLessThanOrEqualTo(room);
    }
    // each piece but the last is the longest prefix that fits: one more character would not
    for (int i = 0; i < lines.size() - 1; i++) {
      String longer = lines.get(i) + lines.get(i + 1).charAt(0);
      assertThat(f.getStringBounds(longer, frc).getWidth()).isGreaterThan(room);
    }
  }
}
