package io.ridgeline.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.efficiency.Efficiency;
import io.ridgeline.serving.efficiency.EngineProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

final class PredictorTest {
  private static ValidationCase one(String row) {
    return CaseFile.parse(CaseFileTest.HEADER + "\n" + row + "\n", "t.csv").get(0);
  }

  @Test
  void predict_staticTpot_isOneDecodeStepAtMidGeneration() {
    // llama-2-70b, 2× a100 tp 2, fp16, isl 512, osl 128, batch 1 (as P139): tpot = one decode
    // step of batch 1 at context 512 + 128/2 = 576, in ms
    ValidationCase c =
        one(
            CaseFileTest.row(
                "P139-tpot",
                "llama-2-70b",
                "a100-sxm-80gb",
                "2",
                "2",
                "fp16",
                "fp16",
                "512",
                "128",
                "static",
                "1",
                "tpot_ms",
                "54.86",
                ""));
    Outcome o = Predictor.ideal().predict(c);
    assertThat(o).isInstanceOf(Prediction.class);
    RooflineModel rm =
        RooflineModel.builder()
            .model(Models.byId("llama-2-70b"))
            .chip(Chips.byId("a100-sxm-80gb"))
            .chips(2)
            .tensorParallel(2)
            .precisions(
                Models.byId("llama-2-70b").defaultPrecisions().withAllWeights(Precision.FP16))
            .efficiency(Efficiency.ideal())
            .build();
    Precisions p = rm.precisions();
    assertThat(p.kvCache()).isEqualTo(Precision.FP16);
    double expected = 1e3 * rm.decode(1, 576).seconds().seconds();
    assertThat(((Prediction) o).predicted()).isCloseTo(expected, within(1e-9));
    assertThat(((Prediction) o).ratio()).isCloseTo(expected / 54.86, within(1e-12));
  }

  /** A profile of 1 ms of host work per step and 34 µs per eager launch. */
  private static final Efficiency HOST_BOUND =
      Efficiency.builder()
          .from(Efficiency.of(0.5, 0.6, 0.8))
          .stepOverhead(Seconds.ofMicros(1000))
          .prefillKernelOverhead(Seconds.ofMicros(34))
          .build();

  @Test
  void predict_eagerDecodeStated_launchesEveryDecodeKernelFromTheHost() {
    // the same row twice, one with decode_launch eager: Llama-2-70B on 8 H100 at tp 8, batch 1,
    // with a profile of 1 ms per step and 34 µs per eager launch; the eager row's TPOT is the
    // host's 1 + 884 × 0.034 = 31.056 ms per pass, the graphed one's the device's pass
    Predictor predictor = Predictor.of(HOST_BOUND);
    double graphed = predicted(predictor, CaseFileTest.withRun(p145Tpot("")));
    Outcome eager = predictor.predict(CaseFileTest.withRun(p145Tpot(""), "decode_launch=eager"));
    assertThat(graphed).isLessThan(15);
    assertThat(((Prediction) eager).predicted()).isCloseTo(31.056, within(1e-9));
    assertThat(((Prediction) eager).note()).contains("eager decode: each decode kernel launched");
    // graphs stated is the profile's own: the same prediction, no note
    Outcome graphs = predictor.predict(CaseFileTest.withRun(p145Tpot(""), "decode_launch=graphs"));
    assertThat(((Prediction) graphs).predicted()).isEqualTo(graphed);
    assertThat(((Prediction) graphs).note()).doesNotContain("decode:");
  }

  @Test
  void predict_notesText_neverChangesAPrediction() {
    // the same row with notes that name what the run columns carry: the prediction and its note
    // are those of the row without them, whatever the notes say
    Predictor predictor = Predictor.of(HOST_BOUND);
    Outcome plain = predictor.predict(CaseFileTest.withRun(p145Tpot("")));
    for (String notes :
        List.of(
            "eager decode",
            "no eager decode",
            "\"synchronous scheduler; max_batch 1 per rank; range ratio 1, 10 prompts\"",
            "\"SLO TTFT 1 ms / TPOT 1 ms; load per chip\"")) {
      Outcome o = predictor.predict(CaseFileTest.withRun(p145Tpot(notes)));
      assertThat(((Prediction) o).predicted())
          .as(notes)
          .isEqualTo(((Prediction) plain).predicted());
      assertThat(((Prediction) o).note()).as(notes).isEqualTo(((Prediction) plain).note());
    }
  }

