package io.ridgeline.core;

import java.util.Locale;

/**
 * Which part of a step a {@link Phase} is. A decode step's phases run in the declaration order of
 * their kinds; a prefill is one {@link #PREFILL} phase (collectives included). Serving decides by
 * kind, never by the phase's name; {@link #id()} is the name printed in output.
 */
public enum PhaseKind {
  /** A whole prefill pass, its collectives included ({@code "prefill"}). */
  PREFILL(Group.MIXED),
  /**
   * Decode attention over full-context layers, with the DSA indexer ({@code "decode_attention"}).
   */
  DECODE_ATTENTION(Group.ATTENTION),
  /** Decode attention over sliding-window layers ({@code "decode_attention_sliding"}). */
  DECODE_ATTENTION_SLIDING(Group.ATTENTION),
  /** Decode state updates of linear mixers ({@code "decode_linear_attention"}). */
  DECODE_LINEAR_ATTENTION(Group.ATTENTION),
  /** Decode projections of attention and linear mixers ({@code "decode_projection"}). */
  DECODE_PROJECTION(Group.NEITHER),
  /** Decode dense FFN layers ({@code "decode_ffn"}). */
  DECODE_FFN(Group.FFN),
  /** Decode MoE blocks: routers, routed and shared experts ({@code "decode_moe"}). */
  DECODE_MOE(Group.FFN),
  /** Decode embedding, norms and LM head ({@code "decode_other"}). */
  DECODE_OTHER(Group.NEITHER),
  /** A decode step's collectives ({@code "decode_communication"}). */
  DECODE_COMMUNICATION(Group.MIXED);

  /**
   * Which of {@link #attention()}, {@link #ffn()} and {@link #mixed()} holds for a kind: each
   * constant names its group, so a new kind does not compile until it is classified.
   */
  private enum Group {
    ATTENTION,
    FFN,
    MIXED,
    NEITHER
  }

  private final Group group;

  PhaseKind(Group group) {
    this.group = group;
  }

  /** The output name, for example {@code "decode_attention"}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Whether the phase is decode attention whose time grows with (or is bounded by) the context:
   * {@link #DECODE_ATTENTION}, {@link #DECODE_ATTENTION_SLIDING}, {@link #DECODE_LINEAR_ATTENTION}.
   * The crossover compares these with the {@link #ffn()} phases.
   */
  public boolean attention() {
    return group == Group.ATTENTION;
  }

  /**
   * Whether the phase is a decode FFN ({@link #DECODE_FFN}, {@link #DECODE_MOE}): it runs on the
   * FFN pool under attention/FFN disaggregation and is the crossover's FFN time.
   */
  public boolean ffn() {
    return group == Group.FFN;
  }

  /**
   * Whether the phase mixes operations of both sides of an attention/FFN disaggregation ({@link
   * #PREFILL}, {@link #DECODE_COMMUNICATION}): a split must look at each operation's {@link
   * OperationRole#ffnSide()}.
   */
  public boolean mixed() {
    return group == Group.MIXED;
  }
}
