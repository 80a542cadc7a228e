package io.ridgeline.serving;

import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.DataKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a step's bytes sit on a chip of several tiers: for each {@link DataKind} its tiers and
 * their shares, in the order {@link ComputeTarget#tierShares} gives them, and each tier's
 * bandwidth; with scratch space for one operation's sums (one instance per step evaluated, not
 * shared between threads).
 */
final class StepTiers {
  private static final int WEIGHTS_KIND = DataKind.WEIGHTS.ordinal();

  final double[] bandwidth;
  final int[][] slot;
  final double[][] share;
  final int[] count; // kind k's tiers: slot[k][0..count[k]) with share[k][0..count[k])
  final double[] bytes;
  final boolean[] used;
  final int[] order;

  private StepTiers(ComputeTarget t) {
    List<String> names = new ArrayList<>(t.tierBandwidth().keySet());
    bandwidth = new double[names.size()];
    for (int n = 0; n < names.size(); n++) {
      bandwidth[n] = t.tierBandwidth().get(names.get(n)).bytesPerSecond();
    }
    DataKind[] kinds = DataKind.values();
    slot = new int[kinds.length][];
    share = new double[kinds.length][];
    count = new int[kinds.length];
    for (DataKind kind : kinds) {
      Map<String, Double> shares = t.tierShares(kind);
      slot[kind.ordinal()] = new int[shares.size()];
      share[kind.ordinal()] = new double[shares.size()];
      count[kind.ordinal()] = shares.size();
      int j = 0;
      for (Map.Entry<String, Double> e : shares.entrySet()) {
        slot[kind.ordinal()][j] = names.indexOf(e.getKey());
        share[kind.ordinal()][j] = e.getValue();
        j++;
      }
    }
    bytes = new double[names.size()];
    used = new boolean[names.size()];
    order = new int[names.size()];
  }

  /** The tiers of target {@code t} ({@link MemoryPlan#placed}). */
  static StepTiers of(ComputeTarget t) {
    return new StepTiers(t);
  }

  /**
   * Reusable tiers of a pool whose base target is {@code base} and whose weights {@code spill}
   * places batch by batch ({@link #at}); one per step evaluated at a time, not shared between
   * threads.
   */
  static StepTiers view(ComputeTarget base, WeightSpill spill) {
    StepTiers v = new StepTiers(base);
    v.slot[WEIGHTS_KIND] = new int[spill.tiers()];
    v.share[WEIGHTS_KIND] = new double[spill.tiers()];
    return v;
  }

  /**
   * The tiers of a step of {@code n} (sequences or prompts) of a pool whose base target is {@code
   * base} and whose weights {@code spill} places, in a view of their own, or null on a one-tier
   * chip ({@code spill} null) or when every byte is on the main tier.
   */
  static StepTiers placed(ComputeTarget base, WeightSpill spill, int n) {
    return spill == null ? null : view(base, spill).at(spill, n);
  }

  /**
   * This view with the weights of {@code batch} sequences where {@code spill} places them, as
   * {@link #of} of {@link MemoryPlan#placed} gives them; null when every byte is on the main tier
   * (read at the base target's bandwidth, as a step without tiers).
   */
  StepTiers at(WeightSpill spill, int batch) {
    int n = spill.place(batch, slot[WEIGHTS_KIND], share[WEIGHTS_KIND]);
    if (n == 0) {
      return null;
    }
    count[WEIGHTS_KIND] = n;
    return this;
  }

  /** Whether {@code o} reads each kind's bytes from the same tiers in the same shares. */
  boolean samePlacement(StepTiers o) {
    if (!java.util.Arrays.equals(bandwidth, o.bandwidth)) {
      return false;
    }
    for (int k = 0; k < slot.length; k++) {
      if (count[k] != o.count[k]) {
        return false;
      }
      for (int j = 0; j < count[k]; j++) {
        if (slot[k][j] != o.slot[k][j]
            || Double.doubleToLongBits(share[k][j]) != Double.doubleToLongBits(o.share[k][j])) {
          return false;
        }
      }
    }
    return true;
  }
}
