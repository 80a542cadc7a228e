/** Predictions against published measurements: the cases, the predictor and the calibration. */
module io.ridgeline.validation {
  exports io.ridgeline.validation;

  requires transitive io.ridgeline.serving;
  // CrossValidationJson.summary returns a JsonNode
  requires transitive com.fasterxml.jackson.databind;
  requires com.google.common;
  // @CheckReturnValue on the package, read at compile time only
  requires static transitive com.google.errorprone.annotations;
}
