package io.ridgeline.cli;

import java.net.InetSocketAddress;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ridgeline serve}: the HTTP API and the web page of the {@code ridgeline-web} module
 * ({@link WebServer}, found with {@link ServiceLoader}), serving until the process is stopped
 * (Ctrl-C: a shutdown hook stops the server). Without that module on the class path it prints one
 * line and exits 1.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the HTTP API and the web page (docs/web.md) until stopped with Ctrl-C.",
      "The API runs this command line's commands and answers with their --json output:",
      "GET /api/chips, /api/models; POST or GET /api/frontier, roofline, plan, crossover and",
      "intensity with the options' long names as keys; the OpenAPI document at /api/openapi.json."
    })
final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--port",
      defaultValue = "8080",
      description = "TCP port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--host",
      defaultValue = "127.0.0.1",
      description =
          "Address to listen on (default: ${DEFAULT-VALUE}, this machine only; 0.0.0.0 for every"
              + " interface).")
  String host;

  @Override
  public Integer call() throws InterruptedException {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("--port must be between 0 and 65535: " + port);
    }
    WebServer server;
    try {
      server =
          ServiceLoader.load(WebServer.class)
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "serve needs the ridgeline-web module on the class path (the jar"
                              + " web/target/ridgeline-web-*-all.jar or the release archive's)"));
    } catch (ServiceConfigurationError | LinkageError e) {
      // the server is there but the runtime lacks the JDK's HTTP server (a jlink image)
      throw new IllegalArgumentException(
          "serve needs the Java module jdk.httpserver, which this Java runtime lacks", e);
    }
    InetSocketAddress bound;
    try {
      bound = server.start(host, port);
    } catch (java.io.UncheckedIOException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.stop();
                  stopped.countDown();
                },
                "ridgeline-serve-shutdown"));
    String shown = host.contains(":") ? "[" + host + "]" : host;
    spec.commandLine()
        .getOut()
        .println("Ridgeline serving on http://" + shown + ":" + bound.getPort() + "/");
    spec.commandLine().getOut().flush();
    // the server runs on its own threads; this one waits for the shutdown hook
    stopped.await();
    return 0;
  }
}
