package io.ridgeline.cli;

import io.ridgeline.hardware.Chip;
import io.ridgeline.models.Model;
import io.ridgeline.serving.Limits;
import io.ridgeline.serving.PoolSpec;
import picocli.CommandLine.Option;

/** The attention/FFN-disaggregation options of {@code frontier}: the attention and FFN pools. */
final class AfdOptions {
  @Option(names = "--attention-chip", description = "AFD: attention pool chip (default: --chip).")
  String attentionChip;

  @Option(
      names = "--attention-count",
      description = "AFD: attention pool chips (default: --count, or 1).")
  Integer attentionCount;

  @Option(names = "--ffn-chip", description = "AFD: FFN pool chip (default: --chip).")
  String ffnChip;

  @Option(
      names = "--ffn-count",
      description =
          "AFD: FFN pool chips (default: --ffn-tp × --ffn-pp, else searched from the fewest that"
              + " hold the FFN weights up to 4× the attention chips).")
  Integer ffnCount;

  @Option(
      names = "--ffn-tp",
      description =
          "AFD: tensor-parallel degree of the FFN pool (default: --ffn-count / --ffn-pp); need not"
              + " divide the attention heads.")
  Integer ffnTp;

  @Option(names = "--ffn-pp", description = "AFD: pipeline stages of the FFN pool (default: 1).")
  Integer ffnPp;

  @Option(
      names = "--ffn-ep",
      description = "AFD: chips of an FFN stage that experts spread over (default: --ep).")
  Integer ffnEp;

  @Option(
      names = "--afd-microbatches",
      defaultValue = "2",
      description = "AFD: micro-batches in ping-pong (default: ${DEFAULT-VALUE}).")
  int afdMicroBatches;

  /**
   * The FFN pool of --ffn-chip, --ffn-count, --ffn-tp, --ffn-pp and --ffn-ep; without a count or
   * tp, the pool is sized by the attention:FFN ratio search ({@link DeploymentSpec}).
   */
  PoolSpec ffnSpec(SystemOptions system, Model m, Chip c) {
    if (ffnCount != null) {
      SystemOptions.positive("--ffn-count", ffnCount);
    }
    if (ffnTp != null) {
      SystemOptions.positive("--ffn-tp", ffnTp);
    }
    int fpp = ffnPp != null ? ffnPp : 1;
    int fep = ffnEp != null ? ffnEp : system.ep;
    SystemOptions.positive("--ffn-pp", fpp);
    SystemOptions.positive("--ffn-ep", fep);
    if (ffnTp != null) {
      // each at most 2^16 (OptionLimits): the product is exact in a long
      Limits.check("--ffn-tp × --ffn-pp", (long) ffnTp * fpp, Limits.MAX_CHIPS);
    }
    if (ffnCount != null && ffnTp != null && ffnCount % (ffnTp * fpp) != 0) {
      throw new IllegalArgumentException(
          "--ffn-count ("
              + ffnCount
              + ") must be a multiple of --ffn-tp × --ffn-pp = "
              + ffnTp * fpp);
    }
    int stage = ffnTp != null ? ffnTp : ffnCount != null ? Math.max(1, ffnCount / fpp) : fep;
    if (stage % fep != 0) {
      throw new IllegalArgumentException(
          "--ffn-ep (" + fep + ") must divide the FFN pool's chips per stage: " + stage);
    }
    return PoolSpec.builder()
        .from(system.poolSpec(m, c, ffnCount, ffnTp))
        .pipelineParallel(fpp)
        .expertParallel(fep)
        .attentionDataParallel(1)
        .runsAttention(false)
        .build();
  }
}
