package io.ridgeline.cli;

import io.ridgeline.core.Seconds;
import io.ridgeline.serving.Conversation;
import io.ridgeline.serving.Workload;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code frontier --turns T [--think S]}: multi-turn conversations of {@code --isl} new tokens and
 * {@code --osl} answer tokens per turn ({@link Conversation}); each batch's point is the mean turn
 * at the prefix-cache hit rate that the KV capacity left free by the running batch and the think
 * time give.
 */
final class ConversationOptions {
  @Option(
      names = "--turns",
      paramLabel = "T",
      description =
          "Multi-turn conversations of T turns: --isl new tokens and --osl answer tokens per turn;"
              + " whether a turn finds its history in the prefix cache follows from the KV cache"
              + " the running batch leaves free and --think (LRU eviction); each point is the mean"
              + " turn, its note gives the hit rate (frontier; plan: a request is a turn)."
              + " Colocated only.")
  Integer turns;

  @Option(
      names = "--think",
      paramLabel = "TIME",
      converter = DurationOption.Converter.class,
      description =
          "With --turns: mean think time between an answer and the next turn (exponential), e.g."
              + " 30s, 2min (default: 0, the next turn at once, as an agent loop sends it).")
  Seconds think;

  /** Whether {@code --turns} was given. */
  boolean used() {
    return turns != null;
  }

  /**
   * The conversations of {@code --turns}, {@code --think}, {@code isl} and {@code osl}, if any.
   *
   * @throws IllegalArgumentException naming the option when --think comes without --turns, or when
   *     conversations are combined with a history or prefix hits
   */
  Optional<Conversation> conversation(int isl, int osl, WorkloadOptions w) {
    if (turns == null) {
      if (think != null) {
        throw new IllegalArgumentException("--think needs --turns");
      }
      return Optional.empty();
    }
    if (w.used()) {
      throw new IllegalArgumentException(
          "--turns derives each turn's history and prefix hits: drop --cached and --prefix-hit");
    }
    return Optional.of(Conversation.of(turns, isl, osl, think == null ? 0 : think.seconds()));
  }

  /**
   * {@link #conversation(int, int, WorkloadOptions)}, refused with a burst or closed-loop clients.
   *
   * @throws IllegalArgumentException as that does, or naming --burst or --clients
   */
  Optional<Conversation> conversation(int isl, int osl, WorkloadOptions w, BurstOptions burst) {
    Optional<Conversation> c = conversation(isl, osl, w);
    if (c.isPresent() && burst.used()) {
      throw new IllegalArgumentException(
          "--turns is a steady state: drop " + burst.option() + " (or --turns)");
    }
    return c;
  }

  /** The request the deployments are sized for: the mean turn without hits, or {@code plain}. */
  static Workload sizing(Optional<Conversation> c, Workload plain) {
    return c.map(x -> x.workload(0)).orElse(plain);
  }
}
