/** Model architectures, their operations per step, and the built-in model catalog. */
// the Immutables annotations jar names only an automatic module (org.immutables.value.annotations)
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.ridgeline.models {
  exports io.ridgeline.models;

  requires transitive io.ridgeline.core;
  requires com.google.common;
  requires com.fasterxml.jackson.databind;
  requires static transitive com.google.errorprone.annotations;
  requires static transitive org.immutables.value.annotations;
  // the generated classes carry @javax.annotation.processing.Generated (source retention)
  requires static java.compiler;
}
