package io.ridgeline.serving;

import io.ridgeline.core.Roofline;
import java.util.Arrays;

/**
 * A {@link CompiledStep} evaluated at a block of step sizes at once: the batches of a sweep's or a
 * frontier's run whose bytes all sit on the main tier. Each size gets the per-point arithmetic of
 * {@link CompiledStep#operationTimes}, {@link CompiledStep#stageSeconds} and {@link
 * RidingSide#ridingSeconds} in the same order, operation by operation, so that its times are the
 * very doubles of the per-point methods.
 *
 * <p>Op-major working arrays: operation i's figure at size j in {@code [i × cap + j]}, collective
 * c's riding time at size j in {@code [c × cap + j]}; a reused scratch, not shared between threads.
 */
final class StepBlock {
  private int cap;
  private double[] compute = new double[0];
  private double[] memory = new double[0];
  private double[] withoutWeights = new double[0];
  // each operation's per-chip weight bytes and memory bytes: what a riding prefill shares with a
  // running step's kernel ({@link CompiledStep#sharedWithoutWeights})
  private double[] weightBytes = new double[0];
  private double[] memoryBytes = new double[0];
  private double[] xsKept = new double[0]; // the sizes of the last times()
  private double[] collective = new double[0];
  // per size: 1 / the work shards of per-group and stage-wide operations, 1 / the busy attention
  // groups, one operation's bytes and weight bytes, a byte kind's bytes, and a phase's running sum
  private double[] perGroupShard = new double[0];
  private double[] perStageShard = new double[0];
  private double[] perBusy = new double[0];
  private double[] busiest = new double[0]; // a routed-expert operation's work shards (imbalanced)
  private double[] bytes = new double[0];
  private double[] weights = new double[0];
  private double[] kind = new double[0];
  private double[] phase = new double[0];

  private void size(int ops, int collectives, int sizes) {
    if (cap < sizes || compute.length < ops * cap || collective.length < collectives * cap) {
      cap = Math.max(sizes, cap);
      compute = new double[ops * cap];
      memory = new double[ops * cap];
      withoutWeights = new double[ops * cap];
      weightBytes = new double[ops * cap];
      memoryBytes = new double[ops * cap];
      collective = new double[collectives * cap];
      xsKept = new double[cap];
      perGroupShard = new double[cap];
      perStageShard = new double[cap];
      perBusy = new double[cap];
      busiest = new double[cap];
      bytes = new double[cap];
      weights = new double[cap];
      kind = new double[cap];
      phase = new double[cap];
    }
  }

  /**
   * {@code s}'s {@link CompiledStep#operationTimes} (all bytes on the main tier) at each of the
   * {@code m} sizes {@code xs[0..m)}, operation by operation, with the same arithmetic for each
   * size, so that every time is the same double; {@code riding}: also each operation's memory time
   * less the weights' share and each collective's riding time, as {@link RidingSide#fill} keeps
   * them.
   */
  void times(CompiledStep s, double[] xs, int m, boolean riding) {
    size(s.ops, s.collectives, m);
    System.arraycopy(xs, 0, xsKept, 0, m);
    for (int j = 0; j < m; j++) {
      double x = xs[j];
      perGroupShard[j] = s.perWorkShard(true, x);
      perStageShard[j] = s.perWorkShard(false, x);
      perBusy[j] = s.perBusy(x);
    }
    // one call per operation and per kind: short loops that the JIT compiles as methods, not as
    // on-stack replacements of one long loop
    for (int i = 0; i < s.ops; i++) {
      operation(s, i, xs, m, riding);
    }
    if (riding) {
      for (int c = 0; c < s.collectives; c++) {
        int row = c * cap;
        for (int j = 0; j < m; j++) {
          collective[row + j] = s.ridingCollective(c, xs[j]);
        }
      }
    }
  }

