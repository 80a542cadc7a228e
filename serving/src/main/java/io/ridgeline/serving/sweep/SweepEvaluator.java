package io.ridgeline.serving.sweep;

import static io.ridgeline.serving.sweep.Sweep.BATCH;
import static io.ridgeline.serving.sweep.Sweep.CACHED;
import static io.ridgeline.serving.sweep.Sweep.CHIP;
import static io.ridgeline.serving.sweep.Sweep.COUNT;
import static io.ridgeline.serving.sweep.Sweep.DIGITS;
import static io.ridgeline.serving.sweep.Sweep.EP;
import static io.ridgeline.serving.sweep.Sweep.ISL;
import static io.ridgeline.serving.sweep.Sweep.KV;
import static io.ridgeline.serving.sweep.Sweep.MODEL;
import static io.ridgeline.serving.sweep.Sweep.OSL;
import static io.ridgeline.serving.sweep.Sweep.STRATEGY;
import static io.ridgeline.serving.sweep.Sweep.TP;
import static io.ridgeline.serving.sweep.Sweep.WEIGHTS;

import com.google.common.primitives.Doubles;
import com.google.common.primitives.Ints;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.DeploymentSpec;
import io.ridgeline.serving.FrontierPoint;
import io.ridgeline.serving.PointBlock;
import io.ridgeline.serving.PointsAt;
import io.ridgeline.serving.PoolSpec;
import io.ridgeline.serving.Workload;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.Optional;

/**
 * Evaluates the rows of a {@link Sweep} in odometer order, caching the deployment of the outer
 * digits. Deployments come from {@link DeploymentSpec#build}: the combination's pool with explicit
 * count and tp (so it is never re-laid out), and for pd a prefill pool of the same chip sized to
 * one prompt.
 */
final class SweepEvaluator {
  private final Model[] models;
  private final Chip[] chips;
  private final int[] counts; // 0: default
  private final int[] tps; // 0: default
  private final int[] eps;
  private final Deployment.Strategy[] strategies;
  private final int[] batches;
  private final int[] isls;
  private final int[] osls;
  private final int[] cacheds;
  private final double[] prefixHits;
  private final Precision[] weights; // null: the checkpoint's
  private final Precision[] kvs; // null: the checkpoint's
  private final Efficiency efficiency;
  // rows the object path gave, by why they were not compiled (PointsAt.SlowPath ordinals)
  private final long[] slowPath = new long[PointsAt.SlowPath.values().length];

  // the combination of the outer digits, and what was built for it
  private Model model;
  private Chip chip;
  private int count;
  private int tp;
  private int ep;
  private Deployment.Strategy strategy;
  private Precisions precisions;
  private String weightsLabel;
  private DeploymentSpec spec;
  private Deployment deployment;
  private String deploymentError;
  // the row's lengths, and the deployment's points at them
  private int isl;
  private int osl;
  private int cached;
  private double hit;
  private PointsAt points;
  // what the compiled points of one pool's prompt length share over its output lengths
  // the block a run's points are written to, and what its workloads share
  private final PointBlock block = new PointBlock();
  // why one request does not fit the deployment, at the last isl and osl asked
  private int fitIsl = -1;
  private int fitOsl = -1;
  private String fitError;

  /** The largest batch that fits at fitIsl + fitOsl tokens; -1 until asked. */
  private int fitMaxBatch = -1;

  SweepEvaluator(Sweep.Grid g, Efficiency efficiency) {
    this.efficiency = efficiency;
    models = g.models().toArray(new Model[0]);
    chips = g.chips().toArray(new Chip[0]);
    counts = g.counts().isEmpty() ? new int[] {0} : Ints.toArray(g.counts());
    tps = g.tps().isEmpty() ? new int[] {0} : Ints.toArray(g.tps());
    eps = Ints.toArray(g.eps());
    strategies = g.strategies().toArray(new Deployment.Strategy[0]);
    batches = Ints.toArray(g.batches());
    isls = Ints.toArray(g.isls());
    osls = Ints.toArray(g.osls());
    cacheds = Ints.toArray(g.cached());
    prefixHits = Doubles.toArray(g.prefixHit());
    weights = g.weights().isEmpty() ? new Precision[1] : g.weights().toArray(new Precision[0]);
    kvs = g.kvs().isEmpty() ? new Precision[1] : g.kvs().toArray(new Precision[0]);
  }

  int[] lengths() {
    int[] l = new int[DIGITS];
    l[MODEL] = models.length;
    l[CHIP] = chips.length;
    l[COUNT] = counts.length;
    l[TP] = tps.length;
    l[EP] = eps.length;
    l[STRATEGY] = strategies.length;
    l[WEIGHTS] = weights.length;
    l[KV] = kvs.length;
    l[ISL] = isls.length;
    l[OSL] = osls.length;
    l[CACHED] = cacheds.length;
    l[Sweep.PREFIX_HIT] = prefixHits.length;
    l[BATCH] = batches.length;
    return l;
  }

