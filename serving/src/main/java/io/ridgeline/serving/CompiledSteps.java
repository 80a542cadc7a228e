package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.DataKind;
import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.Phase;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.hardware.Interconnect;
import io.ridgeline.models.Ffn;
import io.ridgeline.models.Model;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleFunction;

/**
 * Builds {@link CompiledStep}s: probes the object path at x = 1 and 2 (and at no tokens for the
 * collectives' latency), checks the coefficients and the stage's time at {@link #CHECKS} against
 * the object path's ({@link PoolOperations#perChip}, {@link PoolOperations#phase}, {@link
 * Collectives#of}), and answers empty for a step that does not compile (pipeline parallelism, a MoE
 * all-to-all over several scale-up domains, or coefficients or times that do not reproduce the
 * object path). The time check is what keeps the two paths one physics: a formula changed in the
 * object path that the compiled step does not follow makes the step fall back to the object path,
 * which {@code CompileCoverageTest} and the sweep's and frontier's slow-path counts report.
 */
final class CompiledSteps {
  private CompiledSteps() {}

  /** The sizes x at which every compiled step is checked against the object path. */
  private static final double[] CHECKS = {3, 1000.5};

  /**
   * The decode step of {@code pool} at {@code context} with {@code queries} tokens per sequence,
   * compiled in sequences per micro-batch; empty when it does not compile (see the class comment).
   */
  static Optional<CompiledStep> decode(RooflineModel pool, int context, int queries) {
    Model m = pool.model();
    DoubleFunction<List<Phase>> ops =
        x ->
            OperationCache.modelDecode(
                pool,
                x,
                context,
                queries,
                () -> m.decodeStep(x, context, pool.computePrecisions(), pool.routing(), queries));
    DoubleFunction<List<OperationResult>> coll =
        x -> collectives(pool, PhaseKind.DECODE_COMMUNICATION, x * queries);
    return compile(pool, queries, ops, coll);
  }

  /**
   * The prefill of a workload's new tokens after its cached ones, riding a decode step ({@link
   * ColocatedDeployment#prefillWithoutWeights}), compiled in prompts; empty when it does not
   * compile.
   */
  static Optional<CompiledStep> prefill(RooflineModel pool, Workload w) {
    Model m = pool.model();
    int isl = w.newTokens();
    int cached = w.cachedAtPrefill();
    DoubleFunction<List<Phase>> ops =
        x ->
            OperationCache.modelPrefill(
                pool,
                x,
                isl,
                cached,
                () -> List.of(m.prefill(x, isl, cached, pool.computePrecisions(), pool.routing())));
    DoubleFunction<List<OperationResult>> coll = x -> collectives(pool, PhaseKind.PREFILL, x * isl);
    return compile(pool, isl, ops, coll);
  }

  private static Optional<CompiledStep> compile(
      RooflineModel pool,
      double tokensPerX,
      DoubleFunction<List<Phase>> ops,
      DoubleFunction<List<OperationResult>> coll) {
    return compile(pool, tokensPerX, ops, coll, CHECKS);
  }

  /**
   * {@link #compile(RooflineModel, double, DoubleFunction, DoubleFunction)} checked at {@code
   * checks}.
   */
  static Optional<CompiledStep> compile(
      RooflineModel pool,
      double tokensPerX,
      DoubleFunction<List<Phase>> ops,
      DoubleFunction<List<OperationResult>> coll,
      double[] checks) {
    if (obstacle(pool).isPresent()) {
      return Optional.empty();
    }
    try {
      CompiledStep s =
          coefficients(
              pool,
              tokensPerX,
              ops.apply(1),
              ops.apply(2),
              coll.apply(1),
              coll.apply(2),
              coll.apply(0));
      for (double x : checks) {
        List<Phase> phases = ops.apply(x);
        List<OperationResult> c = coll.apply(x);
        if (!matches(s, x, phases, c) || !sameStage(s, pool, x, phases, c)) {
          return Optional.empty();
        }
      }
      return Optional.of(s);
    } catch (IllegalArgumentException | IllegalStateException e) {
      // what the object path would throw it throws there; here the step is simply not compiled
      return Optional.empty();
    }
  }

