/** Chips, their memory tiers and interconnects, and the built-in chip catalog. */
// the Immutables annotations jar names only an automatic module (org.immutables.value.annotations)
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.ridgeline.hardware {
  exports io.ridgeline.hardware;

  requires transitive io.ridgeline.core;
  requires com.google.common;
  requires com.fasterxml.jackson.databind;
  requires static transitive com.google.errorprone.annotations;
  requires static transitive org.immutables.value.annotations;
  // the generated classes carry @javax.annotation.processing.Generated (source retention)
  requires static java.compiler;
}
