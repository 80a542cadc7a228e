package io.ridgeline.consumer;

import io.ridgeline.hardware.Chips;
import io.ridgeline.models.Models;
import io.ridgeline.serving.ParetoFrontier;
import io.ridgeline.serving.RooflineModel;

/** What a modular application does with Ridgeline: a frontier from the built-in catalogs. */
public final class Frontiers {
  private Frontiers() {}

  /**
   * The frontier of {@code model} on one {@code chip} (catalog ids) for requests of {@code isl}
   * prompt and {@code osl} output tokens, batches 1 to {@code maxBatch}.
   */
  public static ParetoFrontier of(String model, String chip, int isl, int osl, int maxBatch) {
    RooflineModel rm = RooflineModel.of(Models.byId(model), Chips.byId(chip));
    return ParetoFrontier.builder(rm).inputTokens(isl).outputTokens(osl).maxBatch(maxBatch).build();
  }

  /**
   * Prints the module this runs in and the frontier of {@code args = model chip isl osl maxBatch}:
   * {@code java --module-path … --module io.ridgeline.consumer/io.ridgeline.consumer.Frontiers
   * llama-3.1-8b h100-sxm 1024 256 64}.
   */
  public static void main(String[] args) {
    ParetoFrontier f =
        of(
            args[0],
            args[1],
            Integer.parseInt(args[2]),
            Integer.parseInt(args[3]),
            Integer.parseInt(args[4]));
    System.out.println("module " + Frontiers.class.getModule().getName());
    System.out.print(f);
  }
}