  /**
   * The coefficients of a step of {@code pool} in x ({@code tokensPerX} tokens each) from the
   * object path's phases at x = 1 ({@code at1}) and x = 2 ({@code at2}) and its collectives at x =
   * 1, 2 and 0: each operation's FLOPs and bytes of each kind affine in x (the routed experts'
   * weight bytes in the expected distinct experts, the embedding's in min(tokens, vocabulary)), its
   * {@link OperationCost} and shards; each collective's compute and network times affine in x, its
   * latency the time with no tokens.
   *
   * @throws IllegalStateException when the probes differ in shape (then the step does not compile)
   */
  static CompiledStep coefficients(
      RooflineModel pool,
      double tokensPerX,
      List<Phase> at1,
      List<Phase> at2,
      List<OperationResult> coll1,
      List<OperationResult> coll2,
      List<OperationResult> coll0) {
    ComputeTarget t = pool.baseTarget();
    require(at1.size() == at2.size(), "phases differ");
    List<Operation> a = new ArrayList<>();
    List<Operation> b = new ArrayList<>();
    int[] phaseEnd = new int[at1.size()];
    for (int p = 0; p < at1.size(); p++) {
      a.addAll(at1.get(p).operations());
      b.addAll(at2.get(p).operations());
      phaseEnd[p] = a.size();
    }
    require(a.size() == b.size(), "operations differ");
    int kinds = 0;
    for (Operation op : a) {
      kinds += op.bytes().size();
    }
    require(coll2.size() == coll1.size() && coll0.size() == coll1.size(), "collectives differ");
    CompiledStep s = new CompiledStep(pool, tokensPerX, phaseEnd, kinds, coll1.size());
    List<Ffn> moe = PoolOperations.moeFfns(pool.model());
    int moeSeen = 0;
    int k = 0;
    for (int i = 0; i < s.ops; i++) {
      Operation o1 = a.get(i);
      s.names[i] = o1.name();
      boolean routed = o1.role() == OperationRole.ROUTED_EXPERTS;
      s.routed[i] = routed;
      if (routed && moeSeen < moe.size() && PoolOperations.imbalanced(pool)) {
        // the busiest expert-parallel rank's load (PoolOperations.perChip)
        s.imbalanced[i] = true;
        s.opExperts[i] = moe.get(moeSeen).experts();
        s.opTopK[i] = moe.get(moeSeen).topK();
      }
      require(!routed || moeSeen < moe.size(), "more routed experts than MoE layer groups");
      k = operation(s, pool, i, k, o1, b.get(i), t, routed ? moe.get(moeSeen++) : null);
    }
    s.kindStart[s.ops] = k;
    for (int i = 0; i < s.collectives; i++) {
      collective(s, i, coll1.get(i), coll2.get(i), coll0.get(i), t);
    }
    return s;
  }

