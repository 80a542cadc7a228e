package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.base.Splitter;
import io.ridgeline.core.Seconds;
import io.ridgeline.serving.ColocatedDeployment;
import io.ridgeline.serving.Deployment;
import io.ridgeline.serving.queueing.Burst;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * {@code --burst N} and the request lengths it draws ({@code --isl-range}, {@code --osl-range},
 * {@code --lengths}): N requests that arrive at once, simulated on each colocated deployment with
 * {@link ColocatedDeployment#burst} (TTFT median and p99 from the queue's drain, TPOT, throughput
 * over the makespan).
 */
final class BurstOptions {
  /** The running limit's text when only the KV cache limits it. */
  private static final String KV_ONLY = "KV cache";

  /** The most requests a closed loop sends: a step-by-step run of them takes about a minute. */
  private static final long MAX_SENT = 10_000_000;

  @Option(
      names = "--burst",
      paramLabel = "N",
      description =
          "N requests arrive at once (a benchmark with --request-rate inf, an offline batch):"
              + " simulates the engine draining them (continuous batching, admission by --max-batch"
              + " and the KV cache, 8,192 prompt tokens per step) and prints each deployment's"
              + " median and p99 TTFT, median TPOT and output tokens/s per chip over the"
              + " makespan. Colocated only.")
  Integer burst;

  @Option(
      names = "--clients",
      paramLabel = "N",
      description =
          "N closed-loop clients (a benchmark with --max-concurrency N): each sends its next"
              + " request when its previous one finishes, its offset carried from round to round;"
              + " simulated as --burst is and printed the same way. Colocated only.")
  Integer clients;

  @Option(
      names = "--rounds",
      paramLabel = "R",
      description = "With --clients: measured requests per client (default: 10).")
  Integer rounds;

  @Option(
      names = "--warmup",
      paramLabel = "W",
      description =
          "With --clients: requests per client sent first and left out of the figures (default:"
              + " 0).")
  Integer warmup;

  @Option(
      names = "--isl-range",
      paramLabel = "F",
      description =
          "With --burst or --clients: prompt lengths spread uniformly over --isl x [1 - F, 1 + F] (vllm bench"
              + " --random-range-ratio), F from 0 to 0.999 (default: 0, every prompt --isl).")
  Double islRange;

  @Option(
      names = "--osl-range",
      paramLabel = "F",
      description =
          "With --burst or --clients: output lengths spread uniformly over --osl x [1 - F, 1 + F], F from 0 to"
              + " 0.999 (default: 0).")
  Double oslRange;

  @Option(
      names = "--lengths",
      paramLabel = "FILE",
      description =
          "With --burst or --clients: the requests' lengths from a file, one"
              + " 'input_tokens,output_tokens' line per request (a header line and # comments are"
              + " skipped), taken in order and repeated as needed; instead of --isl/--osl and their"
              + " ranges.")
  Path lengths;

  /**
   * Whether a burst or closed-loop clients are asked for.
   *
   * @throws IllegalArgumentException when a length or round option is given without them, both are
   *     given, or --lengths with a range
   */
  boolean used() {
    if (burst != null && clients != null) {
      throw new IllegalArgumentException("--burst and --clients are exclusive");
    }
    if (clients == null && (rounds != null || warmup != null)) {
      throw new IllegalArgumentException(
          (rounds != null ? "--rounds" : "--warmup") + " needs --clients N");
    }
    if (burst == null && clients == null) {
      String without =
          islRange != null
              ? "--isl-range"
              : oslRange != null ? "--osl-range" : lengths != null ? "--lengths" : null;
      if (without != null) {
        throw new IllegalArgumentException(without + " needs --burst N or --clients N");
      }
      return false;
    }
    if (lengths != null && (islRange != null || oslRange != null)) {
      throw new IllegalArgumentException(
          "--lengths gives every request's lengths: drop "
              + (islRange != null ? "--isl-range" : "--osl-range"));
    }
    return true;
  }

