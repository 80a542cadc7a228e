package io.ridgeline.hardware;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The hardware entry point for JShell: the built-in chip catalog, its chips as constants, and chips
 * of your own from JSON.
 *
 * <pre>{@code
 * import static io.ridgeline.hardware.Chips.*;
 * H100_SXM.ridgePoint(Precision.BF16);        // 295.343 FLOP/B
 * byId("mi300x").mainMemory();                // hbm 192 GB @ 5.3 TB/s
 * ChipCatalog mine = builtIn().withFile(Path.of("my-npu.json"));
 * }</pre>
 *
 * <p>The built-in catalog holds one chip per row of the reference table shipped in this jar ({@code
 * io/ridgeline/hardware/reference/chips.csv} and {@code chips.md}, with their source keys): 39
 * chips. Each chip's {@link Chip#sources()}, and each tier's and link's {@code source()}, say where
 * a figure comes from and mark derived figures, third-party figures, estimates and assumptions.
 * Interconnect latencies are not in the table: scale-up fabrics assume 1 µs per hop and scale-out
 * networks 5 µs; scale-out domains assume 1,024 chips.
 */
public final class Chips {
  private Chips() {}

  /** Loads the built-in catalog once, on first use of {@link Chips}. */
  private static final class BuiltIn {
    static final ChipCatalog CATALOG = load();

    private static ChipCatalog load() {
      String name = "chips.json";
      try (InputStream in = Chips.class.getResourceAsStream(name)) {
        if (in == null) {
          throw new IllegalStateException("built-in chip catalog resource missing: " + name);
        }
        return ChipCatalog.copyOf(ChipJson.parse(in, "built-in " + name));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read built-in chip catalog " + name, e);
      }
    }
  }

  /** {@code "a100-sxm-80gb"}: NVIDIA A100 SXM4 80GB: 312 TFLOP/s bf16, HBM2e 80 GB @ 2.039 TB/s. */
  public static final Chip A100_SXM_80GB = builtIn().byId("a100-sxm-80gb");

  /** {@code "a100-sxm-40gb"}: NVIDIA A100 SXM4 40GB: 312 TFLOP/s bf16, HBM2 40 GB @ 1.555 TB/s. */
  public static final Chip A100_SXM_40GB = builtIn().byId("a100-sxm-40gb");

  /**
   * {@code "a100-pcie-80gb"}: NVIDIA A100 PCIe 80GB: 312 TFLOP/s bf16, HBM2e 80 GB @ 1.935 TB/s.
   */
  public static final Chip A100_PCIE_80GB = builtIn().byId("a100-pcie-80gb");

  /** {@code "h100-sxm"}: NVIDIA H100 SXM5 80GB: 989.4 TFLOP/s bf16, HBM3 80 GB @ 3.35 TB/s. */
  public static final Chip H100_SXM = builtIn().byId("h100-sxm");

  /** {@code "h100-pcie"}: NVIDIA H100 PCIe 80GB: 756.5 TFLOP/s bf16, HBM2e 80 GB @ 2 TB/s. */
  public static final Chip H100_PCIE = builtIn().byId("h100-pcie");

  /** {@code "h200-sxm"}: NVIDIA H200 SXM 141GB: 989.4 TFLOP/s bf16, HBM3e 141 GB @ 4.8 TB/s. */
  public static final Chip H200_SXM = builtIn().byId("h200-sxm");

  /**
   * {@code "gh200"}: NVIDIA GH200 Grace Hopper (per GPU): 989.4 TFLOP/s bf16, HBM3 96 GB @ 4 TB/s,
   * Grace LPDDR5X 480 GB @ 450 GB/s over NVLink-C2C.
   */
  public static final Chip GH200 = builtIn().byId("gh200");

  /**
   * {@code "h800"}: NVIDIA H800 SXM5 80GB: H100 compute and memory, NVLink capped at 200 GB/s per
   * direction.
   */
  public static final Chip H800 = builtIn().byId("h800");

  /** {@code "h20"}: NVIDIA H20 96GB: 148 TFLOP/s bf16, HBM3 96 GB @ 4 TB/s. */
  public static final Chip H20 = builtIn().byId("h20");

  /**
   * {@code "b200"}: NVIDIA B200 (HGX/DGX, per GPU): 2,250 TFLOP/s bf16, 9,000 fp4, HBM3e 180 GB @ 8
   * TB/s.
   */
  public static final Chip B200 = builtIn().byId("b200");

