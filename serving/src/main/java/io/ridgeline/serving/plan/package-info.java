/**
 * The capacity planner: the cheapest (or fastest) deployments that meet a request rate and
 * latency objectives, searched over chips, counts, parallel layouts and serving strategies.
 *
 * <ul>
 *   <li>{@link io.ridgeline.serving.plan.Planner}: runs the search;
 *   <li>{@link io.ridgeline.serving.plan.PlanRequest}: what to search for (model, workload, rate,
 *       TTFT and TPOT objectives, chips, strategies, objective);
 *   <li>{@link io.ridgeline.serving.plan.PlanResult}: the configurations that meet the objectives,
 *       ranked ({@link io.ridgeline.serving.plan.PlanConfiguration}), and the nearest misses with
 *       why each failed ({@link io.ridgeline.serving.plan.PlanMiss}, {@link
 *       io.ridgeline.serving.plan.PlanFailure}).
 * </ul>
 *
 * <p>Where to start in JShell:
 *
 * <pre>{@code
 * PlanResult r = Planner.plan(PlanRequest.builder()
 *     .model(Models.byId("llama-3.1-70b"))
 *     .addChips(Chips.H100_SXM, Chips.B200)
 *     .inputTokens(1024).outputTokens(256).requestsPerSecond(10)
 *     .ttftSlo(Seconds.ofMillis(500)).tpotSlo(Seconds.ofMillis(50))
 *     .build());
 * r.configurations().get(0);
 * }</pre>
 *
 * <p>Built on the pools and deployments of {@code io.ridgeline.serving}; nothing there depends on
 * this package.
 */
@CheckReturnValue
package io.ridgeline.serving.plan;

import com.google.errorprone.annotations.CheckReturnValue;
