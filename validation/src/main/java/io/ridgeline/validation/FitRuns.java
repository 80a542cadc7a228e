package io.ridgeline.validation;

import com.google.common.base.Throwables;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * How {@link CrossValidation#run}'s fits run and tell their progress: side by side on the machine's
 * processors, their lines one at a time.
 */
final class FitRuns {
  private FitRuns() {}

  /** {@code progress}, one line at a time whichever fit's thread tells it. */
  static Consumer<String> serial(Consumer<String> progress) {
    Object lock = new Object();
    return line -> {
      synchronized (lock) {
        progress.accept(line);
      }
    };
  }

  /**
   * {@code fit} of 0 ... {@code n − 1}, in that order, the fits run side by side on as many threads
   * as the machine has processors (each fit deterministic, so the results are those of one after
   * the other; the evaluations inside a fit share the same threads).
   */
  static <T> List<T> sideBySide(int n, IntFunction<T> fit) {
    ForkJoinPool pool = new ForkJoinPool(Runtime.getRuntime().availableProcessors());
    try {
      return pool.submit(
              () -> IntStream.range(0, n).parallel().mapToObj(fit).collect(Collectors.toList()))
          .get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("cross-validation interrupted", e);
    } catch (ExecutionException e) {
      Throwables.throwIfUnchecked(e.getCause());
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdown();
    }
  }

  /**
   * Tells {@code progress} of fit {@code fit} of {@code fits} after each tenth of its {@code
   * evaluations}: {@code "fit 3/22, 450/1500 evaluations: without dstack"} (the search may converge
   * before its budget; the fit's {@code done} line ends it).
   */
  static IntConsumer evaluated(
      Consumer<String> progress, int fit, int fits, int evaluations, String what) {
    int tenth = Math.max(1, evaluations / 10);
    return done -> {
      if (done % tenth == 0 && done < evaluations) {
        progress.accept(
            String.format(
                Locale.ROOT,
                "fit %d/%d, %d/%d evaluations: %s",
                fit,
                fits,
                done,
                evaluations,
                what));
      }
    };
  }
}
