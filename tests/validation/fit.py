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
all accelerators' rows ("pooled"); its expert efficiency and named attention kernels still come
from its architecture's rows where there are some.
"""

import math
import os
import re

import measurements

MIN_OWN_ROWS = 6
# Mixture-of-experts rows an expert efficiency is fitted on (a part's own, else its
# architecture's).
MIN_EXPERT_ROWS = 2
# The `auto` attention η of an accelerator is fitted on its own rows only when at least
# MIN_AUTO_ROWS of them spend AUTO_SHARE of their unit-efficiency time in attention
# (identifies_auto_attention); otherwise the fit has nothing to find and stops at a grid edge.
MIN_AUTO_ROWS = 2
AUTO_SHARE = 0.10
GRID = [round(0.05 + 0.01 * i, 2) for i in range(96)]  # 0.05 .. 1.00
GAP_GRID = [round(0.5e-6 * i, 7) for i in range(121)]  # 0 .. 60 µs
PARAMETERS = ("gemm_efficiency", "attention_efficiency", "memory_efficiency",
              "interconnect_efficiency")
# Efficiencies 1 and no fitted costs: the engine's raw parts, whatever hardware.json holds now.
# Every member the preset's profile may hold is overridden (a member left out would keep the
# preset's fitted value inside the raw parts).
UNIT = dict({name: 1.0 for name in PARAMETERS}, expert_gemm_efficiency=1.0,
            all_reduce_overhead_seconds=0, memory_latency_seconds=0,
            kernel_gap_seconds=0, graph_launch_gap_seconds=0,
            attention_kernel_efficiency={k: 1.0 for k in (
                "flash-attention-2", "flash-attention-3", "flashinfer", "sdpa")})
FITTED = PARAMETERS + ("expert_gemm_efficiency", "all_reduce_overhead_seconds",
                      "kernel_gap_seconds", "memory_latency_seconds")
LINK = ("interconnect_efficiency", "all_reduce_overhead_seconds")
MAIN = PARAMETERS[:3] + ("memory_latency_seconds",)
LATENCY_GRID = [round(0.25e-6 * i, 8) for i in range(41)]  # 0 .. 10 µs
# Stacks whose host gap is fitted on their own end-to-end rows: those grouped CV adopted one
# for (docs/validation.md, "Protocol"). The others take the gap fitted over every end-to-end row
# ("pooled"), and the engine gives them the unseen-stack interval. vLLM's own gap was tried in
# session 5 on the LLM-Inference-Bench rows and not adopted: grouped CV was no better with it
# (end-to-end TP 1 6.2 % / 18.7 % without, 6.3 % / 18.7 % with; all 9.2 % / 33.9 % both), and
# its fit sat at the grid's edge (60 µs), set by three MI300X rows no per-kernel gap explains.
STACKS = ("tensorrt-llm", "llama.cpp", "transformers")
ATTENTION_KERNELS = ("flash-attention-2", "flash-attention-3", "flashinfer", "sdpa")

# A named kernel's efficiency on an architecture no fit row covers: the kernel's authors'
# published utilization, before falling back to the pool over other architectures (a kernel's
# fraction of peak does not carry across architectures: FlashAttention-2 reaches about half of
# an A100's peak but a third of an H100's).
PUBLISHED_KERNEL_EFFICIENCY = {
    ("flash-attention-3", "hopper"): (0.75, "arXiv 2407.08608, abstract: FP16 up to 740 TFLOPs/s, "
                                            "75% utilization, on H100"),
    ("flash-attention-2", "hopper"): (0.35, "arXiv 2407.08608, abstract: FlashAttention-2 "
                                            "achieving only 35% utilization on the H100 GPU"),
    ("flash-attention-2", "ampere"): (0.50, "arXiv 2307.08691, abstract: 50-73% of the "
                                            "theoretical maximum FLOPs/s on A100 (lower end: "
                                            "causal forward at prefill lengths)"),
}


def all_reduce_choices():
    """NCCL's algorithm/protocol choices as the engine holds them (src/trace/collective.hpp), read
    from that header so the fit and the engine use one table."""
    with open(os.path.join(measurements.ROOT, "src", "trace", "collective.hpp"), encoding="utf-8") as f:
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


def kernel_architectures():
    """{kernel: set of architectures} as the engine holds it (src/scenario/attention_kernels.hpp), read
    from that header so the fit never gives a part an efficiency for a kernel it cannot run."""
    with open(os.path.join(measurements.ROOT, "src", "scenario", "attention_kernels.hpp"),
              encoding="utf-8") as f:
        text = f.read()
    table = text[text.index("kAttentionKernelArchitectures[] = {"):]
    table = table[:table.index("};")]
    rows = dict(re.findall(r'\{"([^"]+)", "([^"]+)"\}', table))
    if set(rows) != set(ATTENTION_KERNELS):
        raise RuntimeError("fit: kAttentionKernelArchitectures names %s" % sorted(rows))
    return {kernel: set(names.split()) for kernel, names in rows.items()}


KERNEL_ARCHITECTURES = kernel_architectures()


def runs_on(kernel, accelerator):
    """Whether a named attention kernel exists on an accelerator (hardware.json entry); an
    accelerator without an architecture is not checked (as in the engine)."""
    architecture = accelerator.get("architecture")
    return not architecture or architecture in KERNEL_ARCHITECTURES[kernel]


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
        # (…, launches the host gap is charged for, device launches the latency floor is)
        parts.append((count, op["family"], op["compute_seconds"], op["memory_seconds"], link,
                      calls, launches, op["launches"], op.get("occupancy", 1.0)))
    return parts


def kernels_of(accelerator, pooled, own):
    """The named kernels' efficiencies of one accelerator: its own where fitted, else pooled,
    and only for kernels that run on it."""
    return {kernel: value for kernel, value in dict(pooled, **own).items()
            if runs_on(kernel, accelerator)}


def settings(case):
    """What a row's scenario says beyond the hardware: (stack, attention kernel)."""
    scenario = case["scenario"]
    return scenario.get("stack", "tensorrt-llm"), scenario.get("attention_kernel", "auto")