  /**
   * Fills operation {@code i}'s coefficients from its probes at x = 1 and 2 ({@code ffn}: the MoE
   * layer group of routed experts, else null); returns the next byte-kind entry.
   */
  private static int operation(
      CompiledStep s,
      RooflineModel pool,
      int i,
      int k,
      Operation o1,
      Operation o2,
      ComputeTarget t,
      Ffn ffn) {
    require(o1.name().equals(o2.name()) && o1.role() == o2.role(), "operations differ");
    require(o1.networkBytes().bytes() == 0 && o1.networkSteps() == 0, "network in a model op");
    double[] f = affine(o1.flops().flops(), o2.flops().flops());
    s.flops0[i] = f[0];
    s.flops1[i] = f[1];
    OperationRole role = o1.role();
    s.perGroup[i] = s.layout.runsPerGroup(role);
    int shards = o1.kvShards();
    checkArgument(shards > 0, "kv shards must be positive: %s", shards);
    int kvSplit = Math.min(s.layout.tensorParallel(), shards);
    double weightShards =
        s.layout.shards(
            s.perGroup[i]
                ? ParallelLayout.Sharding.ATTENTION_GROUP
                : ParallelLayout.Sharding.STAGE);
    // the object path's per-operation terms (OperationCost); an operation's reduction depths are
    // ratios, the same at every x, probed where it has FLOPs
    boolean hasFlops = f[0] != 0 || f[1] != 0;
    OperationCost terms =
        OperationCost.of(pool, o1.flops().flops() > 0 || !hasFlops ? o1 : o2, t, hasFlops);
    s.cost[i] = terms;
    s.perWeightShard[i] = 1 / weightShards;
    s.perKvShard[i] = 1 / ((double) kvSplit * s.layout.pipelineParallel());
    s.kindStart[i] = k;
    require(o1.bytes().keySet().equals(o2.bytes().keySet()), "byte kinds differ");
    for (Map.Entry<DataKind, io.ridgeline.core.Bytes> e : o1.bytes().entrySet()) {
      DataKind kind = e.getKey();
      s.kindOf[k] = kind;
      s.kindDivisor[k] = OperationCost.shareOf(kind);
      double v1 = e.getValue().bytes();
      if (kind == DataKind.WEIGHTS && ffn != null) {
        s.kindForm[k] = CompiledStep.Form.DISTINCT_EXPERTS;
        s.experts[k] = ffn.experts();
        s.topK[k] = ffn.topK();
        s.bytes1[k] =
            v1 / s.routing.expectedDistinctExperts(ffn.experts(), ffn.topK(), s.tokensPerX);
      } else if (kind == DataKind.WEIGHTS && role == OperationRole.EMBEDDING) {
        s.kindForm[k] = CompiledStep.Form.EMBEDDING_ROWS;
        s.bytes1[k] = v1 / Math.min(s.tokensPerX, s.vocab);
      } else {
        s.kindForm[k] = CompiledStep.Form.AFFINE;
        double[] c = affine(v1, o2.bytes(kind).bytes());
        s.bytes0[k] = c[0];
        s.bytes1[k] = c[1];
      }
      k++;
    }
    return k;
  }

  /** Fills collective {@code i}'s coefficients from its results at x = 1, 2 and 0. */
  private static void collective(
      CompiledStep s,
      int i,
      OperationResult r1,
      OperationResult r2,
      OperationResult r0,
      ComputeTarget t) {
    require(r1.operation().name().equals(r2.operation().name()), "collectives differ");
    require(r1.memorySeconds().seconds() == 0, "memory in a collective");
    double[] c = affine(r1.computeSeconds().seconds(), r2.computeSeconds().seconds());
    s.compute0[i] = c[0];
    s.compute1[i] = c[1];
    double[] n = affine(r1.networkSeconds().seconds(), r2.networkSeconds().seconds());
    s.network0[i] = n[0];
    s.network1[i] = n[1];
    require(r0.operation().name().equals(r1.operation().name()), "collectives differ");
    s.latency[i] = r1.operation().networkSteps() > 0 ? r0.networkSeconds().seconds() : 0;
    double[] f = affine(r1.operation().flops().flops(), r2.operation().flops().flops());
    s.collectiveFlops0[i] = f[0];
    s.collectiveFlops1[i] = f[1];
    s.collectivePeak[i] =
        f[0] == 0 && f[1] == 0 ? 0 : t.peak(r1.operation().precision()).flopsPerSecond();
  }

  /** (a0, a1) with a0 + a1·x through (1, v1) and (2, v2), exact for constants and proportions. */
  private static double[] affine(double v1, double v2) {
    if (v2 == v1) {
      return new double[] {v1, 0};
    }
    if (v2 == 2 * v1) {
      return new double[] {0, v1};
    }
    return new double[] {2 * v1 - v2, v2 - v1};
  }

