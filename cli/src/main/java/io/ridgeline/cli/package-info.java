/** The {@code ridgeline} command line (picocli): chips, models, roofline and frontier. */
package io.ridgeline.cli;
