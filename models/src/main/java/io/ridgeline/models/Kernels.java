package io.ridgeline.models;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.Map;

/**
 * How many kernels one forward pass of a layer (or of a whole model) launches, counted from its
 * architecture: the number of dependent GPU kernels (or, on a dataflow chip, of dependent
 * operations) a token crosses, each of which pays a fixed cost (a CUDA-graph replay's launch and
 * tail, or a pipeline's fill latency) that the roofline's FLOP and byte counts do not see.
 *
 * <p>Counts follow the kernels a modern engine runs after its usual fusions (bias in the GEMM
 * epilogue, residual add fused into the next norm, gate and up projections in one GEMM, SiLU × up
 * in one activation kernel, the KV-cache write in the attention backend), as in vLLM's and SGLang's
 * model files ({@code vllm/model_executor/models/llama.py}, {@code deepseek_v2.py}, {@code
 * qwen3_next.py}, {@code nemotron_h.py}; DeepSeek's own {@code inference/model.py} for MLA and the
 * DSA indexer):
 *
 * <ul>
 *   <li>norms: one per {@link Layer#norms() norm} (residual add + RMSNorm/LayerNorm in one kernel);
 *   <li>softmax attention (MHA/GQA/MQA): QKV GEMM, RoPE, attention, O GEMM = {@value #GQA}; + 1
 *       with a q/k norm (one kernel for both), + 1 with an output gate (sigmoid gate × output);
 *   <li>MLA: q down GEMM, q latent norm, q up GEMM (one q GEMM instead of these three when the
 *       query has no low-rank path), KV down GEMM (latent + RoPE key), KV latent norm, RoPE, key
 *       absorption (batched GEMM), attention, value absorption (batched GEMM), O GEMM = {@value
 *       #MLA}; a DSA indexer adds its q GEMM, k GEMM, k norm, RoPE, head-weight GEMM, logits and
 *       top-k = {@value #INDEXER};
 *   <li>Mamba2: in-projection GEMM, causal conv1d, selective-state update (scan), gated RMSNorm,
 *       out-projection GEMM = {@value #MAMBA2}; Gated DeltaNet: qkvz GEMM, ba GEMM, conv1d, gating,
 *       delta-rule recurrence, gated RMSNorm, out-projection GEMM = {@value #GATED_DELTANET};
 *   <li>dense FFN: (gate-)up GEMM, activation, down GEMM = {@value #DENSE_FFN};
 *   <li>MoE: router GEMM, top-k selection, permute (dispatch), grouped (gate-)up GEMM, activation,
 *       grouped down GEMM, combine (unpermute + weighted sum) = {@value #MOE}; each shared expert
 *       set adds a dense FFN ({@value #DENSE_FFN}) and a shared-expert gate one more;
 *   <li>tensor parallelism: one all-reduce kernel after the mixer when its tensor-parallel group
 *       has more than one chip, one after the FFN when the stage has more than one chip (an
 *       expert-parallel MoE instead runs an all-to-all dispatch and combine: 2);
 *   <li>the head: embedding lookup, final norm, LM-head GEMM = {@value #HEAD}, + 1 all-gather of
 *       the logits over a stage of more than one chip. Sampling is host-side step work, not counted
 *       here.
 * </ul>
 *
 * <p>A Llama layer (GQA attention, gated FFN, 2 norms) is therefore 2 + 4 + 3 = {@value
 * #REFERENCE_LAYER} kernels; a DeepSeek-V3 MoE layer is 2 + 10 + 7 + 3 = 22.
 *
 * <pre>{@code
 * Kernels.forward(Models.byId("llama-3.1-8b"), 1, 1, 1).total();   // 32 × 9 + 3 = 291
 * }</pre>
 */
public final class Kernels {
  /** Kernels of a softmax attention block without norms: QKV GEMM, RoPE, attention, O GEMM. */
  public static final int GQA = 4;

  /** Kernels of an MLA block with a low-rank query path (see the class comment). */
  public static final int MLA = 10;

  /** Kernels of a DeepSeek sparse-attention indexer. */
  public static final int INDEXER = 7;

  /** Kernels of a Mamba2 mixer. */
  public static final int MAMBA2 = 5;

  /** Kernels of a Gated DeltaNet mixer. */
  public static final int GATED_DELTANET = 7;

  /** Kernels of a dense FFN: (gate-)up GEMM, activation, down GEMM. */
  public static final int DENSE_FFN = 3;

  /** Kernels of the routed part of an MoE FFN (see the class comment). */
  public static final int MOE = 7;

  /** Kernels of the model's head: embedding lookup, final norm, LM-head GEMM. */
  public static final int HEAD = 3;

