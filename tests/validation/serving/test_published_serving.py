"""Published serving results (published.csv) against `prefill-trace serve`.

Reports the whole table (engine figure, published figure, ratio) — the numbers docs/serving.md
shows — and guards only what is stable: every row runs and yields a finite, positive figure,
and the orderings the sources themselves show and the engine reproduces:
- vLLM's SLO attainment falls as the rate rises (DistServe artifact: 90, 85, 71, 55 % at 0.25,
  1, 2, 3 req/s);
- prefill in 512-token chunks takes longer than unchunked for 2047-, 4095- and 8191-token
  prompts (Sarathi-Serve Fig. 9a: ratios 1.15, 1.19 and 1.12 > 1);
- TPOT grows from a batch of 1 to a batch of 64, and is lower on H100 than on A100 (Splitwise's
  profile: 44.9 → 71.6 ms on A100, 29.8 → 50.2 ms on H100).
Not guarded, because the engine does not reproduce it (docs/serving.md diagnoses why): DistServe's
per-GPU goodput above vLLM's — not even with the vLLM baseline on `stack: vllm-0.2` (2023's host
time per iteration): 0.666 against 4.6; the decode GPU of DistServe's placement runs out of K/V
with this workload's long outputs. Runs the native CLI (PREFILL_TRACE_CLI). Standard library.
"""

import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import published  # noqa: E402


class PublishedServing(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.results = {r["row"]["id"]: r for r in published.evaluate()}
        print("\n" + published.markdown(list(cls.results.values())))

    def figure(self, row_id):
        return self.results[row_id]["engine"]

    # Rows whose engine figure is known to be absent, with the mechanism (docs/serving.md):
    # DistServe's OPT-66B decode instance is TP 2 × PP 2; the engine has no pipeline parallelism
    # and takes it as two TP-2 instances, each device holding half the weights (66 GB of 80 GB).
    # Under paged K/V at vLLM's 0.9 utilization (the default since issue 29) that leaves under
    # 6 GB of K/V per device beside the temporaries, the decode instances preempt continually and
    # attainment never reaches the 90 % target on the published grid: no crossing, no ratio.
    EXPECTED_MISSES = {"distserve-ratio-opt-66b"}

    def test_every_row_yields_a_finite_positive_figure(self):
        self.assertGreaterEqual(len(self.results), 16)
        for row_id, result in self.results.items():
            with self.subTest(row=row_id):
                if row_id in self.EXPECTED_MISSES:
                    self.assertIsNone(result["engine"], "a stated miss now has a figure: "
                                      "drop it from EXPECTED_MISSES and re-read the diagnosis")
                    continue
                self.assertIsNotNone(result["engine"])
                self.assertTrue(math.isfinite(result["engine"]) and result["engine"] > 0)

    def test_vllm_attainment_falls_with_rate(self):
        curve = [self.figure(f"distserve-vllm-att-{r}") for r in ("0.25", "1", "2", "3")]
        self.assertEqual(curve, sorted(curve, reverse=True))
        self.assertGreater(curve[0], curve[-1])

    def test_chunked_prefill_costs_more_than_unchunked(self):
        for prompt in (2047, 4095, 8191):
            with self.subTest(prompt=prompt):
                self.assertGreater(self.figure(f"sarathi-chunk-{prompt}"), 1.0)

    # Rows where the bound's promise is stated broken, with the mechanism (docs/serving.md):
    # simdistserve's 1.56 req/s per GPU is DistServe's simulator's figure for its own workload,
    # not a measurement; under bound the engine's DistServe decode A100 is still 100 % busy and
    # out of K/V at 1.75 req/s per GPU (56,464 tokens for ~54 running requests of this trace's
    # long outputs, 119 preemptions, TPOT p90 0.29 s): bound relaxes time, not memory, so the
    # bound's goodput (1.54) stops at the K/V wall just under the published figure.
    BOUND_EXCEPTIONS = {"simdistserve-goodput"}

    def test_a_bound_stays_a_bound(self):
        # timing: bound is a lower bound on device time and charges no host time: its latencies
        # never exceed, its attainments and goodputs never fall below, the published figures.
        checked = [r for r in self.results.values() if r["bound_direction"] is not None]
        self.assertGreaterEqual(len(checked), 12)  # 4 attainments, 1 goodput, 3 TTFTs, 4 TPOTs
        for result in checked:
            with self.subTest(row=result["row"]["id"]):
                if result["row"]["id"] in self.BOUND_EXCEPTIONS:
                    self.assertFalse(published.bound_holds(result), "a stated exception now "
                                     "holds: drop it from BOUND_EXCEPTIONS and the docs' note")
                    continue
                self.assertTrue(published.bound_holds(result),
                                f"bound {result['bound']} {result['bound_direction']} "
                                f"published {result['row']['published']} is broken")

    def test_tpot_grows_with_batch_and_is_lower_on_h100(self):
        for gpu in ("a100", "h100"):
            with self.subTest(gpu=gpu):
                self.assertGreater(self.figure(f"splitwise-tpot-{gpu}-b64"),
                                   self.figure(f"splitwise-tpot-{gpu}-b1"))
        for batch in ("b1", "b64"):
            with self.subTest(batch=batch):
                self.assertLess(self.figure(f"splitwise-tpot-h100-{batch}"),
                                self.figure(f"splitwise-tpot-a100-{batch}"))


if __name__ == "__main__":
    unittest.main()
