#!/usr/bin/env python3
"""Converts the reference chip table into Ridgeline's built-in chip catalog.

Run from the repository root (it is not part of the build; its output is committed):

    python3 hardware/tools/csv_to_json.py \
        hardware/src/main/resources/io/ridgeline/hardware/reference/chips.csv \
        > hardware/src/main/resources/io/ridgeline/hardware/chips.json

Input: chips.csv (one row per chip; units: TFLOP/s dense, GB = 1e9 B, GB/s = 1e9 B/s,
scale-up bandwidth bidirectional unless the unidir column is given, scale-out in Gb/s per chip).
Output: a JSON array in the user chip format (see the README, "Your own chips"). Every value
carries its source: the row's source keys (defined in reference/chips.md), the row's
derived / estimated / conflict notes, and the assumptions and estimates made here, each marked.
"""

import csv
import json
import re
import sys

IDS = {
    "nvidia_a100_sxm4_80gb": "a100-sxm-80gb",
    "nvidia_a100_sxm4_40gb": "a100-sxm-40gb",
    "nvidia_a100_pcie_80gb": "a100-pcie-80gb",
    "nvidia_h100_sxm5": "h100-sxm",
    "nvidia_h100_pcie": "h100-pcie",
    "nvidia_h200_sxm": "h200-sxm",
    "nvidia_gh200": "gh200",
    "nvidia_h800_sxm5": "h800",
    "nvidia_h20": "h20",
    "nvidia_b200_hgx": "b200",
    "nvidia_b300_hgx": "b300",
    "nvidia_gb200_per_gpu": "gb200",
    "nvidia_gb300_per_gpu": "gb300",
    "nvidia_l40s": "l40s",
    "nvidia_l4": "l4",
    "nvidia_rtx_4090": "rtx-4090",
    "nvidia_rtx_pro_6000_bw": "rtx-pro-6000-blackwell",
    "amd_mi300x": "mi300x",
    "amd_mi325x": "mi325x",
    "amd_mi355x": "mi355x",
    "google_tpu_v4": "tpu-v4",
    "google_tpu_v5e": "tpu-v5e",
    "google_tpu_v5p": "tpu-v5p",
    "google_tpu_v6e": "tpu-v6e",
    "google_tpu7x_ironwood": "tpu-v7",
    "aws_trainium2": "trainium2",
    "aws_trainium3": "trainium3",
    "intel_gaudi2": "gaudi2",
    "intel_gaudi3": "gaudi3",
    "groq_lpu_v1": "groq-lpu",
    "nvidia_groq3_lpu": "groq-3-lpu",
    "cerebras_wse3": "cerebras-wse3",
    "sambanova_sn40l": "sambanova-sn40l",
    "dmatrix_corsair_card": "d-matrix-corsair",
    "tenstorrent_wormhole_n150": "tenstorrent-wormhole-n150",
    "tenstorrent_wormhole_n300": "tenstorrent-wormhole-n300",
    "tenstorrent_blackhole_p150": "tenstorrent-blackhole-p150",
    "apple_m3_ultra": "apple-m3-ultra",
    "apple_m4_max": "apple-m4-max",
}

# CSV column -> Ridgeline precision id (dense TFLOP/s or TOPS).
PEAK_COLUMNS = [
    ("fp32_vector_tflops", "fp32"),
    ("tf32_tflops", "tf32"),
    ("bf16_tflops", "bf16"),
    ("fp16_tflops", "fp16"),
    ("fp8_tflops", "fp8"),
    ("fp4_tflops", "fp4"),
    ("int8_tops", "int8"),
    ("int4_tops", "int4"),
]

SCALE_UP_LATENCY_US = 1.0
SCALE_UP_LATENCY_SOURCE = (
    "assumption: typical NVLink/xGMI/ICI hop latency, 1 µs per hop; not in the reference table"
)
SCALE_OUT_LATENCY_US = 5.0
SCALE_OUT_LATENCY_SOURCE = (
    "assumption: typical InfiniBand/RoCE/Ethernet network hop latency, 5 µs; not in the reference table"
)
SCALE_OUT_DOMAIN = 1024
SCALE_OUT_DOMAIN_SOURCE = (
    "assumption: a scale-out network is not bounded by the chip; 1,024 chips assumed"
)

