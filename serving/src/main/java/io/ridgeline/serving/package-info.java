/**
 * Places a model on a system of chips and answers how fast and how cheaply it serves: per-phase
 * rooflines ({@link io.ridgeline.serving.RooflineModel}), interactivity-versus-throughput frontiers
 * ({@link io.ridgeline.serving.ParetoFrontier}), charts and the command line.
 *
 * <p>Entry point for JShell: {@code RooflineModel.of(Models.byId("llama-3.1-8b"),
 * Chips.byId("h100-sxm"))}.
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
