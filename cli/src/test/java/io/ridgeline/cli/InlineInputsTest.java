package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ridgeline.hardware.Chips;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Chips and model configurations given as text for one run ({@link InlineInputs}): found by id or
 * name before the catalogs, checked as files are, and no file read during the run.
 */
final class InlineInputsTest {
  private static final String MY_NPU =
      Chips.toJson(Chips.H100_SXM).replace("\"id\" : \"h100-sxm\"", "\"id\" : \"my-npu\"");

  private static String[] run(InlineInputs inputs, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        RidgelineCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), inputs);
    return new String[] {Integer.toString(code), out.toString(), err.toString()};
  }

  @Test
  void postedChip_isFoundByIdForThatRunOnly() {
    assertThat(MY_NPU).contains("\"id\" : \"my-npu\"");
    InlineInputs inputs = InlineInputs.of(List.of(MY_NPU), Map.of());
    String[] r =
        run(
            inputs,
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "my-npu",
            "--batch",
            "1",
            "--context",
            "1024",
            "--json");
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1]).contains("\"chip\" : \"my-npu\"");
    // the same figures as the catalog chip it copies
    String[] catalog =
        run(
            InlineInputs.none(),
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--context",
            "1024",
            "--json");
    assertThat(r[1].replace("my-npu", "h100-sxm")).isEqualTo(catalog[1]);
    // the next run does not see it
    String[] after =
        run(
            InlineInputs.none(),
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "my-npu",
            "--batch",
            "1",
            "--context",
            "1024");
    assertThat(after[0]).isEqualTo("1");
    assertThat(after[2]).startsWith("ridgeline: unknown chip 'my-npu'");
  }

  @Test
  void paths_areRefusedWithoutReadingAFile() {
    String[] r =
        run(
            InlineInputs.none(),
            "roofline",
            "--model",
            "cli/pom.xml",
            "--chip",
            "h100-sxm",
            "--batch",
            "1",
            "--context",
            "1024");
    assertThat(r[0]).isEqualTo("1");
    assertThat(r[2])
        .isEqualTo(
            "ridgeline: cli/pom.xml: no file is read here; send the model in model_configs\n");
    String[] chip =
        run(
            InlineInputs.none(),
            "roofline",
            "--model",
            "llama-3.1-8b",
            "--chip",
            "my.json",
            "--batch",
            "1",
            "--context",
            "1024");
    assertThat(chip[2])
        .isEqualTo("ridgeline: my.json: no file is read here; send the chip in chip_files\n");
  }

  @Test
  void of_badInputs_areRefusedNamingThem() {
    assertThat(
            assertThrows(
                IllegalArgumentException.class, () -> InlineInputs.of(List.of("{"), Map.of())))
        .hasMessageStartingWith("chip_files[0]");
    assertThat(
            assertThrows(
                IllegalArgumentException.class,
                () -> InlineInputs.of(List.of(MY_NPU, MY_NPU), Map.of())))
        .hasMessage("chip_files[1]: a chip with id 'my-npu' was already given");
    assertThat(
            assertThrows(
                IllegalArgumentException.class,
                () -> InlineInputs.of(List.of(), Map.of("llama-3.1-8b", "{}"))))
        .hasMessage(
            "model_configs: 'llama-3.1-8b' is a built-in model; give the configuration another"
                + " name");
    assertThat(
            assertThrows(
                IllegalArgumentException.class,
                () -> InlineInputs.of(Collections.nCopies(17, MY_NPU), Map.of())))
        .hasMessage("chip_files must hold at most 16 files: 17");
  }
}