# Scale-out NIC names (the CSV gives only Gb/s per chip; names from the per-chip notes in chips.md).
SCALE_OUT_NAMES = {
    "a100-sxm-80gb": "ConnectX-6 200G (1 NIC per GPU, aiconfigurator assumption)",
    "a100-sxm-40gb": "ConnectX-6 200G HDR (DGX A100: 8 NICs per 8-GPU node)",
    "gh200": "ConnectX-7 400G (1 per superchip, DGX GH200)",
    "h100-sxm": "ConnectX-7 400G",
    "h200-sxm": "ConnectX-7 400G",
    "h800": "ConnectX-7 400G InfiniBand",
    "b200": "ConnectX-7 400G",
    "b300": "ConnectX-8 800G",
    "gb300": "ConnectX-8 800G",
    "mi355x": "Pollara 400G",
    "tpu-v5e": "DCN (2x100 Gb/s NIC per 8-chip host)",
    "tpu-v5p": "DCN",
    "trainium3": "EFA",
    "gaudi2": "3x 100GbE RoCE (on-die)",
    "gaudi3": "3x 200GbE RoCE (on-die)",
}

# Peaks for chips whose row publishes none: every chip needs one for the roofline.
PEAK_ESTIMATES = {
    "cerebras-wse3": (
        {"fp16": 62500},
        "estimate: Cerebras quotes 125 PFLOPS 'peak AI' per wafer, described as sparse FP16 "
        "(yobitel) or as FP8 (awesomeagents) [S-CBRS-TWEAK, S-CBRS-CC, S-AWESOME-CBRS]; "
        "both readings give about 62,500 TFLOP/s dense FP16 (sparse/2, or FP8 at 2x the FP16 rate). "
        "Not a vendor dense figure.",
    ),
    "apple-m3-ultra": (
        {"fp32": 28.63, "fp16": 28.63},
        "estimate, not an Apple figure: 80 GPU cores x 128 FP32 lanes x 2 FLOP x 1.398 GHz = "
        "28.63 TFLOP/s (third-party hmc-tech.com lists the 40-core M3 Max at 5,120 shaders, "
        "1,398 MHz, 14.32 TFLOPS FP32 and the same FP16; M3 Ultra = 2 M3 Max dies). No tensor cores: "
        "FP16 runs at the FP32 rate.",
    ),
    "apple-m4-max": (
        {"fp32": 17.18, "fp16": 17.18},
        "estimate, not an Apple figure: 40 GPU cores x 128 FP32 lanes x 2 FLOP x 1.678 GHz = "
        "17.18 TFLOP/s (third-party hmc-tech.com lists the 32-core M4 Max at 4,096 shaders, "
        "1,678 MHz, 13.74 TFLOPS FP32 and the same FP16; 40-core part per notebookcheck.net). "
        "No tensor cores: FP16 runs at the FP32 rate.",
    ),
}

# Tiers the table names without a bandwidth, estimated here so the chip keeps its documented tiers.
SRAM_ESTIMATES = {
    "sambanova-sn40l": (
        62500,
        "estimate (lower bound): Hot Chips 2024 gives the 16-socket rack's 8 GB of SRAM 'PBs per "
        "sec' [S-SN40L-HC]; 1 PB/s / 16 sockets = 62,500 GB/s per socket. Capacity 520 MB per "
        "socket [S-SN40L-HC].",
    ),
}

# Third tiers that need arithmetic beyond the CSV columns.
TIER3_OVERRIDES = {
    "gb200": (
        467.5,
        225,
        "derived: capacity = 1.87 TB LPDDR5X per 4-GPU tray / 4 (Crusoe MLPerf system description, "
        "one example configuration) [S-CRUSOE-MLPERF]; bandwidth = NVLink-C2C 900 GB/s bidirectional "
        "per Grace superchip [S-DEPLOYBASE] / 2 directions / 2 GPUs sharing it = 225 GB/s",
    ),
}