  /**
   * {@code "b300"}: NVIDIA B300 Blackwell Ultra (HGX, per GPU): 14,000 TFLOP/s fp4, HBM3e 288 GB @
   * 7.7 TB/s.
   */
  public static final Chip B300 = builtIn().byId("b300");

  /**
   * {@code "gb200"}: NVIDIA GB200 (per GPU, NVL72): 2,500 TFLOP/s bf16, HBM3e 186 GB @ 8 TB/s,
   * Grace LPDDR5X tier.
   */
  public static final Chip GB200 = builtIn().byId("gb200");

  /**
   * {@code "gb300"}: NVIDIA GB300 (per GPU, NVL72): 15,000 TFLOP/s fp4, HBM3e 288 GB @ 8 TB/s,
   * Grace LPDDR5X tier.
   */
  public static final Chip GB300 = builtIn().byId("gb300");

  /** {@code "l40s"}: NVIDIA L40S: 362 TFLOP/s bf16, GDDR6 48 GB @ 864 GB/s. */
  public static final Chip L40S = builtIn().byId("l40s");

  /** {@code "l4"}: NVIDIA L4: 121 TFLOP/s bf16, 242.5 fp8, GDDR6 24 GB @ 300 GB/s, 72 W. */
  public static final Chip L4 = builtIn().byId("l4");

  /**
   * {@code "rtx-4090"}: NVIDIA GeForce RTX 4090: 165.2 TFLOP/s bf16 (third-party), GDDR6X 24 GB @
   * 1.008 TB/s.
   */
  public static final Chip RTX_4090 = builtIn().byId("rtx-4090");

  /**
   * {@code "rtx-pro-6000-blackwell"}: NVIDIA RTX PRO 6000 Blackwell: 467.8 TFLOP/s bf16 (estimate),
   * GDDR7 96 GB @ 1.792 TB/s.
   */
  public static final Chip RTX_PRO_6000_BLACKWELL = builtIn().byId("rtx-pro-6000-blackwell");

  /** {@code "mi300x"}: AMD Instinct MI300X: 1,307.4 TFLOP/s bf16, HBM3 192 GB @ 5.3 TB/s. */
  public static final Chip MI300X = builtIn().byId("mi300x");

  /** {@code "mi325x"}: AMD Instinct MI325X: 1,307.4 TFLOP/s bf16, HBM3E 256 GB @ 6 TB/s. */
  public static final Chip MI325X = builtIn().byId("mi325x");

  /**
   * {@code "mi355x"}: AMD Instinct MI355X: 2,500 TFLOP/s bf16, 10,100 fp4, HBM3E 288 GB @ 8 TB/s.
   */
  public static final Chip MI355X = builtIn().byId("mi355x");

  /** {@code "tpu-v4"}: Google TPU v4: 275 TFLOP/s bf16, HBM2 34.4 GB @ 1.2 TB/s. */
  public static final Chip TPU_V4 = builtIn().byId("tpu-v4");

  /** {@code "tpu-v5e"}: Google TPU v5e: 197 TFLOP/s bf16 (no fp8), HBM2 16 GB @ 819 GB/s. */
  public static final Chip TPU_V5E = builtIn().byId("tpu-v5e");

  /** {@code "tpu-v5p"}: Google TPU v5p: 459 TFLOP/s bf16, HBM2e 102 GB @ 2.765 TB/s. */
  public static final Chip TPU_V5P = builtIn().byId("tpu-v5p");

  /** {@code "tpu-v6e"}: Google TPU v6e (Trillium): 918 TFLOP/s bf16, HBM 32 GB @ 1.638 TB/s. */
  public static final Chip TPU_V6E = builtIn().byId("tpu-v6e");

  /**
   * {@code "tpu-v7"}: Google TPU7x (Ironwood): 2,307 TFLOP/s bf16, 4,614 fp8, HBM 206 GB @ 7.37
   * TB/s.
   */
  public static final Chip TPU_V7 = builtIn().byId("tpu-v7");

  /** {@code "trainium2"}: AWS Trainium2: 667 TFLOP/s bf16, HBM 103.1 GB @ 2.9 TB/s. */
  public static final Chip TRAINIUM2 = builtIn().byId("trainium2");

