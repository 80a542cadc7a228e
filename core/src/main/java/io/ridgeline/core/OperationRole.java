package io.ridgeline.core;

import java.util.Locale;

/**
 * What an {@link Operation} does in the forward pass. Serving decides by role, never by the
 * operation's name: how its bytes are sharded, which efficiency applies, and on which side of an
 * attention/FFN disaggregation it runs. The name ({@link Operation#name()}) is for output only.
 *
 * <ul>
 *   <li>{@link #readsKvCache()}: ATTENTION, INDEXER;
 *   <li>{@link #attentionSide()}: ATTENTION, INDEXER, ATTENTION_PROJECTION, LINEAR_PROJECTION,
 *       LINEAR_STATE;
 *   <li>{@link #ffnSide()}: DENSE_FFN, ROUTER, ROUTED_EXPERTS, SHARED_EXPERTS, FFN_ALL_REDUCE,
 *       MOE_ALL_TO_ALL;
 *   <li>{@link #collective()}: TP_ALL_REDUCE, FFN_ALL_REDUCE, MOE_ALL_TO_ALL, PIPELINE_SEND;
 *   <li>none: EMBEDDING, NORM, LM_HEAD, KV_FETCH.
 * </ul>
 */
public enum OperationRole {
  /**
   * Attention over the KV cache: QKᵀ, softmax and PV, full or sliding-window (names {@code
   * attention}, {@code attention_sliding}).
   */
  ATTENTION(Flags.KV | Flags.ATTENTION_SIDE),
  /** The DSA indexer: scores every cached token with its cached key (name {@code indexer}). */
  INDEXER(Flags.KV | Flags.ATTENTION_SIDE),
  /**
   * The attention block's weight projections: QKV and O, or MLA's (names {@code qkv_proj}, {@code
   * o_proj}, {@code mla_proj}).
   */
  ATTENTION_PROJECTION(Flags.ATTENTION_SIDE),
  /** A linear mixer's (Mamba, DeltaNet) weight projections (name {@code linear_proj}). */
  LINEAR_PROJECTION(Flags.ATTENTION_SIDE),
  /** A linear mixer's recurrent state update or chunked scan (name {@code linear_state}). */
  LINEAR_STATE(Flags.ATTENTION_SIDE),
  /** A dense FFN layer (name {@code ffn}). */
  DENSE_FFN(Flags.FFN_SIDE),
  /** A MoE router (name {@code router}). */
  ROUTER(Flags.FFN_SIDE),
  /** A MoE block's routed experts (name {@code experts}). */
  ROUTED_EXPERTS(Flags.FFN_SIDE),
  /** A MoE block's shared experts (name {@code shared_experts}). */
  SHARED_EXPERTS(Flags.FFN_SIDE),
  /** The embedding gather (name {@code embedding}). */
  EMBEDDING(0),
  /** Every norm of the forward pass (name {@code norms}). */
  NORM(0),
  /** The LM head's logits (name {@code lm_head}). */
  LM_HEAD(0),
  /**
   * The all-reduce over the tensor-parallel chips after each attention block (name {@code
   * tp_allreduce}).
   */
  TP_ALL_REDUCE(Flags.COLLECTIVE),
  /** The all-reduce over a stage's chips after each dense FFN (name {@code ffn_allreduce}). */
  FFN_ALL_REDUCE(Flags.COLLECTIVE | Flags.FFN_SIDE),
  /** The expert-parallel dispatch and combine of a MoE block (name {@code moe_all_to_all}). */
  MOE_ALL_TO_ALL(Flags.COLLECTIVE | Flags.FFN_SIDE),
  /** The hand-off of activations to the next pipeline stage (name {@code pp_send}). */
  PIPELINE_SEND(Flags.COLLECTIVE),
  /**
   * Bringing KV cache back from a slower memory tier where it was offloaded (name {@code
   * kv_fetch}): a copy, no FLOPs, not a read by attention.
   */
  KV_FETCH(0);

  private final int flags;

  OperationRole(int flags) {
    this.flags = flags;
  }

  /**
   * Whether the operation reads the KV cache through an attention kernel (attention, sliding-window
   * attention, the DSA indexer): it runs at the attention efficiency. A linear mixer's state is not
   * read by such a kernel.
   */
  public boolean readsKvCache() {
    return (flags & Flags.KV) != 0;
  }

  /**
   * Whether the operation belongs to the attention block (attention, its projections, linear
   * mixers): its weights are split by tensor parallelism within an attention data-parallel group
   * and held once per group.
   */
  public boolean attentionSide() {
    return (flags & Flags.ATTENTION_SIDE) != 0;
  }

  /**
   * Whether the operation runs on the FFN side of an attention/FFN disaggregation: dense FFNs, MoE
   * routers and experts, and the collectives that follow them ({@link #FFN_ALL_REDUCE}, {@link
   * #MOE_ALL_TO_ALL}).
   */
  public boolean ffnSide() {
    return (flags & Flags.FFN_SIDE) != 0;
  }

  /** Whether the operation is a collective or transfer over the interconnect. */
  public boolean collective() {
    return (flags & Flags.COLLECTIVE) != 0;
  }

  /** Lower-case id, for example {@code "routed_experts"} (not an operation's output name). */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  private static final class Flags {
    static final int KV = 1;
    static final int ATTENTION_SIDE = 2;
    static final int FFN_SIDE = 4;
    static final int COLLECTIVE = 8;

    private Flags() {}
  }
}