# Maximum achievable matmul FLOP/s (MAMF) over the dense BF16 peak, from the MAMF comparison table
# of Stas Bekman's "Machine Learning Engineering" (github.com/stas00/ml-engineering,
# compute/accelerator/README.md, commit 744d01e, August 2026): a brute-force search of torch.matmul
# shapes, mean of 100 iterations after 50 warm-up ones; the table's "Efficiency" column (MAMF /
# its theoretical peak), which is the figure that transfers when the table's theoretical peak and
# this catalog's differ (MI355X 2,300 vs 2,500, Gaudi 3 1,677 vs 1,835 TFLOP/s). Chips of the same
# silicon share a row: H200 and H800 the H100 SXM's ("H200 is the same"), the A100 40 GB the A100
# SXM's. (fraction, text of the source).
MAMF_SOURCE = (
    "MAMF / peak from the BF16 MAMF comparison table of S. Bekman, Machine Learning Engineering "
    "(github.com/stas00/ml-engineering, compute/accelerator/README.md, commit 744d01e, 2026-08-22): "
)
MATMUL_FRACTIONS = {
    "a100-sxm-80gb": (0.869, "A100 SXM 271.2 of 312 TFLOP/s, torch 2.6.0+cu126"),
    "a100-sxm-40gb": (0.869, "A100 SXM 271.2 of 312 TFLOP/s, torch 2.6.0+cu126 (the 80 GB part's row)"),
    "a100-pcie-80gb": (0.811, "A100 PCIe 252.9 of 312 TFLOP/s, torch 2.5.1+cu124"),
    "h100-sxm": (0.803, "H100 SXM 794.5 of 989 TFLOP/s, torch 2.7.0+cu126"),
    "h200-sxm": (0.803, "H100 SXM 794.5 of 989 TFLOP/s, torch 2.7.0+cu126 ('H200 is the same')"),
    "h800": (0.803, "H100 SXM 794.5 of 989 TFLOP/s (same silicon)"),
    "gh200": (0.838, "GH200 SXM 828.6 of 989 TFLOP/s, 900 W 141 GiB version, torch 2.6.0+cu126"),
    "b200": (0.776, "B200 SXM 1,745.0 of 2,250 TFLOP/s, torch 2.7.1+cu128"),
    "b300": (0.786, "B300 SXM 1,769.0 of 2,250 TFLOP/s, torch 2.9.1+cu130"),
    "gb200": (0.729, "GB200 SXM 1,822.0 of 2,500 TFLOP/s, torch 2.10.0.dev20250916+cu130"),
    "mi300x": (0.514, "MI300X 668.4 of 1,300 TFLOP/s, torch 2.5.1+ROCm 6.3, PYTORCH_TUNABLEOP_ENABLED=1"),
    "mi325x": (0.604, "MI325X 784.9 of 1,300 TFLOP/s, torch 2.6.0+ROCm 6.2.4, TunableOp, 1000 W"),
    "mi355x": (0.680, "MI355X 1,565.0 of 2,300 TFLOP/s, torch 2.8.0+ROCm 7.0.2"),
    "gaudi2": (0.969, "Gaudi 2 418.7 of 432 TFLOP/s, torch 2.6.0+hpu 1.21.2, lazy mode"),
    "gaudi3": (0.741, "Gaudi 3 1,243.0 of 1,677 TFLOP/s, torch 2.6.0+hpu 1.21.4, lazy mode"),
}

# The same table's FP8 (float8_e4m3fn) rows: MAMF over the dense FP8 peak, each FP8 matmul's share
# of its own doubled peak (lower than BF16's on every chip measured); FP4, which the table does not
# measure, takes FP4_MATMUL_FRACTIONS below where measured, else the FP8 figure at run time
# (Chip.matmulFraction(Precision)). H800 shares the H100 SXM's row. (fraction, text of the source).
MAMF_FP8_SOURCE = (
    "MAMF / peak from the FP8 (float8_e4m3fn) MAMF comparison table of S. Bekman, Machine Learning "
    "Engineering (github.com/stas00/ml-engineering, compute/accelerator/README.md, commit 744d01e, "
    "2026-08-22): "
)
FP8_MATMUL_FRACTIONS = {
    "h100-sxm": (0.709, "H100 SXM 1,402.6 of 1,979 TFLOP/s, torch 2.7.0+cu126"),
    "h200-sxm": (0.734, "H200 SXM 1,453.4 of 1,979 TFLOP/s, torch 2.7.1+cu128"),
    "h800": (0.709, "H100 SXM 1,402.6 of 1,979 TFLOP/s (same silicon)"),
    "gh200": (0.776, "GH200 SXM 1,535.0 of 1,979 TFLOP/s, 900 W 141 GiB version, torch 2.6.0+cu126"),
    "b200": (0.763, "B200 SXM 3,432.5 of 4,500 TFLOP/s, torch 2.7.1+cu128"),
    "b300": (0.745, "B300 SXM 3,353.3 of 4,500 TFLOP/s, torch 2.9.1+cu130"),
    "gb200": (0.723, "GB200 SXM 3,615.6 of 5,000 TFLOP/s, torch 2.10.0.dev20250916+cu130"),
    "gaudi2": (0.955, "Gaudi 2 826.5 of 865 TFLOP/s, torch 2.6.0+hpu 1.21.2, lazy mode"),
    "gaudi3": (0.769, "Gaudi 3 1,289.5 of 1,677 TFLOP/s, torch 2.6.0+hpu 1.21.4, lazy mode"),
}

