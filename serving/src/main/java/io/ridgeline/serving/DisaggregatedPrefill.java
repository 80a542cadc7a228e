package io.ridgeline.serving;

import io.ridgeline.core.BytesPerSecond;
import java.util.Optional;

/**
 * The prefill pool of a disaggregated deployment (pd, and afd with a prefill pool): its size in
 * chips relative to the decode side's demand and its part of the TTFT. Both deployments use this
 * one rule, so a prefill pool is charged the same way whatever decodes after it.
 *
 * <ul>
 *   <li>A prefill replica runs passes of {@link RooflineModel#prefillPassPrompts} prompts (as many
 *       as a chunk holds, fewer when their KV cache does not fit the pool); its rate is prompts per
 *       pass / seconds per pass.
 *   <li>The decode side of one replica finishes {@code batch / (TPOT × osl)} requests per second;
 *       the prefill replicas needed per decode replica are that demand over one prefill replica's
 *       rate, and their chips ({@code × prefill replica chips}, fractional) count in tokens per
 *       second per chip, price and power.
 *   <li>TTFT: the decode side's admission, a wait of {@code wait} seconds for the running step, the
 *       prompt's new tokens' prefill after its history and its KV cache's move to the decode side
 *       ({@link KvTransfer}).
 * </ul>
 */
final class DisaggregatedPrefill {
  private DisaggregatedPrefill() {}

  /**
   * Prefill chips per decode replica that keep up with a decode side finishing {@code batch}
   * requests of workload {@code w} every {@code tpot × osl} seconds: a pass holds prompts of its
   * new tokens, each prefilled after its cached ones.
   */
  static double chips(RooflineModel prefill, Workload w, int batch, double tpot) {
    int osl = w.outputTokens();
    int promptsPerPass = prefill.prefillPassPrompts(w.newTokens(), w.promptContext());
    double pass = prefill.prefill(promptsPerPass, w).seconds().seconds();
    double prefillRate = promptsPerPass / pass; // prompts per second per prefill replica
    double demand = batch / (tpot * osl); // requests per second per decode replica
    double ratio = demand / prefillRate; // prefill replicas per decode replica
    return ratio * prefill.replicaChips();
  }

  /**
   * Whether the prefill pool holds a prompt of {@code isl} tokens: a pass then runs as many as fit
   * ({@link RooflineModel#prefillPassPrompts}), so one is what must fit, as {@link #fitProblem}
   * says.
   */
  static boolean fits(RooflineModel prefill, int isl) {
    return prefill.memory(1, isl).fits();
  }

  /** Why one prompt of {@code isl} tokens does not fit the prefill pool; empty when it does. */
  static Optional<String> fitProblem(RooflineModel prefill, int isl) {
    return PoolFit.problem("prefill pool: ", prefill, 1, isl);
  }

  /**
   * The TTFT parts of a request of workload {@code w} prefilled on {@code prefill} whose KV cache
   * moves to {@code decode} (over {@code poolLink} if set), after a wait of {@code wait} seconds
   * for the decode side's running step: its new tokens' prefill after its cached ones, and the KV
   * of its whole prompt context (history included) sent to the decode side.
   */
  static TtftParts ttftParts(
      Optional<BytesPerSecond> poolLink,
      RooflineModel prefill,
      RooflineModel decode,
      Workload w,
      double wait) {
    return TtftParts.of(
        decode.efficiency().admission().seconds(),
        wait,
        prefill.prefill(1, w).seconds().seconds(),
        KvTransfer.seconds(poolLink, w.promptContext(), prefill, decode));
  }
}
