package io.ridgeline.cli;

import io.ridgeline.core.Precisions;
import io.ridgeline.core.TensorClass;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.PrefillDecodeDeployment;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.plan.PlanConfiguration;
import io.ridgeline.serving.plan.PlanResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code plan --save DIR}: per chosen configuration, one shell script {@code config-N.sh} (N its
 * rank) with, for each engine that runs on its chips ({@link LaunchSketch#runsOn}), the launch
 * commands of {@link LaunchSketch}, the matching benchmark at the plan's lengths, and the step that
 * turns the benchmark's result file into a case file for {@code --anchor}.
 *
 * <p>The benchmark is a closed loop of {@code batch} clients (the configuration's batch per
 * replica) sending {@code 10 × batch} prompts of exactly ISL and OSL tokens: vLLM's {@code vllm
 * bench serve --dataset-name random --max-concurrency B --save-result} and SGLang's {@code python
 * -m sglang.bench_serving --dataset-name random --max-concurrency B --output-file}. A closed loop
 * is what an anchor row can describe (mode {@code concurrency}, or {@code disagg-concurrency} for
 * pd, load = clients; the case-file format has no open-loop mode without SLO bounds), so the rate
 * of {@code --rate} sets the fleet's size, not the benchmark. The result's mean TTFT, mean TPOT and
 * output tok/s become three rows of {@code anchor-ENGINE.csv}: {@code ./ridgeline plan ... --anchor
 * anchor-vllm.csv} then scales every candidate by how the deployment ran against the model.
 *
 * <p>TensorRT-LLM's benchmark and attention-FFN disaggregation (no engine ships it) get launch
 * lines only.
 */
final class PlanSave {
  private PlanSave() {}

