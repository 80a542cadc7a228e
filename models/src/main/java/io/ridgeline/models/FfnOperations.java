package io.ridgeline.models;

import io.ridgeline.core.DataKind;
import io.ridgeline.core.Flops;
import io.ridgeline.core.Operation;
import io.ridgeline.core.OperationRole;
import io.ridgeline.core.Precisions;
import io.ridgeline.core.TensorClass;
import java.util.ArrayList;
import java.util.List;

/**
 * The FFN operations of {@link Operations}: a dense FFN layer and a MoE block (router, routed and
 * shared experts), each a GEMM of 2 FLOPs per weight per token plus the activation function.
 */
final class FfnOperations {
  /** FLOPs per inner element of the activation (SiLU/GELU ≈ 4, gate product 1). */
  private static final double ACTIVATION_FLOPS_PER_ELEMENT = 5;

  private FfnOperations() {}

  static Operation denseFfn(Model m, Ffn f, double tokens, double n, Precisions p) {
    double params = f.expertParameters(m.hiddenSize());
    double inner = f.innerSize();
    double act = tokens * (2.0 * m.hiddenSize() + (f.gated() ? 3.0 : 2.0) * inner);
    double[] d = ffnDepths(m.hiddenSize(), inner, f.gated());
    return Operations.op("ffn", OperationRole.DENSE_FFN, p.matmul(TensorClass.DENSE_FFN))
        .inverseDepth(d[0])
        .inverseSplitDepth(d[1])
        .flops(
            Flops.of((2.0 * tokens * params + ACTIVATION_FLOPS_PER_ELEMENT * tokens * inner) * n))
        .putBytes(DataKind.WEIGHTS, p.weights(TensorClass.DENSE_FFN).bytes(params * n))
        .putBytes(DataKind.ACTIVATIONS, p.gemmActivations(TensorClass.DENSE_FFN).bytes(act * n))
        .build();
  }

  /**
   * A MoE block for {@code tokens} tokens: the router, the routed experts (FLOPs for k experts per
   * token; weights for the expected number of distinct experts the tokens touch) and the shared
   * experts.
   */
  static List<Operation> moe(
      Model m, Ffn f, double tokens, double n, Precisions p, Routing routing) {
    int h = m.hiddenSize();
    List<Operation> ops = new ArrayList<>();
    ops.add(
        Operations.op("router", OperationRole.ROUTER, p.matmul(TensorClass.DENSE_FFN))
            .inverseDepth(1.0 / h)
            .flops(Flops.of(2.0 * tokens * f.routerParameters(h) * n))
            .putBytes(
                DataKind.WEIGHTS, p.weights(TensorClass.DENSE_FFN).bytes(f.routerParameters(h) * n))
            .putBytes(
                DataKind.ACTIVATIONS,
                p.gemmActivations(TensorClass.DENSE_FFN)
                    .bytes(tokens * ((double) h + f.experts()) * n))
            .build());
    double expert = f.expertParameters(h);
    double distinct = routing.expectedDistinctExperts(f.experts(), f.topK(), tokens);
    double routed = tokens * f.topK();
    double inner = f.innerSize();
    double[] d = ffnDepths(h, inner, f.gated());
    ops.add(
        Operations.op("experts", OperationRole.ROUTED_EXPERTS, p.matmul(TensorClass.EXPERTS))
            .inverseDepth(d[0])
            .inverseSplitDepth(d[1])
            .flops(
                Flops.of(
                    (2.0 * routed * expert + ACTIVATION_FLOPS_PER_ELEMENT * routed * inner) * n))
            .putBytes(DataKind.WEIGHTS, p.weights(TensorClass.EXPERTS).bytes(distinct * expert * n))
            .putBytes(
                DataKind.ACTIVATIONS,
                p.gemmActivations(TensorClass.EXPERTS)
                    .bytes(routed * (2.0 * h + (f.gated() ? 3.0 : 2.0) * inner) * n))
            .build());
    if (f.sharedExperts() > 0) {
      double shared = f.sharedParameters(h);
      double sharedInner = (double) f.sharedExperts() * f.sharedInnerSize();
      double[] ds = ffnDepths(h, sharedInner, f.gated());
      ops.add(
          Operations.op(
                  "shared_experts", OperationRole.SHARED_EXPERTS, p.matmul(TensorClass.DENSE_FFN))
              .inverseDepth(ds[0])
              .inverseSplitDepth(ds[1])
              .flops(
                  Flops.of(
                      (2.0 * tokens * shared + ACTIVATION_FLOPS_PER_ELEMENT * tokens * sharedInner)
                          * n))
              .putBytes(DataKind.WEIGHTS, p.weights(TensorClass.DENSE_FFN).bytes(shared * n))
              .putBytes(
                  DataKind.ACTIVATIONS,
                  p.gemmActivations(TensorClass.DENSE_FFN)
                      .bytes(tokens * (2.0 * h + (f.gated() ? 3.0 : 2.0) * sharedInner) * n))
              .build());
    }
    return ops;
  }

  /**
   * An FFN's (or expert's) reduction depths: the gate and up projections (two of a gated FFN's
   * three matrices, one of a plain FFN's two) reduce over the hidden size {@code h}
   * (column-parallel), the down projection over the inner size (row-parallel); each matrix holds
   * the same h × inner weights, so each carries its share of the FLOPs.
   */
  static double[] ffnDepths(double h, double inner, boolean gated) {
    double matrices = gated ? 3 : 2;
    return new double[] {(matrices - 1) / matrices / h, 1 / matrices / inner};
  }
}
