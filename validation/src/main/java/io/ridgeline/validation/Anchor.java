package io.ridgeline.validation;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A user's own measurement of their deployment, and the factor it implies. Software versions and
 * settings differ by up to 3× on the same model and chip; one measured operating point of the
 * deployment (its rows: TTFT, TPOT, throughput...) fixes how much faster or slower it runs than the
 * model predicts, and that factor is applied to every other prediction of the deployment.
 *
 * <p>The factor is the mean ln slowdown ({@link Metric#lnSlowdown}) of the anchor's rows: a time
 * predicted 25% high and a rate predicted 20% low both say the model is 1.25× too slow.
 *
 * <p>Worked example: an anchor point with TPOT predicted 12 ms against 10 ms measured (ln 1.2) and
 * throughput predicted 800 against 1,000 tok/s (−ln 0.8 = ln 1.25) has ln slowdown (0.1823 +
 * 0.2231) / 2 = 0.2027; another TPOT of 20 ms predicted becomes 20 × e^−0.2027 = 16.33 ms.
 */
public final class Anchor {
  private Anchor() {}

  /**
   * The ln slowdown of {@code anchorRows}: the mean of each row's {@link Metric#lnSlowdown}.
   *
   * @throws IllegalArgumentException when there is no row
   */
  public static double lnSlowdown(List<Prediction> anchorRows) {
    checkArgument(!anchorRows.isEmpty(), "an anchor needs at least one predicted row");
    double sum = 0;
    for (Prediction p : anchorRows) {
      sum += p.testCase().metric().lnSlowdown(p.ratio());
    }
    return sum / anchorRows.size();
  }

  /** {@code p} made {@code exp(lnSlowdown)} faster, saying so in its note. */
  public static Prediction adjust(Prediction p, double lnSlowdown, String anchor) {
    return new Prediction(
        p.testCase(),
        p.testCase().metric().faster(p.predicted(), lnSlowdown),
        p.note()
            + String.format(
                Locale.ROOT,
                "; anchored on %s (model ×%.3f slower)",
                anchor,
                Math.exp(lnSlowdown)));
  }

  /**
   * The predictions of points other than {@code anchorPoint}, each adjusted by the factor of the
   * rows of {@code anchorPoint}; empty when the anchor point has no predicted row.
   */
  static List<Prediction> apply(String anchorPoint, List<Prediction> predictions) {
    List<Prediction> anchor = new ArrayList<>();
    List<Prediction> rest = new ArrayList<>();
    for (Prediction p : predictions) {
      (p.testCase().pointId().equals(anchorPoint) ? anchor : rest).add(p);
    }
    if (anchor.isEmpty()) {
      return List.of();
    }
    double b = lnSlowdown(anchor);
    List<Prediction> out = new ArrayList<>();
    for (Prediction p : rest) {
      out.add(adjust(p, b, anchorPoint));
    }
    return out;
  }

  /** The first point id (in id order) of {@code rows} when they hold at least two points. */
  static Optional<String> firstPoint(List<ValidationCase> rows) {
    List<String> points =
        rows.stream()
            .map(ValidationCase::pointId)
            .distinct()
            .sorted()
            .collect(java.util.stream.Collectors.toList());
    return points.size() >= 2 ? Optional.of(points.get(0)) : Optional.empty();
  }
}
