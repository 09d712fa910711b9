#!/usr/bin/env python3
"""DistServe's own per-request logs of OPT-13B on ShareGPT (docs/serving.md, "Published results").

DistServe's repository publishes the client-side logs of its vLLM and DistServe runs
(simdistserve/benchmarks/alignment/data-ground-truth/opt-13b-sharegpt/*.exp at commit
20a1633ed6f2be5f456d84d1c283865c3e5112d5): one Python-literal list of dicts a file, each request's
prompt_len, output_len, issue_time, first_token_time, complete_time, ttft_ms, tpot_ms and
latency_ms, written by evaluation/2-benchmark-serving/2-benchmark-serving.py (ttft = first token
− issue; tpot = (last token − first token) / (output_len − 1), 0 for one token).

Nothing of these logs is copied into this repository. This module reads them from a checkout
(`fetch` or `git clone` of LLMServe/DistServe at the commit above) and
- `derive DIR` writes distserve_sharegpt_pairs.json: a derived summary of the (prompt, output)
  pairs DistServe's client sent (marginal quantiles and a rank-decile count table), from which
  published.py draws DistServe's workload;
- `replay_rows(DIR)` (published.py --logs DIR) replays chosen runs' exact arrivals and lengths.

Reusable, plain module-level functions: read_log, percentile, attainment, write_mooncake_jsonl,
derive_pairs. Standard library only.
"""

import ast
import csv
import json
import math
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PAIRS = os.path.join(HERE, "distserve_sharegpt_pairs.json")
COMMIT = "20a1633ed6f2be5f456d84d1c283865c3e5112d5"
LOG_DIR = "simdistserve/benchmarks/alignment/data-ground-truth/opt-13b-sharegpt"
SOURCE = f"https://github.com/LLMServe/DistServe/blob/{COMMIT}/{LOG_DIR}"
# The longest run; every other log of the folder sends a prefix of its requests (checked by
# `derive`): DistServe's client seeds `random` with 0 and takes random.sample(dataset, N), whose
# first N' draws are the same for every N ≥ N'.
LONGEST = "distserve-c21d12-1600-16.exp"
BINS = 10  # rank deciles: 160 pairs a decile of 1,600


def read_log(path):
    """A .exp log's requests sorted by issue time (the order the client sent them)."""
    with open(path, encoding="utf-8") as f:
        requests = ast.literal_eval(f.readline().strip())
    if not isinstance(requests, list) or not requests:
        raise ValueError(f"{path}: expected a non-empty list of request dicts on the first line")
    return sorted(requests, key=lambda r: r["issue_time"])


def percentile(values, q):
    """The q-quantile (0..1) by linear interpolation between closest ranks (numpy's default)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("percentile of no values")
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (position - low) * (ordered[high] - ordered[low])


def attainment(pairs, ttft_slo, tpot_slo):
    """Share (%) of (ttft, tpot) pairs, in seconds, with ttft ≤ ttft_slo and tpot ≤ tpot_slo."""
    pairs = list(pairs)
    met = sum(1 for ttft, tpot in pairs if ttft <= ttft_slo and tpot <= tpot_slo)
    return 100.0 * met / len(pairs)


def write_mooncake_jsonl(path, rows):
    """Rows (arrival seconds, prompt tokens, output tokens) as a Mooncake-style JSON Lines trace
    (`prefill-trace serve --trace FILE`): `timestamp` in milliseconds, as the CLI reads it."""
    with open(path, "w", encoding="utf-8") as f:
        for arrival, prompt, output in rows:
            f.write(json.dumps({"timestamp": round(1000.0 * arrival, 6),
                                "input_length": int(prompt), "output_length": int(output)}) + "\n")


def nearest_rank_quantiles(values, count=101):
    """Quantile i/(count − 1) = the ceil(i/(count − 1) · n)-th smallest (the smallest for i = 0),
    the nearest-rank rule."""
    ordered = sorted(values)
    n = len(ordered)
    return [ordered[max(1, math.ceil(i * n / (count - 1))) - 1] for i in range(count)]


def rank_bins(values, bins):
    """Each value's rank decile: rank r (0-based, ties in send order) → floor(bins · r / n)."""
    order = sorted(range(len(values)), key=lambda i: (values[i], i))
    out = [0] * len(values)
    for rank, i in enumerate(order):
        out[i] = bins * rank // len(values)
    return out


def derive_pairs(directory):
    """The summary distserve_sharegpt_pairs.json holds, from the logs in `directory`."""
    names = sorted(n for n in os.listdir(directory) if n.endswith(".exp"))
    sent = {n: [(r["prompt_len"], r["output_len"]) for r in read_log(os.path.join(directory, n))]
            for n in names}
    longest = sent[LONGEST]
    for name, pairs in sent.items():
        if pairs != longest[:len(pairs)]:
            raise ValueError(f"{name}: its requests are not a prefix of {LONGEST}'s")
    prompts = [p for p, _ in longest]
    outputs = [o for _, o in longest]
    prompt_bin, output_bin = rank_bins(prompts, BINS), rank_bins(outputs, BINS)
    counts = [[0] * BINS for _ in range(BINS)]
    for i, j in zip(prompt_bin, output_bin):
        counts[i][j] += 1
    return {"files": len(names), "pairs": len(longest),
            "prompt_mean": round(sum(prompts) / len(prompts), 1),
            "output_mean": round(sum(outputs) / len(outputs), 1),
            "prompt_quantiles": nearest_rank_quantiles(prompts),
            "output_quantiles": nearest_rank_quantiles(outputs),
            "decile_counts": counts}


