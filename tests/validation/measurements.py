"""The validation table (tests/data/measurements/measurements.csv) as engine scenarios.

Each usable row becomes a scenario for the native CLI plus what to compare: the whole prefill
(`ttft.total_seconds`) for end-to-end rows, or one operator's time without launch gaps for
kernel rows. Rows the engine cannot express are listed with the reason (`excluded`). How well the
estimate generalises is judged by grouped cross-validation (evaluate.py), not by one split.
`load(FRESH)` reads the frozen fresh test set the same way. Python 3 standard library only.
"""

import csv
import json
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, "tests", "data", "measurements", "measurements.csv")
# The fresh test set (issue 21): frozen before any model change, evaluated once at the end.
FRESH = os.path.join(ROOT, "tests", "data", "measurements", "fresh.csv")
FRESH_SHA256 = "1bc83b3b29244cbad78a59c88c2613bf727c0867677359e407ee2e2c35294941"
HARDWARE = os.path.join(ROOT, "lesson-data", "hardware.json")
CLI = os.environ.get("PREFILL_TRACE_CLI", os.path.join(ROOT, "build", "native", "prefill-trace"))

# Models of the table that are not presets, from the shapes its notes cite.
CUSTOM_MODELS = {
    # Llama-2-70B: the llama-3.1-70b shapes with the 32,000-token vocabulary.
    "llama-2-70b": {"preset": "llama-3.1-70b", "vocab": 32000},
    # GPT-J 6B (EleutherAI config): plain GELU MLP; attention and MLP in parallel (its block adds
    # both to one residual; the table's GPT-J rows are single-device, so no all-reduce changes).
    "gpt-j-6b": {"layers": 28, "d_model": 4096, "query_heads": 16, "kv_heads": 16,
                 "head_dim": 256, "d_ff": 16384, "mlp": "plain", "vocab": 50400,
                 "parallel_attention": True},
    # Falcon-180B (TensorRT-LLM ckpt_config): 232 query heads of 64, 8 KV heads, plain MLP;
    # new_decoder_architecture, which TensorRT-LLM's Falcon layer runs as a parallel block with
    # one all-reduce per layer (models/falcon/model.py at 138f96d4, docs/validation.md).
    # BLOOM-176B (bigscience/bloom config): 112 heads of 128 (MHA), 4·d plain GELU MLP, tied
    # embeddings; ALiBi instead of rotary (the trace charges neither).
    "bloom-176b": {"layers": 70, "d_model": 14336, "query_heads": 112, "kv_heads": 112,
                   "head_dim": 128, "d_ff": 57344, "mlp": "plain", "vocab": 250880,
                   "tied_embeddings": True},
    "falcon-180b": {"layers": 80, "d_model": 14848, "query_heads": 232, "kv_heads": 8,
                    "head_dim": 64, "d_ff": 59392, "mlp": "plain", "vocab": 65024,
                    "parallel_attention": True},
}
# Accelerators of the table that are not presets but run kernels as one that is: the H800 SXM5
# has the H100 SXM5's SMs, clocks, HBM3 and tensor peaks (only its NVLink is narrower), and its
# rows are single-GPU kernels (tests/data/measurements/README.md).
ACCELERATOR_ALIASES = {"h800": "h100-sxm"}
PRECISIONS = {"fp16", "bf16", "fp8", "int8", "int4"}
GEMM_OPERATORS = {"gemm_qkv_projection": "qkv_projection", "gemm_o_projection": "o_projection",
                  "gemm_gate_up_projection": "gate_up_projection",
                  "gemm_down_projection": "down_projection"}


def accelerators():
    with open(HARDWARE, encoding="utf-8") as f:
        return {a["id"]: a for a in json.load(f)["accelerators"]}


def number(pattern, text):
    match = re.search(pattern, text)
    return int(match.group(1)) if match else None


def seconds_of(row, flops=None):
    if row["measured_seconds"]:
        return float(row["measured_seconds"])
    if row["measured_unit"] == "tflops" and flops:
        return flops / (float(row["measured_value"]) * 1e12)
    return None


