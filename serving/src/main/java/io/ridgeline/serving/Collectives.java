package io.ridgeline.serving;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.ComputeTarget;
import io.ridgeline.core.Flops;
import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationResult;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.PhaseKind;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Roofline;
import io.ridgeline.core.Seconds;
import io.ridgeline.hardware.Interconnect;
import io.ridgeline.models.Ffn;
import io.ridgeline.models.Layer;
import io.ridgeline.serving.efficiency.Efficiency;
import java.util.Optional;

/**
 * The collectives of a pool's step, α-β costed on the link they cross ({@link Links#within}): an
 * all-reduce after each attention block over tp (a tree's {@code 2·⌈log2 n⌉} latency hops and a
 * ring's {@code 2·(n−1)/n × message} bytes per chip), an all-reduce after each FFN over the stage,
 * or for MoE with ep &gt; 1 an all-to-all dispatch (FP8) and combine of each token's hidden vector
 * to the distinct chips of its k experts, partly hidden under compute; pipeline stages hand each
 * micro-batch's activations to the next (one hop).
 */
final class Collectives {
  private Collectives() {}

  /**
   * {@code t} with the link a collective among {@code group} chips of {@code rm} crosses ({@link
   * Links#within}); its hop latency is the link's plus the efficiency's software latency per
   * collective hop.
   */
  static ComputeTarget withLink(RooflineModel rm, ComputeTarget t, int group) {
    Optional<Interconnect> link = Links.within(rm.chip(), group);
    if (link.isEmpty()) {
      return t;
    }
    // hop latency = the link's + the efficiency's software latency per collective hop
    return ComputeTarget.builder()
        .from(t)
        .linkBandwidth(link.get().bandwidthPerDirection())
        .linkLatency(link.get().latency().plus(rm.efficiency().collectiveLatency()))
        .build();
  }

  /** The collectives of one stage for {@code tokens} tokens, as one phase; empty for one chip. */
  static Optional<PhaseResult> of(RooflineModel rm, PhaseKind kind, double tokens) {
    int tp = rm.tensorParallel();
    int stage = rm.stageChips();
    if (stage == 1) {
      return Optional.empty();
    }
    Precision a = rm.precisions().activations();
    double hidden = rm.model().hiddenSize();
    int pp = rm.pipelineParallel();
    LayerCounts n = rm.layerCounts();
    int mixers = n.mixers();
    int denseFfns = n.denseFfns();
    int groupFfns = n.groupFfns();
    int moeFfns = n.moeFfns();
    double topK = n.topK();
    PhaseResult.Builder phase = PhaseResult.builder().kind(kind);
    if (tp > 1 && mixers > 0) {
      // after each attention block: all-reduce over the tp chips of a dp group of its tokens
      phase.addOperation(
          allReduce(
              rm,
              "tp_allreduce",
              OperationRole.TP_ALL_REDUCE,
              mixers / (double) pp,
              tokens / rm.attentionDataParallel() * hidden,
              tp,
              a));
    }
    if (tp > 1 && groupFfns > 0) {
      // after each dense FFN that runs per attention group (dp > 1): all-reduce over its tp chips
      phase.addOperation(
          allReduce(
              rm,
              "group_ffn_allreduce",
              OperationRole.FFN_ALL_REDUCE,
              groupFfns / (double) pp,
              tokens / rm.attentionDataParallel() * hidden,
              tp,
              a));
    }
    if (denseFfns > 0) {
      // after each FFN: all-reduce (all-gather + reduce-scatter when dp > 1) over the stage
      phase.addOperation(
          allReduce(
              rm,
              "ffn_allreduce",
              OperationRole.FFN_ALL_REDUCE,
              denseFfns / (double) pp,
              tokens * hidden,
              stage,
              a));
    }
    if (moeFfns > 0) {
      // MoE with ep > 1: each chip dispatches its 1/stage of the tokens (FP8) to the distinct
      // remote chips holding their k experts and gets them back (activation precision)
      phase.addOperation(allToAll(rm, tokens, topK, moeFfns / (double) pp, a));
    }
    PhaseResult built = phase.build();
    return built.operations().isEmpty() ? Optional.empty() : Optional.of(built);
  }