  /**
   * Refuses {@code dir} before the plan runs: a file, or a folder with something in it unless
   * {@code force}.
   *
   * @throws IllegalArgumentException in one line naming the folder and what to do
   */
  static void check(Path dir, boolean force) {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new IllegalArgumentException("--save " + dir + ": is a file, not a folder");
    }
    if (!force && Files.isDirectory(dir)) {
      try (Stream<Path> entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new IllegalArgumentException(
              "--save " + dir + ": the folder is not empty (give --force to write into it)");
        }
      } catch (IOException e) {
        throw new IllegalArgumentException("--save " + dir + ": cannot read the folder: " + e);
      }
    }
  }

  /**
   * Writes one script per configuration of {@code r} into {@code dir} (created when absent), each
   * whole or not at all ({@link AtomicFiles}); returns the files written, in rank order.
   *
   * @param command the plan's command line, for the {@code --anchor} line of each script
   */
  static List<Path> write(Path dir, PlanResult r, String command) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("--save " + dir + ": cannot create the folder", e);
    }
    List<Path> written = new ArrayList<>();
    int rank = 1;
    for (PlanConfiguration c : r.configurations()) {
      Path file = dir.resolve("config-" + rank + ".sh");
      AtomicFiles.writeString(file, script(rank, c, r, command));
      written.add(file);
      rank++;
    }
    return written;
  }

  /** The script of configuration {@code rank}; see the class comment. */
  static String script(int rank, PlanConfiguration c, PlanResult r, String command) {
    int isl = r.request().inputTokens();
    int osl = r.request().outputTokens();
    String model = LaunchSketch.repo(r.request().model());
    StringBuilder s = new StringBuilder("#!/usr/bin/env bash\n");
    s.append("# ridgeline plan, configuration ").append(rank).append(": ").append(c).append('\n');
    s.append("# ")
        .append(r.request().model().id())
        .append(", ISL ")
        .append(isl)
        .append(", OSL ")
        .append(osl)
        .append("; a sketch: start each engine's pools, then run its benchmark from another shell")
        .append('\n');
    s.append("# and pass the case file it writes back: ")
        .append(command)
        .append(" --anchor anchor-ENGINE.csv\n");
    s.append("set -euo pipefail\n");
    for (Map.Entry<String, List<String>> e : LaunchSketch.of(c).entrySet()) {
      String engine = e.getKey();
      s.append("\n# ---- ").append(engine).append(" ----\n");
      for (String line : e.getValue()) {
        // launch lines are commented out: each runs in its own shell, on its own chips
        s.append(line.startsWith("#") ? line : "# " + line).append('\n');
      }
      bench(engine, c, model, isl, osl).ifPresent(b -> s.append(b));
    }
    return s.toString();
  }

  /** The benchmark and anchor lines of {@code engine}, where it has a benchmark client. */
  private static java.util.Optional<String> bench(
      String engine, PlanConfiguration c, String model, int isl, int osl) {
    if (c.strategy() == Deployment.Strategy.AFD) {
      return java.util.Optional.empty();
    }
    int clients = c.batch();
    int prompts = 10 * clients;
    String result = "result-" + engine + ".json";
    String bench =
        switch (engine) {
          case "vllm", "dynamo" ->
              String.format(
                  Locale.ROOT,
                  "vllm bench serve --model %s --dataset-name random --random-input-len %d"
                      + " --random-output-len %d --random-range-ratio 0 --ignore-eos"
                      + " --num-prompts %d --max-concurrency %d --request-rate inf"
                      + " --save-result --result-filename %s",
                  model,
                  isl,
                  osl,
                  prompts,
                  clients,
                  result);
          case "sglang" ->
              String.format(
                  Locale.ROOT,
                  "python -m sglang.bench_serving --backend sglang --model %s --dataset-name random"
                      + " --random-input-len %d --random-output-len %d --random-range-ratio 1"
                      + " --num-prompts %d --max-concurrency %d --request-rate inf"
                      + " --output-file %s",
                  model,
                  isl,
                  osl,
                  prompts,
                  clients,
                  result);
          default -> null;
        };
    if (bench == null) {
      return java.util.Optional.empty();
    }
    StringBuilder s = new StringBuilder();
    s.append("# benchmark: ")
        .append(clients)
        .append(" clients (the configuration's batch per replica), ")
        .append(prompts)
        .append(" prompts of exactly ISL and OSL tokens\n");
    s.append(bench).append('\n');
    s.append(
        "# the result as a case file for --anchor (mean TTFT, mean TPOT, output tok/s/chip)\n");
    s.append(anchorStep(engine, c, result, isl, osl, prompts));
    return java.util.Optional.of(s.toString());
  }

  /**
   * A Python step that reads the last JSON line of {@code result} (vLLM writes one object, SGLang
   * appends one per run) and writes {@code anchor-ENGINE.csv}: the case-file header and three rows
   * of the configuration's system (model, chip, chips of one replica, parallelism, lengths, mode
   * and load = clients).
   */
  private static String anchorStep(
      String engine, PlanConfiguration c, String result, int isl, int osl, int prompts) {
    Deployment d = c.deployment();
    RooflineModel decode = d.decodePool();
    boolean pd = d instanceof PrefillDecodeDeployment;
    // one replica of every pool: the chips the benchmark's engine runs on
    int chips = d.pools().values().stream().mapToInt(RooflineModel::replicaChips).sum();
    String prefillChips =
        d instanceof PrefillDecodeDeployment p ? String.valueOf(p.prefill().replicaChips()) : "";
    String decodeChips = pd ? String.valueOf(decode.replicaChips()) : "";
    // precisions other than the checkpoint's are stated; the checkpoint's left empty (its own)
    Precisions own = d.model().defaultPrecisions();
    Precisions used = decode.precisions();
    String weights =
        used.weights(TensorClass.DENSE_FFN) == own.weights(TensorClass.DENSE_FFN)
            ? ""
            : used.weights(TensorClass.DENSE_FFN).id();
    String kv = used.kvCache() == own.kvCache() ? "" : used.kvCache().id();
    String system =
        String.join(
            ",",
            d.model().id(),
            decode.chip().id(),
            String.valueOf(chips),
            prefillChips,
            decodeChips,
            String.valueOf(decode.tensorParallel()),
            String.valueOf(decode.pipelineParallel()),
            String.valueOf(decode.expertParallel()),
            String.valueOf(decode.attentionDataParallel()),
            weights,
            kv,
            String.valueOf(isl),
            String.valueOf(osl),
            pd ? "disagg-concurrency" : "concurrency",
            String.valueOf(c.batch()),
            "",
            // the case file's engine family: Dynamo here runs vLLM workers
            engine.equals("dynamo") ? "vllm" : engine);
    String tail = ",medium,ridgeline plan --save,local," + prompts + ",1,";
    return "python3 - <<'EOF'\n"
        + "import json\n"
        + "lines = [l for l in open('"
        + result
        + "').read().splitlines() if l.strip()]\n"
        + "r = json.loads(lines[-1])\n"
        + "chips = "
        + chips
        + "\n"
        + "rows = [('ttft', 'ttft_ms', r['mean_ttft_ms']), ('tpot', 'tpot_ms', r['mean_tpot_ms']),"
        + " ('tps', 'out_tok_s_per_chip', r['output_throughput'] / chips)]\n"
        + "with open('anchor-"
        + engine
        + ".csv', 'w') as f:\n"
        + "    f.write('case_id,point_id,model,chip,chips,prefill_chips,decode_chips,tp,pp,ep,"
        + "attention_dp,weights,kv_cache,isl,osl,mode,load,speculative,engine,metric,measured,"
        + "confidence,source,url,prompts,range_ratio,notes\\n')\n"
        + "    for short, metric, value in rows:\n"
        + "        f.write('mine-"
        + engine
        + "-' + short + ',mine-"
        + engine
        + ","
        + system
        + ",' + metric + ',' + repr(float(value)) + '"
        + tail
        + "\\n')\n"
        + "print('wrote anchor-"
        + engine
        + ".csv')\n"
        + "EOF\n";
  }
}
