package io.ridgeline.validation;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.serving.efficiency.Anchoring;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A user's own measurement of their deployment, and the factor it implies. Software versions and
 * settings differ by up to 3× on the same model and chip; one measured operating point of the
 * deployment (its rows: TTFT, TPOT, throughput...) fixes how much faster or slower it runs than the
 * model predicts, and that factor is applied to every other prediction of the deployment.
 *
 * <p>Each quantity ({@link Metric.Quantity}: TTFT, decode speed, throughput, end-to-end latency)
 * gets its own factor, the mean ln slowdown ({@link Metric#lnSlowdown}) of the anchor's rows of
 * that quantity: a time predicted 25% high and a rate predicted 20% low both say the model is 1.25×
 * too slow. A quantity the anchor did not measure gets the mean of all its rows. TTFT and decode
 * miss for different reasons (a serving stack's own queueing and hand-overs, an engine's kernels),
 * so one factor for all would carry a TTFT miss into the throughput and back. {@link
 * CrossValidation.Scheme#ANCHORED} measures what the factors buy on sources the profile was not
 * fitted on (its figures: {@code crossval.json}, the cross-validation table of docs/validation.md).
 *
 * <p>Worked example: an anchor point with TPOT predicted 12 ms against 10 ms measured (ln 1.2),
 * throughput predicted 800 against 1,000 tok/s (−ln 0.8 = ln 1.25) and TTFT predicted 100 ms
 * against 160 ms (ln 0.625 = −0.4700): another TPOT of 20 ms predicted becomes 20 × e^−0.1823 =
 * 16.67 ms, another TTFT of 50 ms becomes 50 × e^0.4700 = 80 ms, and an end-to-end latency, which
 * the anchor did not measure, is scaled by the mean (0.1823 + 0.2231 − 0.4700) / 3 = −0.0215.
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

  /**
   * The ln slowdown of the rows of {@code anchorRows} that report {@code q}, or {@code otherwise}
   * when none does.
   */
  public static double lnSlowdown(
      List<Prediction> anchorRows, Metric.Quantity q, double otherwise) {
    List<Prediction> same = new ArrayList<>();
    for (Prediction p : anchorRows) {
      if (p.testCase().metric().quantity() == q) {
        same.add(p);
      }
    }
    return same.isEmpty() ? otherwise : lnSlowdown(same);
  }

  /**
   * The factors of {@code anchorRows} for the estimates of a deployment: TTFT, decode speed and
   * throughput each from its own rows, else the mean of all ({@link #lnSlowdown(List)}).
   *
   * @throws IllegalArgumentException when there is no row, or a factor is beyond ±ln 100
   */
  public static Anchoring factors(List<Prediction> anchorRows) {
    double mean = lnSlowdown(anchorRows);
    return new Anchoring(
        lnSlowdown(anchorRows, Metric.Quantity.TTFT, mean),
        lnSlowdown(anchorRows, Metric.Quantity.DECODE_SPEED, mean),
        lnSlowdown(anchorRows, Metric.Quantity.THROUGHPUT, mean));
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
   * rows of {@code anchorPoint} of its quantity ({@link #lnSlowdown(List, Metric.Quantity,
   * double)}); empty when the anchor point has no predicted row.
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
    double mean = lnSlowdown(anchor);
    Map<Metric.Quantity, Double> factor = new EnumMap<>(Metric.Quantity.class);
    for (Metric.Quantity q : Metric.Quantity.values()) {
      factor.put(q, lnSlowdown(anchor, q, mean));
    }
    List<Prediction> out = new ArrayList<>();
    for (Prediction p : rest) {
      out.add(adjust(p, factor.get(p.testCase().metric().quantity()), anchorPoint));
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

  /**
   * The held-out predictions {@code loso} with each deployment of each source anchored on its own
   * first point ({@link CrossValidation.Scheme#ANCHORED_PER_DEPLOYMENT}): the deployments' other
   * points, by case id.
   */
  static Map<String, Prediction> perDeployment(Collection<Prediction> loso) {
    Map<String, List<Prediction>> byDeployment = new LinkedHashMap<>();
    for (Prediction p : loso) {
      byDeployment.computeIfAbsent(deployment(p.testCase()), k -> new ArrayList<>()).add(p);
    }
    Map<String, Prediction> out = new LinkedHashMap<>();
    for (List<Prediction> d : byDeployment.values()) {
      firstPoint(d.stream().map(Prediction::testCase).collect(Collectors.toList()))
          .ifPresent(a -> apply(a, d).forEach(x -> out.put(x.testCase().caseId(), x)));
    }
    return out;
  }

  /**
   * The deployment a row measures, as a key: its source, model, chip and chip counts (total,
   * prefill, decode), parallel degrees (tp, pp, ep, attention dp), weight and KV precisions,
   * speculative decoding, engine and engine version; not its workload (lengths, mode, load).
   */
  static String deployment(ValidationCase c) {
    return String.join(
        "|",
        c.source(),
        c.model(),
        c.chip(),
        c.chips().toString(),
        c.prefillChips().toString(),
        c.decodeChips().toString(),
        c.tp().toString(),
        c.pp().toString(),
        c.ep().toString(),
        c.attentionDp().toString(),
        c.weights().orElse(""),
        c.kvCache().orElse(""),
        c.speculative().orElse(""),
        c.engine(),
        c.run().engineVersion().orElse(""));
  }
}