  /** Operation i's part of {@link #times}. */
  private void operation(CompiledStep s, int i, double[] xs, int m, boolean riding) {
    double[] work = s.perGroup[i] ? perGroupShard : perStageShard;
    if (s.imbalanced[i]) {
      // the busiest expert-parallel rank's work (CompiledStep.workImbalance)
      for (int j = 0; j < m; j++) {
        busiest[j] = work[j] * s.workImbalance(i, xs[j]);
      }
      work = busiest;
    }
    Arrays.fill(bytes, 0, m, 0);
    Arrays.fill(weights, 0, m, 0);
    for (int k = s.kindStart[i]; k < s.kindStart[i + 1]; k++) {
      kind(s, i, k, xs, m, work);
    }
    int row = i * cap;
    double f0 = s.flops0[i];
    double f1 = s.flops1[i];
    for (int j = 0; j < m; j++) {
      double flops = f0 + f1 * xs[j];
      double chipFlops = s.split ? flops * work[j] : flops;
      compute[row + j] = s.computeSeconds(i, chipFlops, weights[j]);
    }
    for (int j = 0; j < m; j++) {
      memory[row + j] = s.opMemory(i, bytes[j]);
    }
    System.arraycopy(weights, 0, weightBytes, row, m);
    System.arraycopy(bytes, 0, memoryBytes, row, m);
    if (riding) {
      double perByte = s.cost[i].secondsPerMainTierByte;
      for (int j = 0; j < m; j++) {
        withoutWeights[row + j] =
            CompiledStep.mainTierWithoutWeights(perByte, weights[j], bytes[j]);
      }
    }
  }

  /**
   * Byte kind k of operation i on one chip at each size ({@link CompiledStep#perChip}), added to
   * the operation's bytes and kept as its weight bytes when it is the weights.
   */
  private void kind(CompiledStep s, int i, int k, double[] xs, int m, double[] work) {
    // perChip's product with perShard at each size (1 on one chip: a product that changes
    // nothing), its switch taken once per kind
    double[] factor = kind;
    if (!s.split) {
      Arrays.fill(factor, 0, m, 1);
    } else {
      switch (s.kindDivisor[k]) {
        case WEIGHTS -> {
          Arrays.fill(factor, 0, m, s.perWeightShard[i]);
          if (s.imbalanced[i]) {
            // the busiest expert-parallel rank's experts (CompiledStep.weightImbalance)
            for (int j = 0; j < m; j++) {
              factor[j] *= s.weightImbalance(i, xs[j]);
            }
          }
        }
        case KV -> {
          double kv = s.perKvShard[i];
          for (int j = 0; j < m; j++) {
            factor[j] = perBusy[j] * kv;
          }
        }
        case WORK -> factor = work;
      }
    }
    double[] kept = s.kindDivisor[k] == OperationCost.Share.WEIGHTS ? weights : null;
    if (s.kindForm[k] == CompiledStep.Form.AFFINE) {
      // bytes(k, x), its affine form
      double b0 = s.bytes0[k];
      double b1 = s.bytes1[k];
      for (int j = 0; j < m; j++) {
        double v = (b0 + b1 * xs[j]) * factor[j];
        bytes[j] += v;
        if (kept != null) {
          kept[j] = v;
        }
      }
    } else {
      for (int j = 0; j < m; j++) {
        double v = s.bytes(k, xs[j]) * factor[j];
        bytes[j] += v;
        if (kept != null) {
          kept[j] = v;
        }
      }
    }
  }

