package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableMap;
import io.ridgeline.core.Bytes;
import io.ridgeline.core.RidgelineStyle;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * Memory one chip needs for a batch at a context, and on which of its tiers each byte lives.
 *
 * <p>The tier rule (engines reserve the KV pool and the workspace in HBM and offload only weights):
 * the KV cache and the workspace live in the <b>main tier</b> (the chip's first memory tier: HBM or
 * GDDR on a GPU, SRAM on an SRAM-only chip) and must fit there; the weights fill what the KV cache
 * and the workspace leave of the main tier and the rest spills into the other tiers, fastest first
 * (offloaded weights, read at the slower tier's bandwidth). A slower tier therefore never sizes the
 * batch: on a GB200 (186 GB HBM, 467.5 GB LPDDR5X) a batch fits when its KV and workspace fit in
 * the 186 GB of HBM and the weights fit in what is left of HBM plus the LPDDR5X.
 *
 * <p>Unless the pool chose to let KV spill ({@link KvOffload#SPILL}, {@link #kvSpillTier()}): then
 * the main tier holds the workspace and as much KV as it can, the rest of the KV lives in the
 * offload tier (which must hold it), and the weights fill what is left of each tier as above.
 */
@Value.Immutable
@RidgelineStyle
public abstract class MemoryUse {
  MemoryUse() {} // subclassed only by the generated implementation

  /** This chip's share of the weights. */
  public abstract Bytes weights();

  /** This chip's share of the KV cache. */
  public abstract Bytes kvCache();

  /** Activations and logits of the largest step (see {@link RooflineModel#memory}). */
  public abstract Bytes workspace();

  /**
   * The chip's tiers in placement order, tier name to capacity: the main tier first, then the
   * others from the fastest down (the order weights spill in).
   */
  public abstract ImmutableMap<String, Bytes> tiers();

  @Value.Check
  void check() {
    checkArgument(!tiers().isEmpty(), "tiers: a chip has at least one memory tier, got none");
    kvSpillTier()
        .ifPresent(
            t ->
                checkArgument(
                    tiers().containsKey(t) && !t.equals(mainTier()),
                    "kvSpillTier: '%s' must be one of the tiers after the main one: %s",
                    t,
                    tiers().keySet()));
    checkArgument(
        tiers().containsKey(overflowTier()),
        "overflowTier: '%s' must be one of the tiers %s",
        overflowTier(),
        tiers().keySet());
    for (Map.Entry<String, Bytes> t : tiers().entrySet()) {
      checkArgument(
          t.getValue().bytes() > 0,
          "tiers: capacity of tier '%s' must be positive: %s",
          t.getKey(),
          t.getValue());
    }
  }

  /**
   * The tier that counts the weights no tier has room for (a system that does not fit): the
   * slowest, so that an estimate past capacity never reads them faster than the tiers that are full
   * (a small SRAM beside HBM is the fastest and the last in placement order, and must not be
   * credited with gigabytes it cannot hold); by default the last tier in placement order.
   */
  @Value.Default
  public String overflowTier() {
    String last = mainTier();
    for (String t : tiers().keySet()) {
      last = t;
    }
    return last;
  }

  /** The main tier's name: where the KV cache and the workspace live. */
  public String mainTier() {
    return tiers().keySet().iterator().next();
  }

  /** The main tier's capacity. */
  public Bytes mainCapacity() {
    return tiers().get(mainTier());
  }

  /** The chip's memory capacity: every tier together (weights may spill beyond the main tier). */
  public Bytes capacity() {
    return Bytes.of(tiers().values().stream().mapToDouble(Bytes::bytes).sum());
  }

  /** weights + KV cache + workspace. */
  public Bytes total() {
    return weights().plus(kvCache()).plus(workspace());
  }

  /**
   * The offload tier the KV cache may spill into ({@link KvOffload#SPILL}); empty (the default)
   * when every byte of KV must fit in the main tier.
   */
  public abstract Optional<String> kvSpillTier();

  /**
   * The KV cache on each tier, in placement order, tiers holding none left out (at least one
   * entry): all of it on the main tier, or, with a {@link #kvSpillTier()}, what the main tier holds
   * after the workspace and the rest on the spill tier.
   */
  @Value.Lazy
  public ImmutableMap<String, Bytes> kvCacheByTier() {
    double kv = kvCache().bytes();
    double inMain = kv;
    if (kvSpillTier().isPresent()) {
      inMain = Math.min(kv, Math.max(0, mainCapacity().bytes() - workspace().bytes()));
    }
    ImmutableMap.Builder<String, Bytes> out = ImmutableMap.builder();
    if (inMain > 0 || kv == inMain) {
      out.put(mainTier(), Bytes.of(inMain));
    }
    if (kv > inMain) {
      out.put(kvSpillTier().get(), Bytes.of(kv - inMain));
    }
    return out.build();
  }

  /** The KV cache on the main tier ({@link #kvCacheByTier()}). */
  public Bytes kvCacheInMainTier() {
    return kvCacheByTier().getOrDefault(mainTier(), Bytes.ZERO);
  }

  /** The KV cache outside the main tier: zero unless it spills ({@link #kvSpillTier()}). */
  public Bytes kvCacheOffloaded() {
    return kvCache().minusOrZero(kvCacheInMainTier());
  }

  /**
   * What the main tier holds before the weights: the workspace and the KV cache on it (all the KV
   * cache unless it may spill).
   */
  public Bytes mainTierReserved() {
    return kvCacheInMainTier().plus(workspace());
  }

  /**
   * Whether the memory fits: KV cache + workspace within the main tier (with a {@link
   * #kvSpillTier()}: the workspace within the main tier and the spilled KV within the spill tier),
   * and the weights within what is left of the main tier plus every other tier (equivalently, the
   * total within the capacity of all tiers).
   */
  public boolean fits() {
    if (total().bytes() > capacity().bytes()) {
      return false;
    }
    if (kvSpillTier().isEmpty()) {
      return kvCache().plus(workspace()).bytes() <= mainCapacity().bytes();
    }
    return workspace().bytes() <= mainCapacity().bytes()
        && kvCacheOffloaded().bytes() <= tiers().get(kvSpillTier().get()).bytes();
  }

  /**
   * How far over its capacity the tightest constraint is: the larger of (KV + workspace) / main
   * tier (with a spill tier: workspace / main tier and spilled KV / spill tier) and total / every
   * tier; above 1 exactly when it does not {@link #fits() fit}.
   */
  public double pressure() {
    double all = total().bytes() / capacity().bytes();
    if (kvSpillTier().isEmpty()) {
      return Math.max(kvCache().plus(workspace()).bytes() / mainCapacity().bytes(), all);
    }
    double spill = kvCacheOffloaded().bytes() / tiers().get(kvSpillTier().get()).bytes();
    return Math.max(Math.max(workspace().bytes() / mainCapacity().bytes(), spill), all);
  }

  /**
   * The weights on each tier, in placement order, tiers holding none left out (at least one entry):
   * what the KV cache and the workspace leave of the main tier, then each other tier up to what
   * spilled KV leaves of it; weights that fit nowhere are counted on the last (slowest) tier, no
   * weights on the main tier.
   */
  @Value.Lazy
  public ImmutableMap<String, Bytes> weightsByTier() {
    // in placement order, whichever tier takes the weights that fit nowhere
    Map<String, Double> put = new LinkedHashMap<>();
    tiers().keySet().forEach(t -> put.put(t, 0.0));
    double left = weights().bytes();
    for (Map.Entry<String, Bytes> t : tiers().entrySet()) {
      double taken =
          t.getKey().equals(mainTier())
              ? mainTierReserved().bytes()
              : kvCacheByTier().getOrDefault(t.getKey(), Bytes.ZERO).bytes();
      double room = Math.max(0, t.getValue().bytes() - taken);
      double here = Math.min(left, room);
      if (here > 0) {
        put.merge(t.getKey(), here, Double::sum);
        left -= here;
      }
    }
    if (left > 0) {
      put.merge(overflowTier(), left, Double::sum);
    }
    ImmutableMap.Builder<String, Bytes> out = ImmutableMap.builder();
    put.forEach(
        (k, v) -> {
          if (v > 0) {
            out.put(k, Bytes.of(v));
          }
        });
    ImmutableMap<String, Bytes> held = out.buildOrThrow();
    return held.isEmpty() ? ImmutableMap.of(mainTier(), Bytes.ZERO) : held;
  }

  /**
   * Every byte per tier, in placement order, tiers holding nothing left out: the main tier holds
   * the workspace, its KV cache and its share of the weights; the others offloaded weights and
   * spilled KV.
   */
  public ImmutableMap<String, Bytes> byTier() {
    Map<String, Double> all = new LinkedHashMap<>();
    if (mainTierReserved().bytes() > 0) {
      all.put(mainTier(), mainTierReserved().bytes());
    }
    kvCacheByTier()
        .forEach(
            (k, v) -> {
              if (!k.equals(mainTier())) {
                all.merge(k, v.bytes(), Double::sum);
              }
            });
    weightsByTier().forEach((k, v) -> all.merge(k, v.bytes(), Double::sum));
    ImmutableMap.Builder<String, Bytes> out = ImmutableMap.builder();
    all.forEach((k, v) -> out.put(k, Bytes.of(v)));
    return out.build();
  }

  /**
   * What the memory needs against what the chip has, for messages: {@code "72.2 GB per chip,
   * capacity 80 GB"} on a one-tier chip; with several tiers the main tier's share is named too,
   * {@code "500 GB per chip (KV + workspace 190 GB in hbm of 186 GB), capacity 653.5 GB"}, and a
   * spilled KV cache its tier's, {@code "(workspace 2 GB + KV 184 GB in hbm of 186 GB, KV 300 GB in
   * lpddr of 467.5 GB)"}.
   */
  public String needs() {
    String main = "";
    if (tiers().size() > 1 && kvSpillTier().isEmpty()) {
      main =
          " (KV + workspace "
              + mainTierReserved()
              + " in "
              + mainTier()
              + " of "
              + mainCapacity()
              + ")";
    } else if (kvSpillTier().isPresent()) {
      String spill = kvSpillTier().get();
      main =
          " (workspace "
              + workspace()
              + " + KV "
              + kvCacheInMainTier()
              + " in "
              + mainTier()
              + " of "
              + mainCapacity()
              + ", KV "
              + kvCacheOffloaded()
              + " in "
              + spill
              + " of "
              + tiers().get(spill)
              + ")";
    }
    return total() + " per chip" + main + ", capacity " + capacity();
  }

  /**
   * For example {@code per chip: weights 70.6 GB + KV 1.34 GB + workspace 0.3 GB = 72.2 GB of 80 GB
   * (fits)} on a one-tier chip; a chip with several tiers adds what each holds, such as {@code ;
   * hbm: KV + workspace 150 GB + weights 36 GB of 186 GB, lpddr: weights 370 GB of 467.5 GB}, and
   * KV spilled to a tier is named there: {@code lpddr: KV 300 GB + weights 0 B of 467.5 GB}.
   */
  @Override
  public String toString() {
    StringBuilder s =
        new StringBuilder()
            .append("per chip: weights ")
            .append(weights())
            .append(" + KV ")
            .append(kvCache())
            .append(" + workspace ")
            .append(workspace())
            .append(" = ")
            .append(total())
            .append(" of ")
            .append(capacity());
    if (tiers().size() > 1) {
      String sep = "; ";
      for (Map.Entry<String, Bytes> t : tiers().entrySet()) {
        s.append(sep).append(t.getKey()).append(':');
        if (t.getKey().equals(mainTier())) {
          s.append(" KV + workspace ").append(mainTierReserved()).append(" +");
        } else if (kvCacheByTier().containsKey(t.getKey())) {
          s.append(" KV ").append(kvCacheByTier().get(t.getKey())).append(" +");
        }
        s.append(" weights ")
            .append(weightsByTier().getOrDefault(t.getKey(), Bytes.ZERO))
            .append(" of ")
            .append(t.getValue());
        sep = ", ";
      }
    }
    return s.append(fits() ? " (fits)" : " (does not fit)").toString();
  }
}