  @Test
  void predict_noEagerDecodeInNotes_isNotEagerButTheColumnIs() {
    // "no eager decode" holds the words "eager decode": the notes once switched such a row to
    // eager launches; now only the column does, whatever the notes say
    Predictor predictor = Predictor.of(HOST_BOUND);
    double graphed = predicted(predictor, CaseFileTest.withRun(p145Tpot("")));
    assertThat(predicted(predictor, CaseFileTest.withRun(p145Tpot("no eager decode"))))
        .isEqualTo(graphed);
    assertThat(
            predicted(
                predictor,
                CaseFileTest.withRun(p145Tpot("no eager decode"), "decode_launch=eager")))
        .isCloseTo(31.056, within(1e-9));
  }

  @Test
  void predict_statedGraphsAndOverlap_replaceAProfileRunEagerAndSynchronous() {
    // a profile fitted on an eager, synchronous engine; a row that states graphs and overlap is
    // predicted as the profile with both turned the other way (HOST_BOUND itself)
    Efficiency eagerSync =
        Efficiency.builder().from(HOST_BOUND).eagerDecode(true).overlapScheduler(false).build();
    Outcome o =
        Predictor.of(eagerSync)
            .predict(
                CaseFileTest.withRun(p145Tpot(""), "decode_launch=graphs", "scheduler=overlap"));
    assertThat(((Prediction) o).predicted())
        .isEqualTo(predicted(Predictor.of(HOST_BOUND), CaseFileTest.withRun(p145Tpot(""))));
    assertThat(((Prediction) o).note())
        .contains("graphed decode: each decode pass replays a captured graph")
        .contains("overlap scheduler: the next step scheduled while the device runs this one");
  }

  @Test
  void predict_synchronousSchedulerStated_paysTheStepWorkAndJoinsTheNextStep() {
    // the same rows twice, one with scheduler synchronous, with a profile of 1 ms per step:
    // Llama-2-70B on 8 H100 at tp 8. The static batch-1 TPOT grows by the step's 1 ms of host
    // work, which no longer hides under the device's pass; a served TTFT at 16 clients is shorter
    // with it, as each spread-out prompt joins the next step instead of the step after next
    Efficiency e =
        Efficiency.builder()
            .from(Efficiency.of(0.5, 0.6, 0.8))
            .stepOverhead(Seconds.ofMicros(1000))
            .build();
    Predictor predictor = Predictor.of(e);
    double[] tpot = new double[2];
    double[] ttft = new double[2];
    String[] scheduler = {"scheduler=", "scheduler=synchronous"};
    for (int i = 0; i < 2; i++) {
      tpot[i] = predicted(predictor, CaseFileTest.withRun(p145Tpot(""), scheduler[i]));
      ttft[i] =
          predicted(
              predictor,
              CaseFileTest.withRun(
                  CaseFileTest.row(
                      "Q1-ttft",
                      "llama-2-70b",
                      "h100-sxm",
                      "8",
                      "8",
                      "fp16",
                      "fp16",
                      "1024",
                      "1024",
                      "concurrency",
                      "16",
                      "ttft_ms",
                      "100",
                      ""),
                  scheduler[i]));
    }
    assertThat(tpot[1] - tpot[0]).isCloseTo(1.0, within(1e-9));
    assertThat(ttft[1]).isLessThan(ttft[0]);
  }

  /** SplitwiseSim's P145 TPOT row: Llama-2-70B on 8 H100 at tp 8, static batch 1, 512 / 128. */
  private static String p145Tpot(String notes) {
    return CaseFileTest.row(
        "P145-tpot",
        "llama-2-70b",
        "h100-sxm",
        "8",
        "8",
        "fp16",
        "fp16",
        "512",
        "128",
        "static",
        "1",
        "tpot_ms",
        "29.76",
        notes);
  }

  private static double predicted(Predictor predictor, ValidationCase c) {
    Outcome o = predictor.predict(c);
    assertThat(o).isInstanceOf(Prediction.class);
    return ((Prediction) o).predicted();
  }

