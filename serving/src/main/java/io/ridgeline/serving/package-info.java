/**
 * Places a model on a system of chips and answers how fast and how cheaply it serves: pools, their
 * per-phase rooflines ({@link io.ridgeline.serving.RooflineModel}), deployments of one or several
 * pools under a serving strategy ({@link io.ridgeline.serving.Deployment}: colocated, static,
 * prefill/decode and attention/FFN disaggregation) and interactivity-versus-throughput frontiers
 * ({@link io.ridgeline.serving.ParetoFrontier}).
 *
 * <p>Entry point for JShell: {@code RooflineModel.of(Models.byId("llama-3.1-8b"),
 * Chips.byId("h100-sxm"))}; for a frontier, {@code
 * ParetoFrontier.builder(pool).inputTokens(1024).outputTokens(1024).build()}.
 *
 * <p>Beside it, each capability in a package of its own: {@link
 * io.ridgeline.serving.efficiency} (how much of the roofline an engine achieves, fitted profiles,
 * error bands), {@link io.ridgeline.serving.plan} (the capacity planner), {@link
 * io.ridgeline.serving.sweep} (design-space sweeps and their writers) and {@link
 * io.ridgeline.serving.queueing} (latency under load). This package reads efficiency and queueing
 * and is read by plan and sweep, never the other way round.
 *
 * <p>Definitions used throughout: <b>TTFT</b> (time to first token) is the time to prefill a
 * request's prompt and produce its first token; <b>TPOT</b> (time per output token) is the mean
 * decode-step time over the remaining output tokens; <b>interactivity</b> is 1 / TPOT in output
 * tokens/s per user; <b>throughput</b> is output tokens per second per chip, counting the time the
 * chips spend prefilling those requests.
 */
@CheckReturnValue
package io.ridgeline.serving;

import com.google.errorprone.annotations.CheckReturnValue;
