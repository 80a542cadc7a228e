/** A library user on the module path: the one Ridgeline module it names is serving. */
module io.ridgeline.consumer {
  requires io.ridgeline.serving;
}