  @Test
  void predict_unpredictableRows_carryReasons() {
    List<String> rows =
        List.of(
            CaseFileTest.row(
                "S1-tpot",
                "llama-2-70b",
                "mi300x",
                "8",
                "",
                "fp8",
                "fp8",
                "",
                "",
                "server",
                "",
                "tpot_ms",
                "143",
                ""),
            CaseFileTest.row(
                "S2-tpot",
                "llama-2-70b",
                "h100-sx",
                "8",
                "8",
                "fp8",
                "",
                "128",
                "128",
                "static",
                "1",
                "tpot_ms",
                "1",
                ""),
            CaseFileTest.row(
                "S3-out",
                "llama-2-70b",
                "h100-sxm",
                "8",
                "",
                "fp8",
                "",
                "",
                "",
                "offline",
                "",
                "out_tok_s_per_chip",
                "1",
                ""),
            CaseFileTest.row(
                "S5-out",
                "llama-3.1-405b",
                "h100-sxm",
                "1",
                "1",
                "bf16",
                "",
                "128",
                "128",
                "static",
                "1",
                "tpot_ms",
                "1",
                ""),
            CaseFileTest.row(
                "S6-out",
                "llama-3.1-8b",
                "h100-sxm",
                "8",
                "3",
                "bf16",
                "",
                "128",
                "128",
                "static",
                "1",
                "tpot_ms",
                "1",
                ""));
    List<String> reasons =
        rows.stream()
            .map(r -> Predictor.ideal().predict(one(r)))
            .map(o -> ((Skip) o).reason())
            .toList();
    assertThat(reasons.get(0)).startsWith("isl/osl not stated");
    assertThat(reasons.get(1)).startsWith("unknown chip: 'h100-sx'");
    assertThat(reasons.get(2)).startsWith("isl/osl not stated");
    assertThat(reasons.get(3)).startsWith("does not fit");
    assertThat(reasons.get(4)).startsWith("invalid layout");
  }

  @Test
  void predict_mtp_saysAcceptanceIsAssumed() {
    String row =
        CaseFileTest.row(
                "M1-tps_user",
                "deepseek-v3",
                "b200",
                "8",
                "8",
                "fp4",
                "",
                "1024",
                "2048",
                "concurrency",
                "1",
                "out_tok_s_per_user",
                "274.72",
                "")
            .replace(",,trtllm,", ",mtp3,trtllm,");
    Outcome o = Predictor.ideal().predict(one(row));
    assertThat(o).isInstanceOf(Prediction.class);
    assertThat(((Prediction) o).note()).contains("α=0.70 assumed");
  }

