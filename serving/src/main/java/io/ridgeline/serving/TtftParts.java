package io.ridgeline.serving;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkNotNull;

import io.ridgeline.core.Seconds;
import io.ridgeline.serving.efficiency.Efficiency;

/**
 * The time to first token of a served request (colocated, pd, afd) as the sum of its named parts,
 * each in seconds: {@code ttft = admission + stepWait + prefill + transfer}.
 *
 * <ul>
 *   <li>{@code admission}: outside the accelerators, the serving frontend's HTTP handling,
 *       tokenisation and the scheduler's admission ({@link Efficiency#admission()}).
 *   <li>{@code stepWait}: the wait for the step that is running when the request is admitted to
 *       finish before the prompt's first chunk can join a later one; for a request arriving at a
 *       random time during steps of equal length s the mean residual is s / 2, and under an overlap
 *       scheduler one more step, already scheduled without it (3s / 2 in all). A request of a batch
 *       of one finds no step running and waits for none ({@link #stepWait}).
 *   <li>{@code prefill}: the prompt's chunks, each a step (colocated: with the running batch's
 *       decode).
 *   <li>{@code transfer}: pd only, the KV cache's move to the decode pool, bytes / link bandwidth
 *       plus a fixed set-up per transfer and the engines' hand-over ({@link
 *       Efficiency#pdHandover()}); zero elsewhere.
 * </ul>
 *
 * <p>A static batch has no request path: its TTFT is the batch's prefill ({@link #prefillOnly}).
 *
 * @param admission the admission latency
 * @param stepWait the mean wait for a step the prompt can join
 * @param prefill the prefill of the prompt's chunks
 * @param transfer the KV transfer with its set-up (pd), else zero
 */
public record TtftParts(Seconds admission, Seconds stepWait, Seconds prefill, Seconds transfer) {
  /**
   * Validates the parts.
   *
   * @throws NullPointerException when one is null
   * @throws IllegalArgumentException when one is negative or not finite
   */
  public TtftParts {
    check("admission", admission);
    check("stepWait", stepWait);
    check("prefill", prefill);
    check("transfer", transfer);
  }

  /** Only a prefill of {@code seconds}: a static batch's TTFT. */
  public static TtftParts prefillOnly(double seconds) {
    return new TtftParts(Seconds.ZERO, Seconds.ZERO, Seconds.of(seconds), Seconds.ZERO);
  }

  /** The parts in seconds: admission, step wait, prefill and transfer. */
  static TtftParts of(double admission, double stepWait, double prefill, double transfer) {
    return new TtftParts(
        Seconds.of(admission), Seconds.of(stepWait), Seconds.of(prefill), Seconds.of(transfer));
  }

  /**
   * The mean wait of a request of a running batch of {@code batch} sequences for a step its prompt
   * can join, steps of {@code stepSeconds} each: it finds the other {@code batch − 1} sequences
   * decoding, so with at least one of them the mean residual of a step, {@code stepSeconds / 2},
   * for an arrival at a random time, plus {@code lagSteps} whole steps that were scheduled before
   * it was taken in ({@link Efficiency#schedulingLagSteps}: one under an overlap scheduler); at
   * batch 1 the server is idle (the request is its only sequence) and its prompt starts at once, 0.
   * For example steps of 16.8 ms: 8.4 ms at batch 2 with a synchronous scheduler (no lag), 16.8 ×
   * 1.5 = 25.2 ms under an overlap scheduler (one step of lag), 0 at batch 1.
   *
   * @throws IllegalArgumentException when batch is not positive or lagSteps negative
   */
  public static double stepWait(int batch, double stepSeconds, int lagSteps) {
    checkArgument(batch > 0, "batch must be positive: %s", batch);
    checkArgument(lagSteps >= 0, "scheduling lag steps must be >= 0: %s", lagSteps);
    // the residual of the running step (half a step on average) and the lag's whole steps;
    // stepSeconds * 0.5 is the same double as stepSeconds / 2
    return batch == 1 ? 0 : stepSeconds * (lagSteps + 0.5);
  }

  /** The TTFT: admission + stepWait + prefill + transfer. */
  public Seconds total() {
    return Seconds.of(
        admission.seconds() + stepWait.seconds() + prefill.seconds() + transfer.seconds());
  }

  private static void check(String name, Seconds value) {
    checkNotNull(value, name);
    checkArgument(
        value.seconds() >= 0 && Double.isFinite(value.seconds()),
        "TTFT part %s must be finite and >= 0: %s",
        name,
        value.seconds());
  }

  /**
   * The total and its parts, e.g. {@code "TTFT 101.1 ms = admission 20 ms + wait 6.8 ms + prefill
   * 74.3 ms + transfer 0 s"}.
   */
  @Override
  public String toString() {
    return "TTFT "
        + total()
        + " = admission "
        + admission
        + " + wait "
        + stepWait
        + " + prefill "
        + prefill
        + " + transfer "
        + transfer;
  }
}
