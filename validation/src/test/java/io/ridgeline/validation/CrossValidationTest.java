package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

final class CrossValidationTest {
  @Test
  void heldOutGroups_pointFoldsPartitionThePointsThenOneGroupPerSource() {
    List<ValidationCase> rows = CrossValidation.predictable(CaseFile.shipped());
    List<List<ValidationCase>> groups = CrossValidation.heldOutGroups(rows);
    Set<String> sources = rows.stream().map(ValidationCase::source).collect(Collectors.toSet());
    assertThat(groups).hasSize(CrossValidation.POINT_FOLDS + sources.size());
    // every row is in exactly one point fold, and a point's metrics stay together
    List<ValidationCase> inFolds = new ArrayList<>();
    Set<String> seenPoints = new HashSet<>();
    for (int k = 0; k < CrossValidation.POINT_FOLDS; k++) {
      Set<String> points =
          groups.get(k).stream().map(ValidationCase::pointId).collect(Collectors.toSet());
      for (String point : points) {
        assertThat(seenPoints.add(point)).as(point).isTrue();
      }
      inFolds.addAll(groups.get(k));
    }
    assertThat(inFolds).containsExactlyInAnyOrderElementsOf(rows);
    // each source group holds that source's rows only
    for (List<ValidationCase> g : groups.subList(CrossValidation.POINT_FOLDS, groups.size())) {
      assertThat(g.stream().map(ValidationCase::source).distinct()).hasSize(1);
    }
  }

  @Test
  void scheme_of_unknownId_listsTheKnownOnes() {
    assertThat(CrossValidation.Scheme.of("leave-one-source-out"))
        .isEqualTo(CrossValidation.Scheme.LEAVE_ONE_SOURCE_OUT);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> CrossValidation.Scheme.of("loso"))
        .hasMessage(
            "unknown cross-validation scheme 'loso'; known: in-sample, point-grouped,"
                + " leave-one-source-out, anchored");
  }
}