  @Test
  void validation_shippedCases_everyRowPredictedOrSkippedWithReason() {
    Validation v = Validation.run(CaseFile.shipped(), Predictor.ideal());
    assertThat(v.caseCount()).isEqualTo(223);
    assertThat(v.predictions().size() + v.skipped().size()).isEqualTo(223);
    assertThat(v.skipped()).allSatisfy(s -> assertThat(s.reason()).isNotBlank());
    assertThat(v.predictions()).allSatisfy(p -> assertThat(p.ratio()).isPositive().isFinite());
    assertThat(v.skipReasons().values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(v.skipped().size());
  }

  @Test
  void predict_concurrencyAboveEngineCap_runsCapAndQueuesRest() {
    // 64 clients on one replica of llama-2-70b (8× a100 tp 8, fp16, isl 512, osl 128) whose
    // engine runs at most 16 requests: batch 16, the other 48 queue
    EngineProfile capped = new EngineProfile("capped", Calibration.start(), 16, "a cap of 16");
    EngineProfile free = new EngineProfile("free", Calibration.start(), "no cap");
    double ttft0 = predict(free, "16", "ttft_ms") / 1e3;
    double tpot = predict(free, "16", "tpot_ms") / 1e3;
    // per-chip throughput and TPOT are those of the running batch of 16
    assertThat(predict(capped, "64", "out_tok_s_per_chip"))
        .isCloseTo(predict(free, "16", "out_tok_s_per_chip"), within(1e-9));
    assertThat(predict(capped, "64", "tpot_ms")).isCloseTo(1e3 * tpot, within(1e-9));
    // X = 16 / (TTFT₀ + 127·TPOT); e2e = C / X = 4 (TTFT₀ + 127·TPOT); TTFT = e2e − 127·TPOT
    double e2e = 64 / (16 / (ttft0 + 127 * tpot));
    assertThat(predict(capped, "64", "e2e_s")).isCloseTo(e2e, within(1e-9 * e2e));
    assertThat(predict(capped, "64", "ttft_ms"))
        .isCloseTo(1e3 * (e2e - 127 * tpot), within(1e-6 * e2e * 1e3));
    // at or below the cap the cap changes nothing
    assertThat(predict(capped, "16", "ttft_ms")).isCloseTo(1e3 * ttft0, within(1e-9));
    // the prediction says why it queued
    assertThat(notes(capped, "64", "ttft_ms")).contains("max_running_requests");
  }

  @Test
  void predict_statedCapPerRank_replacesTheProfilesCap() {
    // DeepSeek-V3 on 8 B200 with attention dp 8 (as P086), 1,024 clients; the row states
    // max_batch_per_rank 64: 64 × 8 attention groups = 512 running, the profile's cap of 128
    // notwithstanding, so the row predicts as a profile capped at 512 predicts it unstated
    EngineProfile capped = new EngineProfile("capped", Calibration.start(), 128, "a cap of 128");
    EngineProfile at512 = new EngineProfile("512", Calibration.start(), 512, "a cap of 512");
    String stated = "max_batch_per_rank=64";
    double asRun = dpRow(capped, stated);
    assertThat(asRun).isCloseTo(dpRow(at512, "max_batch_per_rank="), within(1e-9 * asRun));
    assertThat(asRun).isNotCloseTo(dpRow(capped, "max_batch_per_rank="), within(0.01 * asRun));
    // the notes once carried the cap; they no longer do
    assertThat(dpRow(capped, "max_batch_per_rank=", "max_batch 64 per rank"))
        .isEqualTo(dpRow(capped, "max_batch_per_rank="));
    Outcome o = Predictor.of(capped).predict(dpCase(stated, ""));
    assertThat(((Prediction) o).note())
        .contains("engine cap as run: max_batch 64 per rank × 8 attention groups = 512");
  }

  @Test
  void predict_statedCapBeyondAnInt_isSkippedWithTheReason() {
    // 1,048,576 per rank × 4,096 attention groups = 2^32 running requests: no int holds it
    ValidationCase c =
        CaseFileTest.withRun(
            "D2-out_tps_chip,D2,deepseek-v3,b200,8,,,8,,8,4096,fp4,fp16,1024,2048,concurrency,"
                + "1024,,trtllm,out_tok_s_per_chip,4548.01,high,test,https://example.org,",
            "max_batch_per_rank=1048576");
    Outcome o = Predictor.of(Calibration.startProfile()).predict(c);
    assertThat(((Skip) o).reason())
        .isEqualTo(
            "engine cap as run: max_batch 1048576 per rank × 4096 attention groups is more"
                + " running requests than an int holds");
  }

  /** A DEP-8 row of DeepSeek-V3 on 8 B200 at 1,024 clients, with a run cell and notes. */
  private static ValidationCase dpCase(String run, String notes) {
    return CaseFileTest.withRun(
        "D1-out_tps_chip,D1,deepseek-v3,b200,8,,,8,,8,8,fp4,fp16,1024,2048,concurrency,1024,,"
            + "trtllm,out_tok_s_per_chip,4548.01,high,test,https://example.org,\""
            + notes
            + "\"",
        run);
  }

  private static double dpRow(EngineProfile profile, String run) {
    return dpRow(profile, run, "");
  }

  private static double dpRow(EngineProfile profile, String run, String notes) {
    Outcome o = Predictor.of(profile).predict(dpCase(run, notes));
    assertThat(o).isInstanceOf(Prediction.class);
    return ((Prediction) o).predicted();
  }

  @Test
  void engineProfile_nonPositiveCap_isRejected() {
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> new EngineProfile("x", Calibration.start(), 0, "zero"));
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> new EngineProfile("x", Calibration.start(), -1, "negative"));
  }

  private static ValidationCase concurrencyRow(String load, String metric) {
    return one(
        CaseFileTest.row(
            "X1-" + metric,
            "llama-2-70b",
            "a100-sxm-80gb",
            "8",
            "8",
            "fp16",
            "fp16",
            "512",
            "128",
            "concurrency",
            load,
            metric,
            "1",
            ""));
  }

  private static double predict(EngineProfile profile, String load, String metric) {
    Outcome o = Predictor.of(profile).predict(concurrencyRow(load, metric));
    assertThat(o).as(o.toString()).isInstanceOf(Prediction.class);
    return ((Prediction) o).predicted();
  }

  private static String notes(EngineProfile profile, String load, String metric) {
    return ((Prediction) Predictor.of(profile).predict(concurrencyRow(load, metric))).note();
  }
}
