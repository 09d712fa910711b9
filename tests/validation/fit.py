"""The fit of the estimate's per-accelerator profiles, as a library: script/fit-estimate fits the
shipped profiles on every scored row of the table with it, and evaluate.py refits it on each
cross-validation fold's training rows. Python 3 standard library only.

For every row the engine (native CLI) gives each operator's compute, memory and link time at
efficiency 1 under the estimate's traffic model (`raw_parts`); the fit searches the
efficiencies (GEMM, attention, memory, interconnect) and the kernel gap that minimise the mean
|log(predicted / measured)|, evaluating the engine's own formula (docs/model.md): per kernel
max(compute/η_family, memory/η_m, all-reduce calls × (NCCL's fastest choice at η_link +
per-call overhead)) + launch gap. script/fit-estimate checks afterwards that the engine predicts
every row as `predict` does. An accelerator with fewer than MIN_OWN_ROWS rows gets the fit over
all accelerators' rows ("pooled").
"""

import math
import os
import re

import measurements

MIN_OWN_ROWS = 6
GRID = [round(0.05 + 0.01 * i, 2) for i in range(96)]  # 0.05 .. 1.00
GAP_GRID = [round(0.5e-6 * i, 7) for i in range(121)]  # 0 .. 60 µs
PARAMETERS = ("gemm_efficiency", "attention_efficiency", "memory_efficiency",
              "interconnect_efficiency")
# Efficiencies 1 and no fitted costs: the engine's raw parts, whatever hardware.json holds now.
UNIT = dict({name: 1.0 for name in PARAMETERS}, expert_gemm_efficiency=1.0,
            all_reduce_overhead_seconds=0,
            kernel_gap_seconds=0, graph_launch_gap_seconds=0)
FITTED = PARAMETERS + ("expert_gemm_efficiency", "all_reduce_overhead_seconds",
                      "kernel_gap_seconds")
LINK = ("interconnect_efficiency", "all_reduce_overhead_seconds")
MAIN = PARAMETERS[:3] + ("kernel_gap_seconds",)


def all_reduce_choices():
    """NCCL's algorithm/protocol choices as the engine holds them (src/collective.hpp), read
    from that header so the fit and the engine use one table."""
    with open(os.path.join(measurements.ROOT, "src", "collective.hpp"), encoding="utf-8") as f:
        text = f.read()
    table = text[text.index("kAllReduceChoices[] = {"):]
    table = table[:table.index("};")]
    row = r'\{"[^"]+", ([-0-9.e]+), ([-0-9.e]+), ([-0-9.e]+), ([-0-9.e]+), (true|false)\}'
    choices = [(float(base), float(nvlink), float(pcie), float(fraction), in_network == "true")
               for base, nvlink, pcie, fraction, in_network in re.findall(row, table)]
    if len(choices) != table.count("{\""):
        raise RuntimeError("fit: could not read every row of kAllReduceChoices")
    return choices


CHOICES = all_reduce_choices()


def raw_parts(case, hardware):
    """Per-kernel (count, family, compute, memory, link, calls, launches) at efficiency 1; link
    = (bytes per call, devices, bandwidth, NVLink?, reduces in network?) for an all-reduce."""
    scenario = dict(case["scenario"], timing="estimate",
                    hardware={"preset": case["scenario"]["hardware"], "estimate": UNIT})
    trace = measurements.run_trace(scenario)
    devices = case["scenario"]["tensor_parallel"]
    parts = []
    for op in trace["operators"]:
        if case["operator"] is not None and op["name"] != case["operator"]:
            continue
        calls = op["launches"] if op["link_bytes"] else 0.0
        link = None
        if op["link_bytes"]:
            # link_bytes is the ring's 2(N−1)/N of the partial sum; the table's rows are not
            # chunked, so every call sums the same bytes.
            call_bytes = op["link_bytes"] / (2 * (devices - 1) / devices) / calls
            link = (call_bytes, devices, hardware["interconnect_bandwidth"],
                    hardware.get("interconnect_kind") == "nvlink",
                    bool(hardware.get("interconnect_reduces_in_network")))
        launches = 0.0 if case["operator"] is not None else op["launches"]
        count = 1.0 if case["operator"] is not None else op["count"]
        parts.append((count, op["family"], op["compute_seconds"], op["memory_seconds"], link,
                      calls, launches))
    return parts


def all_reduce_call(link, profile):
    """src/collective.hpp's all_reduce_call_seconds plus the fitted per-call overhead."""
    size, devices, bandwidth, nvlink, in_network = link
    bandwidth *= profile["interconnect_efficiency"]
    best = math.inf
    for base, nvlink_step, pcie_step, fraction, nvls in CHOICES:
        step = nvlink_step if nvlink else pcie_step
        if step < 0 or (nvls and not in_network):
            continue
        steps = 1 if nvls else 2 * (devices - 1)
        sent = (1 if nvls else 2) * (devices - 1) / devices * size
        best = min(best, base + steps * step + sent / (bandwidth * fraction))
    return profile["all_reduce_overhead_seconds"] + best


