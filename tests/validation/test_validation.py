"""The trace against published measurements (tests/data/measurements/measurements.csv).

- `bound` must not exceed any single-device measurement of the same work.
- `estimate`: grouped cross-validation (evaluate.py: a group is one source × accelerator ×
  model × precision × TP × framework configuration, every release of it on one side; profiles
  refitted on the other folds) must keep each family's held-out median and p90 |error| within
  the guards below — the figures docs/validation.md reports, rounded up — so a change that
  makes the estimate generalise worse fails here, not just one that moves one split.
- The fresh test set (fresh.csv) is frozen: its bytes must not change. It is not evaluated
  here (it is read once, at the end of a change, by script/cross-validate --fresh).
Runs the native CLI (PREFILL_TRACE_CLI, default build/native/prefill-trace). Standard library.
"""

import hashlib
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import decode  # noqa: E402
import evaluate  # noqa: E402
import fit  # noqa: E402
import measurements  # noqa: E402

# Held-out (grouped 5-fold) guards per family: (median, p90) |error|, the reported figures
# rounded up to the next 5 %. docs/validation.md has the table these come from.
# Attention (6 rows in 2 groups) and elementwise (4 rows) are reported, not guarded.
GROUPED_GUARDS = {
    "end-to-end, TP 1": (0.10, 0.20),    # reported 6.2 % / 18.7 % (session 5: MI300X vLLM rows)
    "end-to-end, TP > 1": (0.18, 0.40),  # reported 12.8 % / 35.5 % (the target)
    # GEMM: reported 9.2 % / 51.0 %. Its p90 moves with the fold dealing alone (46.2 % before
    # session 5's six end-to-end groups reshuffled the folds; 57.9 % with only three of them):
    # above the 50 % target, guarded at the reported figure rounded up.
    "GEMM": (0.10, 0.55),
    "all-reduce": (0.10, 0.25),          # reported 9.6 % / 22.2 %
    "kernels": (0.18, 0.50),             # reported 9.6 % / 41.3 % (the kernel target;
                                         # GEMM, attention, elementwise, all-reduce together)
}
# Share of held-out rows inside the conformal 80 % interval computed from the other folds only:
# reported 82 % (165 / 201) against the 75–85 % target; guarded at 75 % (the target's floor).
COVERAGE_GUARD = 0.75