def to_case(row, presets):
    """(case, None) for a usable row, (None, reason) otherwise. A case holds the scenario, the
    operator to read (None: the whole prefill), the measured seconds and flags."""
    notes = row["notes"]
    accelerator = ACCELERATOR_ALIASES.get(row["accelerator"], row["accelerator"])
    if accelerator not in presets:
        return None, "accelerator %s is not a preset" % row["accelerator"]
    if row["precision"] not in PRECISIONS:
        return None, "precision not stated by the source"
    scenario = {"hardware": accelerator, "precision": row["precision"],
                "tensor_parallel": int(row["tensor_parallel"] or 1),
                "batch": int(row["batch"] or 1)}
    model = row["model"]
    if model:
        scenario["model"] = CUSTOM_MODELS.get(model, model)
    if row["prompt_tokens"]:
        scenario["prompt_tokens"] = int(row["prompt_tokens"])
    operator, flops = None, None
    kind = row["operator"]
    if kind == "prefill_ttft":
        pass
    elif kind in GEMM_OPERATORS:
        operator = GEMM_OPERATORS[kind]
    elif kind in ("rmsnorm", "silu_and_mul"):
        operator = "attn_norm" if kind == "rmsnorm" else "silu_and_mul"
        if not model and kind == "rmsnorm":
            # A bare norm of M rows of width H: the attention norm of a one-layer model of width H.
            m, h = number(r"M=(\d+)", notes), number(r"H=(\d+)", notes)
            scenario["model"] = {"layers": 1, "d_model": h, "query_heads": 1, "kv_heads": 1,
                                 "head_dim": h, "d_ff": 16, "vocab": 16}
            scenario["prompt_tokens"] = m
    elif kind == "gemm":
        m = number(r"M=(\d+)", notes)
        n = number(r"N=(\d+)", notes)
        k = number(r"K=(\d+)", notes)
        # o_projection multiplies h_q·d_h → d: one head of width K onto d_model N, M token rows.
        scenario["model"] = {"layers": 1, "d_model": n, "query_heads": 1, "kv_heads": 1,
                             "head_dim": k, "d_ff": 16, "vocab": 16}
        scenario["prompt_tokens"] = m
        operator, flops = "o_projection", 2.0 * m * n * k
    elif kind == "all_reduce":
        size = number(r"= (\d+) bytes", notes)
        # 2-byte elements as rows of 8192: T·8192·2 bytes (both sizes in the table divide).
        if size is None or size % 16384:
            return None, "all-reduce size not a whole number of 8192-wide rows"
        scenario["model"] = {"layers": 1, "d_model": 8192, "query_heads": 64, "kv_heads": 8,
                             "head_dim": 128, "d_ff": 28672, "vocab": 32000}
        scenario["prompt_tokens"] = size // 16384
        scenario["batch"] = 1
        operator = "attention_all_reduce"
    elif kind == "attention_fused_causal":
        if "attending to" in notes:
            return None, "one chunk after cached keys: the trace times whole prompts"
        if not model:
            heads = number(r"(\d+) heads", notes)
            head_dim = number(r"head_dim (\d+)", notes)
            scenario["model"] = {"layers": 1, "d_model": heads * head_dim, "query_heads": heads,
                                 "kv_heads": heads, "head_dim": head_dim, "d_ff": 16,
                                 "vocab": 16}
            if row["measured_unit"] == "tflops":
                s = int(row["prompt_tokens"])
                flops = 4.0 * scenario["batch"] * heads * s * s * head_dim * 0.5
        operator = "attention"
    elif kind == "attention_fused_noncausal":
        return None, "non-causal attention: the trace models causal prefill only"
    else:
        return None, "operator %s has no counterpart in the trace" % kind
    if "model" not in scenario:
        return None, "no model shape"
    measured = seconds_of(row, flops)
    if measured is None:
        return None, "no time, and no FLOP count to turn its throughput into one"
    if row["framework"].startswith("llama.cpp") and row["precision"] == "int8":
        # Q8_0 prompt processing dequantises to fp16 GEMMs: int8 weights, fp16 arithmetic.
        scenario["precision"] = {"weights": "int8", "activations": "fp16", "kv": "fp16"}
    scenario["stack"] = stack_of(row)
    if operator in (None, "attention"):
        scenario["attention_kernel"] = attention_kernel_of(row)
    micro_l2 = "leave out of bound checks" in notes
    # What the estimate models is device execution. Rows whose source says the time is the
    # client's (HTTP, tokenization) or a host stack's overhead measure something else: they
    # stay in the bound check (a bound is below them too) but are not scored.
    host_dominated = "client-side" in notes or "not by the GPU work" in notes
    # A row flagged SUSPECT in its notes (with the reason there: an outlier against a published
    # benchmark of the same kernel on the same part) is bound-checked but neither fitted nor
    # scored (docs/validation.md, "Protocol").
    suspect = "SUSPECT" in notes
    return {"id": row["id"], "row": row, "scenario": scenario, "operator": operator,
            "measured": measured, "kernel": row["kind"] == "kernel",
            "single_device": scenario["tensor_parallel"] == 1,
            "bound_excluded": "weight fits in L2 (repeated runs can serve it from L2)"
            if micro_l2 else None,
            "estimate_excluded": "the time is the client's or a host stack's, not the device's"
            if host_dominated else "flagged SUSPECT in the table (reason in its notes)"
            if suspect else None}, None