REPLAYS = os.path.join(HERE, "distserve_replays.csv")
# The figures compared per replayed run: (key, quantity, unit, bound's promise). TTFT 0.25 s and
# TPOT 0.1 s are DistServe's chatbot OPT-13B SLOs (plot.ipynb, the rows of published.csv).
FIGURES = [("ttft_p50", "TTFT p50", "s", "≤"), ("ttft_p90", "TTFT p90", "s", "≤"),
           ("tpot_p50", "TPOT p50", "s", "≤"), ("tpot_p90", "TPOT p90", "s", "≤"),
           ("attainment", "SLO attainment (TTFT ≤ 0.25 s and TPOT ≤ 0.1 s)", "%", "≥")]
TTFT_SLO, TPOT_SLO = 0.25, 0.1


def summarise(latencies):
    """The FIGURES of a run's (ttft, tpot) pairs in seconds."""
    ttft = [t for t, _ in latencies]
    tpot = [p for _, p in latencies]
    return {"ttft_p50": percentile(ttft, 0.5), "ttft_p90": percentile(ttft, 0.9),
            "tpot_p50": percentile(tpot, 0.5), "tpot_p90": percentile(tpot, 0.9),
            "attainment": attainment(latencies, TTFT_SLO, TPOT_SLO)}


def replay(runner, directory, row, scratch):
    """The log's figures and the engine's for one run: the log's exact arrivals (issue time minus
    the first) and lengths, as a Mooncake JSONL trace, through `runner` (published.Runner)."""
    requests = read_log(os.path.join(directory, row["log"]))
    start = requests[0]["issue_time"]
    trace = os.path.join(scratch, row["id"] + ".jsonl")
    write_mooncake_jsonl(trace, [(r["issue_time"] - start, r["prompt_len"], r["output_len"])
                                 for r in requests])
    text = runner.serve("replay-" + row["id"], row["system"], {}, csv_output=True, trace=trace)
    records = list(csv.DictReader(text.splitlines()))
    if len(records) != len(requests) or any(r["finished"] != "true" for r in records):
        raise RuntimeError(f"{row['id']}: the engine did not finish every request of the log")
    # A one-token output has TPOT 0 on both sides (DistServe's RequestResult; the CLI's CSV).
    engine = [(float(r["ttft_seconds"]), float(r["tpot_seconds"] or 0)) for r in records]
    logged = [(r["ttft_ms"] / 1000.0, r["tpot_ms"] / 1000.0) for r in requests]
    return summarise(logged), summarise(engine)


def replay_rows(directory, estimate_runner, bound_runner):
    """Every run of distserve_replays.csv: one result per (run, figure)."""
    with open(REPLAYS, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    scratch = tempfile.mkdtemp(prefix="distserve-replays-")
    results = []
    for row in rows:
        logged, engine = replay(estimate_runner, directory, row, scratch)
        bound = replay(bound_runner, directory, row, scratch)[1]
        for key, quantity, unit, direction in FIGURES:
            holds = bound[key] >= logged[key] if direction == "≥" else bound[key] <= logged[key]
            results.append({"row": row, "key": key, "quantity": quantity, "unit": unit,
                            "log": logged[key], "engine": engine[key], "bound": bound[key],
                            "direction": direction, "holds": holds})
    return results


def replay_markdown(results, fmt):
    """One line a run: each figure as log / engine (bound), the bound's promise checked."""
    header = ["run (log at 20a1633)", "per-GPU rate"] + [q.split(" (")[0] for _, q, _, _ in FIGURES]
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    runs = {}
    for r in results:
        runs.setdefault(r["row"]["id"], []).append(r)
    for run, figures in runs.items():
        row = figures[0]["row"]
        cells = [f"[{run}]({SOURCE}/{row['log']})", row["per_gpu_rate"]]
        for r in figures:
            scale = 1000.0 if r["unit"] == "s" else 1.0  # latencies in ms
            mark = "" if r["holds"] else " BROKEN"
            cells.append(f"{fmt(scale * r['log'])} / {fmt(scale * r['engine'])} "
                         f"({fmt(scale * r['bound'])}{mark})")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "derive":
        print(f"usage: {sys.argv[0]} derive DIR   (DIR: {LOG_DIR} of a checkout at {COMMIT[:7]})",
              file=sys.stderr)
        return 2
    summary = derive_pairs(sys.argv[2])
    with open(PAIRS, encoding="utf-8") as f:
        document = json.load(f)
    document.update(summary)
    with open(PAIRS, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    print(f"{PAIRS}: {summary['pairs']} pairs from {summary['files']} logs, prompt mean "
          f"{summary['prompt_mean']}, output mean {summary['output_mean']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
