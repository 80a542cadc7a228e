package io.ridgeline.cli;

import java.net.InetSocketAddress;

/**
 * The HTTP server {@code ridgeline serve} starts, found with {@link java.util.ServiceLoader}: the
 * {@code ridgeline-web} module provides it ({@code META-INF/services/io.ridgeline.cli.WebServer}),
 * so the command line and the library need no web code. Without that module on the class path
 * {@code serve} prints one line and exits 1.
 *
 * <p>An implementation answers each request by running a command of {@link RidgelineCli} in the
 * process ({@link RidgelineCli#execute(String[], java.io.PrintWriter, java.io.PrintWriter,
 * InlineInputs)}), so the API returns exactly what {@code --json} prints.
 */
public interface WebServer {
  /**
   * Starts serving on {@code host} and {@code port} (0: a free port) and returns at once, the
   * server running on its own threads until {@link #stop()}.
   *
   * @return the address the server listens on, its port the one chosen when {@code port} is 0
   * @throws java.io.UncheckedIOException when the address cannot be bound (in use, unknown host)
   * @throws IllegalStateException when this server was already started
   */
  InetSocketAddress start(String host, int port);

  /**
   * Stops the server: no new connection is accepted, requests in flight get up to a second to
   * finish. Does nothing when it is not running.
   */
  void stop();
}
