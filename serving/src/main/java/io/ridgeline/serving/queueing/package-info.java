/**
 * Queueing formulas that turn a batch's step times into the latencies requests see under load:
 * {@link io.ridgeline.serving.queueing.ClosedLoop} (a fixed number of clients, each sending its
 * next request when the previous one completes: Little's law for the clients beyond the running
 * batch, and the rounds in which benchmark clients' prompts arrive) and {@link
 * io.ridgeline.serving.queueing.PoissonQueue} (open-loop Poisson arrivals at a deterministic
 * server: the M/D/1 mean wait and an exponential p99 tail) and {@link
 * io.ridgeline.serving.queueing.Burst} (N requests at once on a continuous-batching engine,
 * simulated step by step with the deployment's step time: each request's TTFT in the draining
 * queue, TPOT, and throughput over the makespan). Times are in seconds, rates per second.
 *
 * <pre>{@code
 * double rate = ClosedLoop.throughput(64, 2.0);           // 64 requests in a 2 s cycle: 32/s
 * double wait = PoissonQueue.meanWait(rate, 0.02);        // prefill of 20 ms at ρ = 0.64
 * }</pre>
 */
@CheckReturnValue
package io.ridgeline.serving.queueing;

import com.google.errorprone.annotations.CheckReturnValue;