  /**
   * Bytes per element of an FP8 dispatch with one FP32 scale per 128-element block, as DeepEP and
   * the engines built on it quantise tokens before the all-to-all: 1 B + 4 B / 128 = 1.03125 B.
   */
  static final double FP8_DISPATCH_BYTES_PER_ELEMENT = 1 + 4.0 / 128;

  /**
   * MoE with ep &gt; 1 over {@code layers} layers: each chip dispatches its 1/stage of the {@code
   * tokens} (one hidden vector each) to the chips that hold its k experts and gets the weighted
   * expert outputs back (combine). Engines (DeepEP, SGLang, TensorRT-LLM wide-EP) send a token to a
   * chip once however many of its experts live there, dispatch in FP8 with 128-element block scales
   * (on chips with FP8; else at the activation precision) and combine at the activation precision.
   * Per chip and layer, within one scale-up domain:
   *
   * <pre>
   * bytes = tokens / stage × hidden × (dispatch B/element + combine B/element) × remote chips
   * remote chips = (ep − 1) × (1 − (1 − 1/ep)^k)
   * </pre>
   *
   * the expected distinct chips other than its own that k experts, each on a uniformly random one
   * of ep chips, land on (placement with replacement: within 1% of the exact hypergeometric count
   * for DeepSeek-V3's 256 experts). When the ep chips span {@code nodes = ⌈ep / domain⌉} scale-up
   * domains, the all-to-all is hierarchical, as DeepEP's internode kernels are: a token crosses the
   * scale-out network once per remote domain that holds one of its experts, {@code remote domains =
   * (nodes − 1) × (1 − (1 − 1/nodes)^k)}, and is forwarded over the scale-up fabric to the chips
   * there; both links run at once and the slower sets the time (the scale-up side is charged every
   * remote chip, an upper bound). Two network steps per layer (dispatch, combine) pay the hop
   * latency; the step is charged {@code (1 − moeOverlap)} of the α-β time ({@link
   * Efficiency#moeOverlap()}: the share hidden under compute by two-batch overlap).
   *
   * <p>Worked example (EP 32 over four 8-GPU nodes, k = 8): remote chips 31 × (1 − (31/32)^8) =
   * 7.08, remote domains 3 × (1 − (3/4)^8) = 2.70: the scale-out network carries 2.70 / 7.08 = 38%
   * of the bytes a flat all-to-all would put on it.
   */
  private static OperationResult allToAll(
      RooflineModel rm, double tokens, double topK, double layers, Precision a) {
    int ep = rm.expertParallel();
    // bytes per chip and layer for each destination: 1/stage of the tokens, there and back
    double perDestination =
        tokens
            / rm.stageChips()
            * rm.model().hiddenSize()
            * (dispatchBytesPerElement(rm, a) + a.bytesPerElement());
    double remoteChips = distinctRemote(ep, topK);
    int domain = rm.chip().scaleUp().map(Interconnect::domainSize).orElse(ep);
    OperationResult r = allToAllOver(rm, perDestination * remoteChips * layers, layers, ep);
    if (ep > domain && rm.chip().scaleOut().isPresent()) {
      int nodes = (ep + domain - 1) / domain;
      OperationResult out =
          allToAllOver(rm, perDestination * distinctRemote(nodes, topK) * layers, layers, ep);
      OperationResult up = allToAllOver(rm, perDestination * remoteChips * layers, layers, domain);
      r = out.seconds().compareTo(up.seconds()) >= 0 ? out : up;
    }
    double hidden = rm.efficiency().moeOverlap();
    return hidden == 0
        ? r
        : OperationResult.builder()
            .from(r)
            .networkSeconds(r.networkSeconds().times(1 - hidden))
            .build();
  }

  /**
   * Expected distinct members other than its own of {@code n} (chips or domains) that {@code k}
   * experts, each on a uniformly random member, land on: {@code (n − 1) × (1 − (1 − 1/n)^k)}.
   */
  static double distinctRemote(int n, double k) {
    return (n - 1) * (1 - Math.pow(1 - 1.0 / n, k));
  }