  /**
   * {@code s}'s {@link CompiledStep#stageSeconds} at each of the {@code m} sizes {@code xs[0..m)}
   * from this block's times ({@link #times}) into {@code seconds[0..m)}, phase by phase in the same
   * order.
   */
  void stageSeconds(CompiledStep s, double[] xs, int m, double[] seconds) {
    Arrays.fill(seconds, 0, m, 0);
    int i = 0;
    for (int p = 0; p < s.phaseEnd.length; p++) {
      Arrays.fill(phase, 0, m, 0);
      for (; i < s.phaseEnd[p]; i++) {
        int row = i * cap;
        for (int j = 0; j < m; j++) {
          phase[j] += Roofline.operationSeconds(compute[row + j], memory[row + j], 0);
        }
      }
      for (int j = 0; j < m; j++) {
        seconds[j] += phase[j];
      }
    }
    if (s.collectives > 0) {
      Arrays.fill(phase, 0, m, 0);
      for (int c = 0; c < s.collectives; c++) {
        for (int j = 0; j < m; j++) {
          phase[j] += s.collectiveSeconds(c, xs[j]);
        }
      }
      for (int j = 0; j < m; j++) {
        seconds[j] += phase[j];
      }
    }
  }

  /**
   * {@code s}'s {@link RidingSide#ridingSeconds} for {@code n} rows into {@code seconds[0..n)}: row
   * r's own side is size r of {@code own} ({@link #times} with riding), or, with {@code own} null,
   * {@code chunk} for every row ({@link RidingSide#fill}); the running step's operation times and
   * weight bytes are size {@code running[r]} of {@code step} (a block of the running step's {@link
   * #times}), each a size {@code step} holds; a joined operation is credited only the weights the
   * running kernel's read serves ({@link CompiledStep#sharedWithoutWeights}, {@code chunk} the
   * workload's TTFT chunk of {@code chunkPrompts} prompts, always given).
   */
  static void ridingSeconds(
      CompiledStep s,
      StepBlock own,
      RidingSide chunk,
      double chunkPrompts,
      int n,
      StepBlock step,
      int[] running,
      int[] pairs,
      double[] seconds) {
    int ownCap = own == null ? 1 : own.cap;
    int perRow = own == null ? 0 : 1;
    double[] oc = own == null ? chunk.compute : own.compute;
    double[] ow = own == null ? chunk.withoutWeights : own.withoutWeights;
    double[] owb = own == null ? chunk.weightBytes : own.weightBytes;
    double[] omb = own == null ? chunk.memoryBytes : own.memoryBytes;
    // a block's decode steps and own sides read every byte from the main tier; the chunk's side
    // may read from several tiers, and then keeps all of its weights credited
    boolean shares = own != null || chunk.mainTier;
    double[] chunkWeights = chunk.weightBytes;
    double[] ocoll = own == null ? chunk.collective : own.collective;
    int stepCap = step.cap;
    Arrays.fill(seconds, 0, n, 0);
    for (int i = 0; i < s.ops; i++) {
      int j = pairs[i];
      int row = i * ownCap;
      boolean sharesOp = shares && s.routed[i];
      if (j < 0) {
        // no running kernel to join (ridingSeconds with both of its times 0)
        for (int r = 0; r < n; r++) {
          int q = row + perRow * r;
          seconds[r] += RidingPrefill.joinedSeconds(oc[q], ow[q], 0, 0, 0, 0);
        }
        continue;
      }
      int there = j * stepCap;
      for (int r = 0; r < n; r++) {
        int q = row + perRow * r;
        int t = there + running[r];
        double withoutWeights = ow[q];
        if (sharesOp) {
          double chunksPerStep = (own == null ? chunk.x : own.xsKept[r]) / chunkPrompts;
          withoutWeights =
              s.sharedWithoutWeights(
                  i, ow[q], owb[q], omb[q], chunkWeights[i], step.weightBytes[t], chunksPerStep);
        }
        seconds[r] +=
            RidingPrefill.joinedSeconds(
                oc[q], withoutWeights, 0, 0, step.compute[t], step.memory[t]);
      }
    }
    for (int c = 0; c < s.collectives; c++) {
      int row = c * ownCap;
      for (int r = 0; r < n; r++) {
        seconds[r] += ocoll[row + perRow * r];
      }
    }
  }
}
