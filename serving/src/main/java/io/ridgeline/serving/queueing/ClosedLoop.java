package io.ridgeline.serving.queueing;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.function.IntToDoubleFunction;

/**
 * A closed loop: C clients each send a request as soon as their previous one completes, and a
 * replica runs at most B of them at once.
 */
public final class ClosedLoop {
  private ClosedLoop() {}

  /**
   * Requests completed per second by {@code batch} requests that each spend {@code cycleSeconds} in
   * the system (Little's law, X = N / R).
   *
   * <p>Worked example: 50 requests in a cycle of 2 s complete 50 / 2 = 25 per second.
   */
  public static double throughput(double batch, double cycleSeconds) {
    return batch / cycleSeconds;
  }

  /**
   * TTFT in seconds of {@code clients} closed-loop clients on a replica that runs {@code batch} of
   * them at once: the replica completes X = B / (TTFT₀ + (osl − 1)·TPOT) requests per second; by
   * Little's law a closed system of C clients with throughput X has a mean response time of C / X,
   * so a request's TTFT (its wait plus its prefill) is C / X − (osl − 1)·TPOT, used when it exceeds
   * TTFT₀ (it does exactly when C &gt; B). The end-to-end latency is then C / X.
   *
   * <p>Worked example: C = 100, B = 50, TTFT₀ = 1 s, TPOT = 10 ms, osl = 101: decoding takes 100 ×
   * 0.01 = 1 s, the cycle 2 s, X = 50 / 2 = 25 requests/s, C / X = 4 s, TTFT = 4 − 1 = 3 s (2 s of
   * queue and 1 s of prefill).
   *
   * @param ttft0 the unqueued TTFT in seconds
   * @param tpot the time per output token in seconds at batch {@code batch}
   * @param osl output tokens per request
   */
  public static double queuedTtft(int clients, int batch, double ttft0, double tpot, int osl) {
    if (clients <= batch) {
      return ttft0;
    }
    double decoding = (osl - 1) * tpot;
    double rate = throughput(batch, ttft0 + decoding);
    double queued = clients / rate - decoding;
    return Math.max(queued, ttft0);
  }

  /**
   * Mean TTFT in seconds of a closed-loop benchmark's prompts on one prefill server, over {@code
   * cycles} rounds of {@code prompts} prompts each. Benchmark clients start together and send
   * fixed-length requests, so prompts arrive in rounds: all of a round at once when every request
   * has the same lengths, spread out as the clients drift apart by the spread of their output
   * lengths.
   *
   * <p>In round k (from 0) the prompts arrive evenly over a window of {@code min(1, √k·(1 − r))} ×
   * {@code decodeSeconds} (a sum of k uniform drifts), r being the benchmark's length range ratio
   * (lengths drawn uniformly from [r·L, L]). The server runs steps of at most {@code perStep}
   * waiting prompts; a step of m prompts takes {@code stepSeconds(m)} plus, in rounds whose
   * arrivals are spread out, {@code decodeStepSeconds} (the running batch's decode when prefill
   * shares steps with it, which also makes a prompt arriving at an idle queue wait half a step). A
   * prompt's TTFT is the end of its step minus its arrival.
   *
   * <p>Under an overlap scheduler ({@code lagSteps} 1, {@code
   * io.ridgeline.serving.efficiency.Efficiency#schedulingLagSteps}) a step's prompts are those
   * waiting when it was scheduled, at the start of the step before it, not at its own start: a
   * prompt arriving at an idle queue waits the running step's residual and the decode step
   * scheduled without it ({@code decodeStepSeconds × (1/2 + 1)}), and one arriving during a prefill
   * step joins the step after next (a decode step runs between when nobody was waiting at the
   * previous step's start).
   *
   * <p>Worked example: 4 prompts, 2 per step of 0.1 s each, one round of range ratio 1 (all arrive
   * at 0): two prompts finish at 0.1 s and two at 0.2 s, mean TTFT 0.15 s, with or without a lag
   * (all are waiting when the first step is scheduled).
   *
   * @param stepSeconds seconds of a prefill step of m prompts, m from 1 to {@code perStep}
   * @param lagSteps whole steps scheduled before a waiting prompt is taken in: 1 under an overlap
   *     scheduler, 0 under a synchronous one
   * @throws IllegalArgumentException when a count is not positive, a time or the lag is negative or
   *     the range ratio is outside [0, 1]
   */
  public static double roundsTtft(
      int prompts,
      int perStep,
      IntToDoubleFunction stepSeconds,
      double decodeStepSeconds,
      double decodeSeconds,
      double rangeRatio,
      int cycles,
      int lagSteps) {
    double[] total = {0};
    rounds(
        prompts,
        perStep,
        stepSeconds,
        decodeStepSeconds,
        decodeSeconds,
        rangeRatio,
        cycles,
        lagSteps,
        (first, m, end, arrivals, window) -> total[0] += m * end - arrivals);
    return total[0] / ((double) prompts * cycles);
  }

