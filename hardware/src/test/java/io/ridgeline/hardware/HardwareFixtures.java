package io.ridgeline.hardware;

import io.ridgeline.core.Bytes;
import io.ridgeline.core.BytesPerSecond;
import io.ridgeline.core.FlopsPerSecond;
import io.ridgeline.core.Precision;
import io.ridgeline.core.Seconds;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Shared test inputs: a made-up chip with hand-computed numbers and the shipped reference table.
 */
final class HardwareFixtures {
  private HardwareFixtures() {}

  /**
   * A made-up NPU: 400 TFLOP/s bf16, 800 fp8, HBM 96 GB @ 2.4 TB/s. Ridge point bf16 = 400e12 /
   * 2.4e12 = 166.67 FLOP/B.
   */
  static final String NPU_JSON =
      """
      {
        "id": "my-npu", "name": "My NPU", "vendor": "Acme",
        "peak_tflops": {"bf16": 400, "fp8": 800},
        "memory": [ {"kind": "hbm", "name": "hbm", "capacity_gb": 96, "bandwidth_gbps": 2400, "latency_ns": 500} ],
        "scale_up": {"name": "AcmeLink", "bandwidth_gbps_per_direction": 200, "latency_us": 1.0, "domain_size": 8},
        "scale_out": {"name": "RoCE", "bandwidth_gbps_per_direction": 50, "latency_us": 5.0, "domain_size": 1024},
        "tdp_w": 600, "price_per_hour_usd": 2.5,
        "sources": {"peak_tflops": "Acme datasheet 2026"}, "notes": "made up"
      }
      """;

  /** The chip of {@link #NPU_JSON}, built in code. */
  static Chip npu() {
    return Chip.builder()
        .id("my-npu")
        .name("My NPU")
        .vendor("Acme")
        .putPeak(Precision.BF16, FlopsPerSecond.ofTera(400))
        .putPeak(Precision.FP8, FlopsPerSecond.ofTera(800))
        .addMemory(
            MemoryTier.builder()
                .kind(MemoryKind.HBM)
                .capacity(Bytes.ofGigabytes(96))
                .bandwidth(BytesPerSecond.ofGigabytes(2400))
                .latency(Seconds.of(500e-9))
                .build())
        .scaleUp(
            Interconnect.builder()
                .name("AcmeLink")
                .scope(Interconnect.Scope.SCALE_UP)
                .bandwidthPerDirection(BytesPerSecond.ofGigabytes(200))
                .latency(Seconds.ofMicros(1))
                .domainSize(8)
                .build())
        .build();
  }

  /** Writes {@code json} to {@code dir/fileName} and returns the path. */
  static Path write(Path dir, String fileName, String json) throws IOException {
    return Files.writeString(dir.resolve(fileName), json, StandardCharsets.UTF_8);
  }

  /** The rows of the reference table shipped in the jar, as column name to text. */
  static List<Map<String, String>> referenceRows() {
    try (InputStream in = Chips.class.getResourceAsStream("reference/chips.csv");
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      List<String> header = csvLine(reader.readLine());
      List<Map<String, String>> rows = new ArrayList<>();
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.isBlank()) {
          continue;
        }
        List<String> cells = csvLine(line);
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < header.size(); i++) {
          row.put(header.get(i), i < cells.size() ? cells.get(i) : "");
        }
        rows.add(row);
      }
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One RFC 4180 line (quoted cells may hold commas and doubled quotes; no newlines in cells). */
  private static List<String> csvLine(String line) {
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cell.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cell.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        cells.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    cells.add(cell.toString());
    return cells;
  }
}
