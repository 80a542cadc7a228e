package io.ridgeline.models;

/** How each of a model's norms is built ({@link Model#normKind()}). */
public enum NormKind {
  /** RMSNorm: one weight vector. */
  RMS(1),
  /** LayerNorm: a weight and a bias vector. */
  LAYER(2);

  private final int vectors;

  NormKind(int vectors) {
    this.vectors = vectors;
  }

  /** Parameter vectors of one norm, each one element per channel: 1 (RMSNorm) or 2. */
  public int vectors() {
    return vectors;
  }
}
