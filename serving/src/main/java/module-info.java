/**
 * Serving a model on chips: roofline models of pools, deployments, Pareto frontiers, the planner
 * and sweeps. {@code requires io.ridgeline.serving;} alone gives a consumer the chip and model
 * catalogs and the core types too.
 */
// the Immutables annotations jar names only an automatic module (org.immutables.value.annotations)
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.ridgeline.serving {
  exports io.ridgeline.serving;
  exports io.ridgeline.serving.efficiency;
  exports io.ridgeline.serving.plan;
  exports io.ridgeline.serving.queueing;
  exports io.ridgeline.serving.sweep;

  requires transitive io.ridgeline.core;
  requires transitive io.ridgeline.hardware;
  requires transitive io.ridgeline.models;
  // Deployment.pools(), MemoryUse's tiers and Sweep.Grid return Guava immutable collections
  requires transitive com.google.common;
  requires com.fasterxml.jackson.databind;
  requires static transitive com.google.errorprone.annotations;
  requires static transitive org.immutables.value.annotations;
  // the generated classes carry @javax.annotation.processing.Generated (source retention)
  requires static java.compiler;
}
