#!/usr/bin/env python3
"""The serving simulation against vLLM's own per-request logs (docs/serving.md, "Replaying vLLM's
own logs (LLMServingSim)").

The logs are LLMServingSim's (casys-kaist/LLMServingSim, MIT), read from a checkout of that
repository at SOURCE_COMMIT (`--checkout DIR` or LLMSERVINGSIM_DIR; nothing is downloaded and no
log is copied here). For each log: writes its exact arrivals and lengths as a Mooncake-style JSONL
trace, builds the scenario from the log's engine configuration (MAPPING says which field goes
where and which have no counterpart), runs `prefill-trace serve --scenario FILE --trace TRACE
--json` under stack `vllm` and, beside it, `kernels` (device time only, the zero-overhead
reference), each at `estimate` and `bound`, and prints the engine's figures beside the log's
with the ratio engine / log. It also checks that the replay holds the log's requests and token
totals exactly and that the committed summary (SUMMARY files: the configuration, counts, length
quantiles and figures derived from the log, which test_vllm_logs.py uses without the log) is
what the log gives; `--write-summary` rewrites it.

Log fields (LLMServingSim's bench/README.md and bench/core/{runner,recorder,stat_logger,
validate}.py at SOURCE_COMMIT): requests.jsonl holds vLLM's RequestStateStats per request
(`arrival_time`: the front end's wall clock; `queued_ts`, `scheduled_ts`, `first_token_ts`,
`last_token_ts`: monotonic); timeseries.csv, per 1 s tick, prompt and generated tokens per second
and the last iteration's running and waiting requests and K/V use; meta.json the engine arguments
and what vLLM resolved. Arrivals: `queued_ts`, the clock of the first and last token
(LLMServingSim's validate.py anchors TTFT there too); the front end's lag before it varies by
0.2 s over the run.

Percentiles are nearest-rank (the ⌈p·n⌉-th smallest), the engine's own definition
(docs/serving.md, "Output"), applied to the log too; LLMServingSim's summary.txt interpolates.

Usage: vllm_logs.py --checkout DIR [--markdown] [--write-scenarios DIR] [--write-summary]
                    [--prefixes]
(--prefixes: rerun the `vllm` estimate with the prompts' shared prefixes as hash_ids, from the
run's dataset in the checkout, checked against the log's dataset_hash.)
Runs the native CLI (PREFILL_TRACE_CLI, default build/native/prefill-trace). Standard library.
"""

import argparse
import csv
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from published import CLI, fmt  # noqa: E402  (the CLI path and number format the other table uses)

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_REPOSITORY = "https://github.com/casys-kaist/LLMServingSim"
SOURCE_COMMIT = "5daddb21a545658d5150b535712d0494584b5278"

# One entry per log: its folder in LLMServingSim at SOURCE_COMMIT, the summary derived from it
# (committed here), and the project's presets for the log's model and device (meta.json's model
# and hardware.device_name). The RTXPRO6000 logs of the same commit have no device preset here.
LOGS = [
    {"id": "rtx4090-llama-3.1-8b", "source": "bench/examples/RTX4090/Llama-3.1-8B/vllm",
     "summary": "vllm_log_rtx4090_llama_3.1_8b.json",
     "model": "llama-3.1-8b", "hardware": "rtx-4090"},
]