  /**
   * {@code "trainium3"}: AWS Trainium3: 671 TFLOP/s bf16, 2,517 fp8/fp4, HBM 154.6 GB @ 4.9 TB/s.
   */
  public static final Chip TRAINIUM3 = builtIn().byId("trainium3");

  /** {@code "gaudi2"}: Intel Gaudi 2: 432 TFLOP/s bf16, 865 fp8, HBM2e 96 GB @ 2.46 TB/s. */
  public static final Chip GAUDI2 = builtIn().byId("gaudi2");

  /**
   * {@code "gaudi3"}: Intel Gaudi 3: 1,835 TFLOP/s bf16, HBM2e 128 GB @ 3.67 TB/s, SRAM 96 MB @
   * 12.8 TB/s.
   */
  public static final Chip GAUDI3 = builtIn().byId("gaudi3");

  /** {@code "groq-lpu"}: Groq LPU v1: 188 TFLOP/s fp16, SRAM only: 230 MB @ 80 TB/s. */
  public static final Chip GROQ_LPU = builtIn().byId("groq-lpu");

  /**
   * {@code "groq-3-lpu"}: NVIDIA Groq 3 LPU (announced): 1,230 TFLOP/s fp8 (press), SRAM only: 500
   * MB @ 150 TB/s.
   */
  public static final Chip GROQ_3_LPU = builtIn().byId("groq-3-lpu");

  /**
   * {@code "cerebras-wse3"}: Cerebras WSE-3: 62,500 TFLOP/s fp16 (estimate), SRAM 44 GB @ 21 PB/s.
   */
  public static final Chip CEREBRAS_WSE3 = builtIn().byId("cerebras-wse3");

  /**
   * {@code "sambanova-sn40l"}: SambaNova SN40L: 638 TFLOP/s bf16; tiers HBM 64 GB, SRAM 520 MB, DDR
   * 1.5 TB.
   */
  public static final Chip SAMBANOVA_SN40L = builtIn().byId("sambanova-sn40l");

  /**
   * {@code "d-matrix-corsair"}: d-Matrix Corsair (per card): 2,400 TFLOP/s 8-bit, SRAM 2 GB @ 150
   * TB/s.
   */
  public static final Chip D_MATRIX_CORSAIR = builtIn().byId("d-matrix-corsair");

  /**
   * {@code "tenstorrent-wormhole-n150"}: Tenstorrent Wormhole n150: 74 TFLOP/s fp16, GDDR6 12 GB @
   * 288 GB/s.
   */
  public static final Chip TENSTORRENT_WORMHOLE_N150 = builtIn().byId("tenstorrent-wormhole-n150");

  /**
   * {@code "tenstorrent-wormhole-n300"}: Tenstorrent Wormhole n300 (2 chips): 131 TFLOP/s fp16,
   * GDDR6 24 GB @ 576 GB/s.
   */
  public static final Chip TENSTORRENT_WORMHOLE_N300 = builtIn().byId("tenstorrent-wormhole-n300");

  /**
   * {@code "tenstorrent-blackhole-p150"}: Tenstorrent Blackhole p150: 194 TFLOP/s fp16, GDDR6 32
   * GB @ 512 GB/s.
   */
  public static final Chip TENSTORRENT_BLACKHOLE_P150 =
      builtIn().byId("tenstorrent-blackhole-p150");

  /**
   * {@code "apple-m3-ultra"}: Apple M3 Ultra: 28.63 TFLOP/s fp16 (estimate), unified 512 GB @ 819
   * GB/s.
   */
  public static final Chip APPLE_M3_ULTRA = builtIn().byId("apple-m3-ultra");

  /**
   * {@code "apple-m4-max"}: Apple M4 Max: 17.18 TFLOP/s fp16 (estimate), unified 128 GB @ 546 GB/s.
   */
  public static final Chip APPLE_M4_MAX = builtIn().byId("apple-m4-max");

  /**
   * The built-in catalog of 39 chips, loaded once from the jar. Extend it with {@link
   * ChipCatalog#with(Chip)}.
   */
  public static ChipCatalog builtIn() {
    return BuiltIn.CATALOG;
  }

  /**
   * The built-in chip with this id, ignoring case.
   *
   * @throws NoSuchElementException listing the known ids and the closest one when there is none
   */
  public static Chip byId(String id) {
    return builtIn().byId(id);
  }

  /** All built-in chips, in catalog order. */
  public static List<Chip> all() {
    return builtIn().all();
  }