def stack_of(row):
    """The software stack of a row (the scenario's `stack`): kernel timings are device time."""
    if row["kind"] == "kernel":
        return "kernels"
    framework = row["framework"]
    for needle, stack in (("TensorRT-LLM", "tensorrt-llm"), ("NIM", "tensorrt-llm"),
                          ("vLLM", "vllm"), ("SGLang", "sglang"), ("llama.cpp", "llama.cpp"),
                          ("transformers", "transformers"),
                          ("Text Generation Inference", "transformers")):
        if needle in framework:
            return stack
    return "tensorrt-llm"


def attention_kernel_of(row):
    """The attention implementation a row names (the scenario's `attention_kernel`): auto for
    a serving stack's own fused kernel (TensorRT-LLM's FMHA, ggml's)."""
    text = row["framework"] + " " + row["notes"]
    if "FlashAttention-3" in text or "FA3" in row["framework"]:
        return "flash-attention-3"
    if ("flash-attn 2" in text or "FlashAttention-2" in row["framework"] or
            "FLASH_ATTENTION backend" in row["framework"] or "FA2" in row["framework"]):
        return "flash-attention-2"
    if "FlashInfer" in row["framework"]:
        return "flashinfer"
    return "auto"


def load(table=TABLE):
    """(cases, excluded): usable rows as cases, and [(row, reason)] for the rest."""
    presets = accelerators()
    cases, excluded = [], []
    with open(table, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["kind"] == "decode":
                continue  # decode steps: decode.py fits and scores them on their own
            case, reason = to_case(row, presets)
            if case:
                cases.append(case)
            else:
                excluded.append((row, reason))
    return cases, excluded


def run_trace(scenario):
    """The engine's trace JSON for a scenario, from the native CLI."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(scenario, f)
        path = f.name
    try:
        out = subprocess.run([CLI, "trace", "--scenario", path, "--json"], capture_output=True,
                             text=True, check=False)
    finally:
        os.unlink(path)
    if out.returncode != 0:
        raise RuntimeError("%s: %s" % (json.dumps(scenario), out.stderr.strip()))
    return json.loads(out.stdout)


def find_operator(trace, name):
    for op in trace["operators"]:
        if op["name"] == name:
            return op
    raise KeyError(name)


def predicted_seconds(case, trace):
    """Whole prefill: TTFT without queueing. One kernel: its time without the launch gap."""
    if case["operator"] is None:
        return trace["totals"]["ttft"]["total_seconds"]
    op = find_operator(trace, case["operator"])
    return op["seconds"] - op["overhead_seconds"]


def predict(case, timing, **extra):
    scenario = dict(case["scenario"], timing=timing, **extra)
    return predicted_seconds(case, run_trace(scenario))


def percentile(values, q):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)
