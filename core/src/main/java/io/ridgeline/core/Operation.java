package io.ridgeline.core;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableMap;
import java.util.Map;
import org.immutables.value.Value;

/**
 * One step of work: its FLOPs, the bytes it moves from memory by {@link DataKind}, and the bytes
 * each chip sends over its interconnect (for collectives), at a compute precision. Its {@link
 * #role()} says what it does (serving decides by it); its {@link #name()} is for output.
 *
 * <pre>{@code
 * Operation gemv = Operation.builder().name("ffn").role(OperationRole.DENSE_FFN)
 *     .flops(Flops.of(2 * 4096 * 14336))
 *     .precision(Precision.BF16).putBytes(DataKind.WEIGHTS, Bytes.of(2.0 * 4096 * 14336)).build();
 * gemv.intensity();   // 1 FLOP/B
 * }</pre>
 */
@Value.Immutable
@RidgelineStyle
public abstract class Operation {
  Operation() {} // subclassed only by the generated implementation

  /** A short name such as {@code "qkv_proj"}. */
  public abstract String name();

  /** What the operation does: it decides sharding, efficiency and disaggregation side. */
  public abstract OperationRole role();

  /** Arithmetic work (1 multiply-add = 2 FLOPs). */
  public abstract Flops flops();

  /** The precision the math runs at: it picks the target's peak. */
  public abstract Precision precision();

  /** Bytes moved between memory and the compute units, by what they are. */
  public abstract Map<DataKind, Bytes> bytes();

  /** Bytes each participating chip sends over the interconnect (zero for local work). */
  @Value.Default
  public Bytes networkBytes() {
    return Bytes.ZERO;
  }

  /** Sequential latency-paying hops on the interconnect (zero for local work). */
  @Value.Default
  public int networkSteps() {
    return 0;
  }

  /**
   * The most chips this operation's KV traffic can be split over: the KV heads of a GQA layer, 1
   * for a latent (MLA) cache shared by all heads. Beyond it each chip reads a replica.
   */
  @Value.Default
  public int kvShards() {
    return Integer.MAX_VALUE;
  }

  /**
   * The reduction depth of this operation's weight GEMMs whose reduction (input) dimension K tensor
   * parallelism does not split (column-parallel and replicated GEMMs: QKV, gate and up projections,
   * router, LM head): the FLOP-weighted mean of 1/K over the operation's GEMM FLOPs, per element. 0
   * for an operation without weight GEMMs. For example a gated FFN over hidden size h has two
   * thirds of its FLOPs in the gate and up GEMMs (K = h): {@code inverseDepth = (2/3) / h}.
   */
  @Value.Default
  public double inverseDepth() {
    return 0;
  }

  /**
   * The same mean over the weight GEMMs whose K tensor parallelism splits (row-parallel: the
   * attention output and FFN down projections), taken at the whole, unsplit K: on a chip that holds
   * 1/s of K it counts s times. For example the gated FFN's down projection (K = inner size i, a
   * third of its FLOPs): {@code inverseSplitDepth = (1/3) / i}.
   */
  @Value.Default
  public double inverseSplitDepth() {
    return 0;
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds an {@link Operation}: one setter per attribute, then {@code build()}. */
  public static final class Builder extends ImmutableOperation.Builder {
    Builder() {}
  }

  /** Total memory bytes moved, all kinds together. */
  @Value.Derived
  public Bytes memoryBytes() {
    double sum = 0;
    for (Bytes b : bytes().values()) {
      sum += b.bytes();
    }
    return Bytes.of(sum);
  }

  /** The bytes of one kind, zero when absent. */
  public Bytes bytes(DataKind kind) {
    return bytes().getOrDefault(kind, Bytes.ZERO);
  }

  /** FLOPs per memory byte; zero when the operation moves no memory bytes. */
  public FlopsPerByte intensity() {
    return memoryBytes().bytes() == 0 ? FlopsPerByte.ZERO : flops().per(memoryBytes());
  }

  /**
   * This operation repeated {@code factor} times (or a {@code 1/n} share of it when {@code factor <
   * 1}): FLOPs and bytes scale, network steps do not.
   */
  public Operation scaled(double factor) {
    checkArgument(
        factor >= 0 && Double.isFinite(factor), "scale factor must be finite and >= 0: %s", factor);
    ImmutableMap.Builder<DataKind, Bytes> scaled = ImmutableMap.builder();
    bytes().forEach((k, v) -> scaled.put(k, v.times(factor)));
    return Operation.builder()
        .from(this)
        .flops(flops().times(factor))
        .bytes(scaled.build())
        .networkBytes(networkBytes().times(factor))
        .build();
  }

  @Value.Check
  void check() {
    checkArgument(
        kvShards() > 0, "operation %s: kv shards must be positive: %s", name(), kvShards());
    checkArgument(!name().isBlank(), "operation name must not be blank");
    checkArgument(
        Double.isFinite(inverseDepth()) && inverseDepth() >= 0,
        "operation %s: inverse depth must be finite and >= 0: %s",
        name(),
        inverseDepth());
    checkArgument(
        Double.isFinite(inverseSplitDepth()) && inverseSplitDepth() >= 0,
        "operation %s: inverse split depth must be finite and >= 0: %s",
        name(),
        inverseSplitDepth());
    checkArgument(
        networkSteps() >= 0,
        "operation %s: network steps must be >= 0: %s",
        name(),
        networkSteps());
  }

  @Override
  public String toString() {
    return name()
        + "{"
        + flops()
        + ", "
        + memoryBytes()
        + ", "
        + intensity()
        + ", "
        + precision()
        + "}";
  }
}