  /** The row at {@code index}; digits outside {@code changed..} are those of the last row. */
  Sweep.Row row(int[] index, int changed) {
    prepare(index, changed);
    return row(batches[index[BATCH]]);
  }

  /**
   * Receives runs of points that {@link #run} evaluated without objects, with the combination they
   * belong to.
   */
  interface BlockSink {
    /**
     * Takes the points of {@code block}, rows of the combination of {@code first} (the row object
     * of the run's first batch, without its point: what its rows have in common) in batch order;
     * the block is overwritten once this returns.
     */
    void accept(Sweep.Row first, PointBlock block, RowErrors errors);
  }

  /**
   * The error text of a run's rows whose batch does not fit ({@link #whyNot}): {@code oneRequest}
   * when one request does not fit (or, for rows without points, why the combination is invalid),
   * else "batch B exceeds memory at {@code sequenceTokens} tokens per sequence: the largest batch
   * that fits is {@code largestBatch}".
   */
  record RowErrors(String oneRequest, int sequenceTokens, int largestBatch) {
    /**
     * Appends the error of {@code batch} when it exceeds memory: "batch B exceeds memory at T
     * tokens per sequence: the largest batch that fits is M" (no character a CSV cell or a JSON
     * string escapes).
     */
    StringBuilder exceedsMemory(int batch, StringBuilder b) {
      return b.append("batch ")
          .append(batch)
          .append(" exceeds memory at ")
          .append(sequenceTokens)
          .append(" tokens per sequence: the largest batch that fits is ")
          .append(largestBatch);
    }
  }

  /**
   * Evaluates rows {@code from} (inclusive) to {@code to} (exclusive) in odometer order, as {@link
   * Sweep#run} numbers them: the batches of a combination whose points compile ({@link
   * PointsAt#points}) go to {@code blocks} as runs of primitive points, with the rows the object
   * path would give, and so do the batches of an invalid combination (without points); every other
   * row (a point the compiled path does not give, another strategy) goes to {@code rows} as {@link
   * Sweep.Row} objects, in order.
   */
  void run(long from, long to, Sweep.RowSink rows, BlockSink blocks) {
    int[] length = lengths();
    int[] index = new int[DIGITS];
    long rest = from;
    for (int d = DIGITS - 1; d >= 0; d--) {
      index[d] = (int) (rest % length[d]);
      rest /= length[d];
    }
    int changed = 0;
    for (long row = from; row < to; ) {
      // the batches of one combination left in this slice
      int start = index[BATCH];
      int end = (int) Math.min(length[BATCH], start + (to - row));
      prepare(index, changed);
      if (deployment == null) {
        // an invalid combination: its rows have no point and the deployment's error
        block.missing(batches, start, end);
        blocks.accept(row(batches[start], null, null), block, new RowErrors(deploymentError, 0, 0));
      } else {
        for (int k = start; k < end; ) {
          int reached = points.points(batches, k, end, block);
          if (block.size() > 0) {
            blocks.accept(row(batches[k], null, null), block, errors(block));
          }
          if (reached < end) {
            // the object path gives this row (its exception as the row's error)
            rows.accept(row(batches[reached]));
            slowPath[points.slowPath().orElse(PointsAt.SlowPath.BATCH_OUT_OF_RANGE).ordinal()]++;
            reached++;
          }
          k = reached;
        }
      }
      row += end - start;
      index[BATCH] = end - 1;
      int d = DIGITS - 1;
      while (d >= 0 && ++index[d] == length[d]) {
        index[d] = 0;
        d--;
      }
      changed = Math.max(d, 0);
    }
  }

  /**
   * Adds to {@code into} (indexed by {@link PointsAt.SlowPath} ordinal) the rows {@link #run} has
   * handed over as objects because the object path gave them, by why.
   */
  void addSlowPathRows(long[] into) {
    for (int i = 0; i < slowPath.length; i++) {
      into[i] += slowPath[i];
    }
  }

  /** The error text of {@code block}'s rows that do not fit; null when all fit. */
  private RowErrors errors(PointBlock block) {
    if (block.allFit()) {
      return null;
    }
    int prompt = cached + isl; // tokens of history and prompt, as whyNot counts them
    String oneRequest = doesNotFit(prompt, osl);
    if (oneRequest == null && fitMaxBatch < 0) {
      fitMaxBatch = deployment.largestBatch(prompt + osl).orElse(0);
    }
    return new RowErrors(oneRequest, prompt + osl, fitMaxBatch);
  }

  /**
   * Sets up the combination, deployment and points of the row at {@code index}; digits outside
   * {@code changed..} are those of the last row.
   */
  private void prepare(int[] index, int changed) {
    isl = isls[index[ISL]];
    osl = osls[index[OSL]];
    cached = cacheds[index[CACHED]];
    hit = prefixHits[index[Sweep.PREFIX_HIT]];
    if (changed <= KV) {
      combination(index);
      deployment(cached + isl, osl);
    } else if (changed <= OSL
        && (strategy == Deployment.Strategy.PD || strategy == Deployment.Strategy.AFD)) {
      // the prefill pool is sized to the prompt and its history (pd, afd), and afd's FFN pool is
      // searched at the lengths
      deployment(cached + isl, osl);
    }
    if (deployment != null && changed <= OSL) {
      points = pointsAt(Workload.of(isl, osl).withCachedTokens(cached).withPrefixHitRate(hit));
    }
  }