  /** The ids of the built-in chips, in catalog order. */
  public static List<String> ids() {
    return builtIn().ids();
  }

  /**
   * The chips in a JSON file holding one chip object or an array of them, in file order.
   *
   * <p>Required keys: {@code id}, {@code name}, {@code peak_tflops} (precision id to dense TFLOP/s,
   * at least one) and {@code memory} (tiers with {@code kind}, {@code capacity_gb}, {@code
   * bandwidth_gbps}; main tier first). Optional: {@code vendor}, {@code scale_up} and {@code
   * scale_out} ({@code bandwidth_gbps_per_direction}, {@code domain_size}, {@code name}, {@code
   * latency_us}, {@code source}), {@code tdp_w}, {@code price_per_hour_usd}, {@code sources},
   * {@code notes}; a tier may also give {@code name}, {@code latency_ns} and {@code source}. Units
   * are decimal: GB = 1e9 B, GB/s = 1e9 B/s, TFLOP/s = 1e12 FLOP/s. Unknown keys are errors. The
   * jar carries an example, {@code io/ridgeline/hardware/example-chip.json}.
   *
   * <pre>{@code
   * {"id": "my-npu", "name": "My NPU", "peak_tflops": {"bf16": 400},
   *  "memory": [{"kind": "hbm", "capacity_gb": 96, "bandwidth_gbps": 2400}]}
   * }</pre>
   *
   * @throws IllegalArgumentException when the file is missing, is not valid JSON (the message gives
   *     line and column) or breaks the format (the message names the file, the field path such as
   *     {@code memory[0].bandwidth_gbps}, what was expected and the value found)
   * @throws UncheckedIOException when the file exists but cannot be read
   */
  public static List<Chip> fromJson(Path file) {
    return ChipJson.read(file);
  }

  /**
   * The chips of chip-file {@code json} (the format of {@link #fromJson(Path)}), {@code origin}
   * naming it in messages and standing for the file name as the default source of a tier or link.
   *
   * @throws IllegalArgumentException when the text is not valid JSON or breaks the format (the
   *     message starts with {@code origin} and names the field path)
   */
  public static List<Chip> fromJson(String json, String origin) {
    try {
      return ChipJson.parse(
          new java.io.ByteArrayInputStream(json.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
          origin);
    } catch (java.io.IOException e) {
      // a byte array does not fail to read
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * {@code chip} in the chip-file format {@link #fromJson(Path)} reads: one indented chip object
   * with a final newline, in the format's units (TFLOP/s, GB, GB/s, ns, µs, W, $/h), numbers to 12
   * significant digits. Reading it back gives the chip, its figures equal to that precision: a user
   * edits the text and feeds it back ({@code ridgeline chips --export h100-sxm > my.json}).
   */
  public static String toJson(Chip chip) {
    return ChipJsonWriter.write(chip);
  }

  /**
   * A catalog chip by id, else the first chip of the chip JSON file at {@code idOrPath} (as {@code
   * --chip} takes): a file, a pipe or a device, read as at most 16 MB.
   *
   * @throws IllegalArgumentException "PATH: no such file" when {@code idOrPath} looks like a path
   *     (ends in {@code .json} or holds a separator) and names nothing, "PATH: is a directory, not
   *     a chip file", the file's own errors ({@link #fromJson}), or an unknown id with the closest
   *     known ids
   */
  public static Chip resolve(String idOrPath) {
    java.util.Optional<Chip> builtIn = builtIn().find(idOrPath);
    if (builtIn.isPresent()) {
      return builtIn.get();
    }
    boolean pathLike =
        idOrPath.endsWith(".json")
            || idOrPath.contains("/")
            || idOrPath.contains(java.io.File.separator);
    Path p = Path.of(idOrPath);
    if (pathLike && java.nio.file.Files.isDirectory(p)) {
      throw new IllegalArgumentException(idOrPath + ": is a directory, not a chip file");
    }
    if (pathLike && java.nio.file.Files.exists(p)) {
      List<Chip> chips = fromJson(p);
      if (chips.isEmpty()) {
        throw new IllegalArgumentException(idOrPath + ": the chip file holds no chip");
      }
      return chips.get(0);
    }
    if (pathLike) {
      throw new IllegalArgumentException(idOrPath + ": no such file");
    }
    return byId(idOrPath);
  }
}
