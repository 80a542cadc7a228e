package io.ridgeline.validation;

/**
 * A case that could not be predicted, and why. The reason starts with a stable category (the text
 * before the first {@code ": "}, or all of it), e.g. {@code "isl/osl not stated"} or {@code "does
 * not fit: …"}; {@link #category()} returns it for counting.
 *
 * @param testCase the case
 * @param reason why it was not predicted
 */
public record Skip(ValidationCase testCase, String reason) implements Outcome {
  /** The reason's category: the text before the first {@code ": "}. */
  public String category() {
    int i = reason.indexOf(": ");
    return i < 0 ? reason : reason.substring(0, i);
  }

  @Override
  public String toString() {
    return testCase.caseId() + ": " + reason;
  }
}
