package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Closed-loop TTFT rounds, the server rate search, offline batch choice and precision defaults. */
final class PredictorModesTest {
  private static ValidationCase one(String row) {
    return CaseFile.parse(CaseFileTest.HEADER + "\n" + row + "\n", "t.csv").get(0);
  }

  /** Llama-3.1-70B on 8 H100 at tp 8, 1024 / 256, with the run cells {@code run}. */
  private static ValidationCase llama70(String mode, String load, String metric, String... run) {
    return CaseFileTest.withRun(
        CaseFileTest.row(
            "X1-" + metric,
            "llama-3.1-70b",
            "h100-sxm",
            "8",
            "8",
            "fp8",
            "fp8",
            "1024",
            "256",
            mode,
            load,
            metric,
            "1",
            ""),
        run);
  }

  /** The bounds of a server row, in ms. */
  private static String[] slo(String ttftMs, String tpotMs) {
    return new String[] {"slo_ttft_ms=" + ttftMs, "slo_tpot_ms=" + tpotMs};
  }

  private static Prediction predicted(Outcome o) {
    assertThat(o).as(o.toString()).isInstanceOf(Prediction.class);
    return (Prediction) o;
  }

  private static final Predictor START = Predictor.of(Calibration.startProfile());

  @Test
  void concurrency_sameLengthsRoundsWaitLongerThanDrifting() {
    // 64 clients: when all lengths are equal (range ratio 1) every round arrives at once and the
    // mean TTFT is longer than with InferenceMAX's drifting clients (range ratio 0.8)
    double synced =
        predicted(START.predict(llama70("concurrency", "64", "ttft_ms", "range_ratio=1")))
            .predicted();
    double drifting = predicted(START.predict(llama70("concurrency", "64", "ttft_ms"))).predicted();
    assertThat(synced).isGreaterThan(drifting);
    assertThat(predicted(START.predict(llama70("concurrency", "64", "ttft_ms"))).note())
        .contains("range ratio 0.80");
  }

  @Test
  void concurrency_medianTtft_isTheTypicalRequestBelowTheMean() {
    // 64 drifting clients over 10 rounds: the first round's prompts arrive together and wait for
    // each other, which lifts the mean; the median is a later round's request, so it is lower, and
    // the note names the statistic; a static batch has one TTFT, its median equals its mean
    Prediction mean = predicted(START.predict(llama70("concurrency", "64", "ttft_ms")));
    Prediction median = predicted(START.predict(llama70("concurrency", "64", "median_ttft_ms")));
    assertThat(median.predicted()).isLessThan(mean.predicted());
    assertThat(median.note()).contains("median TTFT");
    assertThat(mean.note()).contains("mean TTFT");
    assertThat(predicted(START.predict(llama70("static", "8", "median_ttft_ms"))).predicted())
        .isEqualTo(predicted(START.predict(llama70("static", "8", "ttft_ms"))).predicted());
  }

  @Test
  void burst_ttftIsThePlaceInTheDrainingQueue_throughputBelowOffline() {
    // 512 prompts at once, at most 64 running: the median prompt waits for the slots the first 64
    // free, seconds where offline's unqueued TTFT is under one; the throughput over the makespan
    // (ramp and tail) stays below offline's steady state at the same running limit
    double burstTtft =
        predicted(START.predict(llama70("burst", "64", "median_ttft_ms", "prompts=512")))
            .predicted();
    double offlineTtft =
        predicted(START.predict(llama70("offline", "64", "ttft_ms", "prompts=512"))).predicted();
    assertThat(offlineTtft).isLessThan(1000);
    assertThat(burstTtft).isGreaterThan(3 * offlineTtft);
    double burstRate =
        predicted(START.predict(llama70("burst", "64", "out_tok_s_per_chip", "prompts=512")))
            .predicted();
    double offlineRate =
        predicted(START.predict(llama70("offline", "64", "out_tok_s_per_chip"))).predicted();
    assertThat(burstRate).isLessThan(offlineRate);
    // more requests in the burst: the median waits longer
    assertThat(
            predicted(START.predict(llama70("burst", "64", "median_ttft_ms", "prompts=1024")))
                .predicted())
        .isGreaterThan(burstTtft);
    // the requests are the run's prompts: without them the row is skipped, saying why
    assertThat(START.predict(llama70("burst", "64", "ttft_ms")).toString())
        .contains("burst needs the prompts column");
  }

