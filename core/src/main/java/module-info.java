/**
 * Units, precisions and roofline arithmetic shared by every Ridgeline module ({@link
 * io.ridgeline.core}).
 */
// the Immutables annotations jar names only an automatic module (org.immutables.value.annotations)
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.ridgeline.core {
  exports io.ridgeline.core;

  requires com.google.common;
  // the strict, bounded JSON reader every input format shares (InputFiles)
  requires transitive com.fasterxml.jackson.databind;
  // annotations read by javac, Immutables and Error Prone only: not needed at run time
  requires static transitive com.google.errorprone.annotations;
  requires static transitive org.immutables.value.annotations;
  // the generated classes carry @javax.annotation.processing.Generated (source retention)
  requires static java.compiler;
}
