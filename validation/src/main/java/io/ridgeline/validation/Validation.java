package io.ridgeline.validation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The outcome of predicting every case of a file: the {@link #predictions()}, the {@link
 * #skipped()} cases with their reasons (no case is dropped: their counts add up to the file's), and
 * {@link Summary summaries} overall and by metric, chip, engine and mode.
 *
 * <pre>{@code
 * Validation v = Validation.run(CaseFile.shipped(), Predictor.ideal());
 * v.byMetric().get(Metric.TPOT_MS).medianApe();
 * }</pre>
 */
public final class Validation {
  private final List<Prediction> predictions;
  private final List<Skip> skipped;

  private Validation(List<Prediction> predictions, List<Skip> skipped) {
    this.predictions = List.copyOf(predictions);
    this.skipped = List.copyOf(skipped);
  }

  /** Predicts every case of {@code cases} with {@code predictor}, in file order. */
  public static Validation run(List<ValidationCase> cases, Predictor predictor) {
    List<Prediction> p = new ArrayList<>();
    List<Skip> s = new ArrayList<>();
    for (ValidationCase c : cases) {
      Outcome o = predictor.predict(c);
      if (o instanceof Prediction prediction) {
        p.add(prediction);
      } else {
        s.add((Skip) o);
      }
    }
    return new Validation(p, s);
  }

  /** The predicted cases, in file order. */
  public List<Prediction> predictions() {
    return predictions;
  }

  /** The cases that could not be predicted, in file order, each with its reason. */
  public List<Skip> skipped() {
    return skipped;
  }

  /** Cases seen: predicted plus skipped. */
  public int caseCount() {
    return predictions.size() + skipped.size();
  }

  /** Statistics of every prediction. */
  public Summary overall() {
    return Summary.of(predictions);
  }

  /** Statistics per value of {@code key} over the predictions, keys sorted. */
  public Map<String, Summary> by(Function<ValidationCase, String> key) {
    return by(key, Comparator.naturalOrder());
  }

  /** Statistics per value of {@code key} over the predictions, keys in {@code order}. */
  private <K> Map<K, Summary> by(Function<ValidationCase, K> key, Comparator<K> order) {
    Map<K, List<Prediction>> groups =
        predictions.stream()
            .collect(
                Collectors.groupingBy(
                    p -> key.apply(p.testCase()), () -> new TreeMap<>(order), Collectors.toList()));
    Map<K, Summary> out = new TreeMap<>(order);
    groups.forEach((k, v) -> out.put(k, Summary.of(v)));
    return Collections.unmodifiableMap(out);
  }

  /** Statistics per metric, by metric id. */
  public Map<Metric, Summary> byMetric() {
    return by(ValidationCase::metric, Comparator.comparing(Metric::id));
  }

  /** Statistics per chip. */
  public Map<String, Summary> byChip() {
    return by(ValidationCase::chip);
  }

  /** Statistics per engine family. */
  public Map<String, Summary> byEngine() {
    return by(ValidationCase::engine);
  }

  /** Statistics per mode, by mode id. */
  public Map<Mode, Summary> byMode() {
    return by(ValidationCase::mode, Comparator.comparing(Mode::id));
  }

  /** Skipped cases counted by the category of their reason, most frequent first. */
  public Map<String, Long> skipReasons() {
    Map<String, Long> counts =
        skipped.stream()
            .collect(Collectors.groupingBy(Skip::category, TreeMap::new, Collectors.counting()));
    Map<String, Long> sorted = new java.util.LinkedHashMap<>();
    counts.entrySet().stream()
        .sorted(
            Map.Entry.<String, Long>comparingByValue()
                .reversed()
                .thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return Collections.unmodifiableMap(sorted);
  }
}