  /** The row of {@code batch} at the prepared combination and lengths. */
  private Sweep.Row row(int batch) {
    if (deployment == null) {
      return row(batch, null, deploymentError);
    }
    try {
      FrontierPoint p = points.point(batch);
      return row(batch, p, p.fits() ? null : whyNot(batch, cached + isl, osl));
    } catch (IllegalArgumentException e) {
      return row(batch, null, oneLine(e));
    }
  }

  /**
   * The deployment's points of workload {@code w} ({@link Deployment#pointsAt(Workload,
   * PointBlock)}); when the part hoisted out of the batch loop fails, each point is evaluated on
   * its own, so that its row carries the error {@link Deployment#point} gives.
   */
  private PointsAt pointsAt(Workload w) {
    Deployment d = deployment;
    try {
      return d.pointsAt(w, block);
    } catch (IllegalArgumentException e) {
      return batch -> d.point(batch, w);
    }
  }

  private Sweep.Row row(int batch, FrontierPoint p, String error) {
    return new Sweep.Row(
        model,
        chip,
        count,
        tp,
        ep,
        strategy,
        batch,
        isl,
        osl,
        cached,
        hit,
        precisions,
        weightsLabel,
        Optional.ofNullable(p),
        Optional.ofNullable(error));
  }

  private void combination(int[] index) {
    model = models[index[MODEL]];
    chip = chips[index[CHIP]];
    int c = counts[index[COUNT]];
    int t = tps[index[TP]];
    count = c > 0 ? c : t > 0 ? t : 1;
    tp = t > 0 ? t : count;
    ep = eps[index[EP]];
    strategy = strategies[index[STRATEGY]];
    Precision w = weights[index[WEIGHTS]];
    Precision kv = kvs[index[KV]];
    Precisions p = model.defaultPrecisions();
    if (w != null) {
      p = p.withAllWeights(w);
    }
    if (kv != null) {
      p = Precisions.builder().from(p).kvCache(kv).build();
    }
    precisions = p;
    weightsLabel = weightsLabel(p);
    spec = spec();
  }

  /**
   * The combination's deployment: its pool (decode, attention and FFN, or only pool) of {@code
   * count} chips at {@code tp} and {@code ep}; for pd a prefill pool of the same chip, as {@code
   * ridgeline frontier} sizes it without {@code --prefill-count} (the fewest chips that hold one
   * prompt).
   */
  private DeploymentSpec spec() {
    PoolSpec pool =
        PoolSpec.builder()
            .model(model)
            .chip(chip)
            .count(count)
            .tensorParallel(tp)
            .expertParallel(ep)
            .precisions(precisions)
            .efficiency(efficiency)
            .build();
    PoolSpec prefill =
        PoolSpec.builder()
            .model(model)
            .chip(chip)
            .precisions(precisions)
            .efficiency(efficiency)
            .build();
    return DeploymentSpec.builder().strategy(strategy).pool(pool).prefill(prefill).build();
  }

  private void deployment(int isl, int osl) {
    fitIsl = -1;
    fitMaxBatch = -1;
    try {
      deployment = spec.build(isl, osl);
      deploymentError = null;
    } catch (IllegalArgumentException e) {
      deployment = null;
      deploymentError = oneLine(e);
    }
  }

  /**
   * Why not even one request of {@code isl + osl} tokens fits ({@link Deployment#fitProblem}, as
   * {@code ridgeline frontier} reports it), or null when one does; the last answer is kept.
   */
  private String doesNotFit(int isl, int osl) {
    if (isl != fitIsl || osl != fitOsl) {
      fitIsl = isl;
      fitOsl = osl;
      fitError = deployment.fitProblem(isl, osl).orElse(null);
      fitMaxBatch = -1;
    }
    return fitError;
  }

  /**
   * Why a point of {@code batch} does not fit: the model does not hold one request ({@link
   * #doesNotFit}), or the batch exceeds the largest that fits at {@code isl + osl} tokens (kept
   * with the fit answer).
   */
  private String whyNot(int batch, int isl, int osl) {
    String oneRequest = doesNotFit(isl, osl);
    if (oneRequest != null) {
      return oneRequest;
    }
    if (fitMaxBatch < 0) {
      fitMaxBatch = deployment.largestBatch(isl + osl).orElse(0);
    }
    return new RowErrors(null, isl + osl, fitMaxBatch)
        .exceedsMemory(batch, new StringBuilder())
        .toString();
  }

  private static String weightsLabel(Precisions p) {
    StringBuilder b = new StringBuilder(p.weights().id());
    p.weightOverrides()
        .forEach(
            (k, v) -> {
              if (v != p.weights()) {
                b.append('+').append(k.id()).append(':').append(v.id());
              }
            });
    return b.toString();
  }

  private static String oneLine(RuntimeException e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return m.replace('\n', ' ');
  }
}