  @Test
  void clients_beyondTheRunningLimitWait() {
    // 256 closed-loop clients on 64 running slots (the row's engine cap: max_batch_per_rank 64):
    // three of four wait for a slot in every round; 64 clients on 64 slots never do
    double crowded =
        predicted(
                START.predict(
                    llama70(
                        "clients",
                        "256",
                        "median_ttft_ms",
                        "max_batch_per_rank=64",
                        "prompts=768")))
            .predicted();
    Prediction fitting =
        predicted(
            START.predict(
                llama70(
                    "clients", "64", "median_ttft_ms", "max_batch_per_rank=64", "prompts=192")));
    assertThat(crowded).isGreaterThan(3 * fitting.predicted());
    assertThat(fitting.note()).contains("clients: 192 requests (64 clients)");
  }

  @Test
  void server_highestRateWithinBounds_tighterBoundsLowerThroughput() {
    double loose =
        predicted(START.predict(llama70("server", "", "out_tok_s_per_chip", slo("2000", "200"))))
            .predicted();
    double tight =
        predicted(START.predict(llama70("server", "", "out_tok_s_per_chip", slo("450", "40"))))
            .predicted();
    assertThat(tight).isLessThan(loose);
    double tpot =
        predicted(START.predict(llama70("server", "", "tpot_ms", slo("450", "40")))).predicted();
    assertThat(tpot).isLessThanOrEqualTo(40);
    Prediction ttft = predicted(START.predict(llama70("server", "", "ttft_ms", slo("450", "40"))));
    assertThat(ttft.predicted()).isLessThanOrEqualTo(450);
    assertThat(ttft.note()).contains("requests/s per replica");
  }

  @Test
  void server_withoutBounds_orWithImpossibleBounds_isSkippedWithReason() {
    Outcome none = START.predict(llama70("server", "", "tpot_ms"));
    assertThat(((Skip) none).reason()).isEqualTo(Predictor.SERVER_REASON);
    Outcome impossible = START.predict(llama70("server", "", "tpot_ms", slo("1", "0.1")));
    assertThat(((Skip) impossible).reason()).startsWith("no rate meets the bounds");
  }

  @Test
  void offline_picksTheThroughputMaximisingBatch() {
    // the engine's choice is at least as fast as running every request that fits
    Prediction p =
        predicted(
            START.predict(
                one(
                    CaseFileTest.row(
                        "O1-out",
                        "llama-3.1-70b",
                        "gb200",
                        "1",
                        "1",
                        "fp4",
                        "",
                        "1000",
                        "1000",
                        "offline",
                        "",
                        "out_tok_s_per_chip",
                        "1",
                        ""))));
    assertThat(p.note()).containsAnyOf("offline: largest batch", "gives the most tokens/s");
    assertThat(p.predicted()).isPositive();
  }

  @Test
  void unstatedKv_ofQuantizedSixteenBitCheckpoint_isFp8_butNotOfNativeFp8() {
    Prediction llama =
        predicted(
            START.predict(
                one(
                    CaseFileTest.row(
                        "K1-tpot",
                        "llama-3.1-8b",
                        "h100-sxm",
                        "1",
                        "1",
                        "fp8",
                        "",
                        "1024",
                        "1024",
                        "static",
                        "8",
                        "tpot_ms",
                        "1",
                        ""))));
    assertThat(llama.note()).contains("kv_cache not stated: FP8");
    Prediction stated =
        predicted(
            START.predict(
                one(
                    CaseFileTest.row(
                        "K2-tpot",
                        "llama-3.1-8b",
                        "h100-sxm",
                        "1",
                        "1",
                        "fp8",
                        "bf16",
                        "1024",
                        "1024",
                        "static",
                        "8",
                        "tpot_ms",
                        "1",
                        ""))));
    assertThat(stated.note()).doesNotContain("kv_cache not stated");
    // FP8 KV halves the cache reads: the unstated-KV step is faster than the BF16-KV one
    assertThat(llama.predicted()).isLessThan(stated.predicted());
    Prediction deepseek =
        predicted(
            START.predict(
                one(
                    CaseFileTest.row(
                        "K3-tpot",
                        "deepseek-v3",
                        "b200",
                        "8",
                        "8",
                        "fp4",
                        "",
                        "1024",
                        "1024",
                        "static",
                        "8",
                        "tpot_ms",
                        "1",
                        ""))));
    assertThat(deepseek.note()).doesNotContain("kv_cache not stated");
  }
}
