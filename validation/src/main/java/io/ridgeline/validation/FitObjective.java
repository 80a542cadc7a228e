package io.ridgeline.validation;

import io.ridgeline.serving.efficiency.EngineProfile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The loss a fit minimises: the Huber loss of each row's log slowdown ({@link Metric#lnSlowdown})
 * after a random intercept per source.
 *
 * <p>Sources differ by up to 3× on the same model and chip (engine versions, settings the source
 * does not state, how the benchmark client counts). A per-source intercept {@code b_s}, the log
 * factor by which a source's deployment is slower than the model, absorbs that difference, so the
 * shared physical parameters describe what holds <em>within</em> sources. Each intercept is the
 * maximum a posteriori estimate under a Gaussian prior of {@value #PRIOR_ROWS} row's weight at 0:
 * {@code b_s = Σ_{i∈s} w_i r_i / (Σ_{i∈s} w_i + λ)} (row weights {@code w_i}, below) with {@code λ
 * = } {@value #PRIOR_ROWS}, so a source of one row moves its intercept by half its residual and a
 * source of 40 rows by 98%; the loss adds {@code λ·b_s²/2} per source.
 *
 * <p><b>The prior's weight is the variance ratio.</b> In a random-intercept model (residuals of
 * variance σ² within a source, intercepts of variance τ² between sources) the intercept's shrinkage
 * is {@code Σw / (Σw + σ²/τ²)}: λ = σ²/τ², in rows, estimated by moments on the rows' ln slowdowns
 * under a fitted profile (σ² the weighted within-source variance, τ² the variance of the sources'
 * mean residuals). λ = 1 is self-consistent: the profile fitted with it gives a ratio near 1 (the
 * measured ratios are in the experiment log). A larger λ holds the intercepts too close to 0: the
 * penalty {@code λ·b_s²/2} of a source measured much slower than the model pulls every shared
 * parameter slower by {@code λ·|b|} rows' worth of gradient.
 *
 * <p>A held-out source is predicted with {@code b = 0}: its error is what a new deployment's user
 * sees without an anchor. One intercept covers all of a source's metrics: a separate intercept for
 * its TTFT rows would let the shared parameters fit TTFT's shape within sources, but freed from the
 * TTFT rows the other intercepts let the whole model drift slower than every source, and a source
 * held out pays it.
 *
 * <p><b>Each quantity of a point counts once.</b> A source that reports one operating point as six
 * metric rows (output, total and input tokens/s per chip, TPOT, tokens/s per user, TTFT) measures
 * three quantities; counted per row, its throughput would weigh three times its TTFT and its points
 * three times a source that reports one number per point. Each row is weighted by 1 / the rows of
 * its point reporting the same {@link Metric.Quantity} ({@link #weights}), in the loss and in the
 * intercepts ({@code b_s = Σ w_i r_i / (Σ w_i + λ)}).
 *
 * <p>Rows a candidate leaves unpredictable cost the loss of a factor of e³.
 */
final class FitObjective {
  /** λ: the weight, in rows, of the intercepts' prior at 0. */
  static final double PRIOR_ROWS = 1;

  private final List<ValidationCase> rows;
  private final int[] source;
  private final List<String> sources;
  private final double[] weight;
  private final int[][] computations;

  /** Each computation's evaluator, compiled once for every profile the fit tries. */
  private final CaseEvaluator[] evaluators;

  FitObjective(List<ValidationCase> rows) {
    this.rows = List.copyOf(rows);
    this.computations = computations(this.rows);
    this.evaluators = new CaseEvaluator[computations.length];
    for (int g = 0; g < computations.length; g++) {
      List<ValidationCase> mine = new ArrayList<>(computations[g].length);
      for (int i : computations[g]) {
        mine.add(this.rows.get(i));
      }
      evaluators[g] = new CaseEvaluator(mine);
    }
    this.sources = new ArrayList<>();
    this.source = new int[rows.size()];
    this.weight = weights(this.rows);
    Map<String, Integer> index = new LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      String s = rows.get(i).source();
      Integer k = index.get(s);
      if (k == null) {
        k = sources.size();
        index.put(s, k);
        sources.add(s);
      }
      source[i] = k;
    }
  }

  /** The rows fitted. */
  List<ValidationCase> rows() {
    return rows;
  }

  /** The loss of {@code profile} (see the class comment). */
  double loss(EngineProfile profile) {
    double[] r = slowdowns(profile);
    double[] b = intercepts(r);
    double loss = 0;
    for (int i = 0; i < r.length; i++) {
      loss +=
          weight[i]
              * (Double.isNaN(r[i])
                  ? Calibration.UNPREDICTABLE_LOSS
                  : Calibration.huber(r[i] - b[source[i]]));
    }
    for (double bs : b) {
      loss += PRIOR_ROWS * bs * bs / 2;
    }
    return loss;
  }

  /** Each source's intercept under {@code profile}, by source name. */
  Map<String, Double> interceptsBySource(EngineProfile profile) {
    double[] b = intercepts(slowdowns(profile));
    Map<String, Double> out = new LinkedHashMap<>();
    for (int k = 0; k < sources.size(); k++) {
      out.put(sources.get(k), b[k]);
    }
    return out;
  }

  /**
   * ln slowdown of each row under {@code profile}; NaN where the row is unpredictable. The rows of
   * one computation ({@link Predictor#sharedKey}: the metrics of one closed-loop operating point)
   * are predicted once ({@link Predictor#predictShared}), with the values {@link Predictor#predict}
   * gives each row, by each computation's {@link CaseEvaluator}, which counts the structure of its
   * steps on the first evaluation only.
   */
  double[] slowdowns(EngineProfile profile) {
    Predictor p = Predictor.of(profile).withoutNotes();
    double[] r = new double[rows.size()];
    IntStream.range(0, computations.length)
        .parallel()
        .forEach(
            g -> {
              int[] members = computations[g];
              double[] mine = evaluators[g].lnSlowdowns(p);
              for (int k = 0; k < members.length; k++) {
                r[members[k]] = mine[k];
              }
            });
    return r;
  }

  /** The indices of {@code rows} grouped by {@link Predictor#sharedKey}, in first-row order. */
  static int[][] computations(List<ValidationCase> rows) {
    Map<ValidationCase, List<Integer>> byKey = new LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      byKey.computeIfAbsent(Predictor.sharedKey(rows.get(i)), k -> new ArrayList<>()).add(i);
    }
    return byKey.values().stream()
        .map(g -> g.stream().mapToInt(Integer::intValue).toArray())
        .toArray(int[][]::new);
  }

  /** b_s = Σ r_i / (n_s + λ) over each source's predictable rows. */
  private double[] intercepts(double[] r) {
    double[] sum = new double[sources.size()];
    double[] n = new double[sources.size()];
    for (int i = 0; i < r.length; i++) {
      if (!Double.isNaN(r[i])) {
        sum[source[i]] += weight[i] * r[i];
        n[source[i]] += weight[i];
      }
    }
    double[] b = new double[sum.length];
    for (int k = 0; k < b.length; k++) {
      b[k] = intercept(sum[k], n[k]);
    }
    return b;
  }

  /**
   * The intercept of a group of rows: the maximum a posteriori mean of their ln slowdowns under the
   * prior of {@value #PRIOR_ROWS} row at 0, {@code Σ w_i r_i / (Σ w_i + λ)}, from {@code
   * weightedSum} = Σ w_i r_i and {@code weight} = Σ w_i.
   */
  static double intercept(double weightedSum, double weight) {
    return weightedSum / (weight + PRIOR_ROWS);
  }

  /**
   * The intercept ({@link #intercept}) of each group of the predictable rows under {@code profile},
   * a row being in each group {@code groups} names (none, one or several), with the rows' loss
   * weights: for example each source's intercept restricted to its rows of one engine family, and
   * to those of one version series.
   */
  <K> Map<K, Double> interceptsBy(
      EngineProfile profile, java.util.function.Function<ValidationCase, List<K>> groups) {
    double[] r = slowdowns(profile);
    Map<K, double[]> sums = new LinkedHashMap<>(); // group -> {Σ w r, Σ w}
    for (int i = 0; i < r.length; i++) {
      if (Double.isNaN(r[i])) {
        continue;
      }
      for (K g : groups.apply(rows.get(i))) {
        double[] s = sums.computeIfAbsent(g, k -> new double[2]);
        s[0] += weight[i] * r[i];
        s[1] += weight[i];
      }
    }
    Map<K, Double> out = new LinkedHashMap<>();
    sums.forEach((k, s) -> out.put(k, intercept(s[0], s[1])));
    return out;
  }

  /**
   * Each row's weight in the loss: 1 / (the rows of its operating point that report the same {@link
   * Metric.Quantity}), scaled so the weights average 1 (a row's weight in the intercepts' prior).
   * Worked example: an InferenceX point with out, total and input tok/s/chip, TPOT, tok/s per user
   * and TTFT (six rows, three quantities) gives each throughput row 1/3, each decode-speed row 1/2
   * and the TTFT row 1, before the scaling.
   */
  static double[] weights(List<ValidationCase> rows) {
    Map<String, Integer> perQuantity = new HashMap<>();
    for (ValidationCase c : rows) {
      perQuantity.merge(quantityKey(c), 1, Integer::sum);
    }
    double[] w = new double[rows.size()];
    double sum = 0;
    for (int i = 0; i < w.length; i++) {
      w[i] = 1.0 / perQuantity.get(quantityKey(rows.get(i)));
      sum += w[i];
    }
    for (int i = 0; i < w.length; i++) {
      w[i] *= w.length / sum;
    }
    return w;
  }

  /** The source, operating point and quantity of {@code c}. */
  private static String quantityKey(ValidationCase c) {
    return c.source() + '\u0000' + c.pointId() + '\u0000' + c.metric().quantity();
  }
}