  /**
   * Kernels of the reference layer, a Llama layer with GQA attention and a gated FFN: input norm,
   * QKV GEMM, RoPE, attention, O GEMM, residual + norm, gate-up GEMM, activation, down GEMM.
   */
  public static final int REFERENCE_LAYER = 9;

  private Kernels() {}

  /**
   * Kernels of a forward pass split by the side that runs them: the mixer side (norms, token mixer,
   * the head and their collectives: an attention pool's work) and the FFN side (an FFN pool's work
   * in attention-FFN disaggregation).
   *
   * @param mixer kernels of the norms, token mixers, head and their collectives
   * @param ffn kernels of the FFNs and their collectives
   */
  public record Count(int mixer, int ffn) {
    /** Checks that neither count is negative. */
    public Count {
      checkArgument(mixer >= 0, "mixer kernels must be >= 0: %s", mixer);
      checkArgument(ffn >= 0, "ffn kernels must be >= 0: %s", ffn);
    }

    /** Both sides together. */
    public int total() {
      return mixer + ffn;
    }

    /** e.g. {@code "9 kernels (5 mixer + 4 ffn)"}. */
    @Override
    public String toString() {
      return total() + " kernels (" + mixer + " mixer + " + ffn + " ffn)";
    }

    /** The sum of this count and {@code other}. */
    public Count plus(Count other) {
      return new Count(mixer + other.mixer, ffn + other.ffn);
    }
  }

  /**
   * Kernels of one forward pass of {@code layer} (see the class comment).
   *
   * @param tensorParallel chips of the mixer's tensor-parallel group
   * @param stageChips chips the FFN spans (tp × attention dp)
   * @param expertParallel chips MoE experts are spread over
   * @throws IllegalArgumentException when a degree is not positive
   */
  public static Count layer(Layer layer, int tensorParallel, int stageChips, int expertParallel) {
    checkDegrees(tensorParallel, stageChips, expertParallel);
    int mixer = layer.norms();
    if (layer.attention().isPresent()) {
      mixer += attention(layer.attention().get());
    }
    if (layer.linear().isPresent()) {
      mixer +=
          switch (layer.linear().get().kind()) {
            case MAMBA2 -> Kernels.MAMBA2;
            case GATED_DELTANET -> Kernels.GATED_DELTANET;
          };
    }
    boolean hasMixer = layer.attention().isPresent() || layer.linear().isPresent();
    if (hasMixer && tensorParallel > 1) {
      mixer += 1; // all-reduce of the mixer's output
    }
    int ffn = 0;
    if (layer.ffn().isPresent()) {
      Ffn f = layer.ffn().get();
      ffn = f.isMoe() ? MOE : DENSE_FFN;
      if (f.isMoe() && f.sharedExperts() > 0) {
        ffn += DENSE_FFN + (f.sharedExpertGate() ? 1 : 0);
      }
      if (stageChips > 1) {
        ffn += f.isMoe() && expertParallel > 1 ? 2 : 1; // all-to-all pair, or an all-reduce
      }
    }
    return new Count(mixer, ffn);
  }

  /** Kernels of a softmax attention block without its norm. */
  static int attention(Attention a) {
    int k;
    if (a.mla().isPresent()) {
      k = a.mla().get().qLoraRank() > 0 ? MLA : MLA - 2;
    } else {
      k = GQA + (a.qkNorm() ? 1 : 0);
    }
    k += a.outputGate() ? 1 : 0;
    k += a.indexer().isPresent() ? INDEXER : 0;
    return k;
  }

  /**
   * Kernels of one forward pass of {@code model}: every layer ({@link #layer}) and the head
   * ({@value #HEAD}, + 1 logits all-gather when the stage has more than one chip), on the mixer
   * side.
   *
   * @throws IllegalArgumentException when a degree is not positive
   */
  public static Count forward(Model model, int tensorParallel, int stageChips, int expertParallel) {
    checkDegrees(tensorParallel, stageChips, expertParallel);
    Count c = new Count(HEAD + (stageChips > 1 ? 1 : 0), 0);
    for (Map.Entry<Layer, Integer> g : model.layerGroups().entrySet()) {
      Count one = layer(g.getKey(), tensorParallel, stageChips, expertParallel);
      c = c.plus(new Count(one.mixer() * g.getValue(), one.ffn() * g.getValue()));
    }
    return c;
  }

  private static void checkDegrees(int tensorParallel, int stageChips, int expertParallel) {
    checkArgument(
        tensorParallel > 0, "tensor parallel degree must be positive: %s", tensorParallel);
    checkArgument(stageChips > 0, "stage chips must be positive: %s", stageChips);
    checkArgument(
        expertParallel > 0, "expert parallel degree must be positive: %s", expertParallel);
  }
}