  /**
   * Median TTFT in seconds of the same prompts as {@link #roundsTtft}: the middle of every prompt's
   * TTFT over the rounds (the mean of the two middle ones for an even count). A run's mean carries
   * its first round, whose prompts all arrive at once and wait for each other; its median is a
   * typical request of the later rounds, whose arrivals are spread out.
   *
   * <p>Worked example: 4 prompts, 2 per step of 0.1 s each, one round of range ratio 1: TTFTs 0.1,
   * 0.1, 0.2 and 0.2 s, median (0.1 + 0.2) / 2 = 0.15 s; with two rounds of range ratio 0 and a
   * decode of 1 s, the second round's prompts arrive every 0.25 s and each waits its own step (0.1
   * s), so the eight TTFTs are 0.1, 0.1, 0.2, 0.2, 0.1, 0.1, 0.1, 0.1: median 0.1 s.
   *
   * @throws IllegalArgumentException as {@link #roundsTtft}
   */
  public static double roundsMedianTtft(
      int prompts,
      int perStep,
      IntToDoubleFunction stepSeconds,
      double decodeStepSeconds,
      double decodeSeconds,
      double rangeRatio,
      int cycles,
      int lagSteps) {
    double[] ttft = new double[Math.multiplyExact(prompts, cycles)];
    int[] n = {0};
    rounds(
        prompts,
        perStep,
        stepSeconds,
        decodeStepSeconds,
        decodeSeconds,
        rangeRatio,
        cycles,
        lagSteps,
        (first, m, end, arrivals, window) -> {
          for (int j = first; j < first + m; j++) {
            ttft[n[0]++] = end - window * j / prompts;
          }
        });
    return median(ttft);
  }

  /**
   * The median of {@code values} (the mean of the two middle ones for an even count), the value a
   * sort would give, by selection in expected linear time; reorders {@code values}.
   */
  static double median(double[] values) {
    int mid = values.length / 2;
    select(values, mid);
    if (values.length % 2 == 1) {
      return values[mid];
    }
    double below = values[0]; // the largest of the mid smaller ones
    for (int i = 1; i < mid; i++) {
      below = Math.max(below, values[i]);
    }
    return (below + values[mid]) / 2;
  }

  /**
   * Puts the k-th smallest of {@code a} (from 0) at index k, none larger before it and none smaller
   * after it (Hoare's selection with the middle element as pivot).
   */
  private static void select(double[] a, int k) {
    int lo = 0;
    int hi = a.length - 1;
    while (lo < hi) {
      double pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        if (i <= j) {
          double swap = a[i];
          a[i] = a[j];
          a[j] = swap;
          i++;
          j--;
        }
      }
      if (k <= j) {
        hi = j;
      } else if (k >= i) {
        lo = i;
      } else {
        return; // a[j + 1 .. i - 1] all equal the pivot
      }
    }
  }

  /** What {@link #rounds} reports of each prefill step. */
  private interface StepSink {
    /**
     * A step that ends at {@code end} seconds into its round and serves the {@code m} prompts from
     * {@code first} (prompt j arrived at {@code window × j / prompts}), whose arrivals sum to
     * {@code arrivals}.
     */
    void step(int first, int m, double end, double arrivals, double window);
  }

  /** The rounds of {@link #roundsTtft}, each prefill step reported to {@code sink}. */
  private static void rounds(
      int prompts,
      int perStep,
      IntToDoubleFunction stepSeconds,
      double decodeStepSeconds,
      double decodeSeconds,
      double rangeRatio,
      int cycles,
      int lagSteps,
      StepSink sink) {
    checkArgument(prompts > 0, "prompts must be positive: %s", prompts);
    checkArgument(perStep > 0, "prompts per step must be positive: %s", perStep);
    checkArgument(cycles > 0, "cycles must be positive: %s", cycles);
    checkArgument(
        rangeRatio >= 0 && rangeRatio <= 1, "range ratio must be in [0, 1]: %s", rangeRatio);
    checkArgument(lagSteps >= 0, "scheduling lag steps must be >= 0: %s", lagSteps);
    checkArgument(
        decodeStepSeconds >= 0 && decodeSeconds >= 0,
        "decode times must be >= 0: %s, %s",
        decodeStepSeconds,
        decodeSeconds);
    double[] step = new double[perStep + 1];
    for (int k = 0; k < cycles; k++) {
      double window = Math.min(1, Math.sqrt(k) * (1 - rangeRatio)) * decodeSeconds;
      // in a round that arrives all at once nobody is decoding yet
      double shared = window > 0 ? decodeStepSeconds : 0;
      double t = 0;
      double last = 0; // the last step's length (the lag's steps were scheduled at their starts)
      int i = 0;
      while (i < prompts) {
        double arrival = window * i / prompts;
        // the next step holds the prompts waiting when it was scheduled: at its own start, or
        // under a lag at the start of the step (or steps) before it
        double scheduled;
        if (t < arrival) {
          // the running step finishes first, then the lag's decode steps scheduled without it
          t = arrival + shared / 2 + lagSteps * shared;
          scheduled = t - lagSteps * shared;
        } else {
          scheduled = t - lagSteps * last;
        }
        int j = i;
        double arrivals = 0;
        while (j < prompts && j - i < perStep && window * j / prompts <= scheduled) {
          arrivals += window * j / prompts;
          j++;
        }
        int m = j - i;
        if (m == 0) {
          // nobody was waiting when the next step was scheduled: a decode step runs first
          t += shared;
          last = shared;
          continue;
        }
        if (step[m] == 0) {
          step[m] = stepSeconds.applyAsDouble(m);
        }
        t += step[m] + shared;
        last = step[m] + shared;
        sink.step(i, m, t, arrivals, window);
        i = j;
      }
    }
  }
}
