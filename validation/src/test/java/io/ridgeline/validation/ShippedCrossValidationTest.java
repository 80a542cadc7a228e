package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins the cross-validated accuracy of the shipped report ({@code crossval.json}, written by {@code
 * ridgeline calibrate --cross-validate --report}): each fold's stored profile predicts its held-out
 * rows again with today's model, and every scheme's median APE, overall and per metric, may exceed
 * the stored figure by at most 2 percentage points. A model change that makes held-out predictions
 * worse fails here without refitting (refitting takes minutes: it stays a command).
 */
final class ShippedCrossValidationTest {
  private static final double SLACK = 0.02;

  @Test
  void shippedFolds_replayedWithTodaysModel_heldOutErrorDoesNotGrow() {
    String text = CrossValidationJson.shipped().orElseThrow();
    List<ValidationCase> cases = CaseFile.shipped();
    List<CrossValidation.Fold> folds = CrossValidationJson.folds(text, "crossval.json");
    // the report covers today's case file: every source with a predictable row is a fold
    Set<String> sources =
        CrossValidation.predictable(cases).stream()
            .map(ValidationCase::source)
            .collect(Collectors.toSet());
    assertThat(
            folds.stream()
                .filter(f -> f.scheme() == CrossValidation.Scheme.LEAVE_ONE_SOURCE_OUT)
                .map(CrossValidation.Fold::name)
                .collect(Collectors.toSet()))
        .isEqualTo(sources);
    CrossValidation.Report replayed = CrossValidation.replay(cases, folds);
    JsonNode stored = CrossValidationJson.summary(text);
    for (CrossValidation.Scheme s : CrossValidation.Scheme.values()) {
      JsonNode mine = stored.path(s.id());
      assertThat(replayed.summary(s).count()).as(s.id()).isEqualTo(mine.path("count").asInt());
      assertThat(replayed.summary(s).medianApe())
          .as(s.id() + " overall")
          .isLessThanOrEqualTo(mine.path("overall").asDouble() + SLACK);
      replayed
          .by(s, c -> c.metric().id())
          .forEach(
              (metric, summary) ->
                  assertThat(summary.medianApe())
                      .as(s.id() + " " + metric)
                      .isLessThanOrEqualTo(mine.path(metric).asDouble() + SLACK));
    }
  }
}
