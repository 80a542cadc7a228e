package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.base.Splitter;
import io.ridgeline.validation.CaseFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class CalibrateCommandTest {
  private static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RidgelineCli.execute(args, new PrintWriter(out), new PrintWriter(err));
    return new String[] {Integer.toString(code), out.toString(), err.toString()};
  }

  /** Three static rows of llama-3.1-8b on one H100: a fit of a few evaluations takes a second. */
  private static final String CASES =
      String.join(",", CaseFile.COLUMNS)
          + "\n"
          + row("A1-tpot", "1", "tpot_ms", "8")
          + row("A2-tpot", "16", "tpot_ms", "9")
          + row("A3-out", "16", "out_tok_s_per_chip", "1500");

  private static String row(String id, String load, String metric, String measured) {
    return id
        + ","
        + Splitter.on('-').splitToList(id).get(0)
        + ",llama-3.1-8b,h100-sxm,1,,,1,,,,bf16,,1024,128,static,"
        + load
        + ",,vllm,"
        + metric
        + ","
        + measured
        + ",high,test,https://example.com,x\n";
  }

  @Test
  void calibrate_out_writesProfileThatValidateLoads(@TempDir Path dir) throws Exception {
    Path cases = dir.resolve("cases.csv");
    Files.writeString(cases, CASES);
    Path f = dir.resolve("profile.json");
    String[] r =
        run("calibrate", "--cases", cases.toString(), "--evaluations", "12", "--out", f.toString());
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    // one pooled profile, which every engine family uses: one row of the table, one in the file
    assertThat(r[1]).contains("default").contains("ideal APE").contains("tpot_ms");
    assertThat(r[1]).doesNotContain("trtllm").doesNotContain("vllm");
    assertThat(io.ridgeline.serving.efficiency.Profiles.read(f).profiles().keySet())
        .containsExactly("default");
    // the main fit reports its progress on stderr every tenth of its budget (12 / 10 → each one)
    assertThat(r[2]).contains("calibrate: pooled fit: 1/12 evaluations (");
    String[] v = run("validate", "--cases", cases.toString(), "--profile", f.toString());
    assertThat(v[0]).as(v[2]).isEqualTo("0");
    assertThat(v[1]).contains("calibrated: engine profiles of").contains("tpot_ms");
  }

  @Test
  void replay_shippedFolds_printsTheTableAndWritesBands(@TempDir Path dir) throws Exception {
    // no refit: the shipped folds' profiles predict their held-out rows with today's model
    Path bands = dir.resolve("bands.json");
    CliRun r = CliRun.of("calibrate", "--replay", "--bands", bands.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("with today's model (no refit)")
        .contains("leave-one-source-out")
        .contains("wrote " + bands);
    assertThat(r.out()).doesNotContain("engine offsets");
    // --engine-offsets adds their held-out score: each fold's offsets from its training sources
    CliRun offsets = CliRun.of("calibrate", "--replay", "--engine-offsets");
    assertThat(offsets.code()).as(offsets.err()).isZero();
    assertThat(offsets.out())
        .contains("engine offsets, estimated in each leave-one-source-out fold on its training")
        .containsPattern("\n  overall +\\d+ rows \\( *\\d+ with an offset\\) ")
        .containsPattern("\n  offset trtllm +\\d+ rows")
        .contains("offsets on every predictable row (shipped profile):");
    io.ridgeline.serving.efficiency.ErrorBands b =
        io.ridgeline.serving.efficiency.ErrorBands.parse(
            java.nio.file.Files.readString(bands), "bands.json");
    for (io.ridgeline.serving.efficiency.ErrorBands.Estimate e :
        io.ridgeline.serving.efficiency.ErrorBands.Estimate.values()) {
      assertThat(b.range(e).low()).isLessThanOrEqualTo(b.range(e).high());
    }
    CliRun alone = CliRun.of("calibrate", "--engine-offsets");
    assertThat(alone.code()).isEqualTo(1);
    assertThat(alone.err())
        .isEqualTo(
            "ridgeline: --engine-offsets needs --replay: offsets are scored on the stored folds\n");
    // --replay fits nothing: --out is refused with one line
    CliRun bad = CliRun.of("calibrate", "--replay", "--out", dir.resolve("p.json").toString());
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err()).contains("--replay fits nothing");
  }

  @Test
  void calibrate_reportWithoutCrossValidate_oneLineError(@TempDir Path dir) {
    CliRun r = CliRun.of("calibrate", "--report", dir.resolve("cv.json").toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip())
        .isEqualTo(
            "ridgeline: --report needs --cross-validate, --bands --cross-validate or --replay: '"
                + dir.resolve("cv.json")
                + "'");
  }

  @Test
  void validate_calibrated_usesBuiltInProfiles() {
    String[] v = run("validate", "--efficiency", "calibrated");
    assertThat(v[0]).as(v[2]).isEqualTo("0");
    assertThat(v[1])
        .contains("calibrated: the built-in pooled profile (no engine has its own offsets yet)");
  }

  @Test
  void validate_badProfile_namesFile(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("bad.json");
    Files.writeString(f, "{\"profiles\": {}}");
    String[] v = run("validate", "--profile", f.toString());
    assertThat(v[0]).isEqualTo("1");
    assertThat(v[2]).contains("bad.json");
  }

  @Test
  void validate_unknownEfficiency_isRejected() {
    String[] v = run("validate", "--efficiency", "bogus");
    assertThat(v[0]).isEqualTo("1");
    assertThat(v[2]).startsWith("ridgeline: --efficiency must be 'ideal' or 'calibrated'");
  }

  @Test
  void progress_afterTwoFits_rateAndEta() {
    // fits 1 and 2 of 25 done when fit 3 starts at 20 s: 2 fits done, 10 s each → 6.0 fits/min,
    // 23 left → ETA 230 s
    CalibrateCommand.Progress p = new CalibrateCommand.Progress();
    assertThat(p.after("fit 1/25: all rows", 0.4)).isEqualTo(" (0 s)");
    p.after("fit 2/25: without a", 9);
    p.after("fit 1/25 done: all rows", 10);
    p.after("fit 2/25 done: without a", 20);
    assertThat(p.after("fit 3/25: without mlperf", 20))
        .isEqualTo(" (20 s, 6.0 fits/min, ETA 230 s)");
  }

  @Test
  void progress_fitsSideBySide_sumTheirShares() {
    // fits 1 and 2 run side by side: at 15 s fit 1 is half done and fit 2 a tenth (0.6 fits
    // done, 25 s each → 2.4 fits/min, 24.4 left → ETA 610 s); at 30 s fit 1 is done and fit 2 at
    // 1,200 of 1,500 (1.8 fits done, 16.7 s each → 3.6 fits/min, 23.2 left → ETA 387 s)
    CalibrateCommand.Progress p = new CalibrateCommand.Progress();
    p.after("fit 1/25: without a", 0);
    p.after("fit 2/25: without b", 0);
    p.after("fit 1/25, 750/1500 evaluations: without a", 15);
    assertThat(p.after("fit 2/25, 150/1500 evaluations: without b", 15))
        .isEqualTo(" (15 s, 2.4 fits/min, ETA 610 s)");
    p.after("fit 1/25 done: without a", 28);
    assertThat(p.after("fit 2/25, 1200/1500 evaluations: without b", 30))
        .isEqualTo(" (30 s, 3.6 fits/min, ETA 387 s)");
    // another line: the elapsed time only
    assertThat(p.after("in-sample: the given fit on all rows", 31)).isEqualTo(" (31 s)");
  }

  @Test
  void fitProgress_afterATenth_etaIsTheRestAtTheSameRate() {
    // 150 of 1,500 evaluations in 12 s: 0.08 s each, 1,350 left → at most 108 s more
    assertThat(CalibrateCommand.fitProgress(150, 1500, 12))
        .isEqualTo("pooled fit: 150/1500 evaluations (12 s, ETA at most 108 s)");
  }

  @Test
  void calibrate_outIsAFolder_isRefusedBeforeTheFit(@TempDir Path dir) throws Exception {
    Path cases = dir.resolve("cases.csv");
    Files.writeString(cases, CASES);
    String[] r =
        run(
            "calibrate",
            "--cases",
            cases.toString(),
            "--evaluations",
            "12",
            "--out",
            dir.toString());
    assertThat(r[0]).isEqualTo("1");
    assertThat(r[2]).isEqualTo("ridgeline: --out " + dir + ": is a folder, not a file\n");
    // under a file: the folder it names cannot be made
    Path under = cases.resolve("bands.json");
    String[] b =
        run(
            "calibrate",
            "--cases",
            cases.toString(),
            "--cross-validate",
            "--bands",
            under.toString());
    assertThat(b[0]).isEqualTo("1");
    assertThat(b[2])
        .isEqualTo("ridgeline: --bands " + under + ": " + cases + " is a file, not a folder\n");
  }

  @Test
  void calibrate_evaluationsBelowTen_isRefusedWithTheHelpsMinimum() {
    String[] r = run("calibrate", "--evaluations", "5");
    assertThat(r[0]).isNotEqualTo("0");
    assertThat(r[2]).startsWith("ridgeline: --evaluations must be at least 10");
  }
}
