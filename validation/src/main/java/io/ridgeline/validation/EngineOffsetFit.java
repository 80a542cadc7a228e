package io.ridgeline.validation;

import io.ridgeline.serving.efficiency.EngineOffsets;
import io.ridgeline.serving.efficiency.EngineProfile;
import io.ridgeline.serving.efficiency.EngineRelease;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Estimates engine offsets ({@link EngineOffsets}) from the rows a profile was fitted on, and
 * scores them on sources the estimate did not see.
 *
 * <p><b>Estimate.</b> For each key, an engine family or a family's version series ({@link
 * EngineRelease#series()}), each source with predictable rows of that key gets its intercept on
 * those rows alone: {@code b_{s,k} = Σ w_i r_i / (Σ w_i + λ)}, the ln slowdowns {@code r_i} and
 * weights {@code w_i} of {@link FitObjective} under the profile, with its prior of λ = {@value
 * FitObjective#PRIOR_ROWS} row ({@link FitObjective#intercept}): what the source's intercept
 * absorbs, restricted to that engine's rows. The key's offset is the same shrinkage one level up,
 * each source one observation and a prior of K = {@value #PRIOR_SOURCES} source at 0: {@code o_k =
 * Σ_s b_{s,k} / (n_k + K)} over the key's n_k sources, so two sources keep 2/3 of their mean and
 * ten keep 10/11. An offset exists only where n_k ≥ {@value EngineOffsets#MIN_SOURCES}; the
 * families that name no engine ({@link #NOT_ENGINES}) get none.
 *
 * <p><b>Score.</b> {@link #leaveOneSourceOut}: in each leave-one-source-out fold of a replayed
 * cross-validation, the offsets are estimated on the fold's training rows (every predictable row
 * but the held-out source's) under the fold's stored profile, and applied to the held-out rows by
 * their engine and version ({@link EngineOffsets#forRelease}); the held-out source can never back
 * an offset applied to it.
 */
public final class EngineOffsetFit {
  /** K: the weight, in sources, of the offsets' prior at 0. */
  public static final double PRIOR_SOURCES = 1;

  /** Engine families that name no engine (a vendor's own stack, a simulator, an unnamed one). */
  public static final Set<String> NOT_ENGINES = Set.of("unknown", "vendor", "in-house");

  private EngineOffsetFit() {}

  /**
   * An offset's key: an engine family, or one of its version series.
   *
   * @param family the engine family
   * @param series the version series; empty for the whole family
   */
  record Key(String family, Optional<String> series) {}

  /** A source's rows of one key. */
  record SourceKey(String source, Key key) {}

  /**
   * The offsets of {@code rows} under {@code profile} (see the class comment): a family offset and
   * a series offset wherever {@value EngineOffsets#MIN_SOURCES} sources support it.
   */
  public static EngineOffsets estimate(List<ValidationCase> rows, EngineProfile profile) {
    return offsets(new FitObjective(rows).interceptsBy(profile, EngineOffsetFit::keys));
  }

  /**
   * The offsets of the sources' intercepts on their rows of each key, {@code bySource}: {@code o_k
   * = Σ_s b_{s,k} / (n_k + K)} for each key of at least {@value EngineOffsets#MIN_SOURCES} sources,
   * keys in first-appearance order.
   */
  static EngineOffsets offsets(Map<SourceKey, Double> bySource) {
    Map<Key, Map<String, Double>> byKey = new LinkedHashMap<>();
    bySource.forEach(
        (k, b) -> byKey.computeIfAbsent(k.key(), x -> new LinkedHashMap<>()).put(k.source(), b));
    List<EngineOffsets.Offset> out = new ArrayList<>();
    byKey.forEach(
        (key, sources) -> {
          if (sources.size() < EngineOffsets.MIN_SOURCES) {
            return; // one source cannot tell an engine from its own deployment
          }
          double sum = sources.values().stream().mapToDouble(Double::doubleValue).sum();
          out.add(
              new EngineOffsets.Offset(
                  key.family(),
                  key.series(),
                  sum / (sources.size() + PRIOR_SOURCES), // o_k = Σ b_{s,k} / (n_k + K)
                  new ArrayList<>(sources.keySet())));
        });
    return EngineOffsets.of(out);
  }

  /** {@link #estimate} on the rows of {@code cases} the roofline bound predicts. */
  public static EngineOffsets ofCases(List<ValidationCase> cases, EngineProfile profile) {
    return estimate(CrossValidation.predictable(cases), profile);
  }

  /** The release a row states: its engine family and version; empty for {@link #NOT_ENGINES}. */
  public static Optional<EngineRelease> release(ValidationCase c) {
    if (NOT_ENGINES.contains(c.engine())) {
      return Optional.empty();
    }
    return Optional.of(
        c.run()
            .engineVersion()
            .map(v -> EngineRelease.of(c.engine(), v))
            .orElseGet(() -> EngineRelease.of(c.engine())));
  }

  /** The keys a row counts towards: its family, and its family's version series when stated. */
  private static List<SourceKey> keys(ValidationCase c) {
    Optional<EngineRelease> r = release(c);
    if (r.isEmpty()) {
      return List.of();
    }
    EngineRelease release = r.get();
    List<SourceKey> out = new ArrayList<>();
    out.add(new SourceKey(c.source(), new Key(release.family(), Optional.empty())));
    release
        .series()
        .ifPresent(
            x -> out.add(new SourceKey(c.source(), new Key(release.family(), Optional.of(x)))));
    return out;
  }

  /**
   * A held-out row's prediction with and without the offset of its engine.
   *
   * @param pooled the fold's prediction
   * @param adjusted {@code pooled} made faster by the offset; {@code pooled} when none applies
   * @param offset the offset applied, estimated without the row's source; empty when none applies
   */
  public record Scored(
      Prediction pooled, Prediction adjusted, Optional<EngineOffsets.Offset> offset) {}

  /**
   * The leave-one-source-out predictions of {@code report} (a {@link CrossValidation#replay} of
   * {@code cases}), each with the offset of its engine estimated on its fold's training rows.
   *
   * @throws IllegalStateException if an offset applied to a row were backed by the row's source
   */
  public static List<Scored> leaveOneSourceOut(
      List<ValidationCase> cases, CrossValidation.Report report) {
    List<ValidationCase> predictable = CrossValidation.predictable(cases);
    Map<String, Prediction> loso = new LinkedHashMap<>();
    report
        .predictions()
        .getOrDefault(CrossValidation.Scheme.LEAVE_ONE_SOURCE_OUT, List.of())
        .forEach(p -> loso.put(p.testCase().caseId(), p));
    List<Scored> out = new ArrayList<>();
    for (CrossValidation.Fold f : report.folds()) {
      if (f.scheme() != CrossValidation.Scheme.LEAVE_ONE_SOURCE_OUT) {
        continue;
      }
      Set<String> heldOut = new HashSet<>(f.heldOut());
      List<ValidationCase> train = new ArrayList<>();
      predictable.stream().filter(c -> !heldOut.contains(c.caseId())).forEach(train::add);
      EngineOffsets offsets = estimate(train, f.profile());
      for (String id : f.heldOut()) {
        Prediction p = loso.get(id);
        if (p == null) {
          continue;
        }
        Optional<EngineOffsets.Offset> o = release(p.testCase()).flatMap(offsets::forRelease);
        if (o.isPresent() && o.get().sources().contains(p.testCase().source())) {
          throw new IllegalStateException(
              "offset "
                  + o.get().key()
                  + " of fold "
                  + f.name()
                  + " is backed by its held-out source");
        }
        out.add(
            new Scored(
                p,
                o.map(x -> Anchor.adjust(p, x.lnSlowdown(), "the " + x.key() + " offset"))
                    .orElse(p),
                o));
      }
    }
    return out;
  }
}