# The log's engine configuration → the scenario (meta.json paths; "—": no counterpart).
MAPPING = [
    ("engine_kwargs.model", "model (preset)", "meta-llama/Llama-3.1-8B → llama-3.1-8b"),
    ("hardware.device_name", "hardware (preset)",
     "NVIDIA GeForce RTX 4090 → rtx-4090; its memory_capacity stays NVIDIA's 24 GB (the device "
     "reported 25,250,627,584 bytes: not used, see the K/V row)"),
    ("engine_kwargs.dtype, kv_cache_dtype", "precision", "bfloat16, auto → bf16 (weights and K/V)"),
    ("engine_kwargs.tensor_parallel_size", "tensor_parallel", "1"),
    ("resolved_config.scheduler_config.enable_chunked_prefill", "serving.policy",
     "true → chunked"),
    ("engine_kwargs.max_num_batched_tokens", "serving.token_budget", "2048"),
    ("engine_kwargs.max_num_seqs", "serving.max_batch", "256"),
    ("kv_cache.block_size", "serving.block_size", "16"),
    ("kv_cache.gpu_memory_utilization", "serving.gpu_memory_utilization", "0.9"),
    ("(paged attention)", "serving.kv", "paged"),
    ("resolved_config.compilation_config.cudagraph_mode", "graphs",
     "FULL_AND_PIECEWISE, capture sizes to 512 ≥ max_num_seqs → on"),
    ("vllm_version", "stack", "0.19.0 (V1, async scheduling) → vllm; kernels beside it"),
    ("resolved_config.scheduler_config.policy", "—", "fcfs: the engine's only order"),
    ("kv_cache.enable_prefix_caching", "—",
     "true: the engine caches prefixes only from a trace's hash_ids, which a log of token "
     "counts cannot give; prefix_hit 0 (--prefixes reruns with the dataset's prefixes)"),
    ("engine_kwargs.max_model_len", "—", "32768: every request's prompt + output is below it"),
    ("(unbounded AsyncLLM queue)", "serving.max_queue", "100000 (never reached)"),
    ("engine_kwargs.seed, temperature 0", "—", "output lengths are pinned (min = max tokens)"),
    ("kv_cache.num_gpu_blocks", "(compared)", "2588: set by vLLM's profiling; compared with the "
     "engine's kv_capacity_blocks, not given to it"),
]


