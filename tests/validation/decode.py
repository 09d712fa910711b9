"""Decode steps against published measurements: the table's `decode` rows, the fit of the
decode profile and its grouped cross-validation (docs/validation.md, "Decode steps"). Python 3
standard library only.

The form (chosen before any row was scored): a decode step (one new row per request) runs
every kernel at the prefill profile's compute efficiencies and host gaps, but its memory term
at its own fitted fraction of peak bandwidth η_d and its own per-launch floor t_d
(`decode_memory_efficiency`, `decode_memory_latency_seconds`):
    step = Σ_kernels max(compute / η_c, bytes / (bandwidth · η_d) + launches · t_d) + gaps.
At batch ≤ 64 every kernel of a decode step is memory-bound, so step = A / η_d + K · t_d + C
with A = bytes / bandwidth, K = device launches and C = gaps (and all-reduces); A, K and C are
read from the engine by three runs with different (η_d, t_d) and checked by a fourth
(`step_parts`): a row where a kernel changes regime inside the grid is refused, not fitted.
Rows: `decode_step` (one step at the row's context) and `decode_generation` (a whole generate
call: the prefill of batch × prompt, predicted by the shipped prefill profile, plus output − 1
steps at the mean context prompt + output / 2, exact for a step linear in its context).
An accelerator with MIN_OWN_ROWS decode rows gets its own (η_d, t_d); the others the fit over
every row ("pooled").
"""

import csv
import math

import evaluate
import fit
import measurements

MIN_OWN_ROWS = 6
GRID = fit.GRID
LATENCY_GRID = fit.LATENCY_GRID
# The engine's fallback when a profile states no decode roofs: the prefill ones.
NOT_STATED = {"decode_memory_efficiency": 0, "decode_memory_latency_seconds": 0}
# (η_d, t_d) of the runs that give A, K and C, and of the run that checks them.
PROBES = ((1.0, 0.0), (0.5, 0.0), (1.0, 1e-6))
CHECK = (0.25, 2e-6)