# FP4 (NVFP4, W4A4) over the dense FP4 peak: no MAMF table measures FP4, so the FP8 figure above is
# scaled by the ratio of FP4's to FP8's share of its own peak on the same GEMM and chip in vLLM's
# CUTLASS kernel benchmarks on a B200 (M = 16,384, N = 6,144, K = 4,096, Llama-3.1-8B's QKV shape,
# inputs already quantized): NVFP4 3,904.3 of 9,000 TFLOP/s = 0.4338 (vllm-project/vllm PR 20646,
# benchmarks/kernels/bench_nvfp4_gemm.py, July 2025, "nvfp4-noquant") against FP8 2,544.7 of 4,500
# = 0.5655 (PR 19566, bench_fp8_gemm.py, June 2025, "fp8-tensor-w-tensor-a-noquant"): a ratio of
# 0.767. FlashInfer's mm_fp4 reaches 3,370 TFLOP/s (0.374 of the peak) at M = 1,024, N = 7,168,
# K = 4,608 on a B200 (flashinfer-ai/flashinfer PR 1979), of the same order. GB200 is the same
# Blackwell die; B300 (Blackwell Ultra, 1.5x the FP4 units) and the other FP4 chips are unmeasured
# and keep the FP8 figure. (fraction, text of the source).
FP4_OVER_FP8_SHARE = 0.767
FP4_SOURCE = (
    f"; fp4: the FP8 figure x {FP4_OVER_FP8_SHARE}, the ratio of NVFP4's to FP8's share of its own peak on the same "
    "GEMM (M=16384, N=6144, K=4096, inputs pre-quantized) in vLLM's CUTLASS kernel benchmarks on a "
    "B200: NVFP4 3,904.3 of 9,000 TFLOP/s (vllm-project/vllm PR 20646, bench_nvfp4_gemm.py, July "
    "2025) against FP8 2,544.7 of 4,500 TFLOP/s (PR 19566, bench_fp8_gemm.py, June 2025); "
)
def _fp4_fraction(cid, note):
    """The FP4 share of chip cid (its FP8 figure x FP4_OVER_FP8_SHARE) and the text of its source."""
    fp8 = FP8_MATMUL_FRACTIONS[cid][0]
    fp4 = round(fp8 * FP4_OVER_FP8_SHARE, 3)
    return fp4, f"{fp8} x {FP4_OVER_FP8_SHARE} = {fp4}{note}"


FP4_MATMUL_FRACTIONS = {
    "b200": _fp4_fraction("b200", ""),
    "gb200": _fp4_fraction("gb200", " (the same Blackwell die as the B200 measured)"),
}

