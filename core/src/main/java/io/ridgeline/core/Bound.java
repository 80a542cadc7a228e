package io.ridgeline.core;

/** What limits an operation's time on a target. */
public enum Bound {
  /** FLOPs / peak FLOP/s dominates: the operation waits on math. */
  COMPUTE,
  /** Bytes / bandwidth dominates: the operation waits on memory. */
  MEMORY,
  /** Latency + bytes / link bandwidth dominates: the operation waits on the interconnect. */
  COMMUNICATION;

  /** Lower-case id, for example {@code "memory"}. */
  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  @Override
  public String toString() {
    return id();
  }
}
