#!/usr/bin/env python3
"""The serving simulation against published serving results (docs/serving.md, "Published results").

Reads published.csv (one row per published figure: its source, the place it was read, the value
as printed there, and the setup), runs `prefill-trace serve` for the same setup, and prints the
engine's figure beside it with the ratio engine / published. Every engine run is a scenario file
(`prefill-trace serve --scenario FILE --json`); `--write-scenarios DIR` keeps them, so each
figure can be reproduced with the command shown.

Workloads. DistServe's rows sample the (prompt, output) pairs DistServe's own client sent
(distserve_sharegpt_pairs.json, derived from its published logs; see its `derivation` and
`decision`): a cell of the rank-decile count table with probability count / pairs, then prompt and
output quantile positions uniform inside the cell's deciles, read through the 101 quantiles by
linear interpolation, redrawn inside the cell until prompt + output < 2048 (DistServe's filter) —
so prompt and output keep the marginals and how they go together. Arrivals are Poisson — as
DistServe's client does (random.sample of the dataset, gamma gaps with CV 1) — at unit rate,
scaled by 1/rate, so every rate of a grid sees the same requests (common random numbers).
Goodput is found as DistServe's notebook finds it: attainment at each per-GPU rate of the
published grid, the first crossing of the target by linear interpolation (`find_intersection` in
evaluation/2-benchmark-serving/plot.ipynb).

Replays. `--logs DIR` (DIR: DistServe's log folder of a checkout at 20a1633, see
distserve_logs.py) replays the runs of distserve_replays.csv through `serve --trace` instead and
prints the logs' figures beside the engine's, then the OPT-13B ratio on the published curves' own
requests (`published_requests_ratio`). Nothing of the logs is in this repository.

Usage: published.py [--markdown] [--write-scenarios DIR] [--only ID] [--logs DIR]
Runs the native CLI (PREFILL_TRACE_CLI, default build/native/prefill-trace). Standard library.
"""

import argparse
import csv
import json
import math
import os
import random
import subprocess
import sys
import tempfile

import distserve_logs  # beside this file

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
TABLE = os.path.join(HERE, "published.csv")
PAIRS = os.path.join(HERE, "distserve_sharegpt_pairs.json")
CLI = os.environ.get("PREFILL_TRACE_CLI", os.path.join(ROOT, "build", "native", "prefill-trace"))

# Requests per engine run for the load rows: DistServe ran 100 per GPU (vLLM) and 300 (its own
# 3 GPUs); 1,000 keeps the engine's sampling error of an attainment near 90 % at about
# sqrt(0.9 * 0.1 / 1000) = 1 point, so a miss is the model's, not the sample's.
LOAD_REQUESTS = 1000
SEED = 20240117  # arXiv 2401.09670's date; any fixed seed

# Models that are not presets, from their published configurations.
OPT_66B = {"preset": "opt-13b", "layers": 64, "d_model": 9216, "query_heads": 72,
           "kv_heads": 72, "head_dim": 128, "d_ff": 36864}  # facebook/opt-66b config.json
YI_34B = {"layers": 60, "d_model": 7168, "query_heads": 56, "kv_heads": 8, "head_dim": 128,
          "d_ff": 20480, "mlp": "gated", "vocab": 64000}  # 01-ai/Yi-34B config.json
LLAMA_2_70B = {"preset": "llama-3.1-70b", "vocab": 32000}  # Llama-2-70B: 3.1's shape, 32k vocab