class Validation(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cases, cls.excluded = measurements.load()

    def test_fresh_set_is_frozen(self):
        with open(measurements.FRESH, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        self.assertEqual(digest, measurements.FRESH_SHA256,
                         "tests/data/measurements/fresh.csv changed: it is frozen (README)")

    def test_groups_keep_every_release_of_a_setup_together(self):
        # TensorRT-LLM 0.5, 0.8 and 0.9 of Falcon-180B at TP 8 on H100 (fp8) are one setup:
        # one group, so one fold.
        ids = {"trtllm-0.5-008", "trtllm-0.8-020"}
        groups = {evaluate.group_of(c) for c in self.cases if c["id"] in ids}
        self.assertEqual(len(groups), 1, groups)
        self.assertEqual(next(iter(groups))[0], "trtllm")
        folds = evaluate.fold_of_groups(self.cases)
        self.assertEqual(set(folds.values()), set(range(evaluate.K_FOLDS)))

    def test_no_profile_names_a_kernel_its_architecture_cannot_run(self):
        # FlashAttention-3 is a Hopper (sm_90) kernel: only the Hopper parts carry its η.
        for accelerator in measurements.accelerators().values():
            kernels = set(accelerator["estimate"]["attention_kernel_efficiency"])
            runnable = {k for k in kernels if fit.runs_on(k, accelerator)}
            self.assertEqual(kernels, runnable, accelerator["id"])
            self.assertEqual("flash-attention-3" in kernels,
                             accelerator["architecture"] == "hopper", accelerator["id"])

    def test_suspect_rows_are_neither_fitted_nor_scored(self):
        # Vidur's A100 attention-wrapper rows: flagged in the table's notes with the reason.
        flagged = {c["id"] for c in self.cases if c["estimate_excluded"] and
                   c["estimate_excluded"].startswith("flagged SUSPECT")}
        self.assertEqual(flagged, {"vidur-attn-001", "vidur-attn-002", "vidur-attn-003"})
        scored = {c["id"] for c in evaluate.scored(self.cases)}
        self.assertFalse(flagged & scored)

    def test_conformal_levels(self):
        # n = 50 residuals: the ⌊51·0.1⌋ = 5th and ⌈51·0.9⌉ = 46th smallest, at interpolation
        # positions 4 and 45 of 0 … 49, i.e. levels 4/49 and 45/49.
        self.assertEqual(evaluate.conformal_levels(50), (4 / 49, 45 / 49))
        # n = 9: the 1st and 9th, the minimum and maximum.
        self.assertEqual(evaluate.conformal_levels(9), (0.0, 1.0))

    def test_fitted_stacks_are_those_with_end_to_end_rows(self):
        # The engine takes a stack as fitted (the grouped-CV interval of the whole prefill) when
        # the profile's stack_gap_seconds states it; fit.py states the stacks of fit.STACKS that
        # have scored end-to-end rows. vLLM has scored rows (llmib, session 5) but its own gap
        # was not adopted (fit.STACKS): its rows, like SGLang's, take the unseen-stack interval.
        with_rows = {fit.settings(c)[0] for c in evaluate.scored(self.cases)
                     if evaluate.family_of(c).startswith("end-to-end")}
        self.assertIn("vllm", with_rows)
        self.assertNotIn("vllm", fit.STACKS)
        for accelerator in measurements.accelerators().values():
            estimate = accelerator["estimate"]
            self.assertEqual(set(estimate["stack_gap_seconds"]), with_rows & set(fit.STACKS),
                             accelerator["id"])
            self.assertEqual(set(evaluate.UNSEEN_STACK_KEYS.values()) - set(estimate["interval"]),
                             set(), accelerator["id"])
            for stack in ("vllm", "sglang"):
                case = {"row": {"operator": "prefill_ttft"},
                        "scenario": {"tensor_parallel": 1, "stack": stack}}
                self.assertEqual(evaluate.interval_key(case, estimate),
                                 "end_to_end_single_unseen_stack", accelerator["id"])

    def test_unseen_stack_coverage_holds_each_source_against_the_others(self):
        # Two sources, predicted 1 s each row. Source a: ten TP 1 rows measured 3 s, ten TP 8
        # rows measured 1.5 s; source b: ten TP 1 rows measured 1.0, 1.1, … 1.9 s.
        # Held out a: b's ten TP 1 ratios give levels 0 and 1 (n = 10: the 1st and 10th of
        # ten), 1.0–1.9; b has no TP > 1 row, so TP 8 takes the end-to-end rows pooled, the
        # same 1.0–1.9: a's TP 1 rows (3) fall outside, its TP 8 rows (1.5) inside. Held out b:
        # a's TP 1 rows give 3–3, and b's rows fall outside. TP 1: 0 / 20, TP > 1: 10 / 10.
        def row(source, i, tensor_parallel, measured):
            case = {"id": "%s-%d-%d" % (source, tensor_parallel, i), "measured": measured,
                    "row": {"operator": "prefill_ttft"},
                    "scenario": {"tensor_parallel": tensor_parallel}}
            return case["id"], (case, 1.0, source)

        loso = dict([row("a", i, 1, 3.0) for i in range(10)] +
                    [row("a", i, 8, 1.5) for i in range(10)] +
                    [row("b", i, 1, 1.0 + 0.1 * i) for i in range(10)])
        self.assertEqual(evaluate.unseen_stack_coverage(loso), {
            "end-to-end, TP 1": (0, 20), "end-to-end, TP > 1": (10, 10), "all": (10, 30)})
        # Every source's residuals together: TP 1 (20 rows: the 2nd and 19th of 20 by the
        # conformal levels, 1.1 and 3) and TP > 1 (ten rows, 1.5 and 1.5).
        factors = evaluate.unseen_stack_factors(loso)
        self.assertAlmostEqual(factors["end-to-end, TP 1"][0], 1.1)
        self.assertAlmostEqual(factors["end-to-end, TP 1"][1], 3.0)
        self.assertAlmostEqual(factors["end-to-end, TP > 1"][0], 1.5)
        self.assertAlmostEqual(factors["end-to-end, TP > 1"][1], 1.5)

    def test_bound_never_exceeds_a_single_device_measurement(self):
        checked, above = 0, []
        for case in self.cases:
            if not case["single_device"]:
                continue
            ratio = measurements.predict(case, "bound") / case["measured"]
            checked += 1
            if ratio > 1.0:
                above.append((case["id"], round(ratio, 3)))
        self.assertGreater(checked, 60)
        self.assertEqual(above, [], "bound above the measurement")

    def test_expert_efficiency_from_own_rows_else_the_architecture(self):
        # Synthetic compute-bound expert GEMM rows: 1 ms at efficiency 1, measured 5 ms on an
        # H200 (η = 1/5 = 0.20) and 2 ms on an A100 (η = 0.50); no other row. H100 and GH200
        # (Hopper, no MoE row) take H200's 0.20; L40S (Ada: no Ada MoE row) takes its GEMM η.
        hardware = measurements.accelerators()
        part = (1.0, "expert_gemm", 1e-3, 1e-6, None, 0.0, 0.0, 0.0, 1.0)

        def row(accelerator, index, measured):
            case = {"id": "%s-%d" % (accelerator, index), "operator": None,
                    "measured": measured, "scenario": {"hardware": accelerator}}
            return case, [part]

        entries = [row("h200", i, 5e-3) for i in (1, 2)] + \
            [row("a100-sxm-80gb", i, 2e-3) for i in (1, 2)]
        profiles = fit.fit_profiles(entries, hardware)
        for accelerator in ("h200", "h100-sxm", "gh200"):
            self.assertEqual(profiles[accelerator]["expert_gemm_efficiency"], 0.20, accelerator)
        self.assertEqual(profiles["a100-sxm-80gb"]["expert_gemm_efficiency"], 0.50)
        self.assertEqual(profiles["l40s"]["expert_gemm_efficiency"],
                         profiles["l40s"]["gemm_efficiency"])

    def test_estimate_under_grouped_cross_validation(self):
        hardware = measurements.accelerators()
        entries = evaluate.with_parts(evaluate.scored(self.cases), hardware)
        held_out = evaluate.grouped_cv(entries, hardware)
        stats = evaluate.summary(held_out)
        print("\n" + evaluate.table("grouped CV", stats))
        inside, total = evaluate.coverage(held_out)["all"]
        self.assertGreaterEqual(inside / total, COVERAGE_GUARD)
        for family, (median_guard, p90_guard) in GROUPED_GUARDS.items():
            rows, median, p90 = stats[family]
            self.assertGreaterEqual(rows, 10, family)
            self.assertLessEqual(median, median_guard, family)
            self.assertLessEqual(p90, p90_guard, family)


# Decode steps (decode.py; docs/validation.md, "Decode steps"): grouped 5-fold CV of the decode
# roofs over the table's 41 decode rows reports 6.4 % / 16.2 % (median / p90 |error|), guarded
# at the next 5 % up; and the systematic bias it removes: the median held-out predicted /
# measured is 0.980 (1.288 with the prefill roofs), guarded within ±5 %.
DECODE_GUARDS = (0.10, 0.20)
DECODE_BIAS_GUARD = 0.05


class DecodeValidation(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.entries = decode.with_parts(decode.load())
        cls.accelerators = list(measurements.accelerators())

    def test_decode_rows_stay_out_of_the_prefill_fit(self):
        cases, excluded = measurements.load()
        ids = {c["id"] for c, _ in self.entries}
        self.assertEqual(len(ids), 41)
        self.assertFalse(ids & {c["id"] for c in cases})
        self.assertFalse(ids & {row["id"] for row, _ in excluded})

    def test_linear_form(self):
        # A step of A = 7 ms of bytes at peak, K = 290 launches, C = 1.16 ms of gaps, after a
        # 10 ms prefill, as a generation of 128 outputs: 10 ms + 127 × (7 / 0.7 + 290 × 1 µs +
        # 1.16) ms = 10 + 127 × 11.45 = 1464.15 ms; as one step, 11.45 ms.
        parts = {"A": 7e-3, "K": 290.0, "C": 1.16e-3, "ttft": 10e-3, "before": 0.0}
        generation = {"operator": "decode_generation", "output_tokens": 128}
        self.assertAlmostEqual(decode.predict(generation, parts, 0.7, 1e-6), 1.46415, places=12)
        self.assertAlmostEqual(decode.predict({"operator": "decode_step"}, parts, 0.7, 1e-6),
                               11.45e-3, places=12)

    def test_shipped_decode_roofs_are_the_fit_of_the_decode_rows(self):
        profiles = decode.fit_profiles(self.entries, self.accelerators)
        for accelerator in measurements.accelerators().values():
            efficiency, floor, _ = profiles[accelerator["id"]]
            estimate = accelerator["estimate"]
            self.assertEqual(estimate["decode_memory_efficiency"], efficiency, accelerator["id"])
            self.assertEqual(estimate["decode_memory_latency_seconds"], floor, accelerator["id"])

    def test_decode_under_grouped_cross_validation(self):
        held_out = decode.grouped_cv(self.entries, self.accelerators)
        rows, median, p90, ratio = decode.errors(held_out)
        print("\ndecode, grouped CV: %d rows, %.1f %% / %.1f %%, median predicted / measured %.3f"
              % (rows, 100 * median, 100 * p90, ratio))
        self.assertLessEqual(median, DECODE_GUARDS[0])
        self.assertLessEqual(p90, DECODE_GUARDS[1])
        self.assertLessEqual(abs(ratio - 1), DECODE_BIAS_GUARD)


if __name__ == "__main__":
    unittest.main()
