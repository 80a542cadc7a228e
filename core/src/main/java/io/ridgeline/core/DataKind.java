package io.ridgeline.core;

/** What a moved byte is: it decides which memory tier serves it. */
public enum DataKind {
  /** Model parameters, read once per forward pass. */
  WEIGHTS,
  /** KV cache (or recurrent state) read by attention. */
  KV_READ,
  /** KV cache (or recurrent state) written for new tokens. */
  KV_WRITE,
  /** Activations read and written between operations. */
  ACTIVATIONS;

  /** Lower-case id, for example {@code "kv_read"}. */
  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