def load(table=measurements.TABLE):
    """The table's decode rows as cases: scenario (context = the step's keys), operator
    (`decode_step` or `decode_generation`), output tokens and the measured seconds."""
    presets = measurements.accelerators()
    cases = []
    with open(table, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["kind"] != "decode":
                continue
            if row["accelerator"] not in presets:
                raise ValueError("%s: accelerator %s is not a preset" % (row["id"], row["accelerator"]))
            precision = row["precision"]
            if precision in ("int8", "int4") and row["framework"].startswith("gpt-fast"):
                # Weight-only quantization: int8/int4 weights, 16-bit activations and K/V.
                precision = {"weights": precision, "activations": "bf16", "kv": "bf16"}
            scenario = {"hardware": row["accelerator"], "precision": precision,
                        "tensor_parallel": int(row["tensor_parallel"] or 1),
                        "batch": int(row["batch"] or 1),
                        "model": measurements.CUSTOM_MODELS.get(row["model"], row["model"]),
                        "prompt_tokens": int(row["prompt_tokens"]),
                        "stack": measurements.stack_of(row)}
            if row["framework"].startswith("gpt-fast"):
                # generate.py compiles decode_one_token with torch.compile(mode="reduce-overhead"):
                # the step is replayed from a CUDA graph (the profile's graph gap, not a stack's).
                scenario["graphs"] = "on"
            output = None
            if row["operator"] == "decode_generation":
                # The source's prompt and output lengths are equal (Input Output Length).
                output = int(row["prompt_tokens"])
            elif row["operator"] != "decode_step":
                raise ValueError("%s: operator %s" % (row["id"], row["operator"]))
            cases.append({"id": row["id"], "row": row, "scenario": scenario,
                          "operator": row["operator"], "output_tokens": output,
                          "measured": float(row["measured_seconds"])})
    return cases


def run(scenario, efficiency, floor):
    """(decode step seconds, TTFT seconds) of a scenario with the given decode roofs."""
    hardware = {"preset": scenario["hardware"],
                "estimate": {"decode_memory_efficiency": efficiency,
                             "decode_memory_latency_seconds": floor}}
    trace = measurements.run_trace(dict(scenario, timing="estimate", hardware=hardware))
    return trace["decode_comparison"]["seconds"], trace["totals"]["ttft"]["total_seconds"]


def step_scenario(case):
    scenario = dict(case["scenario"])
    if case["operator"] == "decode_generation":
        scenario["prompt_tokens"] += case["output_tokens"] // 2
    return scenario


def step_parts(case):
    """{A, K, C, ttft, before}: step = A/η_d + K·t_d + C; ttft the prefill (generation rows);
    before = the step as the engine times it with no decode roofs (the prefill ones)."""
    scenario = step_scenario(case)
    (s1, _), (s2, _), (s3, _) = (run(scenario, e, t) for e, t in PROBES)
    parts = {"A": s2 - s1, "K": (s3 - s1) / 1e-6}
    parts["C"] = s1 - parts["A"]
    check = run(scenario, *CHECK)[0]
    expected = parts["A"] / CHECK[0] + parts["K"] * CHECK[1] + parts["C"]
    if abs(check / expected - 1) > 1e-9:
        raise ValueError("%s: a kernel of the decode step changes regime inside the grid "
                         "(%.9g s against %.9g s)" % (case["id"], check, expected))
    parts["before"] = run(scenario, 0, 0)[0]
    parts["ttft"] = run(case["scenario"], 0, 0)[1] if case["operator"] == \
        "decode_generation" else 0.0
    return parts


def with_parts(cases):
    return [(case, step_parts(case)) for case in cases]


def generation(case, parts, step):
    """A row's seconds from one decode step: the step itself, or the prefill and output − 1
    steps of a whole generate call."""
    if case["operator"] == "decode_generation":
        return parts["ttft"] + (case["output_tokens"] - 1) * step
    return step


def predict(case, parts, efficiency, floor):
    return generation(case, parts, parts["A"] / efficiency + parts["K"] * floor + parts["C"])


def predict_before(case, parts):
    return generation(case, parts, parts["before"])


def loss(entries, efficiency, floor):
    return sum(abs(math.log(predict(c, p, efficiency, floor) / c["measured"]))
               for c, p in entries) / len(entries)


def fit_one(entries):
    """(η_d, t_d) minimising the mean |log(predicted / measured)| over the whole grid."""
    return min(((e, t) for e in GRID for t in LATENCY_GRID),
               key=lambda value: loss(entries, *value))


def fit_profiles(entries, accelerators):
    """{accelerator: (η_d, t_d, how)}: its own rows when it has MIN_OWN_ROWS, else pooled."""
    pooled = fit_one(entries) if entries else None
    profiles = {}
    for accelerator in accelerators:
        own = [(c, p) for c, p in entries if c["scenario"]["hardware"] == accelerator]
        if len(own) >= MIN_OWN_ROWS:
            profiles[accelerator] = fit_one(own) + ("own decode rows (%d)" % len(own),)
        elif pooled:
            profiles[accelerator] = pooled + (
                "pooled over every decode row (%d own rows)" % len(own),)
    return profiles


def source_of(case):
    return evaluate.source_of(case)


def group_of(case):
    return evaluate.group_of(case)


def held_out(entries, accelerators, assign):
    """{id: (case, predicted, fold)} with (η_d, t_d) refitted without each fold's rows."""
    out = {}
    for fold in sorted({assign(c) for c, _ in entries}, key=str):
        train = [(c, p) for c, p in entries if assign(c) != fold]
        profiles = fit_profiles(train, accelerators)
        for case, parts in entries:
            if assign(case) == fold:
                efficiency, floor, _ = profiles[case["scenario"]["hardware"]]
                out[case["id"]] = (case, predict(case, parts, efficiency, floor), fold)
    return out


def grouped_cv(entries, accelerators, k=evaluate.K_FOLDS):
    folds = evaluate.fold_of_groups([c for c, _ in entries], k)
    return held_out(entries, accelerators, lambda c: folds[group_of(c)])


def leave_one_source_out(entries, accelerators):
    return held_out(entries, accelerators, source_of)


def errors(predictions):
    """(rows, median |error|, p90 |error|, median of predicted / measured)."""
    values = [abs(p / c["measured"] - 1) for c, p, _ in predictions.values()]
    ratios = [p / c["measured"] for c, p, _ in predictions.values()]
    return (len(values), measurements.percentile(values, 0.5),
            measurements.percentile(values, 0.9), measurements.percentile(ratios, 0.5))


def before(entries):
    """The same figures for the engine as it was: decode at the prefill profile (no refit)."""
    return errors({c["id"]: (c, predict_before(c, p), None) for c, p in entries})