# Latency of the main SRAM tier of SRAM-only chips (estimates; the table gives none): (ns, text
# appended to the tier's source, the chip's estimated_or_thirdparty_fields entry in full).
SRAM_LATENCY_ESTIMATES = {
    "groq-lpu": (
        900,
        "; latency_ns estimate, not a published figure: latency of one dependent operation (operands streamed from SRAM through the functional units and back), from S-GROQ-ISCA20's batch-1 ResNet-50 rate of 20.4K images/s, at least 49 us per image over its ~54 dependent weight layers (53 conv + 1 FC) = ~0.9 us, ~800 cycles at the nominal 900 MHz",
        "tdp_w ~300 W per 2020 press (TechSpot), not a datasheet; memory[0].latency_ns 900 ns is an estimate (see the tier's source); scale_up.latency_us 1 us is the default assumption",
    ),
    "cerebras-wse3": (
        1270,
        "; latency_ns derived from a measurement on the previous wafer, not a WSE-3 figure: latency of one dependent operation from WaferLLM's batch-1 decode of Llama-3-8B in 16 bits on a Cerebras WSE-2, 2,700 tokens/s per request (He et al., 'WaferLLM: A Wafer-Scale LLM Inference System', arXiv 2502.04563v2, OSDI 2025), 370.4 us per token, less the 0.76 us of streaming its 16 GB at 21 PB/s, over the 291 dependent operations Ridgeline counts for that model (32 layers x 9 + 3) = 1.27 us; the WSE-3's fabric is no smaller (762 x 1,172 cores in the Cerebras SDK target of WaferLLM's WSE-3 port, MeshInfra/WaferLLM), so a crossing takes no fewer hops. The same paper's Qwen2-72B, 840 tokens/s, gives 1.65 us over 723 operations: the latency grows with the operation's size, which this one figure does not follow",
        "memory[0].latency_ns 1270 ns is derived from a WSE-2 measurement (see the tier's source); tdp_w = CS-3 system (~23 kW, third-party); peak compute left blank (vendor '125 PF peak AI' has unspecified precision/sparsity)",
    ),
}


def number(text):
    value = float(text)
    return int(value) if value.is_integer() else value


def present(row, column):
    return row[column].strip() not in ("", "n/p")


def keys(row):
    return "; ".join(k.strip() for k in row["sources"].split(";") if k.strip())


FIELD_PATTERNS = {
    "peak": r"dense|sparse|fp(32|16|8|4)|bf16|int[48]|tf32|compute|per-GPU|8-bit|4-bit|MX",
    "memory": r"\bmem\b|HBM|BW|capacity|GiB|DDR|SRAM|SBUF|onchip|VRAM|per-GPU",
    "tier3": r"tier3|Grace|DDR",
    "scale_up": r"NeuronLink|NVLink|scale-up|xGMI|ICI|direction|unidir|scaleup",
    "scale_out": r"EFA|scaleout|scale-out|NIC|Gbps",
}


def clauses(row, field):
    """The derived / estimated / conflict clauses of a row that concern one field."""
    out = []
    for column, label in (
        ("derived_fields", "derived"),
        ("estimated_or_thirdparty_fields", "third-party/estimated"),
        ("conflicts", "conflict"),
    ):
        for clause in row[column].split(";"):
            clause = clause.strip()
            if not clause or re.match(r"(?i)fp64", clause):
                continue
            if field == "memory" and re.search(
                FIELD_PATTERNS["scale_up"] + "|tier3", clause, re.IGNORECASE
            ):
                continue
            if re.search(FIELD_PATTERNS[field], clause, re.IGNORECASE):
                out.append(label + ": " + clause)
    return "".join("; " + c for c in out)


def clean_name(name):
    name = re.sub(r"\s*\(optional\)", "", name)
    name = re.sub(r", optional\)", ")", name)
    return name.strip()


def main_kind(mem_type):
    t = mem_type.lower()
    if t.startswith("hbm"):
        return "hbm"
    if t.startswith("gddr"):
        return "gddr"
    if t.startswith("lpddr"):
        return "lpddr"
    if t.startswith("unified"):
        return "unified"
    if t.startswith("none"):
        return None
    raise ValueError("unknown mem_type " + mem_type)