def all_reduce_call(link, profile):
    """src/trace/collective.hpp's all_reduce_call_seconds plus the fitted per-call overhead."""
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


def gap_of(profile, stack):
    if stack == "kernels":
        return 0.0
    return profile.get("stack_gap_seconds", {}).get(stack, profile["kernel_gap_seconds"])


def attention_efficiency_of(profile, kernel):
    if kernel == "auto":
        return profile["attention_efficiency"]
    value = profile.get("attention_kernel_efficiency", {}).get(kernel)
    return value if value else profile["attention_efficiency"]


def predict(parts, profile, setting=("tensorrt-llm", "auto")):
    """The engine's estimate (docs/model.md) from a row's raw parts: per kernel
    max(compute/η_c, memory/η_m + launches·floor, link) + host launches·gap."""
    stack, kernel = setting
    gap_each = gap_of(profile, stack)
    floor = profile.get("memory_latency_seconds", 0.0)
    total = 0.0
    for count, family, compute, memory, link, calls, launches, device_launches, _ in parts:
        eta_c = attention_efficiency_of(profile, kernel) if family == "attention" else \
            profile["expert_gemm_efficiency"] if family == "expert_gemm" else \
            profile["gemm_efficiency"]
        link_time = calls * all_reduce_call(link, profile) if link else 0.0
        total += count * (max(compute / eta_c,
                              memory / profile["memory_efficiency"] + device_launches * floor,
                              link_time) + launches * gap_each)
    return total


def loss(rows, profile):
    return sum(abs(math.log(predict(parts, profile, setting) / measured))
               for parts, measured, setting in rows) / len(rows)


