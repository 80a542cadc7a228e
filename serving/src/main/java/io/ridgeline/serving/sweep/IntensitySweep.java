package io.ridgeline.serving.sweep;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import io.ridgeline.core.FlopsPerByte;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.serving.RooflineModel;
import java.util.List;
import java.util.Locale;

/**
 * Each decode phase's arithmetic intensity as the batch grows, against the chip's ridge point: the
 * batch at which a phase's intensity crosses the ridge is where it turns compute-bound.
 *
 * <pre>{@code
 * IntensitySweep s = IntensitySweep.of(rm, 4096, List.of(1, 8, 64, 512));
 * s.rows().get(0).phases();   // decode_attention 4 FLOP/B, decode_ffn 1 FLOP/B, ...
 * }</pre>
 */
public final class IntensitySweep {
  private final RooflineModel model;
  private final int context;
  private final ImmutableList<Row> rows;

  /** One batch size: its decode phases (per chip) in order, and whether the batch fits. */
  public static final class Row {
    private final int batch;
    private final ImmutableList<PhaseResult> phases;
    private final boolean fits;

    Row(int batch, List<PhaseResult> phases, boolean fits) {
      this.batch = batch;
      this.phases = ImmutableList.copyOf(phases);
      this.fits = fits;
    }

    /**
     * Whether the batch's weights and KV cache at the sweep's context fit the system's memory
     * ({@link RooflineModel#memory}); a row that does not fit is still computed (the intensity of a
     * step the system cannot hold).
     */
    public boolean fits() {
      return fits;
    }

    /** Sequences per decode step. */
    public int batch() {
      return batch;
    }

    /** Decode phases with their FLOPs, bytes, intensity and bound. */
    public List<PhaseResult> phases() {
      return phases;
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("batch " + batch + (fits ? ":" : " (does not fit):"));
      for (PhaseResult p : phases) {
        b.append(
            String.format(
                Locale.ROOT,
                " %s %.2f FLOP/B (%s)",
                p.name(),
                p.intensity().flopsPerByte(),
                p.bound()));
      }
      return b.toString();
    }
  }

  private IntensitySweep(RooflineModel model, int context, List<Row> rows) {
    this.model = model;
    this.context = context;
    this.rows = ImmutableList.copyOf(rows);
  }

  /** Default batches: 1, 2, 4, … 1024. */
  public static List<Integer> defaultBatches() {
    ImmutableList.Builder<Integer> b = ImmutableList.builder();
    for (int x = 1; x <= 1024; x *= 2) {
      b.add(x);
    }
    return b.build();
  }

  /**
   * Decode phases of {@code model} at {@code context} for each batch.
   *
   * @throws IllegalArgumentException when context or a batch is not positive
   */
  public static IntensitySweep of(RooflineModel model, int context, List<Integer> batches) {
    checkArgument(context > 0, "context must be positive: %s", context);
    checkArgument(!batches.isEmpty(), "batches must not be empty");
    ImmutableList.Builder<Row> rows = ImmutableList.builder();
    for (int b : batches) {
      checkArgument(b > 0, "batch must be positive: %s", b);
      rows.add(new Row(b, model.decode(b, context).phases(), model.memory(b, context).fits()));
    }
    return new IntensitySweep(model, context, rows.build());
  }

  /** The system. */
  public RooflineModel model() {
    return model;
  }

  /** Tokens in each sequence's cache. */
  public int context() {
    return context;
  }

  /** One row per batch, in the order given. */
  public List<Row> rows() {
    return rows;
  }

  /** The chip's ridge point for the model's matmul precision (efficiency applied). */
  public FlopsPerByte ridgePoint() {
    return model.target().ridgePoint(model.computePrecisions().matmul());
  }

  @Override
  public String toString() {
    StringBuilder b =
        new StringBuilder(model + ", context " + context + ", ridge " + ridgePoint() + ":");
    rows.forEach(r -> b.append("\n  ").append(r));
    return b.toString();
  }
}