  private static void require(boolean condition, String why) {
    if (!condition) {
      throw new IllegalStateException(why);
    }
  }

  /** Whether the coefficients reproduce the object path's operations at {@code x}. */
  static boolean matches(CompiledStep s, double x, List<Phase> phases, List<OperationResult> coll) {
    int i = 0;
    for (Phase p : phases) {
      for (Operation o : p.operations()) {
        if (i >= s.ops || !CompiledStep.close(s.flops0[i] + s.flops1[i] * x, o.flops().flops())) {
          return false;
        }
        int k = s.kindStart[i];
        for (Map.Entry<DataKind, io.ridgeline.core.Bytes> e : o.bytes().entrySet()) {
          if (k >= s.kindStart[i + 1] || !CompiledStep.close(s.bytes(k, x), e.getValue().bytes())) {
            return false;
          }
          k++;
        }
        i++;
      }
    }
    if (i != s.ops || coll.size() != s.collectives) {
      return false;
    }
    for (int c = 0; c < s.collectives; c++) {
      OperationResult r = coll.get(c);
      if (!CompiledStep.close(
              s.collectiveFlops0[c] + s.collectiveFlops1[c] * x, r.operation().flops().flops())
          || !CompiledStep.close(s.compute0[c] + s.compute1[c] * x, r.computeSeconds().seconds())
          || !CompiledStep.close(s.network0[c] + s.network1[c] * x, r.networkSeconds().seconds())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the compiled stage time of {@code s} at {@code x} (every byte on the main tier) is the
   * object path's, to {@link CompiledStep#TOLERANCE}: each phase of {@code phases} divided over the
   * chips and timed as {@link RooflineModel} times it, then the collectives {@code coll}.
   */
  private static boolean sameStage(
      CompiledStep s,
      RooflineModel pool,
      double x,
      List<Phase> phases,
      List<OperationResult> coll) {
    double object = 0;
    for (Phase p : phases) {
      object +=
          PoolOperations.phase(
                  pool,
                  p.kind(),
                  PoolOperations.perChip(pool, p.operations(), x, x * s.tokensPerX),
                  pool.baseTarget())
              .seconds()
              .seconds();
    }
    double collectives = 0;
    for (OperationResult r : coll) {
      collectives += r.seconds().seconds();
    }
    object += collectives;
    double[] compute = new double[s.operations()];
    double[] memory = new double[s.operations()];
    s.operationTimes(x, null, compute, memory);
    return CompiledStep.close(s.stageSeconds(x, compute, memory), object);
  }

  /**
   * What of {@code pool} keeps its steps from compiling, by design: pipeline parallelism (passes
   * over stages and micro-batches), or a MoE all-to-all over several scale-up domains (the slower
   * of two links: not affine in the tokens); empty when nothing does.
   */
  static Optional<PointsAt.SlowPath> obstacle(RooflineModel pool) {
    if (pool.pipelineParallel() != 1) {
      return Optional.of(PointsAt.SlowPath.PIPELINE_PARALLEL);
    }
    return multiNodeAllToAll(pool)
        ? Optional.of(PointsAt.SlowPath.MULTI_DOMAIN_ALL_TO_ALL)
        : Optional.empty();
  }

  /** A MoE all-to-all over several scale-up domains takes the slower of two links: not affine. */
  private static boolean multiNodeAllToAll(RooflineModel pool) {
    int ep = pool.expertParallel();
    int domain = pool.chip().scaleUp().map(Interconnect::domainSize).orElse(ep);
    return ep > domain;
  }

  private static List<OperationResult> collectives(RooflineModel pool, PhaseKind kind, double t) {
    return Collectives.of(pool, kind, t).map(PhaseResult::operations).orElse(List.of());
  }
}