def fit(rows, names=PARAMETERS, start=None):
    profile = dict(start or dict({name: 0.7 for name in PARAMETERS}, kernel_gap_seconds=4e-6,
                                 all_reduce_overhead_seconds=0.0, expert_gemm_efficiency=0.7))
    if not rows:
        return profile
    for _ in range(4):  # coordinate descent over the grid
        for name in names:
            grid = LATENCY_GRID if name == "memory_latency_seconds" else \
                GAP_GRID if name.endswith("_seconds") else GRID
            best = min(grid, key=lambda value: loss(rows, dict(profile, **{name: value})))
            profile[name] = best
    return profile


def attention_share(parts):
    """The share of a row's time at efficiency 1 that is attention arithmetic."""
    total = sum(count * max(compute, memory) for count, _, compute, memory, *_ in parts)
    attention = sum(count * compute for count, family, compute, *_ in parts
                    if family == "attention")
    return attention / total if total else 0.0


def identifies_auto_attention(rows):
    """Whether an accelerator's own rows constrain its `auto` attention η: at least
    MIN_AUTO_ROWS rows run the stack's own kernel with attention at least AUTO_SHARE of their
    time at efficiency 1 (at ~0.2 of peak, a third or more of the row's estimated time)."""
    return sum(1 for _, parts, _, setting in rows
               if setting[1] == "auto" and attention_share(parts) >= AUTO_SHARE) >= MIN_AUTO_ROWS


