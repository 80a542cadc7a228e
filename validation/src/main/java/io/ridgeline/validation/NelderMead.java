package io.ridgeline.validation;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.ToDoubleFunction;

/**
 * Nelder–Mead minimisation with the dimension-adaptive coefficients of Gao and Han (Computational
 * Optimization and Applications 51, 2012, "Implementing the Nelder–Mead simplex algorithm with
 * adaptive parameters"; SciPy's {@code adaptive=True}): in n dimensions reflection 1, expansion 1 +
 * 2/n, contraction ¾ − 1/(2n), shrink 1 − 1/n, which reduce to the standard 1, 2, ½, ½ at n = 2.
 * Gao and Han show that the standard coefficients make the simplex collapse along a few directions
 * in higher dimensions and stop short of the minimum; {@link Calibration}'s search has one
 * coordinate per searched parameter and the running-request cap.
 */
final class NelderMead {
  private NelderMead() {}

  /**
   * A minimum of {@code f} from {@code x0} with an initial simplex of {@code step} along each axis,
   * restarted from the best point after convergence (simplex spread in f below 1e-9 relative) while
   * fewer than {@code maxEvaluations} evaluations are spent. Non-finite values of f count as +∞.
   */
  static double[] minimize(
      ToDoubleFunction<double[]> f, double[] x0, double step, int maxEvaluations) {
    int n = x0.length;
    double[] best = x0.clone();
    double bestF = eval(f, best);
    int[] used = {1};
    while (used[0] < maxEvaluations) {
      double[][] s = new double[n + 1][];
      double[] v = new double[n + 1];
      s[0] = best.clone();
      v[0] = bestF;
      for (int i = 0; i < n && used[0] < maxEvaluations; i++) {
        s[i + 1] = best.clone();
        s[i + 1][i] += step;
        v[i + 1] = eval(f, s[i + 1]);
        used[0]++;
      }
      if (used[0] >= maxEvaluations) {
        break;
      }
      double before = bestF;
      nelderMead(f, s, v, used, maxEvaluations);
      int b = argMin(v);
      if (v[b] < bestF) {
        bestF = v[b];
        best = s[b].clone();
      }
      if (before - bestF <= 1e-9 * Math.max(1, Math.abs(bestF))) {
        break; // a restart gained nothing: converged
      }
    }
    return best;
  }

  private static void nelderMead(
      ToDoubleFunction<double[]> f, double[][] s, double[] v, int[] used, int max) {
    int n = s.length - 1;
    // Gao and Han's coefficients (see minimize); reflection is 1
    double expansion = 1 + 2.0 / n;
    double contraction = 0.75 - 1 / (2.0 * n);
    double shrink = 1 - 1.0 / n;
    while (used[0] < max) {
      Integer[] order = new Integer[n + 1];
      for (int i = 0; i <= n; i++) {
        order[i] = i;
      }
      Arrays.sort(order, Comparator.comparingDouble(i -> v[i]));
      int lo = order[0];
      int hi = order[n];
      int second = order[n - 1];
      if (Math.abs(v[hi] - v[lo]) <= 1e-9 * Math.max(1, Math.abs(v[lo]))) {
        return;
      }
      double[] centroid = new double[n];
      for (int i = 0; i <= n; i++) {
        if (i != hi) {
          for (int j = 0; j < n; j++) {
            centroid[j] += s[i][j] / n;
          }
        }
      }
      double[] r = along(centroid, s[hi], -1);
      double fr = eval(f, r);
      used[0]++;
      if (fr < v[lo]) {
        double[] e = along(centroid, s[hi], -expansion);
        double fe = used[0] < max ? eval(f, e) : Double.POSITIVE_INFINITY;
        used[0]++;
        if (fe < fr) {
          s[hi] = e;
          v[hi] = fe;
        } else {
          s[hi] = r;
          v[hi] = fr;
        }
      } else if (fr < v[second]) {
        s[hi] = r;
        v[hi] = fr;
      } else {
        boolean outside = fr < v[hi];
        double[] c = along(centroid, s[hi], outside ? -contraction : contraction);
        double fc = eval(f, c);
        used[0]++;
        if (fc < (outside ? fr : v[hi])) {
          s[hi] = c;
          v[hi] = fc;
        } else {
          for (int i = 0; i <= n && used[0] < max; i++) {
            if (i != lo) {
              s[i] = along(s[lo], s[i], shrink);
              v[i] = eval(f, s[i]);
              used[0]++;
            }
          }
        }
      }
    }
  }

  /** {@code from + t × (to − from)}. */
  private static double[] along(double[] from, double[] to, double t) {
    double[] x = new double[from.length];
    for (int i = 0; i < x.length; i++) {
      x[i] = from[i] + t * (to[i] - from[i]);
    }
    return x;
  }

  private static double eval(ToDoubleFunction<double[]> f, double[] x) {
    double y = f.applyAsDouble(x);
    return Double.isFinite(y) ? y : Double.POSITIVE_INFINITY;
  }

  private static int argMin(double[] v) {
    int b = 0;
    for (int i = 1; i < v.length; i++) {
      if (v[i] < v[b]) {
        b = i;
      }
    }
    return b;
  }
}
