package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The input reproducers of issue 45, each as it was reported: one line {@code ridgeline: …} naming
 * the file or option, the rule and the value, exit status 1, nothing on standard output.
 */
final class InputRefusalTest {
  @TempDir Path dir;

  private static void refused(CliRun r, String line) {
    assertThat(r.code()).as(r.err()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("ridgeline: " + line + "\n");
  }

  private static CliRun frontier(String... extra) {
    String[] head = {"frontier", "--model", "llama-3.1-8b", "--chip", "h100-sxm", "--json"};
    String[] args = new String[head.length + extra.length];
    System.arraycopy(head, 0, args, 0, head.length);
    System.arraycopy(extra, 0, args, head.length, extra.length);
    return CliRun.of(args);
  }

  @Test
  void strategyOfOnlyAColon_isUnknown_notAnInternalError() {
    refused(frontier("--strategy", ":"), "unknown strategy ''; known: static, colocated, pd, afd");
  }

  @Test
  void ffnDegrees_areBoundedLikeTheOtherDegrees() {
    refused(
        frontier("--strategy", "afd", "--ffn-pp", "2147483647", "--ffn-tp", "2"),
        "--ffn-pp must be at most 65,536: 2147483647");
    refused(frontier("--strategy", "afd", "--ffn-ep", "0"), "--ffn-ep must be positive: 0");
    // 65,536 × 2 = 131,072 chips in one FFN pool: above the 2^16 of any pool
    refused(
        frontier("--strategy", "afd", "--ffn-tp", "65536", "--ffn-pp", "2"),
        "--ffn-tp × --ffn-pp must be at most 65,536: 131072");
  }

  @Test
  void nonRegularFiles_areReadUpTo16Mb() {
    Path zero = Path.of("/dev/zero");
    if (!Files.exists(zero)) {
      return;
    }
    refused(CliRun.of("sweep", "--grid", "/dev/zero"), "/dev/zero: grid file is larger than 16 MB");
    refused(
        CliRun.of("validate", "--cases", "/dev/zero"), "/dev/zero: case file is larger than 16 MB");
    refused(frontier("--profile", "/dev/zero"), "/dev/zero: profile file is larger than 16 MB");
    refused(frontier("--anchor", "/dev/zero"), "/dev/zero: case file is larger than 16 MB");
    refused(
        CliRun.of("frontier", "--model", "/dev/zero", "--chip", "h100-sxm"),
        "/dev/zero: config file is larger than 16 MB");
    refused(
        CliRun.of("frontier", "--model", "llama-3.1-8b", "--chip", "/dev/zero"),
        "/dev/zero: chip file is larger than 16 MB");
  }

  @Test
  void missingChipPath_saysNoSuchFile_notDidYouMean() {
    String path = dir.resolve("npu.json").toString();
    refused(
        CliRun.of("frontier", "--model", "llama-3.1-8b", "--chip", path), path + ": no such file");
  }

  @Test
  void caseFileChipCounts_areBoundedAtReadTime() throws Exception {
    List<String> shipped = shippedCases();
    // prefill_chips is the 6th column of the shipped header; 2^27 is above 2^16
    String row = setColumn(shipped.get(0), shipped.get(1), "prefill_chips", "134217728");
    Path cases = Files.writeString(dir.resolve("cases.csv"), shipped.get(0) + "\n" + row + "\n");
    refused(
        CliRun.of("validate", "--cases", cases.toString()),
        cases
            + " line 2: field 'prefill_chips' must be an integer from 1 to 65536 or nothing,"
            + " found '134217728'");
  }

  @Test
  void disaggregatedRow_whoseChipsDisagreeWithItsPools_isRefused() throws Exception {
    List<String> shipped = shippedCases();
    String row = setColumn(shipped.get(0), shipped.get(1), "prefill_chips", "4");
    row = setColumn(shipped.get(0), row, "decode_chips", "8");
    row = setColumn(shipped.get(0), row, "chips", "16");
    Path cases = Files.writeString(dir.resolve("cases.csv"), shipped.get(0) + "\n" + row + "\n");
    // 16 chips, but the pools are 4 + 8 = 12
    refused(
        CliRun.of("validate", "--cases", cases.toString()),
        cases
            + " line 2: field 'chips' must be prefill_chips + decode_chips = 12 (the pools given:"
            + " prefill 4, decode 8), found '16'");
  }

  @Test
  void validate_withEveryRowSkipped_isAnError_notNaN() throws Exception {
    List<String> shipped = shippedCases();
    String row = setColumn(shipped.get(0), shipped.get(1), "model", "no-such-model");
    Path cases = Files.writeString(dir.resolve("cases.csv"), shipped.get(0) + "\n" + row + "\n");
    CliRun r = CliRun.of("validate", "--cases", cases.toString());
    refused(
        r,
        cases
            + ": none of the 1 cases could be predicted (skipped: 1 unknown model); nothing to"
            + " validate");
  }

  @Test
  void gridCached_isBounded() throws Exception {
    Path grid =
        Files.writeString(
            dir.resolve("grid.json"), "{\"model\": [\"llama-3.1-8b\"], \"cached\": [2147483647]}");
    refused(
        CliRun.of("sweep", "--grid", grid.toString()),
        grid
            + ": key 'cached': cached must be an integer from 0 to 134,217,728 tokens: 2147483647");
  }

  @Test
  void configWithAnEscapedDuplicateKey_isRefused() throws Exception {
    // the second key spells its t as a JSON escape: it is model_type again, and would turn a
    // Llama config into qwen3_moe
    Path config =
        Files.writeString(
            dir.resolve("dup.json"),
            "{\"model_type\": \"llama\", \"model_\\u0074ype\": \"qwen3_moe\"}");
    refused(
        CliRun.of("frontier", "--model", config.toString(), "--chip", "h100-sxm"),
        config + ": malformed JSON at line 1, column 42: duplicate key 'model_type'");
  }

  @Test
  void jsonFilesWithTrailingContent_areRefused() throws Exception {
    Path grid =
        Files.writeString(
            dir.resolve("grid.json"), "{\"model\": [\"llama-3.1-8b\"]} {\"isl\": [1]}");
    refused(
        CliRun.of("sweep", "--grid", grid.toString()),
        grid
            + ": malformed JSON at line 1, column 29: content after the JSON value (a file holds"
            + " one JSON value)");
    Path config = Files.writeString(dir.resolve("two.json"), "{\"model_type\": \"llama\"} {}");
    CliRun r = CliRun.of("frontier", "--model", config.toString(), "--chip", "h100-sxm");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("ridgeline: " + config + ": malformed JSON at line 1");
  }

  @Test
  void profile_unknownKey_namesTheClosestKnownOne() throws Exception {
    Path p = profile("\"computee\": 0.5");
    CliRun r = frontier("--profile", p.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .startsWith(
            "ridgeline: "
                + p
                + ": unknown field 'profiles.default.computee'; did you mean 'compute'?");
  }

  @Test
  void profile_fractionalRequestCap_isRefused() throws Exception {
    Path p = profile("\"max_running_requests\": 0.5");
    refused(
        frontier("--profile", p.toString()),
        p
            + ": field 'profiles.default.max_running_requests' must be a whole number of"
            + " requests from 1 to 16,777,216 (omit it for no cap), found 0.5");
  }

  /** The built-in profile file with {@code extra} added to its default profile. */
  private Path profile(String extra) throws Exception {
    String text = FuzzInputs.resource("/io/ridgeline/serving/efficiency/profiles.json");
    String changed = text.replaceFirst("\"default\" : \\{", "\"default\" : {" + extra + ",");
    assertThat(changed).isNotEqualTo(text);
    if (extra.startsWith("\"max_running_requests\"")) {
      changed = changed.replaceFirst("\"max_running_requests\" : 512,", "");
    }
    return Files.writeString(dir.resolve("profiles.json"), changed);
  }

  private static List<String> shippedCases() {
    return FuzzInputs.resource("/io/ridgeline/validation/cases.csv").lines().toList();
  }

  /** {@code row} (no quoted comma before {@code column}) with {@code column} set to {@code v}. */
  private static String setColumn(String header, String row, String column, String v) {
    int i = List.of(header.split(",")).indexOf(column);
    String[] cells = row.split(",", -1);
    cells[i] = v;
    return String.join(",", cells);
  }
}