def nearest_rank(values, p):
    """The ⌈p·n⌉-th smallest of n values (docs/serving.md, "Output")."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p * len(ordered))) - 1]


def load_log(checkout, log):
    """meta.json, requests.jsonl and timeseries.csv of one log, from the checkout."""
    path = os.path.join(checkout, log["source"])
    with open(os.path.join(path, "meta.json"), encoding="utf-8") as f:
        meta = json.load(f)
    with open(os.path.join(path, "requests.jsonl"), encoding="utf-8") as f:
        requests = [json.loads(line) for line in f if line.strip()]
    with open(os.path.join(path, "timeseries.csv"), newline="", encoding="utf-8") as f:
        ticks = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]
    return meta, requests, ticks


def load_summary(log):
    """The committed summary of a log (derive_summary's output)."""
    with open(os.path.join(HERE, log["summary"]), encoding="utf-8") as f:
        return json.load(f)


def arrivals(requests):
    """Each request's arrival in seconds after the first, on the engine core's clock."""
    first = min(r["queued_ts"] for r in requests)
    return [r["queued_ts"] - first for r in requests]


def trace_text(requests, hash_ids=None):
    """The log's requests as Mooncake JSONL (timestamp in ms, microsecond-exact), in arrival
    order: LLMServingSim's runner submits in dataset order, and queued_ts rises with it.
    `hash_ids`: one list per request (dataset_hash_ids), for the prefix cache."""
    lines = []
    order = sorted(range(len(requests)), key=arrivals(requests).__getitem__)
    times = arrivals(requests)
    for i in order:
        line = {"timestamp": round(times[i] * 1000.0, 3),
                "input_length": requests[i]["input_toks"],
                "output_length": requests[i]["output_toks"]}
        if hash_ids is not None:
            line["hash_ids"] = hash_ids[i]
        lines.append(json.dumps(line))
    return "\n".join(lines) + "\n"


def dataset_hash_ids(checkout, meta, requests):
    """Mooncake hash_ids from the run's dataset (workloads/<dataset_path's name> in the
    checkout): one id per full 512-token block of each prompt, naming that block with everything
    before it, so two prompts share ids exactly as far as their token ids agree (docs/serving.md,
    "Prefix cache from hash_ids"). vLLM's own prefix cache matches 16-token blocks; the engine's,
    512. Refuses a file that is not the run's dataset."""
    path = os.path.join(checkout, "workloads", os.path.basename(meta["dataset_path"]))
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if digest != meta["dataset_hash"]:
        raise ValueError(f"{path}: sha256 {digest} is not the log's dataset_hash")
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    if [len(r["input_tok_ids"]) for r in rows] != [r["input_toks"] for r in requests]:
        raise ValueError(f"{path}: prompt lengths differ from the log's")
    names, result = {}, []
    for row in rows:
        tokens = row["input_tok_ids"]
        result.append([names.setdefault(tuple(tokens[:512 * (b + 1)]), len(names))
                       for b in range(len(tokens) // 512)])
    return result


def prefix_sensitivity(result, checkout):
    """The `vllm` estimate run again with the dataset's prefixes cached (enable_prefix_caching)."""
    hash_ids = dataset_hash_ids(checkout, result["meta"], result["requests"])
    path = os.path.join(result["directory"], result["log"]["id"] + "-prefixes.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        f.write(trace_text(result["requests"], hash_ids))
    doc = scenario(result["summary"]["engine"], result["log"], "estimate", "vllm")
    report, command = serve(doc, result["directory"], result["log"]["id"] + "-prefixes", path)
    return engine_figures(report), report["prefix_cache"], report["preemptions"], command


def log_figures(requests, ticks):
    """The log's figures, by LLMServingSim's definitions (bench/README.md, "Latency definitions"),
    TTFT and end-to-end from queued_ts (module docstring)."""
    ttft = [r["first_token_ts"] - r["queued_ts"] for r in requests]
    tpot = [(r["last_token_ts"] - r["first_token_ts"]) / (r["output_toks"] - 1)
            for r in requests if r["output_toks"] > 1]
    e2e = [r["last_token_ts"] - r["queued_ts"] for r in requests]
    span = max(r["last_token_ts"] for r in requests) - min(r["queued_ts"] for r in requests)
    lag = [r["queued_ts"] - r["arrival_time"] for r in requests]
    figures = {f"ttft_p{int(p * 100)}": nearest_rank(ttft, p) for p in (0.5, 0.9, 0.99)}
    figures.update({f"tpot_p{int(p * 100)}": nearest_rank(tpot, p) for p in (0.5, 0.9, 0.99)})
    figures["e2e_p50"] = nearest_rank(e2e, 0.5)
    figures["throughput_rps"] = len(requests) / span
    figures["throughput_tps"] = sum(r["output_toks"] for r in requests) / span
    # The last iteration's running requests of each 1 s tick, averaged over the ticks (the log's
    # only running count; the engine's is time-weighted over its own run).
    figures["running_mean"] = sum(t["running"] for t in ticks) / len(ticks)
    figures["front_end_lag_spread"] = max(lag) - min(lag)
    figures["tpot_tail"] = figures["tpot_p99"] / figures["tpot_p50"]
    figures["preemptions_at_least"], figures["preemption_window"] = preemptions_at_least(
        requests, ticks)
    return figures


def fall_bound(first_tokens, finishes, ticks, step, lead):
    """A lower bound on preemptions from running counts alone. A running request leaves the
    running set by finishing or by preemption; so between two iterations in which no request
    finished, the fall in running requests is at most the preemptions between them (admissions
    only raise it). Window: after the last first token that precedes the first finish, up to the
    first finish. `ticks`: (end time, running after the tick's last iteration), that iteration
    in [end − step, end); `lead`: how far the ticks' clock may lead the requests' (0 ≤ δ ≤ lead),
    so a tick is inside for end − step ≥ start + lead and end ≤ finish. Returns the fall and the
    two ticks' end times (None, None when the window holds fewer than two ticks)."""
    end = min(finishes)
    start = max(t for t in first_tokens if t < end)
    inside = [(t, running) for t, running in ticks if t - step >= start + lead and t <= end]
    best = (0, None, None)
    for i, (t_high, high) in enumerate(inside):
        for t_low, low in inside[i + 1:]:
            if high - low > best[0]:
                best = (high - low, t_high, t_low)
    return best


def preemptions_at_least(requests, ticks):
    """fall_bound on the log, which counts no preemptions (queued_ts clock). timeseries.csv's
    clock starts when its stat logger is made, at engine boot, before the first request
    (LLMServingSim's stat_logger.py and runner.py), and its first row is t = 1.0: it leads
    queued_ts by δ with 0 ≤ δ < 1 s."""
    first = min(r["queued_ts"] for r in requests)
    fall, t_high, t_low = fall_bound([r["first_token_ts"] - first for r in requests],
                                     [r["last_token_ts"] - first for r in requests],
                                     [(t["t"], t["running"]) for t in ticks], 1.0, 1.0)
    return int(fall), (t_high, t_low)


def engine_fall_bound(rows, timeline):
    """fall_bound applied to an engine run (its CSV rows and timeline, one clock: lead 0),
    beside the preemptions the engine counted in the same ticks: how tight the log's bound is."""
    first_tokens = [float(r["arrival_seconds"]) + float(r["ttft_seconds"]) for r in rows]
    finishes = [float(r["arrival_seconds"]) + float(r["e2e_seconds"]) for r in rows]
    ticks = list(zip(timeline["time_seconds"], timeline["running"]))
    fall, t_high, t_low = fall_bound(first_tokens, finishes, ticks, timeline["step_seconds"], 0.0)
    counted = sum(p for t, p in zip(timeline["time_seconds"], timeline["preemptions"])
                  if t_high is not None and t_high < t <= t_low)
    return int(fall), int(counted), (t_high, t_low)


def engine_configuration(meta):
    """The engine configuration fields MAPPING reads, from meta.json (kept in the summary)."""
    kwargs, cache = meta["engine_kwargs"], meta["kv_cache"]
    resolved = meta["resolved_config"]
    return {
        "vllm_version": meta["vllm_version"], "model": kwargs["model"],
        "device_name": meta["hardware"]["device_name"],
        "device_total_memory_bytes": meta["hardware"]["device_total_memory_bytes"],
        "dtype": kwargs["dtype"], "kv_cache_dtype": kwargs["kv_cache_dtype"],
        "tensor_parallel_size": kwargs["tensor_parallel_size"],
        "max_num_seqs": kwargs["max_num_seqs"],
        "max_num_batched_tokens": kwargs["max_num_batched_tokens"],
        "max_model_len": kwargs["max_model_len"],
        "enable_chunked_prefill": resolved["scheduler_config"]["enable_chunked_prefill"],
        "scheduler_policy": resolved["scheduler_config"]["policy"],
        "async_scheduling": resolved["scheduler_config"]["async_scheduling"],
        "cudagraph_mode": resolved["compilation_config"]["cudagraph_mode"],
        "block_size": cache["block_size"],
        "gpu_memory_utilization": cache["gpu_memory_utilization"],
        "enable_prefix_caching": cache["enable_prefix_caching"],
        "num_gpu_blocks": cache["num_gpu_blocks"],
        "dataset_path": meta["dataset_path"], "dataset_hash": meta["dataset_hash"],
    }


def scenario(engine, log, timing, stack):
    """The scenario of MAPPING, from the log's engine configuration (engine_configuration)."""
    if engine["dtype"] != "bfloat16" or engine["kv_cache_dtype"] != "auto":
        raise ValueError(f"{log['id']}: dtype {engine['dtype']}, K/V {engine['kv_cache_dtype']}: "
                         "no mapping")
    return {
        "model": log["model"], "hardware": log["hardware"], "precision": "bf16",
        "timing": timing, "stack": stack, "tensor_parallel": engine["tensor_parallel_size"],
        "graphs": "on" if engine["cudagraph_mode"] else "off",
        "serving": {
            "policy": "chunked" if engine["enable_chunked_prefill"] else "prefill-first",
            "token_budget": engine["max_num_batched_tokens"],
            "max_batch": engine["max_num_seqs"], "kv": "paged",
            "block_size": engine["block_size"],
            "gpu_memory_utilization": engine["gpu_memory_utilization"],
            "max_queue": 100000, "timeline_points": 0,
        },
    }


def serve(scenario_doc, directory, name, trace_path=None, output="--json"):
    """The report (--json) or the per-request rows (--csv) of one run, and its command."""
    path = os.path.join(directory, name + ".json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(scenario_doc, f)
    command = [CLI, "serve", "--scenario", path, output]
    if trace_path:
        command[4:4] = ["--trace", trace_path]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{name}: exit {done.returncode}: {done.stderr.strip()}")
    text = done.stdout
    parsed = list(csv.DictReader(text.splitlines())) if output == "--csv" else json.loads(text)
    return parsed, " ".join(["prefill-trace"] + command[1:])


def engine_figures(report):
    figures = {f"ttft_p{p}": report["ttft_seconds"][f"p{p}"] for p in (50, 90, 99)}
    figures.update({f"tpot_p{p}": report["tpot_seconds"][f"p{p}"] for p in (50, 90, 99)})
    figures["e2e_p50"] = report["e2e_seconds"]["p50"]
    figures["throughput_rps"] = report["throughput_requests_per_second"]
    figures["throughput_tps"] = report["throughput_tokens_per_second"]
    figures["running_mean"] = report["running_requests_mean"]
    figures["tpot_tail"] = figures["tpot_p99"] / figures["tpot_p50"]
    figures["preemptions"] = report["preemptions"]
    figures["kv_blocks"] = report["kv_capacity_blocks"]
    return figures


# (key, label, unit scale, unit, promise of `bound`): a lower bound on every iteration's device
# time, with no host time (docs/serving.md), promises latencies no longer (≤) and throughput no
# lower (≥) than measured — if the schedule it drives stays alike (docs "Replaying vLLM's own
# logs" says why a bound need not be one under preemption); the running mean has no direction.
ROWS = [
    ("ttft_p50", "TTFT p50", 1, "s", "≤"), ("ttft_p90", "TTFT p90", 1, "s", "≤"),
    ("ttft_p99", "TTFT p99", 1, "s", "≤"),
    ("tpot_p50", "TPOT p50", 1000, "ms", "≤"), ("tpot_p90", "TPOT p90", 1000, "ms", "≤"),
    ("tpot_p99", "TPOT p99", 1000, "ms", "≤"),
    ("e2e_p50", "end-to-end latency p50", 1, "s", "≤"),
    ("throughput_rps", "throughput", 1, "requests/s", "≥"),
    ("throughput_tps", "output throughput", 1, "tokens/s", "≥"),
    ("running_mean", "mean running requests", 1, "", None),
    ("tpot_tail", "TPOT p99 ÷ p50", 1, "", None),
    ("preemptions", "preemptions (whole run)", 1, "", None),
    ("kv_blocks", "K/V blocks", 1, "", None),
]
# Where each log figure is read: requests.jsonl unless named here.
LOG_SOURCE = {"running_mean": "timeseries.csv", "preemptions": "timeseries.csv",
              "kv_blocks": "meta.json"}


def derive_summary(log, meta, requests, ticks):
    """What test_vllm_logs.py needs from a log without the log: its engine configuration, its
    workload's counts and length quantiles, and its figures (log_figures)."""
    prompts = [r["input_toks"] for r in requests]
    outputs = [r["output_toks"] for r in requests]
    times = arrivals(requests)
    figures = log_figures(requests, ticks)
    figures["preemption_window"] = list(figures["preemption_window"])
    files = ", ".join(f"{SOURCE_REPOSITORY}/blob/{SOURCE_COMMIT}/{log['source']}/{name}"
                      for name in ("meta.json", "requests.jsonl", "timeseries.csv"))
    return {
        "description": "Derived from vLLM's own log of LLMServingSim's validation run (vLLM "
                       f"{meta['vllm_version']}, {meta['model']}, "
                       f"{meta['hardware']['device_name']}); the log itself is not copied here.",
        "source": files,
        "derivation": "tests/validation/serving/vllm_logs.py --checkout DIR --write-summary, DIR "
                      f"a checkout of {SOURCE_REPOSITORY} at {SOURCE_COMMIT}: engine = meta.json's "
                      "fields (engine_configuration); quantile i = the ceil(i/100 * n)-th smallest "
                      "(the smallest for i = 0) of input_toks and output_toks; figures = "
                      "log_figures (TTFT, e2e from queued_ts; nearest-rank percentiles)",
        "engine": engine_configuration(meta),
        "workload": {
            "requests": len(requests), "prompt_tokens": sum(prompts),
            "output_tokens": sum(outputs), "arrival_span_seconds": max(times),
            "prompt_quantiles": [nearest_rank(prompts, i / 100) for i in range(101)],
            "output_quantiles": [nearest_rank(outputs, i / 100) for i in range(101)],
        },
        "figures": figures,
    }


def replay(log, summary, requests, directory):
    """The engine runs of one log: stacks × timings, reserve beside vllm estimate, and the
    vllm estimate's rows and ~1 s timeline (engine_fall_bound)."""
    trace_path = os.path.join(directory, log["id"] + ".jsonl")
    with open(trace_path, "w", encoding="utf-8") as f:
        f.write(trace_text(requests))
    engine = summary["engine"]
    runs, commands = {}, []
    for stack in ("vllm", "kernels"):
        for timing in ("estimate", "bound"):
            runs[(stack, timing)], command = serve(scenario(engine, log, timing, stack), directory,
                                                   f"{log['id']}-{stack}-{timing}", trace_path)
            commands.append(command)
    # The comparison: the same engine and capacity with each request's whole K/V
    # reserved at admission (the vLLM paper's Orca (Oracle)).
    reserve = scenario(engine, log, "estimate", "vllm")
    reserve["serving"]["kv"] = "reserve"
    reserve_report, command = serve(reserve, directory, f"{log['id']}-reserve", trace_path)
    commands.append(command)
    main = scenario(engine, log, "estimate", "vllm")
    rows, command = serve(main, directory, f"{log['id']}-rows", trace_path, "--csv")
    commands.append(command)
    main["serving"]["timeline_points"] = min(
        math.ceil(runs[("vllm", "estimate")]["simulated_seconds"]), 10000)
    timeline, command = serve(main, directory, f"{log['id']}-timeline", trace_path)
    commands.append(command)
    # The replay is the log's workload: its requests and token totals, exactly.
    held = (len(rows), sum(int(r["prompt_tokens"]) for r in rows),
            sum(int(r["output_tokens"]) for r in rows))
    logged = (len(requests), sum(r["input_toks"] for r in requests),
              sum(r["output_toks"] for r in requests))
    if held != logged:
        raise RuntimeError(f"{log['id']}: the replay holds {held}, the log {logged}")
    return {"runs": runs, "reserve": engine_figures(reserve_report), "held": held,
            "engine_fall": engine_fall_bound(rows, timeline["timeline"]), "commands": commands}


def evaluate(checkout, keep_dir=None, write_summary=False):
    """One result per log: its summary (checked against the committed one, or written), the
    runs' reports and the commands."""
    directory = keep_dir or tempfile.mkdtemp(prefix="vllm-logs-")
    results = []
    for log in LOGS:
        meta, requests, ticks = load_log(checkout, log)
        summary = derive_summary(log, meta, requests, ticks)
        if write_summary:
            with open(os.path.join(HERE, log["summary"]), "w", encoding="utf-8") as f:
                json.dump(summary, f, indent=1, ensure_ascii=False)
                f.write("\n")
        elif summary != load_summary(log):
            raise RuntimeError(f"{log['summary']} is not what {log['source']} gives: rerun with "
                               "--write-summary and review the difference")
        result = {"log": log, "meta": meta, "requests": requests, "summary": summary,
                  "figures": summary["figures"], "directory": directory}
        result.update(replay(log, summary, requests, directory))
        results.append(result)
    return results


def bound_holds(direction, bound, measured):
    if direction is None:
        return None
    return bound <= measured if direction == "≤" else bound >= measured


def source_url(log, name):
    return f"{SOURCE_REPOSITORY}/blob/{SOURCE_COMMIT}/{log['source']}/{name}"


def table_rows(result):
    """(label, source file, log figure, {(stack, timing): engine figure}, direction), in units."""
    engine = {key: engine_figures(report) for key, report in result["runs"].items()}
    measured = dict(result["figures"], kv_blocks=result["summary"]["engine"]["num_gpu_blocks"],
                    preemptions=result["figures"]["preemptions_at_least"])
    rows = []
    for key, label, scale, unit, direction in ROWS:
        source = LOG_SOURCE.get(key, "requests.jsonl")
        rows.append((f"{label} ({unit})" if unit else label, source,
                     scale * measured[key],
                     {k: scale * v[key] for k, v in engine.items()}, direction))
    return rows


def markdown(results):
    lines = ["| figure | log (source) | `vllm` estimate | ÷ log | `vllm` bound (promise) "
             "| `kernels` estimate | ÷ log |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for result in results:
        for label, source, measured, engine, direction in table_rows(result):
            est, bnd = engine[("vllm", "estimate")], engine[("vllm", "bound")]
            ker = engine[("kernels", "estimate")]
            holds = bound_holds(direction, bnd, measured)
            promise = "" if holds is None else (
                f" ({direction} log: {'holds' if holds else 'BROKEN'})")
            # The log's preemptions are a lower bound (preemptions_at_least): no ratio.
            lower = label.startswith("preemptions")
            ratio = (lambda v: "—") if lower else (lambda v: fmt(v / measured))
            shown = f"≥ {fmt(measured)}" if lower else fmt(measured)
            lines.append(f"| {label} | [{shown}]({source_url(result['log'], source)}) "
                         f"| {fmt(est)} | {ratio(est)} | {fmt(bnd)}{promise} "
                         f"| {fmt(ker)} | {ratio(ker)} |")
        # Like for like: fall_bound on the engine's run over its own first fall.
        fall, counted, _ = result["engine_fall"]
        measured = result["figures"]["preemptions_at_least"]
        lines.append(f"| preemptions in the first fall of running requests (fall_bound) "
                     f"| [≥ {measured}]({source_url(result['log'], 'timeseries.csv')}) "
                     f"| ≥ {fall} ({counted} counted) | {fmt(fall / measured)} "
                     "| — | — | — |")
    return "\n".join(lines)


def describe(result):
    meta, runs = result["meta"], result["runs"]
    paged = runs[("vllm", "estimate")]
    lines = [f"{result['log']['id']}: {len(result['requests'])} requests, vLLM "
             f"{meta['vllm_version']}; front end → engine lag varies by "
             f"{result['figures']['front_end_lag_spread']:.3f} s",
             "  the replay holds %d requests, %d prompt and %d output tokens: the log's"
             % result["held"],
             f"  K/V blocks: vLLM {meta['kv_cache']['num_gpu_blocks']}, engine "
             f"{paged['kv_capacity_blocks']} "
             f"({paged['kv_capacity_blocks'] / meta['kv_cache']['num_gpu_blocks']:.3f}×)",
             f"  reserve (vllm estimate): running {result['reserve']['running_mean']:.2f}, TPOT "
             f"p99/p50 {result['reserve']['tpot_tail']:.3f}; the log's running mean is "
             f"{result['figures']['running_mean'] / result['reserve']['running_mean']:.2f}× it",
             f"  log preemptions ≥ {result['figures']['preemptions_at_least']} in "
             f"{result['figures']['preemption_window']} s (ticks of timeseries.csv); the same "
             f"bound on the engine's run: ≥ %d, counted %d, ticks %s" % result["engine_fall"],
             f"  preemptions (engine; the log has no counter): "
             + ", ".join(f"{s} {t} {r['preemptions']} ({r['recomputed_tokens']} tokens)"
                         for (s, t), r in runs.items())]
    return "\n".join(lines)


def print_prefixes(result, checkout):
    base = engine_figures(result["runs"][("vllm", "estimate")])
    figures, cache, preemptions, command = prefix_sensitivity(result, checkout)
    print(f"with the dataset's prefixes (vllm estimate): {cache}; preemptions {preemptions}")
    for key, label, scale, unit, _ in ROWS[:-2]:
        print(f"  {label}: {fmt(scale * figures[key])} {unit} (without: "
              f"{fmt(scale * base[key])}, ×{fmt(figures[key] / base[key])})")
    print("  " + command)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checkout", metavar="DIR", default=os.environ.get("LLMSERVINGSIM_DIR"),
                        help=f"a checkout of {SOURCE_REPOSITORY} at {SOURCE_COMMIT}")
    parser.add_argument("--markdown", action="store_true", help="print the docs table")
    parser.add_argument("--write-scenarios", metavar="DIR", help="keep scenarios and traces here")
    parser.add_argument("--write-summary", action="store_true",
                        help="rewrite the committed summaries from the checkout")
    parser.add_argument("--prefixes", action="store_true",
                        help="rerun with the dataset's shared prefixes as hash_ids")
    args = parser.parse_args()
    if not args.checkout:
        parser.error(f"--checkout DIR (or LLMSERVINGSIM_DIR): a checkout of {SOURCE_REPOSITORY} "
                     f"at {SOURCE_COMMIT}")
    if args.write_scenarios:
        os.makedirs(args.write_scenarios, exist_ok=True)
    results = evaluate(args.checkout, args.write_scenarios, args.write_summary)
    if args.markdown:
        print(markdown(results))
        return 0
    print("configuration (log field → scenario field: value):")
    for source, target, value in MAPPING:
        print(f"  {source} → {target}: {value}")
    for result in results:
        print(describe(result))
        for label, _, measured, engine, direction in table_rows(result):
            cells = ", ".join(f"{s} {t} {fmt(v)} ({fmt(v / measured)}×)"
                              for (s, t), v in engine.items())
            print(f"  {label}: log {fmt(measured)}; {cells}")
        print("  " + "\n  ".join(result["commands"]))
    if args.prefixes:
        print_prefixes(results[0], args.checkout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
