package io.ridgeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --model with config files: --architecture, one-line errors and names unique per run. */
final class ModelOptionsTest {
  @TempDir Path dir;

  /** A Llama-3.1-8B-shaped config of the given model_type, in {@code dir/folder/config.json}. */
  private Path config(String folder, String modelType) throws IOException {
    Path d = Files.createDirectories(dir.resolve(folder));
    return Files.writeString(
        d.resolve("config.json"),
        "{\"model_type\":\""
            + modelType
            + "\",\"hidden_size\":4096,\"num_hidden_layers\":32,\"num_attention_heads\":32,"
            + "\"num_key_value_heads\":8,\"intermediate_size\":14336,\"vocab_size\":128256,"
            + "\"max_position_embeddings\":131072,\"torch_dtype\":\"bfloat16\"}");
  }

  private static CliRun roofline(String model, String... extra) {
    String[] base = {
      "roofline",
      "--model",
      model,
      "--chip",
      "h100-sxm",
      "--batch",
      "1",
      "--context",
      "1024",
      "--json"
    };
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return CliRun.of(args);
  }

  @Test
  void roofline_unknownModelType_oneLineErrorNamingArchitecture() throws IOException {
    CliRun r = roofline(config("mine", "my_llama").toString());

    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("unsupported model_type 'my_llama'").contains("--architecture");
    assertThat(r.err().strip().lines().count()).isEqualTo(1);
  }

  @Test
  void roofline_withArchitecture_matchesTheBuiltInOfTheSameShape() throws Exception {
    // the file is Llama-3.1-8B's shape under an unknown model_type: read as llama it gives the
    // same decode step as the built-in model
    CliRun mine = roofline(config("mine", "my_llama").toString(), "--architecture", "llama");
    CliRun builtIn = roofline("llama-3.1-8b");

    assertThat(mine.code()).as(mine.err()).isZero();
    assertThat(mine.json().get("model").asText()).isEqualTo("mine");
    assertThat(mine.json().get("phases").toString())
        .isEqualTo(builtIn.json().get("phases").toString());
  }

  @Test
  void architecture_badValues_oneLineErrorsNamingTheOption() throws IOException {
    CliRun unknown = roofline(config("mine", "my_llama").toString(), "--architecture", "lama");
    assertThat(unknown.code()).isEqualTo(1);
    assertThat(unknown.err().strip())
        .startsWith("ridgeline: --architecture must be a supported model_type (")
        .endsWith("): 'lama'");

    CliRun onBuiltIn = roofline("llama-3.1-8b", "--architecture", "llama");
    assertThat(onBuiltIn.code()).isEqualTo(1);
    assertThat(onBuiltIn.err().strip())
        .isEqualTo(
            "ridgeline: --architecture applies to a config.json path, not to the built-in model"
                + " 'llama-3.1-8b': 'llama'");
  }

  @Test
  void plan_acceptsArchitecture() throws Exception {
    CliRun r =
        CliRun.of(
            "plan",
            "--model",
            config("mine", "my_llama").toString(),
            "--architecture",
            "llama",
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
            "h100-sxm",
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().get("model").asText()).isEqualTo("mine");
  }
}
