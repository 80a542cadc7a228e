package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;

import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.CanIgnoreReturnValue;
import io.ridgeline.core.Seconds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Interactivity (tokens/s per user) against throughput (tokens/s per chip) across batch sizes, with
 * the Pareto-optimal points marked.
 *
 * <pre>{@code
 * ParetoFrontier f = ParetoFrontier.builder(rm).inputTokens(1024).outputTokens(1024).build();
 * f.points();     // every batch size, in batch order
 * f.frontier();   // the non-dominated points, by rising throughput
 * }</pre>
 *
 * <p>Each point is the builder's deployment at one batch size: {@link #builder(RooflineModel)}
 * serves colocated (continuous batching with chunked prefill), {@link #builder(Deployment)} any
 * strategy. {@link #point} is one static-batching point (the {@code static} strategy's): a replica
 * prefills its {@code batch} prompts together (TTFT), then decodes them together for the remaining
 * {@code osl − 1} tokens, its TPOT the mean decode step over contexts {@code isl + 1 … isl + osl −
 * 1}, taken as the average of up to 16 evenly spaced steps (exact for the memory-bound steps, which
 * are linear in context).
 */
public final class ParetoFrontier {
  private static final int TPOT_SAMPLES = 16;

  private final ImmutableList<FrontierPoint> points;
  private final int slowPathPoints;
  private final Optional<PointsAt.SlowPath> slowPath;

  private ParetoFrontier(
      List<FrontierPoint> points, int slowPathPoints, Optional<PointsAt.SlowPath> slowPath) {
    this.points = ImmutableList.copyOf(points);
    this.slowPathPoints = slowPathPoints;
    this.slowPath = slowPath;
  }

  /**
   * A builder sweeping batch sizes of {@code model} under colocated serving (continuous batching
   * with chunked prefill), the default strategy of the command line too; {@link
   * #builder(Deployment)} takes any other.
   */
  public static Builder builder(RooflineModel model) {
    return new Builder(Deployment.of(Deployment.Strategy.COLOCATED, model));
  }

  /** A builder sweeping batch sizes of a deployment (any strategy). */
  public static Builder builder(Deployment deployment) {
    return new Builder(deployment);
  }

  /**
   * A frontier over given points: marks each fitting point that no other fitting point dominates.
   * The result is in the input order and does not depend on it; applying it twice changes nothing.
   */
  public static ParetoFrontier of(List<FrontierPoint> points) {
    return new ParetoFrontier(marked(points), 0, Optional.empty());
  }

  /** {@code points}, each with its Pareto flag set ({@link #paretoFlags(List)}). */
  private static List<FrontierPoint> marked(List<FrontierPoint> points) {
    boolean[] pareto = paretoFlags(points);
    List<FrontierPoint> marked = new ArrayList<>(points.size());
    for (int i = 0; i < points.size(); i++) {
      marked.add(FrontierPoint.builder().from(points.get(i)).pareto(pareto[i]).build());
    }
    return marked;
  }

  /**
   * Which of {@code points} are Pareto-optimal: fitting, and no other fitting point has at least
   * their throughput and interactivity and more of one ({@link FrontierPoint#dominates}). O(n log
   * n): the fitting points sorted by falling throughput; a point is dominated when a point of
   * strictly higher throughput has at least its interactivity, or one of equal throughput has more.
   */
  static boolean[] paretoFlags(List<FrontierPoint> points) {
    int n = points.size();
    double[] chip = new double[n];
    double[] user = new double[n];
    boolean[] fits = new boolean[n];
    for (int i = 0; i < n; i++) {
      FrontierPoint p = points.get(i);
      chip[i] = p.tokensPerSecondPerChip();
      user[i] = p.tokensPerSecondPerUser();
      fits[i] = p.fits();
    }
    return paretoFlags(chip, user, fits);
  }

  /**
   * {@link #paretoFlags(List)} of the points whose throughputs, interactivities and fits are {@code
   * chip[i]}, {@code user[i]} and {@code fits[i]}.
   */
  static boolean[] paretoFlags(double[] chip, double[] user, boolean[] fits) {
    int n = chip.length;
    List<Integer> fitting = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      if (fits[i] && !Double.isNaN(chip[i]) && !Double.isNaN(user[i])) {
        fitting.add(i);
      }
    }
    fitting.sort(
        (a, b) -> {
          int c = Double.compare(chip[b], chip[a]);
          return c != 0 ? c : Double.compare(user[b], user[a]);
        });
    boolean[] pareto = new boolean[n];
    for (int i = 0; i < n; i++) {
      // a NaN compares false: such a fitting point is dominated by none and dominates none
      pareto[i] = fits[i] && (Double.isNaN(chip[i]) || Double.isNaN(user[i]));
    }
    double bestAbove = Double.NEGATIVE_INFINITY; // max interactivity at strictly higher throughput
    int g = 0;
    while (g < fitting.size()) {
      // a group of equal throughput (== also joins 0.0 and -0.0, as dominates compares them)
      int end = g + 1;
      while (end < fitting.size() && chip[fitting.get(end)] == chip[fitting.get(g)]) {
        end++;
      }
      double groupBest = Double.NEGATIVE_INFINITY;
      for (int k = g; k < end; k++) {
        groupBest = Math.max(groupBest, user[fitting.get(k)]);
      }
      for (int k = g; k < end; k++) {
        double u = user[fitting.get(k)];
        pareto[fitting.get(k)] = !(bestAbove >= u || groupBest > u);
      }
      bestAbove = Math.max(bestAbove, groupBest);
      g = end;
    }
    return pareto;
  }

  /**
   * How many of {@link #points()} the object path evaluated one by one rather than the compiled
   * path as one block ({@link PointsAt#slowPath}); 0 for a frontier over given points ({@link
   * #of}).
   */
  public int slowPathPoints() {
    return slowPathPoints;
  }

  /** Why {@link #slowPathPoints()} took the object path; empty when none did. */
  public Optional<PointsAt.SlowPath> slowPath() {
    return slowPath;
  }

  /** Every point, Pareto flags set. */
  public List<FrontierPoint> points() {
    return points;
  }

  /** The Pareto-optimal points by rising throughput (and so falling interactivity). */
  public List<FrontierPoint> frontier() {
    return points.stream()
        .filter(FrontierPoint::pareto)
        .sorted(
            Comparator.comparingDouble(FrontierPoint::tokensPerSecondPerChip)
                .thenComparing(
                    Comparator.comparingDouble(FrontierPoint::tokensPerSecondPerUser).reversed()))
        .collect(ImmutableList.toImmutableList());
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("ParetoFrontier:");
    for (FrontierPoint p : points) {
      b.append("\n  ").append(p);
    }
    return b.toString();
  }

  /**
   * One frontier point: batch {@code batch} of {@code isl}-token prompts generating {@code osl}
   * tokens each.
   */
  public static FrontierPoint point(RooflineModel model, int batch, int isl, int osl) {
    Limits.check("input tokens (isl)", isl, Limits.MAX_TOKENS);
    Limits.check("output tokens (osl)", osl, Limits.MAX_TOKENS);
    return point(model, batch, Workload.of(isl, osl));
  }

  /**
   * One frontier point of a workload: the prefill of its new tokens after its cached ones, decode
   * from its prompt context on.
   */
  public static FrontierPoint point(RooflineModel model, int batch, Workload w) {
    int isl = w.promptContext();
    int osl = w.outputTokens();
    Seconds ttft = model.prefill(batch, w).seconds();
    int steps = osl - 1;
    double tpot;
    if (steps == 0) {
      // a single output token: no decode step; interactivity is set by the one step that exists
      tpot = model.decode(batch, isl + 1).seconds().seconds();
    } else {
      int samples = Math.min(TPOT_SAMPLES, steps);
      double sum = 0;
      for (int i = 0; i < samples; i++) {
        // midpoint of the i-th of `samples` equal slices of steps 1..osl−1; step s has isl + s
        // tokens
        int step = 1 + (int) Math.floor((i + 0.5) * steps / samples);
        sum += model.decode(batch, isl + step).seconds().seconds();
      }
      tpot = sum / samples;
    }
    double requestSeconds = ttft.seconds() + steps * tpot;
    return FrontierPoint.builder()
        .batch(batch)
        .ttft(ttft)
        .tpot(Seconds.of(tpot))
        .tokensPerSecondPerUser(1.0 / tpot)
        // batch × osl tokens per replica over the time it spends on them, shared by tp chips
        .tokensPerSecondPerChip((double) batch * osl / requestSeconds / model.replicaChips())
        .chipsTotal(model.replicaChips())
        .fits(model.memory(batch, isl + osl).fits())
        .build();
  }

  /**
   * The compiled points {@code at} of {@code batches} of {@code d}, each as {@code
   * point(b).withUtilisation(decodeUtilisation(b))} gives it, Pareto flags marked as {@link #of}
   * marks them: evaluated as one block ({@link PointsAt#points}) and built once each, with no
   * per-point copies. Empty when a batch's point fails; {@link PointsAt#point} throws the object
   * path's exception for it.
   */
  static Optional<List<FrontierPoint>> compiled(PointsAt at, int[] batches, Deployment d) {
    PointBlock block = new PointBlock();
    block.utilisation = true;
    int n = batches.length;
    if (at.points(batches, 0, n, block) != n) {
      return Optional.empty();
    }
    double[] chip = new double[n];
    double[] user = new double[n];
    boolean[] fit = new boolean[n];
    for (int r = 0; r < n; r++) {
      chip[r] = block.figure(r, PointBlock.TOKENS_PER_SECOND_PER_CHIP);
      user[r] = block.figure(r, PointBlock.TOKENS_PER_SECOND_PER_USER);
      fit[r] = block.fits(r);
    }
    boolean[] pareto = paretoFlags(chip, user, fit);
    String strategy = d.strategy().id();
    List<FrontierPoint> out = new ArrayList<>(n);
    for (int r = 0; r < n; r++) {
      int batch = block.batch(r);
      // the decode step's utilisation over its own time (decodeUtilisation)
      Utilisation u = block.utilisation(r);
      ImmutableFrontierPoint.Builder p =
          ImmutableFrontierPoint.builder()
              .batch(batch)
              .ttft(Seconds.of(block.figure(r, PointBlock.TTFT)))
              .tpot(Seconds.of(block.figure(r, PointBlock.TPOT)))
              .tokensPerSecondPerUser(user[r])
              .tokensPerSecondPerChip(chip[r])
              .fits(fit[r])
              .strategy(strategy)
              .chipsTotal(block.chipsTotal())
              .note("") // not compiled: speculation, the one note of a colocated point
              .mfu(u.mfu())
              .bandwidthUtilisation(u.bandwidth())
              .pareto(pareto[r]);
      double dollars = block.figure(r, PointBlock.DOLLARS_PER_MILLION_TOKENS);
      if (!Double.isNaN(dollars)) {
        p.dollarsPerMillionTokens(dollars);
      }
      double joules = block.figure(r, PointBlock.TOKENS_PER_JOULE);
      if (!Double.isNaN(joules)) {
        p.tokensPerJoule(joules);
      }
      out.add(p.build());
    }
    return Optional.of(out);
  }

  /** Sweeps batch sizes; see {@link ParetoFrontier}. */
  public static final class Builder {
    private final Deployment deployment;
    private int inputTokens = -1;
    private int outputTokens = -1;
    private int maxBatch = Integer.MAX_VALUE;
    private List<Integer> batches;
    private int cachedTokens;
    private double prefixHitRate;
    private Conversation conversation;

    private Builder(Deployment deployment) {
      this.deployment = deployment;
    }

    /** Prompt length (ISL), tokens. */
    @CanIgnoreReturnValue
    public Builder inputTokens(int isl) {
      Limits.check("input tokens (isl)", isl, Limits.MAX_TOKENS);
      this.inputTokens = isl;
      conversation = null;
      return this;
    }

    /** Output length (OSL), tokens. */
    @CanIgnoreReturnValue
    public Builder outputTokens(int osl) {
      Limits.check("output tokens (osl)", osl, Limits.MAX_TOKENS);
      this.outputTokens = osl;
      conversation = null;
      return this;
    }

    /**
     * The input and output lengths, history and prefix-hit rate of {@code w} ({@link Workload}).
     */
    @CanIgnoreReturnValue
    public Builder workload(Workload w) {
      inputTokens = w.inputTokens();
      outputTokens = w.outputTokens();
      cachedTokens = w.cachedTokens();
      prefixHitRate = w.prefixHitRate();
      conversation = null;
      return this;
    }

    /**
     * Multi-turn conversations instead of one request length: each batch's point is the mean turn
     * at the prefix-cache hit rate of {@link Conversation#steadyState} (colocated deployments);
     * replaces the lengths, history and prefix-hit rate set so far (and setting any of those
     * afterwards drops the conversations).
     */
    @CanIgnoreReturnValue
    public Builder conversation(Conversation c) {
      workload(c.workload(0));
      this.conversation = c;
      return this;
    }

    /** Caps the swept batch sizes. */
    @CanIgnoreReturnValue
    public Builder maxBatch(int max) {
      checkArgument(max > 0, "max batch must be positive: %s", max);
      this.maxBatch = max;
      return this;
    }

    /** Explicit batch sizes instead of 1, 2, 4, … up to the largest that fits. */
    @CanIgnoreReturnValue
    public Builder batches(List<Integer> sizes) {
      checkArgument(!sizes.isEmpty(), "batch sizes must not be empty");
      for (int b : sizes) {
        Limits.check("batch sizes", b, Limits.MAX_BATCH);
      }
      this.batches = ImmutableList.copyOf(sizes);
      return this;
    }

    /**
     * Evaluates the sweep. Default batches: powers of two from 1 up to the largest batch that fits
     * at {@code isl + osl} tokens (capped by {@link #maxBatch}), plus that largest batch.
     *
     * @throws IllegalStateException when input or output length was not set
     * @throws IllegalArgumentException when not even one request fits in memory
     */
    public ParetoFrontier build() {
      checkState(inputTokens > 0, "input tokens (isl) must be set");
      checkState(outputTokens > 0, "output tokens (osl) must be set");
      Workload w = new Workload(inputTokens, outputTokens, cachedTokens, prefixHitRate);
      List<Integer> sizes = batches;
      if (sizes == null) {
        deployment
            .fitProblem(w)
            .ifPresent(
                problem -> {
                  throw new IllegalArgumentException(problem);
                });
        int largest = Math.min(maxBatch, deployment.largestBatch(w.finalContext()).orElse(0));
        if (largest == 0) {
          throw new IllegalArgumentException(
              deployment.model().id() + " leaves no room for a request on " + deployment);
        }
        TreeSet<Integer> set = new TreeSet<>();
        for (int b = 1; b <= largest; b *= 2) {
          set.add(b);
        }
        set.add(largest);
        sizes = ImmutableList.copyOf(set);
      }
      // conversations: each batch's mean turn at its own hit rate, point by point
      Conversation turns = conversation;
      PointsAt at =
          turns == null ? deployment.pointsAt(w) : b -> turns.steadyState(deployment, b).point();
      if (at.slowPath().isEmpty()) {
        // one block, one object per point; when a point fails, the loop below throws its exception
        Optional<List<FrontierPoint>> compiled =
            compiled(at, sizes.stream().mapToInt(Integer::intValue).toArray(), deployment);
        if (compiled.isPresent()) {
          return checkSomeFit(new ParetoFrontier(compiled.get(), 0, Optional.empty()));
        }
      }
      List<FrontierPoint> pts = new ArrayList<>();
      for (int b : sizes) {
        Utilisation u =
            at instanceof CompiledColocated c
                ? c.decodeUtilisation(b)
                : deployment.decodeUtilisation(b, w.promptContext(), w.outputTokens());
        pts.add(at.point(b).withUtilisation(u));
      }
      return checkSomeFit(
          new ParetoFrontier(
              marked(pts),
              pts.size(),
              Optional.of(at.slowPath().orElse(PointsAt.SlowPath.BATCH_OUT_OF_RANGE))));
    }

    /**
     * {@code f}, unless its batches are the default ones and none fits: those are chosen to fit, so
     * a frontier of out-of-memory points only would be a pool check that missed a constraint.
     */
    private ParetoFrontier checkSomeFit(ParetoFrontier f) {
      if (batches == null && f.points().stream().noneMatch(FrontierPoint::fits)) {
        throw new IllegalArgumentException(
            deployment.model().id() + " fits at no batch on " + deployment);
      }
      return f;
    }
  }
}
