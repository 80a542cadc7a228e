package io.ridgeline.validation;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.serving.OperationCache;
import java.util.List;

/**
 * One computation of a fit's loss ({@link Predictor#sharedKey}: a row, or the rows of one
 * closed-loop operating point) compiled once for every candidate profile: what its prediction
 * counts that does not depend on the efficiency parameters (each step's operations on the busiest
 * chip: FLOPs and bytes of every operation, {@link OperationCache}) is counted on the first
 * evaluation and reused by the later ones, which do only the parameter-dependent arithmetic (the
 * operations' times, the batch caps, the queueing). The values are {@link
 * Predictor#predictShared}'s to the bit: the cached operations are the objects the count builds,
 * keyed by every input of the count.
 */
final class CaseEvaluator {
  private final List<ValidationCase> rows;
  private final OperationCache structure = OperationCache.create();

  /**
   * The evaluator of {@code rows}, which share one {@link Predictor#sharedKey}.
   *
   * @throws IllegalArgumentException when {@code rows} is empty
   */
  CaseEvaluator(List<ValidationCase> rows) {
    checkArgument(!rows.isEmpty(), "no rows to evaluate");
    this.rows = List.copyOf(rows);
  }

  /** The steps whose operations this evaluator has counted so far ({@link OperationCache#size}). */
  int counted() {
    return structure.size();
  }

  /** The rows, in the order {@link #lnSlowdowns} gives their values. */
  List<ValidationCase> rows() {
    return rows;
  }

  /**
   * Each row's ln slowdown ({@link Metric#lnSlowdown}) under {@code predictor}, NaN where the row
   * is unpredictable: {@link Predictor#predictShared}'s values, with the structure counted once.
   */
  double[] lnSlowdowns(Predictor predictor) {
    List<Outcome> outcomes = structure.run(() -> predictor.predictShared(rows));
    double[] r = new double[rows.size()];
    for (int k = 0; k < r.length; k++) {
      r[k] =
          outcomes.get(k) instanceof Prediction prediction
              ? prediction.testCase().metric().lnSlowdown(prediction.ratio())
              : Double.NaN;
    }
    return r;
  }
}
