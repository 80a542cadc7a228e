package io.ridgeline.web;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A bounded load test on loopback: {@code ridgeline.load.clients} clients (default 16 in {@code mvn
 * verify}; benchmarks/RESULTS.md records 64), each sending the main job's {@code /api/frontier}
 * request and waiting for its answer, again and again for {@code ridgeline.load.seconds} (default
 * 2; the recorded run 20), after 50 sequential requests that warm the JIT up and are not counted.
 * Every request sent must be answered 200 with the frontier: none lost, none refused. Prints the
 * count and the p50/p99 latency; asserts nothing about speed.
 *
 * <pre>{@code
 * mvn -B -o test -pl web -am -Dtest=LoadTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dridgeline.load.clients=64 -Dridgeline.load.seconds=20
 * }</pre>
 */
final class LoadTest {
  @Test
  void concurrentClients_loseNoRequest() throws Exception {
    int clients = Integer.getInteger("ridgeline.load.clients", 16);
    long seconds = Long.getLong("ridgeline.load.seconds", 2);
    ApiServer server = new ApiServer();
    String url = "http://127.0.0.1:" + server.start("127.0.0.1", 0).getPort() + "/api/frontier";
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    String body = "{\"model\":\"llama-3.1-70b\",\"chip\":\"h100-sxm\",\"count\":8}";
    for (int i = 0; i < 50; i++) {
      HttpResponse<String> warm =
          client.send(
              HttpRequest.newBuilder(URI.create(url))
                  .timeout(Duration.ofSeconds(60))
                  .POST(HttpRequest.BodyPublishers.ofString(body, UTF_8))
                  .build(),
              HttpResponse.BodyHandlers.ofString(UTF_8));
      assertThat(warm.statusCode()).as(warm.body()).isEqualTo(200);
    }
    AtomicInteger sent = new AtomicInteger();
    AtomicInteger answered = new AtomicInteger();
    ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Long> latenciesNanos = new ConcurrentLinkedQueue<>();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    CountDownLatch done = new CountDownLatch(clients);
    try {
      for (int i = 0; i < clients; i++) {
        Thread t =
            new Thread(
                () -> {
                  try {
                    while (System.nanoTime() < end) {
                      sent.incrementAndGet();
                      long start = System.nanoTime();
                      try {
                        HttpResponse<String> r =
                            client.send(
                                HttpRequest.newBuilder(URI.create(url))
                                    .timeout(Duration.ofSeconds(60))
                                    .POST(HttpRequest.BodyPublishers.ofString(body, UTF_8))
                                    .build(),
                                HttpResponse.BodyHandlers.ofString(UTF_8));
                        latenciesNanos.add(System.nanoTime() - start);
                        if (r.statusCode() == 200 && r.body().contains("\"points\"")) {
                          answered.incrementAndGet();
                        } else {
                          failures.add(r.statusCode() + " " + r.body());
                        }
                      } catch (java.io.IOException e) {
                        failures.add(e.toString());
                      }
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  } finally {
                    done.countDown();
                  }
                },
                "load-client-" + i);
        t.setDaemon(true);
        t.start();
      }
      done.await();
    } finally {
      server.stop();
    }
    List<Long> sorted = new ArrayList<>(latenciesNanos);
    Collections.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "load: %d clients for %d s: %d requests sent, %d answered 200, %d failed;"
            + " %.1f requests/s; latency p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
        clients,
        seconds,
        sent.get(),
        answered.get(),
        failures.size(),
        answered.get() / (double) seconds,
        percentile(sorted, 0.50) / 1e6,
        percentile(sorted, 0.99) / 1e6,
        percentile(sorted, 1.0) / 1e6);
    assertThat(failures).as("failed requests").isEmpty();
    assertThat(answered.get()).isEqualTo(sent.get()).isPositive();
  }

  /** The {@code q} quantile of {@code sorted} (nearest rank), in its unit; 0 when it is empty. */
  private static double percentile(List<Long> sorted, double q) {
    if (sorted.isEmpty()) {
      return 0;
    }
    int rank = (int) Math.ceil(q * sorted.size());
    return sorted.get(Math.max(0, rank - 1)).doubleValue();
  }
}