def fit_profiles(entries, hardware, log=None):
    """Profiles per accelerator id, fitted on entries = [(case, parts)] (scored rows only).
    Per accelerator: η_gemm, η_attention (its stack's own kernel), η_m and the latency floor;
    the link's efficiency and per-call cost from the all-reduce rows alone (pure link
    measurements); mixture-of-experts rows fit the expert efficiency (own rows, else the
    architecture's) and, on a PCIe part with no dense tensor-parallel row, the link's
    efficiency. Shared by every
    accelerator: each STACKS stack's host gap per kernel (on its end-to-end rows) and, for a
    named attention kernel, its efficiency on an accelerator with two or more rows of it (else
    pooled over accelerators). The two levels are fitted in turn, twice."""
    by_accelerator, reduces, moe_rows = {}, {}, {}
    for case, parts in entries:
        accelerator = case["scenario"]["hardware"]
        entry = (case["id"], parts, case["measured"], settings(case))
        moe_row = any(part[1] == "expert_gemm" for part in parts)
        kind = reduces if case["operator"] == "attention_all_reduce" else \
            moe_rows if moe_row else by_accelerator
        kind.setdefault(accelerator, []).append(entry)

    def rows_of(groups):
        return [(parts, measured, setting) for rows in groups for _, parts, measured, setting in rows]

    def ids_of(groups):
        return sorted(i for rows in groups for i, _, _, _ in rows)

    shared = {"kernel_gap_seconds": 4e-6, "stack_gap_seconds": {},
              "attention_kernel_efficiency": {}}
    per_accelerator_kernels = {}
    # Accelerators whose `auto` attention η no row identifies: it is their FlashAttention-2 η.
    auto_as_fa2 = set()
    rows_all = [entry for rows in by_accelerator.values() for entry in rows]
    link_pooled = fit(rows_of(reduces.values()), LINK)
    for _ in range(2):
        start = dict(link_pooled, **{k: v for k, v in shared.items()})
        pooled = fit(rows_of(by_accelerator.values()), MAIN, start)
        profiles = {}
        for accelerator in hardware:
            own_reduces = reduces.get(accelerator, [])
            link = fit(rows_of([own_reduces]), LINK) if len(own_reduces) >= 2 else link_pooled
            link_ids = ids_of([own_reduces] if len(own_reduces) >= 2 else reduces.values())
            rows = by_accelerator.get(accelerator, [])
            kernels = kernels_of(hardware[accelerator], shared["attention_kernel_efficiency"],
                                 per_accelerator_kernels.get(accelerator, {}))
            base = dict(shared, attention_kernel_efficiency=kernels)
            if len(rows) >= MIN_OWN_ROWS:
                # A PCIe link has no all-reduce row in the table (those are NVLink): its link
                # parameters are fitted on the accelerator's own tensor-parallel rows instead,
                # when it has some; without them they stay the pooled all-reduce fit (nothing
                # else constrains them: fitted on single-device rows they would take any value).
                pcie = hardware[accelerator].get("interconnect_kind") == "pcie" and any(
                    any(part[4] for part in parts) for _, parts, _, _ in rows)
                names = MAIN + LINK if pcie else MAIN
                initial = dict(pooled, **dict(base, **{name: link[name] for name in LINK}))
                if not identifies_auto_attention(rows):
                    auto_as_fa2.add(accelerator)
                    # Nothing in the part's own rows sees its stack's attention kernel: the
                    # fit would put η anywhere on the grid (A100's went to the edge, 1.0). It
                    # takes the part's FlashAttention-2 η instead (the default fused kernel
                    # of every stack in the table on NVIDIA parts), else the pooled fit.
                    names = tuple(n for n in names if n != "attention_efficiency")
                    initial["attention_efficiency"] = kernels.get(
                        "flash-attention-2", pooled["attention_efficiency"])
                profile = fit(rows_of([rows]), names, initial)
                own_moe = moe_rows.get(accelerator, [])
                if hardware[accelerator].get("interconnect_kind") == "pcie" and not pcie \
                        and len(own_moe) >= MIN_EXPERT_ROWS:
                    # No dense tensor-parallel row of its own: its mixture-of-experts rows are
                    # tensor-parallel over the same link, so they fit the link's efficiency
                    # (with their expert efficiency, which they need; refitted below).
                    profile = fit(rows_of([own_moe]), ("interconnect_efficiency",
                                                       "expert_gemm_efficiency"), profile)
                profile["fit"] = "own rows (%d)" % len(rows)
                profile["fitted_on"] = sorted(ids_of([rows]) + ([] if pcie else link_ids))
            else:
                profile = dict(pooled, **dict(base, **{name: link[name] for name in LINK}))
                if not identifies_auto_attention(rows_all):
                    auto_as_fa2.add(accelerator)
                profile["fit"] = "pooled over every accelerator (%d own rows)" % len(rows)
                profile["fitted_on"] = sorted(ids_of(by_accelerator.values()) + link_ids)
            profile["attention_kernel_efficiency"] = kernels
            # No row of the table is graph-launched: the graph gap is not fitted but assumed.
            profile["graph_launch_gap_seconds"] = 1e-6
            profiles[accelerator] = profile
        # Shared: each stack's gap on its end-to-end rows, given the accelerators' profiles.
        e2e = [(a, parts, measured, setting) for a, rows in by_accelerator.items()
               for _, parts, measured, setting in rows if any(part[6] for part in parts)]

        def stack_loss(rows, stack, value):
            return sum(abs(math.log(predict(parts, dict(
                profiles[a], stack_gap_seconds=dict(profiles[a].get("stack_gap_seconds", {}),
                                                    **{stack: value})), setting) / measured))
                for a, parts, measured, setting in rows)

        pooled_gap = min(GAP_GRID, key=lambda v: sum(abs(math.log(predict(parts, dict(
            profiles[a], stack_gap_seconds={}, kernel_gap_seconds=v), setting) / measured))
            for a, parts, measured, setting in e2e)) if e2e else 4e-6
        shared["kernel_gap_seconds"] = pooled_gap
        gaps = {}
        for stack in STACKS:
            rows = [r for r in e2e if r[3][0] == stack]
            if rows:
                gaps[stack] = min(GAP_GRID, key=lambda v: stack_loss(rows, stack, v))
        shared["stack_gap_seconds"] = gaps
        # Named attention kernels: per accelerator with two or more rows of it, else pooled.
        with_kernel = [(a, parts, measured, setting) for a, rows in by_accelerator.items()
                       for _, parts, measured, setting in rows if setting[1] != "auto"
                       and any(part[1] == "attention" for part in parts)]

        def kernel_loss(rows, kernel, value):
            return sum(abs(math.log(predict(parts, dict(
                profiles[a], attention_kernel_efficiency=dict(
                    profiles[a]["attention_kernel_efficiency"], **{kernel: value}),
                stack_gap_seconds=gaps), setting) / measured))
                for a, parts, measured, setting in rows)

        pooled_kernels, per_accelerator_kernels = {}, {}
        for kernel in ATTENTION_KERNELS:
            rows = [r for r in with_kernel if r[3][1] == kernel]
            if rows:
                pooled_kernels[kernel] = min(GRID, key=lambda v: kernel_loss(rows, kernel, v))
            for accelerator in hardware:
                # Its own rows, else those of its architecture (the same kernel build and
                # instructions: FlashAttention-2 on Hopper uses Ampere's mma.sync, not wgmma,
                # and reaches a third of the peak it reaches on Ampere), else pooled.
                architecture = hardware[accelerator].get("architecture")
                own = [r for r in rows if r[0] == accelerator]
                same = [r for r in rows if hardware[r[0]].get("architecture") == architecture]
                chosen = own if len(own) >= 2 else same if architecture and len(same) >= 2 \
                    else None
                if chosen:
                    per_accelerator_kernels.setdefault(accelerator, {})[kernel] = min(
                        GRID, key=lambda v: kernel_loss(chosen, kernel, v))
                elif (kernel, architecture) in PUBLISHED_KERNEL_EFFICIENCY:
                    per_accelerator_kernels.setdefault(accelerator, {})[kernel] = \
                        PUBLISHED_KERNEL_EFFICIENCY[(kernel, architecture)][0]
        shared["attention_kernel_efficiency"] = pooled_kernels
    for accelerator, profile in profiles.items():
        profile["kernel_gap_seconds"] = shared["kernel_gap_seconds"]
        profile["stack_gap_seconds"] = dict(shared["stack_gap_seconds"])
        profile["attention_kernel_efficiency"] = kernels_of(
            hardware[accelerator], shared["attention_kernel_efficiency"],
            per_accelerator_kernels.get(accelerator, {}))
        if accelerator in auto_as_fa2:
            profile["attention_efficiency"] = profile["attention_kernel_efficiency"].get(
                "flash-attention-2", profile["attention_efficiency"])
        if log:
            log("%-14s %s" % (accelerator, {k: v for k, v in profile.items()
                                            if k not in ("fitted_on",)}))
    # Expert (MoE) GEMMs: fitted per accelerator on its own mixture-of-experts rows (two or
    # more), else on its architecture's (the same MoE kernels and SM design: H100 and H200 run
    # TensorRT-LLM's Hopper MoE build alike), else expert GEMMs run at the GEMM efficiency (no
    # evidence either way). Each row is predicted with its own accelerator's profile.
    def expert_loss(rows, value):
        return sum(abs(math.log(predict(parts, dict(profiles[a], expert_gemm_efficiency=value),
                                        setting) / measured))
                   for a, (_, parts, measured, setting) in rows)

    moe_all = [(a, row) for a, rows in moe_rows.items() for row in rows]
    for accelerator, profile in profiles.items():
        architecture = hardware[accelerator].get("architecture")
        own = [(a, row) for a, row in moe_all if a == accelerator]
        same = [(a, row) for a, row in moe_all
                if architecture and hardware[a].get("architecture") == architecture]
        chosen = own if len(own) >= MIN_EXPERT_ROWS else \
            same if len(same) >= MIN_EXPERT_ROWS else []
        if chosen:
            profile["expert_gemm_efficiency"] = min(GRID, key=lambda v: expert_loss(chosen, v))
            profile["fitted_on"] = sorted(set(profile["fitted_on"]) | {
                row[0] for _, row in chosen})
        else:
            profile["expert_gemm_efficiency"] = profile["gemm_efficiency"]
        if log:
            log("%-14s expert_gemm_efficiency %.2f (%d MoE rows, %d of its architecture's)"
                % (accelerator, profile["expert_gemm_efficiency"], len(own), len(same)))
    return profiles
