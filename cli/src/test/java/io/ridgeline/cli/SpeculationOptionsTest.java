package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Speculation options that cannot apply are refused, never ignored or guessed at. */
final class SpeculationOptionsTest {
  private static CliRun frontier8b(String... extra) {
    java.util.List<String> args =
        new java.util.ArrayList<>(
            java.util.List.of(
                "frontier", "--model", "llama-3.1-8b", "--chip", "h100-sxm", "--count", "1"));
    args.addAll(java.util.List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void frontier_mtpOnModelWithoutMtpLayers_refusedNamingModelAndField() {
    CliRun r = frontier8b("--spec-draft", "mtp");
    assertThat(r.code()).isNotZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "ridgeline: speculation mtp: model llama-3.1-8b has no MTP layers"
                + " (num_nextn_predict_layers is 0); use a draft model instead"
                + System.lineSeparator());
  }

  @Test
  void frontier_draftWithAnotherTokenizer_refused() {
    CliRun r = frontier8b("--spec-draft", "qwen3-8b");
    assertThat(r.code()).isNotZero();
    assertThat(r.err())
        .contains("speculation draft qwen3-8b: its vocab_size 151936 differs from model")
        .contains("llama-3.1-8b's 128256");
  }

  @Test
  void frontier_speculationOptionsWithoutDraft_refused() {
    CliRun length = frontier8b("--spec-length", "4");
    assertThat(length.code()).isNotZero();
    assertThat(length.err()).contains("--spec-length 4 needs --spec-draft MODEL|mtp");
    CliRun acceptance = frontier8b("--spec-acceptance", "0.7");
    assertThat(acceptance.code()).isNotZero();
    assertThat(acceptance.err()).contains("--spec-acceptance 0.7 needs --spec-draft MODEL|mtp");
  }

  @Test
  void frontier_sameTokenizerDraft_accepted() {
    CliRun r = frontier8b("--spec-draft", "llama-3-8b");
    assertThat(r.code()).as(r.err()).isZero();
  }

  @Test
  void plan_mtpOnModelWithoutMtpLayersOrLengthWithoutDraft_refused() {
    String[] base = {
      "plan",
      "--model",
      "llama-3.1-8b",
      "--isl",
      "1024",
      "--osl",
      "256",
      "--rate",
      "1",
      "--ttft",
      "1",
      "--tpot",
      "0.05",
      "--chips",
      "h100-sxm"
    };
    String[] mtp = java.util.Arrays.copyOf(base, base.length + 4);
    System.arraycopy(
        new String[] {"--spec-draft", "mtp", "--spec-acceptance", "0.8"}, 0, mtp, base.length, 4);
    CliRun r = CliRun.of(mtp);
    assertThat(r.code()).isNotZero();
    assertThat(r.err()).contains("model llama-3.1-8b has no MTP layers");
    String[] length = java.util.Arrays.copyOf(base, base.length + 2);
    length[base.length] = "--spec-length";
    length[base.length + 1] = "2";
    CliRun l = CliRun.of(length);
    assertThat(l.code()).isNotZero();
    assertThat(l.err()).contains("--spec-length 2 needs --spec-draft MODEL|mtp");
  }
}
