package io.ridgeline.serving;

import io.ridgeline.core.PhaseResult;
import io.ridgeline.core.RidgelineStyle;
import io.ridgeline.core.Seconds;
import java.util.List;
import java.util.NoSuchElementException;
import org.immutables.value.Value;

/**
 * The roofline of one step (a decode step or a prefill) on one chip of the system: its phases, each
 * with the chip's share of FLOPs and bytes, and their summed time.
 */
@Value.Immutable
@RidgelineStyle
public abstract class StepResult {
  /** Phases in execution order, per chip. */
  public abstract List<PhaseResult> phases();

  /** The step's time: the sum of its phases (they run one after another). */
  @Value.Derived
  public Seconds seconds() {
    double s = 0;
    for (PhaseResult p : phases()) {
      s += p.seconds().seconds();
    }
    return Seconds.of(s);
  }

  /**
   * The phase named {@code name}.
   *
   * @throws NoSuchElementException when the step has no such phase
   */
  public PhaseResult phase(String name) {
    return phases().stream()
        .filter(p -> p.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new NoSuchElementException(
                    "no phase '"
                        + name
                        + "' in "
                        + phases().stream().map(PhaseResult::name).toList()));
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("step " + seconds() + ":");
    for (PhaseResult p : phases()) {
      b.append("\n  ").append(p);
    }
    return b.toString();
  }
}
