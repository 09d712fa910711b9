"""How well the estimate generalises: grouped k-fold cross-validation and leave-one-source-out
(docs/validation.md, "Protocol"). Python 3 standard library only.

A *group* is one configuration: (source, accelerator, model, precision, tensor parallelism,
framework), with the release numbers taken out of the source and the framework, so every release
of a setup (TensorRT-LLM 0.5, 0.8 and 0.9 of one model on one part) stays on one side of a
split. Groups go to K_FOLDS folds in the order of the SHA-256 of their key (deterministic and
blind to the results). Each fold's rows are predicted by profiles fitted (fit.fit_profiles) on
the other folds' rows only; leave-one-source-out does the same with one source family held
out at a time. Only the estimate is refitted; the engine's formulas are the same everywhere.
"""

import hashlib
import math
import re

import fit
import measurements

K_FOLDS = 5
FAMILIES = ("end-to-end, TP 1", "end-to-end, TP > 1", "GEMM", "attention", "elementwise",
            "all-reduce")
# The interval is a nominal 80 % range of log(measured / predicted) on held-out rows: the
# split-conformal quantile levels ⌊(n + 1)·0.10⌋ / n and ⌈(n + 1)·0.90⌉ / n of a family's n
# residuals (a plain 10th–90th percentile of n residuals covers less than 80 % of new rows).
INTERVAL = (0.10, 0.90)
# A family with fewer held-out residuals than this takes its interval from the residuals of
# its kind pooled (kernel families together, end-to-end families together): nine values have
# no meaningful 10th percentile.
MIN_INTERVAL_ROWS = 10
KERNEL_FAMILIES = ("GEMM", "attention", "elementwise", "all-reduce")
END_TO_END_FAMILIES = FAMILIES[:2]
# The engine's names of the families (hardware.json → estimate.interval).
INTERVAL_KEYS = {"end-to-end, TP 1": "end_to_end_single", "end-to-end, TP > 1":
                 "end_to_end_parallel", "GEMM": "gemm", "attention": "attention",
                 "elementwise": "elementwise", "all-reduce": "all_reduce"}
# The whole prefill's interval for a stack the fit has no end-to-end row of (its host gap is the
# pooled kernel_gap_seconds: vLLM, SGLang): from leave-one-source-out residuals, where every
# source's end-to-end rows are one stack's (TensorRT-LLM, MInference's transformers, llama.cpp)
# predicted by a fit that has not seen that stack. Grouped CV keeps a stack's rows in every fit,
# so its interval says how well a *fitted* stack is predicted, not an unseen one.
UNSEEN_STACK_KEYS = {"end-to-end, TP 1": "end_to_end_single_unseen_stack",
                     "end-to-end, TP > 1": "end_to_end_parallel_unseen_stack"}


def source_of(case):
    """The source family: the id's prefix without a release number (trtllm-0.9 → trtllm);
    Vidur's two profiling files are one source."""
    prefix = case["id"].rsplit("-", 1)[0]
    prefix = re.sub(r"-\d+(\.\d+)*$", "", prefix)
    return "vidur" if prefix == "vidur-attn" else prefix


def framework_of(case):
    """The framework without release numbers: 'TensorRT-LLM 0.9.0' → 'TensorRT-LLM'."""
    text = re.sub(r"\b[vV]?\d+(\.\d+)+\S*", "", case["row"]["framework"])
    return re.sub(r"\s+", " ", text).strip()


def group_of(case):
    row = case["row"]
    return (source_of(case), row["accelerator"], row["model"], row["precision"],
            int(row["tensor_parallel"] or 1), framework_of(case))


def family_of(case):
    operator = case["row"]["operator"]
    if operator == "prefill_ttft":
        return "end-to-end, TP 1" if case["scenario"]["tensor_parallel"] == 1 else \
            "end-to-end, TP > 1"
    if operator.startswith("gemm"):
        return "GEMM"
    if operator.startswith("attention"):
        return "attention"
    if operator == "all_reduce":
        return "all-reduce"
    return "elementwise"


def fold_of_groups(cases, k=K_FOLDS):
    """{group: fold}: groups sorted by the SHA-256 of their key, dealt round-robin."""
    groups = sorted({group_of(c) for c in cases},
                    key=lambda g: hashlib.sha256(repr(g).encode()).hexdigest())
    return {g: i % k for i, g in enumerate(groups)}


def scored(cases):
    return [c for c in cases if not c["estimate_excluded"]]


def with_parts(cases, hardware):
    """[(case, raw parts)] — one CLI run per row, reused by every fold."""
    return [(c, fit.raw_parts(c, hardware[c["scenario"]["hardware"]])) for c in cases]


def held_out_predictions(entries, hardware, assign):
    """{case id: (case, predicted seconds, fold)}: each row predicted by profiles fitted on the
    rows of the other folds; assign(case) → fold key."""
    folds = sorted({assign(c) for c, _ in entries}, key=str)
    out = {}
    for fold in folds:
        train = [(c, p) for c, p in entries if assign(c) != fold]
        profiles = fit.fit_profiles(train, hardware)
        for case, parts in entries:
            if assign(case) == fold:
                accelerator = case["scenario"]["hardware"]
                out[case["id"]] = (case, fit.predict(parts, profiles[accelerator],
                                                     fit.settings(case)), fold)
    return out


