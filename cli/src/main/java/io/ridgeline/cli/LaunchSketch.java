package io.ridgeline.cli;

import io.ridgeline.core.Precision;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.TensorClass;
import io.ridgeline.models.Model;
import io.ridgeline.serving.AttentionFfnDeployment;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.PrefillDecodeDeployment;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Speculation;
import io.ridgeline.serving.plan.PlanConfiguration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A plan configuration in the engines' own terms, one command per pool, so a user can try it: the
 * sizes (tensor, pipeline, expert, attention data parallelism), the batch cap, KV and weight
 * precision, speculation, decode without CUDA graphs ({@code --eager-decode}) and a synchronous
 * scheduler ({@code --synchronous-scheduler}) as flags of vLLM ({@code vllm serve}), SGLang ({@code
 * sglang.launch_server}) and TensorRT-LLM ({@code trtllm-serve}). A sketch, not a tuned recipe: the
 * flags are those the engines document for these settings (vLLM and SGLang 0.4+/0.5 CLI,
 * TensorRT-LLM 0.20+ {@code trtllm-serve}), and engine versions rename them. Prefill/decode
 * disaggregation gets each engine's own flags (vLLM's KV connector, SGLang's {@code
 * --disaggregation-mode} and its PD router, TensorRT-LLM's context and generation servers) and
 * NVIDIA Dynamo's frontend with a vLLM worker per pool ({@code --is-prefill-worker}).
 */
final class LaunchSketch {
  private static final Pattern REPO = Pattern.compile("^([\\w.-]+/[\\w.-]+) config\\.json");

  private LaunchSketch() {}

  /** The HuggingFace repository of a catalog model where its source names one, else its id. */
  static String repo(Model m) {
    Matcher matcher = REPO.matcher(m.source());
    return matcher.find() ? matcher.group(1) : m.id();
  }

  /**
   * Engine name to its commands (one per pool), for {@code c}: only the engines that run on the
   * vendor of every pool's chip ({@link #runsOn}); when none does, one entry {@code note} saying
   * so.
   */
  static Map<String, List<String>> of(PlanConfiguration c) {
    Map<String, List<String>> all = allEngines(c);
    Map<String, List<String>> out = new LinkedHashMap<>();
    List<String> vendors =
        c.deployment().pools().values().stream().map(p -> p.chip().vendor()).distinct().toList();
    all.forEach(
        (engine, lines) -> {
          if (vendors.stream().allMatch(v -> runsOn(engine, v))) {
            out.put(engine, lines);
          }
        });
    if (out.isEmpty()) {
      out.put(
          "note",
          List.of(
              "# vLLM, SGLang and TensorRT-LLM do not run on "
                  + String.join(" + ", vendors)
                  + " chips; use the vendor's own serving stack"));
    }
    return out;
  }

  /**
   * Whether {@code engine} runs on chips of {@code vendor}: TensorRT-LLM and NVIDIA Dynamo (the
   * prefill/decode sketch's frontend and vLLM workers) on NVIDIA only; SGLang on NVIDIA and AMD
   * (ROCm); vLLM on NVIDIA (CUDA), AMD (ROCm), Google TPU, Intel Gaudi and AWS Neuron (vLLM
   * installation page, "vLLM supports the following hardware platforms",
   * https://docs.vllm.ai/en/v0.9.2/getting_started/installation/index.html, read 2026-12-06; TPU
   * and Gaudi as hardware plugins since v0.11,
   * https://docs.vllm.ai/en/v0.11.2/getting_started/installation/).
   */
  static boolean runsOn(String engine, String vendor) {
    return switch (engine) {
      case "trtllm", "dynamo" -> vendor.equals("NVIDIA");
      case "sglang" -> vendor.equals("NVIDIA") || vendor.equals("AMD");
      case "vllm" -> List.of("NVIDIA", "AMD", "Google", "Intel", "AWS").contains(vendor);
      default -> false;
    };
  }