# One deployment per published system: the scenario (docs/trace-json.md) and its `serving`
# object without the workload. `devices` divides a rate into a per-GPU rate. Every vLLM-based
# system here ran 2023's vLLM code (vLLM 0.1/0.2 for DistServe's and Splitwise's baselines;
# Sarathi-Serve is the fork Vidur profiled): `stack: vllm-0.2`, vLLM's kernels plus that
# engine's host time per iteration (src/trace/host_overhead.hpp; fitted on Vidur's CPU profile,
# none of the rows below). DistServe's own engine keeps the default stack (no host profile).
SYSTEMS = {
    # vLLM as DistServe ran it (2-start-api-server.py: -tp 1, --max-num-batched-tokens 16384,
    # --max-num-seqs 1024, --dtype half, --gpu-memory-utilization 0.95) on one A100-SXM-80GB.
    "vllm-opt-13b": {
        "scenario": {"model": "opt-13b", "hardware": "a100-sxm-80gb", "precision": "fp16",
                     "timing": "estimate", "stack": "vllm-0.2", "tensor_parallel": 1},
        "serving": {"policy": "prefill-first", "token_budget": 16384, "max_batch": 1024,
                    "ttft_slo": 0.25, "tpot_slo": 0.1},
        "devices": 1, "workload": "sharegpt"},
    # DistServe for OPT-13B (2-start-api-server.py: (context_tp, context_pp, decoding_tp,
    # decoding_pp) = (2, 1, 1, 1), --context-max-tokens-per-batch 8192, decoding max batch
    # 1024): 3 GPUs. Its C++ engine (SwiftTransformer) is given the default stack's host gaps.
    "distserve-opt-13b": {
        "scenario": {"model": "opt-13b", "hardware": "a100-sxm-80gb", "precision": "fp16",
                     "timing": "estimate", "tensor_parallel": 1},
        "serving": {"policy": "disaggregated", "prefill_devices": 1, "decode_devices": 1,
                    "prefill_tensor_parallel": 2, "decode_tensor_parallel": 1,
                    "token_budget": 8192, "max_batch": 1024, "ttft_slo": 0.25, "tpot_slo": 0.1},
        "devices": 3, "workload": "sharegpt"},
    # vLLM for OPT-66B: -tp 4, SLO of the paper's chatbot OPT-66B row (notebook: 2.5 s, 0.15 s).
    "vllm-opt-66b": {
        "scenario": {"model": OPT_66B, "hardware": "a100-sxm-80gb", "precision": "fp16",
                     "timing": "estimate", "stack": "vllm-0.2", "tensor_parallel": 4},
        "serving": {"policy": "prefill-first", "token_budget": 16384, "max_batch": 1024,
                    "ttft_slo": 2.5, "tpot_slo": 0.15},
        "devices": 4, "workload": "sharegpt"},
    # DistServe for OPT-66B: (4, 1, 2, 2) = prefill TP 4; decode TP 2 × PP 2. The engine has no
    # pipeline parallelism: the PP-2 decode instance is taken as two TP-2 decode instances (same
    # 4 GPUs, same per-token latency and, pipelined, the same throughput).
    "distserve-opt-66b": {
        "scenario": {"model": OPT_66B, "hardware": "a100-sxm-80gb", "precision": "fp16",
                     "timing": "estimate", "tensor_parallel": 4},
        "serving": {"policy": "disaggregated", "prefill_devices": 1, "decode_devices": 2,
                    "prefill_tensor_parallel": 4, "decode_tensor_parallel": 2,
                    "token_budget": 8192, "max_batch": 1024, "ttft_slo": 2.5, "tpot_slo": 0.15},
        "devices": 8, "workload": "sharegpt"},
    # simdistserve's README run: tp_prefill 2, tp_decode 1 (3 GPUs), SLOs applied per row.
    "simdistserve-opt-13b": {
        "scenario": {"model": "opt-13b", "hardware": "a100-sxm-80gb", "precision": "fp16",
                     "timing": "estimate", "tensor_parallel": 1},
        "serving": {"policy": "disaggregated", "prefill_devices": 1, "decode_devices": 1,
                    "prefill_tensor_parallel": 2, "decode_tensor_parallel": 1,
                    "token_budget": 8192, "max_batch": 1024},
        "devices": 3, "workload": "sharegpt"},
    "opt-13b-tp2": {
        "scenario": {"model": "opt-13b", "hardware": "a100-sxm-80gb", "precision": "fp16",
                     "timing": "estimate", "stack": "vllm-0.2", "tensor_parallel": 2},
        "serving": {"policy": "prefill-first", "token_budget": 16384, "max_batch": 1024},
        "devices": 2},
    # Sarathi-Serve Fig. 9a: Yi-34B-200K (Yi-34B's shape), TP 2 on A100-80GB PCIe pairs joined by
    # NVLink (the engine's A100 is the SXM part: same 312 TFLOP/s, 5 % more bandwidth), max batch
    # 1, chunk 512 or 16384 (= unchunked). Sarathi-Serve is built on vLLM: its host gaps.
    "sarathi-yi-34b": {
        "scenario": {"model": YI_34B, "hardware": "a100-sxm-80gb", "precision": "fp16",
                     "timing": "estimate", "stack": "vllm-0.2", "tensor_parallel": 2},
        "serving": {"policy": "chunked", "max_batch": 1},
        "devices": 2},
    # Splitwise's profile: vLLM, Llama-2-70B, TP 8 on a DGX-A100 / DGX-H100. The whole batch is
    # prefilled in one iteration (token budget ≥ 64 × 512), then decodes together.
    "splitwise-llama-2-70b-a100": {
        "scenario": {"model": LLAMA_2_70B, "hardware": "a100-sxm-80gb", "precision": "fp16",
                     "timing": "estimate", "stack": "vllm-0.2", "tensor_parallel": 8},
        "serving": {"policy": "prefill-first", "token_budget": 65536, "max_batch": 256},
        "devices": 8},
    "splitwise-llama-2-70b-h100": {
        "scenario": {"model": LLAMA_2_70B, "hardware": "h100-sxm", "precision": "fp16",
                     "timing": "estimate", "stack": "vllm-0.2", "tensor_parallel": 8},
        "serving": {"policy": "prefill-first", "token_budget": 65536, "max_batch": 256},
        "devices": 8},
}