  /**
   * The all-to-all's {@code bytes} per chip in {@code 2 × layers} network steps, on the link a
   * group of {@code group} chips crosses.
   */
  private static OperationResult allToAllOver(
      RooflineModel rm, double bytes, double layers, int group) {
    Operation op =
        Operation.builder()
            .name("moe_all_to_all")
            .role(OperationRole.MOE_ALL_TO_ALL)
            .precision(rm.precisions().activations())
            .flops(Flops.ZERO)
            .networkBytes(Bytes.of(bytes))
            .networkSteps((int) Math.ceil(2 * layers))
            .build();
    return Roofline.evaluate(op, rm.linkTarget(group));
  }

  /**
   * Bytes per element of a MoE dispatch: {@link #FP8_DISPATCH_BYTES_PER_ELEMENT} when the chip runs
   * FP8 and the activations are wider, else the activations' own.
   */
  static double dispatchBytesPerElement(RooflineModel rm, Precision activations) {
    boolean fp8 = rm.baseTarget().peaks().containsKey(Precision.FP8);
    return fp8
        ? Math.min(FP8_DISPATCH_BYTES_PER_ELEMENT, activations.bytesPerElement())
        : activations.bytesPerElement();
  }

  /**
   * The layers whose collectives a step pays: token mixers (attention or linear), FFNs that
   * all-reduce over the stage, dense FFNs that run per attention group (dp &gt; 1, {@link
   * ParallelLayout#runsPerGroup}: all-reduce over tp), and MoE FFNs that all-to-all (only with ep
   * &gt; 1), with the MoE top-k.
   */
  record LayerCounts(int mixers, int denseFfns, int groupFfns, int moeFfns, double topK) {
    static LayerCounts of(RooflineModel rm) {
      int mixers = 0;
      int denseFfns = 0;
      int groupFfns = 0;
      int moeFfns = 0;
      double topK = 0;
      boolean perGroup = rm.layout().runsPerGroup(OperationRole.DENSE_FFN);
      for (Layer l : rm.model().layers()) {
        if (l.attention().isPresent() || l.linear().isPresent()) {
          mixers++;
        }
        if (l.ffn().isPresent()) {
          Ffn f = l.ffn().get();
          if (f.isMoe() && rm.expertParallel() > 1) {
            moeFfns++;
            topK = f.topK();
          } else if (!f.isMoe() && perGroup) {
            groupFfns++;
          } else {
            denseFfns++;
          }
        }
      }
      return new LayerCounts(mixers, denseFfns, groupFfns, moeFfns, topK);
    }
  }

  /**
   * {@code count} all-reduces of {@code elements} over {@code group} chips: per chip a ring sends
   * 2·(n−1)/n of the message; a tree pays 2·⌈log2 n⌉ latency hops; reductions add one FLOP per
   * received element.
   */
  private static OperationResult allReduce(
      RooflineModel rm,
      String name,
      OperationRole role,
      double count,
      double elements,
      int group,
      Precision a) {
    double sent = count * elements * 2.0 * (group - 1) / group;
    int hops = 2 * (32 - Integer.numberOfLeadingZeros(group - 1));
    Operation op =
        Operation.builder()
            .name(name)
            .role(role)
            .precision(a)
            .flops(Flops.of(sent / 2))
            .networkBytes(a.bytes(sent))
            .networkSteps((int) Math.ceil(count * hops))
            .build();
    return Roofline.evaluate(op, rm.linkTarget(group));
  }

  /** Time to pass {@code tokens} hidden vectors to the next pipeline stage (one hop), or zero. */
  static Seconds handOff(RooflineModel rm, double tokens) {
    if (rm.pipelineParallel() == 1) {
      return Seconds.ZERO;
    }
    Operation op =
        Operation.builder()
            .name("pp_send")
            .role(OperationRole.PIPELINE_SEND)
            .precision(rm.precisions().activations())
            .flops(Flops.ZERO)
            .networkBytes(
                rm.precisions()
                    .activations()
                    .bytes(tokens * rm.model().hiddenSize() / rm.stageChips()))
            .networkSteps(1)
            .build();
    return Roofline.evaluate(op, rm.linkTarget(rm.replicaChips())).seconds();
  }
}