  /** The option that asked for the run, for messages: --burst or --clients. */
  String option() {
    return burst != null ? "--burst" : "--clients";
  }

  /** Requests the run sends: N, or clients × (rounds + warm-up). */
  private int sent() {
    if (burst != null) {
      return burst;
    }
    long n = (long) clients * (roundsOrDefault() + warmupOrDefault());
    if (n > MAX_SENT) {
      throw new IllegalArgumentException(
          "--clients x (--rounds + --warmup) must be at most 10,000,000 requests: " + n);
    }
    return (int) n;
  }

  private int roundsOrDefault() {
    return rounds == null ? 10 : rounds;
  }

  private int warmupOrDefault() {
    return warmup == null ? 0 : warmup;
  }

  /**
   * The burst's requests: from --lengths, else {@code isl} and {@code osl} spread uniformly over
   * {@code [1 − F, 1 + F]} by the ranges ({@link Burst#uniformLengths}).
   *
   * @throws IllegalArgumentException when the file cannot be read or a line is not two positive
   *     whole numbers
   */
  List<Burst.Request> requests(int isl, int osl) {
    if (lengths != null) {
      List<Burst.Request> file = read(lengths);
      List<Burst.Request> list = new ArrayList<>();
      for (int i = 0; i < sent(); i++) {
        list.add(file.get(i % file.size()));
      }
      return list;
    }
    double fi = islRange == null ? 0 : islRange;
    double fo = oslRange == null ? 0 : oslRange;
    return Burst.uniformLengths(sent(), isl, 1 - fi, 1 + fi, osl, 1 - fo, 1 + fo);
  }