def load_table():
    with open(TABLE, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        row["published"] = float(row["published"])
        row["setup"] = json.loads(row["setup"])
    return rows


class Workload:
    """Unit-rate Poisson arrivals and DistServe's ShareGPT pairs, drawn once per system (seeded)."""

    def __init__(self, requests, seed):
        with open(PAIRS, encoding="utf-8") as f:
            pairs = json.load(f)
        counts = pairs["decile_counts"]
        bins = len(counts)
        cells = [(i, j) for i in range(bins) for j in range(bins)]
        weights = [counts[i][j] for i, j in cells]
        rng = random.Random(seed)
        clock = 0.0
        self.unit_arrivals, self.prompts, self.outputs = [], [], []
        for _ in range(requests):
            clock += rng.expovariate(1.0)
            self.unit_arrivals.append(clock)
            i, j = rng.choices(cells, weights)[0]
            # Redrawn inside the cell until prompt + output < 2048, DistServe's filter (OPT's
            # 2,048 positions), which every logged pair meets; every non-empty cell has such pairs.
            while True:
                prompt = self._draw(pairs["prompt_quantiles"], (i + rng.random()) / bins)
                output = self._draw(pairs["output_quantiles"], (j + rng.random()) / bins)
                if prompt + output < 2048:
                    break
            self.prompts.append(prompt)
            self.outputs.append(output)

    @staticmethod
    def _draw(quantiles, u):
        position = u * (len(quantiles) - 1)
        low = int(position)
        high = min(low + 1, len(quantiles) - 1)
        value = quantiles[low] + (position - low) * (quantiles[high] - quantiles[low])
        return max(1, int(round(value)))

    def rows(self, rate):
        return [[round(t / rate, 9), p, o]
                for t, p, o in zip(self.unit_arrivals, self.prompts, self.outputs)]


class Runner:
    def __init__(self, keep_dir=None, timing=None):
        self.keep_dir = keep_dir
        self.timing = timing  # None: each system's own (estimate); "bound": the lower bound
        self.tmp = tempfile.mkdtemp(prefix="published-serving-")
        self.workloads = {}
        self.commands = []

    def workload(self, system):
        if system not in self.workloads:
            self.workloads[system] = Workload(LOAD_REQUESTS, SEED)
        return self.workloads[system]

    def serve(self, name, system, serving_extra, csv_output=False, trace=None):
        """One `prefill-trace serve` run of `system` with `serving_extra` (and `--trace FILE`)."""
        spec = SYSTEMS[system]
        scenario = dict(spec["scenario"])
        if self.timing:
            scenario["timing"] = self.timing
            name = f"{name}-{self.timing}"
        serving = dict(spec["serving"])
        serving.update(serving_extra)
        scenario["serving"] = {k: v for k, v in serving.items() if v is not None}
        directory = self.keep_dir or self.tmp
        path = os.path.join(directory, name + ".json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(scenario, f)
        command = [CLI, "serve", "--scenario", path, "--csv" if csv_output else "--json"]
        if trace:
            command += ["--trace", trace]
        self.commands.append(" ".join(["prefill-trace"] + command[1:]))
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{name}: exit {done.returncode}: {done.stderr.strip()}")
        return done.stdout if csv_output else json.loads(done.stdout)

    def attainment(self, name, system, rate):
        rows = self.workload(system).rows(rate)
        report = self.serve(name, system, {"rows": rows})
        return 100.0 * report["slo_attainment"]

    def separate_attainment(self, name, system, rate, ttft_slo, tpot_slo):
        """Shares (%) of all requests within the TTFT SLO and within the TPOT SLO, apart."""
        rows = self.workload(system).rows(rate)
        text = self.serve(name, system, {"rows": rows}, csv_output=True)
        records = list(csv.DictReader(text.splitlines()))
        ttft_ok = sum(1 for r in records if r["ttft_seconds"] and float(r["ttft_seconds"]) <= ttft_slo)
        # A one-token output has no TPOT (empty cell): it meets any TPOT SLO, as in DistServe
        # (tpot = 0 when output_len == 1).
        tpot_ok = sum(1 for r in records if r["finished"] == "true" and
                      (not r["tpot_seconds"] or float(r["tpot_seconds"]) <= tpot_slo))
        return 100.0 * ttft_ok / len(records), 100.0 * tpot_ok / len(records)


def first_crossing(xs, ys, target):
    """DistServe's find_intersection: the first segment whose ends straddle the target."""
    for i in range(len(xs) - 1):
        if (ys[i] < target) != (ys[i + 1] < target):
            return (target - ys[i]) * (xs[i + 1] - xs[i]) / (ys[i + 1] - ys[i]) + xs[i]
    return None  # not bracketed by the grid


def per_gpu_goodput(runner, row_id, system, grid, target):
    devices = SYSTEMS[system]["devices"]
    ys = [runner.attainment(f"{row_id}-{system}-{x:g}", system, x * devices) for x in grid]
    return first_crossing(grid, ys, target), ys


def engine_figure(runner, row):
    setup = row["setup"]
    kind = setup["kind"]
    if kind == "attainment":
        system = setup["system"]
        rate = setup["rate"] * SYSTEMS[system]["devices"]
        return runner.attainment(row["id"], system, rate), ""
    if kind == "goodput_ratio":
        a, a_curve = per_gpu_goodput(runner, row["id"], setup["a"], setup["grid"], setup["target"])
        b, b_curve = per_gpu_goodput(runner, row["id"], setup["b"], setup["grid"], setup["target"])
        detail = (f"{setup['a']} {a if a is None else round(a, 3)} req/s/GPU "
                  f"(attainment {[round(y) for y in a_curve]}); {setup['b']} "
                  f"{b if b is None else round(b, 3)} (attainment {[round(y) for y in b_curve]})")
        if a is None or b is None:
            return None, detail + "; a curve never crosses the target on the published grid"
        return a / b, detail
    if kind == "goodput_separate":
        system = setup["system"]
        devices = SYSTEMS[system]["devices"]
        ys = []
        for x in setup["grid"]:
            ttft, tpot = runner.separate_attainment(
                f"{row['id']}-{x:g}", system, x * devices, setup["ttft_slo"], setup["tpot_slo"])
            ys.append(min(ttft, tpot))
        crossing = first_crossing(setup["grid"], ys, setup["target"])
        return crossing, f"min(TTFT, TPOT attainment) on the grid: {[round(y) for y in ys]}"
    if kind == "kv_capacity":
        report = runner.serve(row["id"], setup["system"],
                              {"rows": [[0, 16, 2]], "ttft_slo": None, "tpot_slo": None})
        return report["kv_capacity_tokens"], ""
    if kind == "lone_ttft":
        report = runner.serve(row["id"], setup["system"],
                              {"rows": [[0, setup["prompt"], 1]], "token_budget": setup["budget"]})
        return 1000.0 * report["ttft_seconds"]["p50"], ""
    if kind == "chunk_ratio":
        # Unchunked = one chunk as large as the prompt (Sarathi's chunk 16384 baseline).
        rows = [[0, setup["prompt"], 1]]
        chunked = runner.serve(row["id"] + "-chunked", setup["system"],
                               {"rows": rows, "token_budget": setup["chunk"]})
        whole = runner.serve(row["id"] + "-whole", setup["system"],
                             {"rows": rows, "token_budget": 16384})
        a = chunked["ttft_seconds"]["p50"]
        b = whole["ttft_seconds"]["p50"]
        return a / b, f"{1000 * a:.1f} ms ÷ {1000 * b:.1f} ms"
    if kind == "batch_tpot":
        rows = [[0, setup["prompt"], setup["output"]]] * setup["batch"]
        report = runner.serve(row["id"], setup["system"], {"rows": rows})
        return 1000.0 * report["tpot_seconds"]["mean"], ""
    raise ValueError(f"{row['id']}: unknown kind {kind}")


def published_requests_ratio(runner, directory):
    """DistServe's OPT-13B ratio on the very requests of its published curves (a diagnosis, from
    the logs in `directory`): the ae-scripts send N = 100 requests a rate to vLLM and N = 300 to
    DistServe (evaluation/ae-scripts/e2e/opt-13b-*-client.sh), the first N of the seed-0 sample,
    i.e. the first N pairs of the 1,600-request log; arrivals are that log's issue offsets times
    its rate (16 req/s), the client's unit-rate gamma draws, scaled to each rate of the grid."""
    requests = distserve_logs.read_log(os.path.join(directory, distserve_logs.LONGEST))
    unit = [(r["issue_time"] - requests[0]["issue_time"]) * 16 for r in requests]
    row = next(r for r in load_table() if r["id"] == "distserve-ratio-opt-13b")
    grid, target = row["setup"]["grid"], row["setup"]["target"]
    goodputs, curves = [], []
    for system, count in (("distserve-opt-13b", 300), ("vllm-opt-13b", 100)):
        devices = SYSTEMS[system]["devices"]
        ys = []
        for x in grid:
            rows = [[round(unit[i] / (x * devices), 9), requests[i]["prompt_len"],
                     requests[i]["output_len"]] for i in range(count)]
            report = runner.serve(f"first-{count}-{system}-{x:g}", system, {"rows": rows})
            ys.append(100.0 * report["slo_attainment"])
        goodputs.append(first_crossing(grid, ys, target))
        curves.append(f"{system} (first {count}): {fmt(goodputs[-1])} req/s/GPU, attainment "
                      f"{[round(y) for y in ys]}")
    ratio = None if None in goodputs else goodputs[0] / goodputs[1]
    return ratio, "; ".join(curves)


# What `timing: bound` promises against a measurement, by kind: a lower bound on device time
# (docs/model.md) makes latencies no longer (≤) and attainment and goodput no lower (≥) than the
# measured ones for the same workload; ratios and capacities carry no direction, and are not run.
# Under bound no host time is charged (docs/serving.md), so host time cannot break it.
BOUND_DIRECTION = {"attainment": "≥", "goodput_separate": "≥", "lone_ttft": "≤",
                   "batch_tpot": "≤"}


def evaluate(only=None, keep_dir=None):
    runner = Runner(keep_dir)
    bound_runner = Runner(keep_dir, timing="bound")
    results = []
    for row in load_table():
        if only and row["id"] != only:
            continue
        start = len(runner.commands)
        figure, detail = engine_figure(runner, row)
        ratio = None if figure is None else figure / row["published"]
        direction = BOUND_DIRECTION.get(row["setup"]["kind"])
        bound = engine_figure(bound_runner, row)[0] if direction else None
        results.append({"row": row, "engine": figure, "ratio": ratio, "detail": detail,
                        "commands": runner.commands[start:], "bound": bound,
                        "bound_direction": direction})
    return results


def bound_holds(result):
    """Whether the bound figure is on its promised side of the published one (None: no promise)."""
    if result["bound_direction"] is None or result["bound"] is None:
        return None
    published = result["row"]["published"]
    if result["bound_direction"] == "≥":
        return result["bound"] >= published
    return result["bound"] <= published


def fmt(x):
    if x is None:
        return "—"
    if abs(x) >= 1000:
        return f"{x:.0f}"
    return f"{x:.3g}"


def markdown(results):
    lines = ["| id | published (source, place) | quantity | published | engine | engine ÷ published "
             "| bound (promise) |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in results:
        row = r["row"]
        bound = "—" if r["bound_direction"] is None else (
            f"{fmt(r['bound'])} ({r['bound_direction']} published: "
            f"{'holds' if bound_holds(r) else 'BROKEN'})")
        lines.append(f"| {row['id']} | {row['system']}: [{row['locator']}]({row['source']}) | "
                     f"{row['quantity']} | {fmt(row['published'])} {row['unit']} | "
                     f"{fmt(r['engine'])} | {fmt(r['ratio'])} | {bound} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print the docs table")
    parser.add_argument("--write-scenarios", metavar="DIR", help="keep the scenario files here")
    parser.add_argument("--only", metavar="ID", help="one row")
    parser.add_argument("--logs", metavar="DIR", help="replay DistServe's logs instead "
                        f"(distserve_replays.csv): DIR = {distserve_logs.LOG_DIR} of a checkout "
                        f"of LLMServe/DistServe at {distserve_logs.COMMIT[:7]}")
    args = parser.parse_args()
    if args.write_scenarios:
        os.makedirs(args.write_scenarios, exist_ok=True)
    if args.logs:
        if not os.path.isfile(os.path.join(args.logs, distserve_logs.LONGEST)):
            parser.error(f"--logs {args.logs}: no {distserve_logs.LONGEST} there; give "
                         f"{distserve_logs.LOG_DIR} of a checkout at {distserve_logs.COMMIT[:7]}")
        results = distserve_logs.replay_rows(args.logs, Runner(args.write_scenarios),
                                             Runner(args.write_scenarios, timing="bound"))
        print(distserve_logs.replay_markdown(results, fmt))
        for timing in (None, "bound"):
            runner = Runner(args.write_scenarios, timing)
            ratio, detail = published_requests_ratio(runner, args.logs)
            print(f"\ndistserve-ratio-opt-13b on the published curves' own requests "
                  f"({timing or 'estimate'}): {fmt(ratio)} (4.6 published)\n    {detail}")
        return 0
    results = evaluate(args.only, args.write_scenarios)
    if args.markdown:
        print(markdown(results))
        return
    for r in results:
        row = r["row"]
        print(f"{row['id']}: published {fmt(row['published'])} {row['unit']}, engine "
              f"{fmt(r['engine'])}, ratio {fmt(r['ratio'])}")
        if r["detail"]:
            print(f"    {r['detail']}")
        print(f"    {len(r['commands'])} run(s), e.g. {r['commands'][0]}")


if __name__ == "__main__":
    sys.exit(main())
