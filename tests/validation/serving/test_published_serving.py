"""Published serving results (published.csv) against `prefill-trace serve`.

Reports the whole table (engine figure, published figure, ratio) — the numbers docs/serving.md
shows — and guards only what is stable: every row runs and yields a finite, positive figure,
and the orderings the sources themselves show and the engine reproduces:
- vLLM's SLO attainment falls as the rate rises (DistServe artifact: 90, 85, 71, 55 % at 0.25,
  1, 2, 3 req/s);
- prefill in 512-token chunks takes longer than unchunked for 2047-, 4095- and 8191-token
  prompts (Sarathi-Serve Fig. 9a: ratios 1.15, 1.19 and 1.12 > 1);
- TPOT grows from a batch of 1 to a batch of 64, and is lower on H100 than on A100 (Splitwise's
  profile: 44.9 → 71.6 ms on A100, 29.8 → 50.2 ms on H100);
- DistServe's per-GPU goodput above vLLM's on its chatbot OPT-13B setting (the sign of the
  published 4.6×), with DistServe's own ShareGPT pairs (distserve_sharegpt_pairs.json) and the
  vLLM baseline on `stack: vllm-0.2`: the engine gives 2.15.
Not guarded, because the engine does not reproduce it (docs/serving.md diagnoses why): the size
of that ratio (2.15 against 4.6), and OPT-66B's (0.108 against 2.75: DistServe's TP 2 × PP 2
decode taken as two TP-2 instances holding half the weights each runs out of K/V).
Runs the native CLI (PREFILL_TRACE_CLI). Standard library.
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

    def test_every_row_yields_a_finite_positive_figure(self):
        self.assertGreaterEqual(len(self.results), 16)
        for row_id, result in self.results.items():
            with self.subTest(row=row_id):
                self.assertIsNotNone(result["engine"])
                self.assertTrue(math.isfinite(result["engine"]) and result["engine"] > 0)

    def test_vllm_attainment_falls_with_rate(self):
        curve = [self.figure(f"distserve-vllm-att-{r}") for r in ("0.25", "1", "2", "3")]
        self.assertEqual(curve, sorted(curve, reverse=True))
        self.assertGreater(curve[0], curve[-1])

    def test_disaggregation_beats_vllm_per_gpu_on_opt_13b(self):
        # DistServe Fig. 8 (chatbot, OPT-13B): per-GPU goodput 4.6× vLLM's (plot.ipynb cell 2).
        # Only the sign is guarded: the engine's size of it is a stated miss (docs/serving.md).
        self.assertGreater(self.figure("distserve-ratio-opt-13b"), 1.0)

    def test_chunked_prefill_costs_more_than_unchunked(self):
        for prompt in (2047, 4095, 8191):
            with self.subTest(prompt=prompt):
                self.assertGreater(self.figure(f"sarathi-chunk-{prompt}"), 1.0)

    def test_a_bound_stays_a_bound(self):
        # timing: bound is a lower bound on device time and charges no host time: its latencies
        # never exceed, its attainments and goodputs never fall below, the published figures.
        checked = [r for r in self.results.values() if r["bound_direction"] is not None]
        self.assertGreaterEqual(len(checked), 12)  # 4 attainments, 1 goodput, 3 TTFTs, 4 TPOTs
        for result in checked:
            with self.subTest(row=result["row"]["id"]):
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