  /** The lines of a --lengths file. */
  static List<Burst.Request> read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("--lengths " + file + ": cannot read: " + e, e);
    }
    List<Burst.Request> list = new ArrayList<>();
    for (int n = 0; n < lines.size(); n++) {
      String line = lines.get(n).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      List<String> parts = Splitter.on(',').trimResults().splitToList(line);
      if (list.isEmpty() && !parts.isEmpty() && !parts.get(0).matches("[0-9]+")) {
        continue; // a header
      }
      try {
        if (parts.size() != 2) {
          throw new NumberFormatException();
        }
        list.add(new Burst.Request(Integer.parseInt(parts.get(0)), Integer.parseInt(parts.get(1))));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            String.format(
                Locale.ROOT,
                "--lengths %s: line %d: expected input_tokens,output_tokens as two positive whole"
                    + " numbers: '%s'",
                file,
                n + 1,
                line),
            e);
      }
    }
    if (list.isEmpty()) {
      throw new IllegalArgumentException("--lengths " + file + ": no request lengths in the file");
    }
    return list;
  }

  /** One deployment's burst: its label, the running limit and the result. */
  record Row(String label, int chips, String limit, Burst burst) {}

  /**
   * The burst on each deployment, at most {@code maxBatch} running per replica (null: the KV cache
   * alone limits it).
   *
   * @throws IllegalArgumentException when a deployment is not colocated
   */
  List<Row> run(
      List<Deployment> deployments, List<String> labels, Integer maxBatch, int isl, int osl) {
    List<Burst.Request> requests = requests(isl, osl);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < deployments.size(); i++) {
      if (!(deployments.get(i) instanceof ColocatedDeployment d)) {
        throw new IllegalArgumentException(
            option()
                + " simulates colocated serving only: drop --strategy "
                + deployments.get(i).strategy().id());
      }
      int limit = maxBatch == null ? Integer.MAX_VALUE : maxBatch;
      rows.add(
          new Row(
              labels.get(i),
              d.pool().chips(),
              maxBatch == null ? KV_ONLY : String.valueOf(maxBatch),
              burst != null
                  ? d.burst(requests, limit)
                  : d.closedLoop(clients, roundsOrDefault(), warmupOrDefault(), requests, limit)));
    }
    return rows;
  }

  /** The text table of {@code rows}. */
  void table(PrintWriter out, List<Row> rows) {
    out.println(description());
    int w = Math.max(10, rows.stream().mapToInt(r -> r.label().length()).max().orElse(0));
    String head = "%-" + w + "s %8s %8s %12s %12s %12s %11s %12s%n";
    out.printf(
        Locale.ROOT,
        head,
        burst != null ? "burst" : "clients",
        "running",
        "peak",
        "TTFT p50",
        "TTFT p99",
        "TPOT p50",
        "tok/s/chip",
        "makespan");
    for (Row r : rows) {
      Burst b = r.burst();
      out.printf(
          Locale.ROOT,
          "%-" + w + "s %8s %8d %12s %12s %12s %11.1f %12s%n",
          r.label(),
          r.limit(),
          b.peakRunning(),
          Seconds.of(b.medianTtftSeconds()),
          Seconds.of(b.p99TtftSeconds()),
          Seconds.of(b.medianTpotSeconds()),
          perChip(r),
          Seconds.of(b.makespanSeconds()));
    }
  }

  /**
   * Output tokens per second per chip: every replica's tokens over the busiest one's makespan, per
   * chip of the pool.
   */
  private static double perChip(Row r) {
    return r.burst().outputTokensPerSecond() / r.chips();
  }

  /** The burst's line above its table: N requests and their lengths. */
  String description() {
    String lengthsText =
        lengths != null
            ? "lengths from " + lengths
            : String.format(
                Locale.ROOT,
                "ISL range ±%s, OSL range ±%s",
                islRange == null ? "0" : islRange,
                oslRange == null ? "0" : oslRange);
    String running =
        "running: the most admitted per replica (--max-batch, else the KV cache); TTFT includes the"
            + " queue";
    return burst != null
        ? String.format(
            Locale.ROOT, "burst: %d requests at once (%s); %s", burst, lengthsText, running)
        : String.format(
            Locale.ROOT,
            "clients: %d closed-loop clients, %d measured requests each after %d warm-up (%s); %s",
            clients,
            roundsOrDefault(),
            warmupOrDefault(),
            lengthsText,
            running);
  }

  /** The rows as a JSON object under {@code parent.burst} (or {@code parent.closed_loop}). */
  void put(ObjectNode parent, List<Row> rows) {
    ObjectNode o = parent.putObject(burst != null ? "burst" : "closed_loop");
    if (burst != null) {
      o.put("requests", burst);
    } else {
      o.put("clients", clients);
      o.put("rounds", roundsOrDefault());
      o.put("warmup_rounds", warmupOrDefault());
    }
    if (lengths != null) {
      o.put("lengths_file", lengths.toString());
    } else {
      o.put("isl_range", islRange == null ? 0 : islRange);
      o.put("osl_range", oslRange == null ? 0 : oslRange);
    }
    var arr = o.putArray("deployments");
    for (Row r : rows) {
      Burst b = r.burst();
      ObjectNode n = arr.addObject();
      n.put("deployment", r.label());
      if (r.limit().equals(KV_ONLY)) {
        n.putNull("max_running"); // only the KV cache limits it
      } else {
        n.put("max_running", Integer.parseInt(r.limit()));
      }
      n.put("peak_running", b.peakRunning());
      n.put("ttft_median_seconds", b.medianTtftSeconds());
      n.put("ttft_p99_seconds", b.p99TtftSeconds());
      n.put("ttft_mean_seconds", b.meanTtftSeconds());
      n.put("tpot_median_seconds", b.medianTpotSeconds());
      n.put("tpot_mean_seconds", b.meanTpotSeconds());
      n.put("output_tokens", b.outputTokens());
      n.put("makespan_seconds", b.makespanSeconds());
      n.put("output_tokens_per_second", b.outputTokensPerSecond());
      n.put("output_tokens_per_second_per_chip", perChip(r));
      n.put("steps", b.steps());
    }
  }
}