  /** Every engine's commands for {@code c}, whatever its chips. */
  private static Map<String, List<String>> allEngines(PlanConfiguration c) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    Deployment d = c.deployment();
    if (d instanceof AttentionFfnDeployment afd) {
      String note =
          "# no engine ships attention-FFN disaggregation as flags yet (MegaScale-Infer, Step-3);"
              + " pools: attention "
              + pool(afd.attention())
              + ", FFN "
              + pool(afd.ffn())
              + afd.prefill().map(p -> ", prefill " + pool(p)).orElse("");
      out.put("vllm", List.of(note));
      out.put("sglang", List.of(note));
      out.put("trtllm", List.of(note));
      return out;
    }
    Optional<Speculation> spec = d.speculation();
    Model m = d.model();
    List<String> vllm = new ArrayList<>();
    List<String> sglang = new ArrayList<>();
    List<String> trt = new ArrayList<>();
    if (d instanceof PrefillDecodeDeployment pd) {
      vllm.add(vllm(m, pd.prefill(), c.batch(), Optional.empty(), "prefill"));
      vllm.add(vllm(m, pd.decode(), c.batch(), spec, "decode"));
      vllm.add(
          "# requests go through a proxy that sends each prompt to the prefill pool, then to"
              + " decode (vLLM's disaggregated-serving examples, or Dynamo)");
      sglang.add(sglang(m, pd.prefill(), c.batch(), Optional.empty(), "prefill"));
      sglang.add(sglang(m, pd.decode(), c.batch(), spec, "decode"));
      sglang.add(
          "python -m sglang_router.launch_router --pd-disaggregation --prefill"
              + " http://PREFILL_HOST:30000 --decode http://DECODE_HOST:30000 --port 8000  #"
              + " router in front of both pools");
      trt.add(trt(m, pd.prefill(), c.batch(), Optional.empty(), "context"));
      trt.add(trt(m, pd.decode(), c.batch(), spec, "generation"));
      // NVIDIA Dynamo over vLLM workers: a frontend (router) and one worker per pool, NIXL
      // moving the KV between them
      List<String> dynamo = new ArrayList<>();
      dynamo.add("python -m dynamo.frontend --http-port 8000  # frontend and router");
      dynamo.add(
          dynamo(vllm(m, pd.prefill(), c.batch(), Optional.empty(), ""))
              + " --is-prefill-worker  # prefill pool");
      dynamo.add(dynamo(vllm(m, pd.decode(), c.batch(), spec, "")) + "  # decode pool");
      out.put("vllm", vllm);
      out.put("sglang", sglang);
      out.put("trtllm", trt);
      out.put("dynamo", dynamo);
      return out;
    } else {
      vllm.add(vllm(m, d.decodePool(), c.batch(), spec, ""));
      sglang.add(sglang(m, d.decodePool(), c.batch(), spec, ""));
      trt.add(trt(m, d.decodePool(), c.batch(), spec, ""));
    }
    out.put("vllm", vllm);
    out.put("sglang", sglang);
    out.put("trtllm", trt);
    return out;
  }

  /** A {@code vllm serve} line as a Dynamo vLLM worker: the same engine arguments. */
  private static String dynamo(String vllmServe) {
    return vllmServe.replaceFirst("^vllm serve ", "python -m dynamo.vllm --model ");
  }

  private static String pool(RooflineModel p) {
    return p.replicaChips() + "× " + p.chip().id() + " (" + p.layout() + ")";
  }

  private static boolean fp8Weights(Precisions p) {
    return p.weights(TensorClass.DENSE_FFN) == Precision.FP8
        || p.weights(TensorClass.ATTENTION) == Precision.FP8;
  }

  private static boolean fp8Kv(Precisions p) {
    return p.kvCache() == Precision.FP8;
  }

  private static String vllm(
      Model m, RooflineModel p, int batch, Optional<Speculation> spec, String role) {
    StringBuilder b = new StringBuilder("vllm serve ").append(repo(m));
    b.append(" --tensor-parallel-size ").append(p.tensorParallel());
    if (p.pipelineParallel() > 1) {
      b.append(" --pipeline-parallel-size ").append(p.pipelineParallel());
    }
    if (p.attentionDataParallel() > 1) {
      b.append(" --data-parallel-size ").append(p.attentionDataParallel());
    }
    if (p.expertParallel() > 1) {
      b.append(" --enable-expert-parallel");
    }
    b.append(" --max-num-seqs ").append(batch);
    if (p.efficiency().eagerDecode()) {
      b.append(" --enforce-eager");
    }
    if (!p.efficiency().overlapScheduler()) {
      b.append(" --no-async-scheduling");
    }
    if (fp8Kv(p.precisions())) {
      b.append(" --kv-cache-dtype fp8");
    }
    if (fp8Weights(p.precisions()) && !m.defaultPrecisions().equals(p.precisions())) {
      b.append(" --quantization fp8");
    }
    spec.ifPresent(
        s ->
            b.append(" --speculative-config '{")
                .append(
                    s.draft()
                        .map(dm -> "\"model\": \"" + repo(dm) + "\"")
                        .orElse("\"method\": \"mtp\""))
                .append(", \"num_speculative_tokens\": ")
                .append(s.length())
                .append("}'"));
    if (!role.isEmpty()) {
      b.append(" --kv-transfer-config '{\"kv_connector\": \"NixlConnector\", \"kv_role\":")
          .append(" \"kv_both\"}'  # ")
          .append(role)
          .append(" pool");
    }
    return b.toString();
  }

  private static String sglang(
      Model m, RooflineModel p, int batch, Optional<Speculation> spec, String role) {
    StringBuilder b =
        new StringBuilder("python -m sglang.launch_server --model-path ").append(repo(m));
    // SGLang's tp is every chip of a stage; attention-dp groups split it
    b.append(" --tp-size ").append(p.stageChips());
    if (p.attentionDataParallel() > 1) {
      b.append(" --dp-size ").append(p.attentionDataParallel()).append(" --enable-dp-attention");
    }
    if (p.expertParallel() > 1) {
      b.append(" --ep-size ").append(p.expertParallel());
    }
    if (p.pipelineParallel() > 1) {
      b.append(" --pp-size ").append(p.pipelineParallel());
    }
    b.append(" --max-running-requests ").append(batch);
    if (p.efficiency().eagerDecode()) {
      b.append(" --disable-cuda-graph");
    }
    if (!p.efficiency().overlapScheduler()) {
      b.append(" --disable-overlap-schedule");
    }
    if (fp8Kv(p.precisions())) {
      b.append(" --kv-cache-dtype fp8_e4m3");
    }
    if (fp8Weights(p.precisions()) && !m.defaultPrecisions().equals(p.precisions())) {
      b.append(" --quantization fp8");
    }
    spec.ifPresent(
        s -> {
          b.append(" --speculative-algorithm EAGLE --speculative-num-steps ")
              .append(s.length())
              .append(" --speculative-num-draft-tokens ")
              .append(s.length() + 1);
          s.draft().ifPresent(dm -> b.append(" --speculative-draft-model-path ").append(repo(dm)));
        });
    if (!role.isEmpty()) {
      b.append(" --disaggregation-mode ").append(role);
    }
    return b.toString();
  }

  private static String trt(
      Model m, RooflineModel p, int batch, Optional<Speculation> spec, String role) {
    StringBuilder b = new StringBuilder("trtllm-serve ").append(repo(m));
    b.append(" --tp_size ").append(p.stageChips());
    if (p.pipelineParallel() > 1) {
      b.append(" --pp_size ").append(p.pipelineParallel());
    }
    if (p.expertParallel() > 1) {
      b.append(" --ep_size ").append(p.expertParallel());
    }
    b.append(" --max_batch_size ").append(batch);
    List<String> yaml = new ArrayList<>();
    if (p.attentionDataParallel() > 1) {
      yaml.add("enable_attention_dp: true");
    }
    if (fp8Kv(p.precisions())) {
      yaml.add("kv_cache_config: {dtype: fp8}");
    }
    if (p.efficiency().eagerDecode()) {
      yaml.add("cuda_graph_config: null");
    }
    if (!p.efficiency().overlapScheduler()) {
      yaml.add("disable_overlap_scheduler: true");
    }
    spec.ifPresent(
        s ->
            yaml.add(
                s.draft()
                    .map(
                        dm ->
                            "speculative_config: {decoding_type: Eagle, max_draft_len: "
                                + s.length()
                                + ", speculative_model_dir: "
                                + repo(dm)
                                + "}")
                    .orElse(
                        "speculative_config: {decoding_type: MTP, num_nextn_predict_layers: "
                            + s.length()
                            + "}")));
    if (!yaml.isEmpty()) {
      b.append(" --extra_llm_api_options extra.yaml  # extra.yaml: ")
          .append(String.join("; ", yaml));
    }
    if (!role.isEmpty()) {
      b.append(yaml.isEmpty() ? "  # " : ", ")
          .append(role)
          .append(" server of trtllm-serve disaggregated");
    }
    return b.toString();
  }
}
