package io.ridgeline.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

final class NamesTest {
  private static final List<String> CHIPS = List.of("h100-sxm", "h200-sxm", "b200");

  @Test
  void closest_oneEditAway_findsIt() {
    // "h100-sx" -> "h100-sxm" is 1 insertion; "h200-sxm" needs 2 edits; "b200" 6
    assertThat(Names.closest("h100-sx", CHIPS)).contains("h100-sxm");
  }

  @Test
  void closest_differentCase_ignoresCaseAndReturnsKnownSpelling() {
    assertThat(Names.closest("H200-SXM", CHIPS)).contains("h200-sxm");
    assertThat(Names.closest("B200", List.of("B200", "b300"))).contains("B200");
  }

  @Test
  void closest_noKnownIds_isEmpty() {
    assertThat(Names.closest("h100", List.of())).isEmpty();
  }

  @Test
  void closest_nullWanted_stillSuggests() {
    // "" is 4 edits from "b200", 8 from the others
    assertThat(Names.closest(null, CHIPS)).contains("b200");
  }

  @Test
  void unknown_typo_listsKnownIdsAndClosest() {
    NoSuchElementException e = Names.unknown("chip", "h100-sx", CHIPS);
    assertThat(e)
        .hasMessageContaining("chip")
        .hasMessageContaining("'h100-sx'")
        .hasMessageContaining("did you mean 'h100-sxm'?")
        .hasMessageContaining("h100-sxm, h200-sxm, b200");
  }

  @Test
  void distance_classicPairs_isLevenshtein() {
    // kitten -> sitting: k->s, e->i, +g = 3
    assertThat(Names.distance("kitten", "sitting")).isEqualTo(3);
    assertThat(Names.distance("", "abc")).isEqualTo(3);
    assertThat(Names.distance("abc", "")).isEqualTo(3);
    assertThat(Names.distance("same", "same")).isZero();
  }
}