def grouped_cv(entries, hardware, k=K_FOLDS):
    folds = fold_of_groups([c for c, _ in entries], k)
    return held_out_predictions(entries, hardware, lambda c: folds[group_of(c)])


def leave_one_source_out(entries, hardware):
    return held_out_predictions(entries, hardware, source_of)


def percentile(values, q):
    return measurements.percentile(values, q)


def summary(predictions):
    """{family: (rows, median |error|, p90 |error|)}, the same over the kernel families
    ('kernels') and over every row ('all')."""
    by = {}
    for case, predicted, _ in predictions.values():
        error = abs(predicted / case["measured"] - 1)
        family = family_of(case)
        by.setdefault(family, []).append(error)
        if not family.startswith("end-to-end"):
            # The kernel target is stated for kernels together (GEMM, attention,
            # elementwise, all-reduce); the families are reported one by one as well.
            by.setdefault("kernels", []).append(error)
        by.setdefault("all", []).append(error)
    return {family: (len(errors), percentile(errors, 0.5), percentile(errors, 0.9))
            for family, errors in by.items()}


def log_residuals(predictions, family=None):
    return [math.log(case["measured"] / predicted)
            for case, predicted, _ in predictions.values()
            if family is None or family_of(case) == family]


def conformal_levels(n, nominal=INTERVAL):
    """The quantile levels of n residuals that give a new row at least the nominal coverage
    (split conformal prediction: the ⌊(n + 1)·q_low⌋-th and ⌈(n + 1)·q_high⌉-th of n)."""
    low, high = nominal
    return (max(0.0, (math.floor((n + 1) * low) - 1) / (n - 1)) if n > 1 else 0.0,
            min(1.0, (math.ceil((n + 1) * high) - 1) / (n - 1)) if n > 1 else 1.0)


def interval_factors(predictions, families=FAMILIES, pool_missing=False):
    """{family: (low, high)}: multipliers of the estimate from the conformal 10 % and 90 %
    levels of the held-out log residuals of that family (of its kind, pooled, when the family
    has fewer than MIN_INTERVAL_ROWS; a family with none is left out unless pool_missing)."""
    factors = {}
    for family in families:
        residuals = log_residuals(predictions, family)
        if not residuals and not pool_missing:
            continue
        if len(residuals) < MIN_INTERVAL_ROWS:
            kind = KERNEL_FAMILIES if family in KERNEL_FAMILIES else END_TO_END_FAMILIES
            residuals = [r for f in kind for r in log_residuals(predictions, f)]
        if not residuals:
            continue
        levels = conformal_levels(len(residuals))
        factors[family] = tuple(math.exp(percentile(residuals, q)) for q in levels)
    return factors


def unseen_stack_factors(loso):
    """{end-to-end family: (low, high)} for a stack without end-to-end rows of its own, from
    leave-one-source-out predictions (UNSEEN_STACK_KEYS)."""
    return interval_factors(loso, END_TO_END_FAMILIES)


def coverage(predictions, families=FAMILIES, pool_missing=False):
    """Share of held-out rows inside their family's interval when that interval is computed
    from the *other* folds' residuals only (so no row helps set the interval it is tested
    against): (inside, total), overall and per family. pool_missing: a family the other folds
    have no row of takes its kind's pooled interval (else its rows are not counted)."""
    folds = sorted({fold for _, _, fold in predictions.values()}, key=str)
    inside, total = {}, {}
    for fold in folds:
        others = {i: p for i, p in predictions.items() if p[2] != fold}
        factors = interval_factors(others, families, pool_missing)
        for case, predicted, f in predictions.values():
            if f != fold:
                continue
            family = family_of(case)
            if family not in factors:
                continue
            low, high = factors[family]
            hit = predicted * low <= case["measured"] <= predicted * high
            for key in (family, "all"):
                inside[key] = inside.get(key, 0) + hit
                total[key] = total.get(key, 0) + 1
    return {key: (inside[key], total[key]) for key in total}


def interval_key(case, estimate):
    """The hardware.json interval family the engine scales a row's estimate by: an end-to-end
    row whose stack has no gap of its own in the profile (`estimate`) takes the unseen-stack
    family (as src/trace/roofs.cpp, whole_prefill_range)."""
    family = family_of(case)
    stack = fit.settings(case)[0]
    if family in UNSEEN_STACK_KEYS and stack != "kernels" and \
            stack not in estimate.get("stack_gap_seconds", {}):
        return UNSEEN_STACK_KEYS[family]
    return INTERVAL_KEYS[family]


def unseen_stack_coverage(loso):
    """The unseen-stack interval's coverage under leave-one-source-out: each source's
    end-to-end rows against the factors from the other sources' residuals only. Only
    TensorRT-LLM has tensor-parallel rows, so held out, its TP > 1 rows are checked against
    the other sources' end-to-end rows pooled."""
    return coverage(loso, END_TO_END_FAMILIES, pool_missing=True)


def table(title, stats):
    lines = ["%s" % title, "| family | rows | median |error| | p90 |error| |", "|---|---|---|---|"]
    for family in FAMILIES + ("kernels", "all"):
        if family in stats:
            n, median, p90 = stats[family]
            lines.append("| %s | %d | %.1f %% | %.1f %% |" % (family, n, 100 * median, 100 * p90))
    return "\n".join(lines)