def predict(parts, profile):
    total = 0.0
    for count, family, compute, memory, link, calls, launches in parts:
        gap = launches * profile["kernel_gap_seconds"]
        eta_c = profile["attention_efficiency"] if family == "attention" else \
            profile["expert_gemm_efficiency"] if family == "expert_gemm" else \
            profile["gemm_efficiency"]
        link_time = calls * all_reduce_call(link, profile) if link else 0.0
        total += count * (max(compute / eta_c, memory / profile["memory_efficiency"],
                              link_time) + gap)
    return total


def loss(rows, profile):
    return sum(abs(math.log(predict(parts, profile) / measured)) for parts, measured in rows) / \
        len(rows)


def fit(rows, names=PARAMETERS, start=None):
    profile = dict(start or dict({name: 0.7 for name in PARAMETERS}, kernel_gap_seconds=4e-6,
                                 all_reduce_overhead_seconds=0.0, expert_gemm_efficiency=0.7))
    if not rows:
        return profile
    for _ in range(4):  # coordinate descent over the grid
        for name in names:
            grid = GAP_GRID if name.endswith("_seconds") else GRID
            best = min(grid, key=lambda value: loss(rows, dict(profile, **{name: value})))
            profile[name] = best
    return profile


def fit_profiles(entries, hardware, log=None):
    """Profiles per accelerator id, fitted on entries = [(case, parts)] (scored rows only).
    The link's efficiency and per-call cost come from the all-reduce rows alone (pure link
    measurements), the other parameters from every other row with it fixed; mixture-of-experts
    rows fit the expert efficiency alone."""
    by_accelerator, reduces, moe_rows = {}, {}, {}
    for case, parts in entries:
        accelerator = case["scenario"]["hardware"]
        entry = (case["id"], parts, case["measured"])
        moe_row = any(part[1] == "expert_gemm" for part in parts)
        kind = reduces if case["operator"] == "attention_all_reduce" else \
            moe_rows if moe_row else by_accelerator
        kind.setdefault(accelerator, []).append(entry)

    def rows_of(groups):
        return [(parts, measured) for rows in groups for _, parts, measured in rows]

    def ids_of(groups):
        return sorted(i for rows in groups for i, _, _ in rows)

    link_pooled = fit(rows_of(reduces.values()), LINK)
    pooled = fit(rows_of(by_accelerator.values()), MAIN, link_pooled)
    profiles = {}
    for accelerator in hardware:
        own_reduces = reduces.get(accelerator, [])
        link = fit(rows_of([own_reduces]), LINK) if len(own_reduces) >= 2 else link_pooled
        link_ids = ids_of([own_reduces] if len(own_reduces) >= 2 else reduces.values())
        rows = by_accelerator.get(accelerator, [])
        if len(rows) >= MIN_OWN_ROWS:
            # A PCIe link has no all-reduce row in the table (those are NVLink): its link
            # parameters are fitted on the accelerator's own tensor-parallel rows instead.
            pcie = hardware[accelerator].get("interconnect_kind") == "pcie"
            names = MAIN + LINK if pcie else MAIN
            profile = fit(rows_of([rows]), names, link)
            profile["fit"] = "own rows (%d)" % len(rows)
            profile["fitted_on"] = sorted(ids_of([rows]) + ([] if pcie else link_ids))
        else:
            profile = dict(pooled, **{name: link[name] for name in LINK})
            profile["fit"] = "pooled over every accelerator (%d own rows)" % len(rows)
            profile["fitted_on"] = sorted(ids_of(by_accelerator.values()) + link_ids)
        # No row of the table is graph-launched: the graph gap is not fitted but assumed.
        profile["graph_launch_gap_seconds"] = 1e-6
        profiles[accelerator] = profile
        if log:
            log("%-14s %s" % (accelerator, {k: v for k, v in profile.items()
                                            if k not in ("fitted_on",)}))
    # Expert (MoE) GEMMs: fitted per accelerator on its own mixture-of-experts rows (two or
    # more); without them, expert GEMMs run at the GEMM efficiency (no evidence either way).
    for accelerator, profile in profiles.items():
        rows = moe_rows.get(accelerator, [])
        if len(rows) >= 2:
            profile["expert_gemm_efficiency"] = min(GRID, key=lambda value: sum(
                abs(math.log(predict(parts, dict(profile, expert_gemm_efficiency=value)) /
                             measured)) for _, parts, measured in rows))
            profile["fitted_on"] = sorted(set(profile["fitted_on"]) | {i for i, _, _ in rows})
        else:
            profile["expert_gemm_efficiency"] = profile["gemm_efficiency"]
        if log:
            log("%-14s expert_gemm_efficiency %.2f (%d MoE rows)"
                % (accelerator, profile["expert_gemm_efficiency"], len(rows)))
    return profiles