def convert(row):
    cid = IDS[row["chip_id"]]
    ref = keys(row)
    omitted = []
    chip = {"id": cid, "name": clean_name(row["chip_name"]), "vendor": row["vendor"]}
    sources = {"reference_row": "reference/chips.csv chip_id=" + row["chip_id"]}

    peaks = {}
    for column, precision in PEAK_COLUMNS:
        if present(row, column):
            peaks[precision] = number(row[column])
    if cid in PEAK_ESTIMATES:
        assert not peaks, cid
        peaks, text = PEAK_ESTIMATES[cid]
        sources["peak_tflops"] = text
    else:
        sources["peak_tflops"] = ref + " (dense; int8/int4 in TOPS" + clauses(row, "peak") + ")"
    assert peaks, cid
    chip["peak_tflops"] = peaks

    memory = []
    kind = main_kind(row["mem_type"])
    if kind is not None:
        if present(row, "mem_bw_gbps") and float(row["mem_capacity_gb"]) > 0:
            memory.append(
                {
                    "kind": kind,
                    "name": kind,
                    "capacity_gb": number(row["mem_capacity_gb"]),
                    "bandwidth_gbps": number(row["mem_bw_gbps"]),
                    "source": ref
                    + " (mem_type "
                    + row["mem_type"]
                    + "; capacity as labelled by the vendor"
                    + ("; largest configuration" if row["vendor"] == "Apple" else "")
                    + clauses(row, "memory")
                    + ")",
                }
            )
        else:
            omitted.append(
                row["mem_type"] + " " + row["mem_capacity_gb"] + " GB tier omitted: bandwidth not published"
            )
    if present(row, "onchip_sram_mb") and present(row, "onchip_sram_bw_gbps"):
        tier = {
            "kind": "sram",
            "name": "sram",
            "capacity_gb": number(float(row["onchip_sram_mb"]) / 1000),
            "bandwidth_gbps": number(row["onchip_sram_bw_gbps"]),
            "source": ref + " (onchip_sram_mb, onchip_sram_bw_gbps)",
        }
        if cid in SRAM_LATENCY_ESTIMATES:
            ns, text, _ = SRAM_LATENCY_ESTIMATES[cid]
            tier = dict(list(tier.items())[:4] + [("latency_ns", ns), ("source", tier["source"] + text)])
        memory.append(tier)
    elif cid in SRAM_ESTIMATES:
        bw, text = SRAM_ESTIMATES[cid]
        memory.append(
            {
                "kind": "sram",
                "name": "sram",
                "capacity_gb": number(float(row["onchip_sram_mb"]) / 1000),
                "bandwidth_gbps": bw,
                "source": text,
            }
        )
    elif present(row, "onchip_sram_mb"):
        omitted.append(
            "on-chip SRAM " + row["onchip_sram_mb"] + " MB omitted as a tier: bandwidth not published"
        )
    if row["tier3_type"]:
        t3kind = "lpddr" if "LPDDR" in row["tier3_type"] else "ddr" if "DDR" in row["tier3_type"] else None
        if cid in TIER3_OVERRIDES:
            cap, bw, text = TIER3_OVERRIDES[cid]
            memory.append(
                {"kind": t3kind, "name": t3kind, "capacity_gb": cap, "bandwidth_gbps": bw, "source": text}
            )
        elif t3kind and present(row, "tier3_capacity_gb") and present(row, "tier3_bw_gbps"):
            text = ref + " (tier3: " + row["tier3_type"] + clauses(row, "tier3")
            memory.append(
                {
                    "kind": t3kind,
                    "name": t3kind,
                    "capacity_gb": number(row["tier3_capacity_gb"]),
                    "bandwidth_gbps": number(row["tier3_bw_gbps"]),
                    "source": text + ")",
                }
            )
        else:
            omitted.append(row["tier3_type"] + " omitted as a tier: bandwidth not published")
    assert memory, cid
    chip["memory"] = memory

    if present(row, "scaleup_bw_unidir_gbps") or present(row, "scaleup_bw_bidir_gbps"):
        if present(row, "scaleup_bw_unidir_gbps"):
            bw = number(row["scaleup_bw_unidir_gbps"])
            how = "scaleup_bw_unidir_gbps"
        else:
            bw = number(float(row["scaleup_bw_bidir_gbps"]) / 2)
            how = "scaleup_bw_bidir_gbps " + row["scaleup_bw_bidir_gbps"] + " / 2"
        assert present(row, "scaleup_domain"), cid
        chip["scale_up"] = {
            "name": row["scaleup_fabric"],
            "bandwidth_gbps_per_direction": bw,
            "latency_us": SCALE_UP_LATENCY_US,
            "domain_size": int(number(row["scaleup_domain"])),
            "source": ref
            + " (per direction = "
            + how
            + ("; topology: " + row["scaleup_topology"] if row["scaleup_topology"] else "")
            + clauses(row, "scale_up")
            + "); latency "
            + SCALE_UP_LATENCY_SOURCE,
        }
    elif row["scaleup_fabric"]:
        omitted.append("scale-up fabric '" + row["scaleup_fabric"] + "' omitted: bandwidth not published")
    if present(row, "scaleout_gbit_per_chip"):
        gbit = float(row["scaleout_gbit_per_chip"])
        chip["scale_out"] = {
            "name": SCALE_OUT_NAMES[cid],
            "bandwidth_gbps_per_direction": number(gbit / 8),
            "latency_us": SCALE_OUT_LATENCY_US,
            "domain_size": SCALE_OUT_DOMAIN,
            "source": ref
            + " (scaleout_gbit_per_chip "
            + row["scaleout_gbit_per_chip"]
            + " Gb/s / 8 = GB/s per direction"
            + clauses(row, "scale_out")
            + "); latency "
            + SCALE_OUT_LATENCY_SOURCE
            + "; domain size "
            + SCALE_OUT_DOMAIN_SOURCE,
        }

    if present(row, "tdp_w"):
        tdp = row["tdp_w"]
        m = re.match(r"\s*([\d.]+)", tdp)
        chip["tdp_w"] = number(m.group(1))
        text = ref + " (tdp_w"
        if not re.fullmatch(r"[\d.]+", tdp.strip()):
            text += "; first number of '" + tdp + "'"
        note = [
            s.strip()
            for s in (row["estimated_or_thirdparty_fields"] + ";" + row["conflicts"]).split(";")
            if re.search(r"tdp|TDP|\bW\b", s)
        ]
        if note:
            text += "; " + "; ".join(note)
        sources["tdp_w"] = text + ")"

    price_text = row["price_note"]
    # A per-hour price is the first "$X/GPU-hr" (or chip-hr, card-hr) of the note; the note names its
    # source key in brackets, or is one of the table's AWS Capacity Block figures [S-AWS-CB].
    m = re.search(r"\$([\d.,]+)/(?:GPU|chip|card)-hr", price_text)
    own_key = re.search(r"\[S-[A-Z0-9-]+\]", price_text)
    if m:
        chip["price_per_hour_usd"] = number(m.group(1).replace(",", ""))
        text = price_text if own_key else price_text + " [S-AWS-CB]"
        if cid == "a100-sxm-80gb":
            text += "; proxy: p4d carries the 40 GB A100, not this 80 GB part"
        sources["price_per_hour_usd"] = text

    if cid in MATMUL_FRACTIONS:
        fraction, text = MATMUL_FRACTIONS[cid]
        chip["achievable_matmul_fraction"] = fraction
        sources["achievable_matmul_fraction"] = MAMF_SOURCE + text
    if cid in FP8_MATMUL_FRACTIONS:
        fraction, text = FP8_MATMUL_FRACTIONS[cid]
        chip["narrow_matmul_fractions"] = {"fp8": fraction}
        sources["narrow_matmul_fractions"] = MAMF_FP8_SOURCE + text
    if cid in FP4_MATMUL_FRACTIONS:
        fraction, text = FP4_MATMUL_FRACTIONS[cid]
        chip["narrow_matmul_fractions"]["fp4"] = fraction
        sources["narrow_matmul_fractions"] += FP4_SOURCE + text
    sources["source_keys"] = ref + " (defined in reference/chips.md)"
    for column in ("derived_fields", "estimated_or_thirdparty_fields", "conflicts"):
        if row[column]:
            sources[column] = row[column]
    if cid in SRAM_LATENCY_ESTIMATES:
        sources["estimated_or_thirdparty_fields"] = SRAM_LATENCY_ESTIMATES[cid][2]
    chip["sources"] = sources

    notes = [
        ", ".join(
            p for p in (row["unit_of_row"], row["year"], row["process"], row["status"]) if p
        )
        + "."
    ]
    if row["notes"]:
        notes.append(row["notes"])
    if price_text and not m:
        notes.append("Price: " + price_text + " (not a per-hour figure).")
    elif price_text and "on-demand" in price_text and not own_key:
        notes.append("Price: " + price_text + ".")
    if omitted:
        notes.append("Omitted: " + "; ".join(omitted) + ".")
    chip["notes"] = " ".join(notes)
    return chip


def main():
    with open(sys.argv[1], newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    chips = [convert(r) for r in rows]
    assert len({c["id"] for c in chips}) == len(rows)
    json.dump(chips, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
