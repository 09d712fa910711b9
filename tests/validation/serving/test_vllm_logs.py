"""vLLM's own per-request log against `prefill-trace serve`, the part that needs no log
(vllm_logs.py; docs/serving.md, "Replaying vLLM's own logs (LLMServingSim)").

The log is not in this repository: the replay itself (exact arrivals and lengths, the bound below
every latency, the table in docs) runs with `vllm_logs.py --checkout DIR`, which also checks the
committed summary (vllm_log_rtx4090_llama_3.1_8b.json) against the log. Guarded here, from that
summary and by hand:
- the K/V capacity of the log's configuration is vLLM's within 5 % (hand derivation below);
- on a workload of the log's shape (its request count, arrival rate and length quantiles, Poisson
  arrivals as its dataset's generator draws them), paged K/V admits more requests at once than
  reservation and its TPOT tail comes from preemptions, as the log's does (1.82), where
  reservation's stays flat;
- fall_bound, the rule that gives the log's "≥ 14 preemptions", on a hand-made example and as a
  lower bound on an engine run whose preemptions are counted.
Runs the native CLI (PREFILL_TRACE_CLI) 3 times, well under a second. Standard library.
"""

import os
import random
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vllm_logs  # noqa: E402
from published import Workload  # noqa: E402  (its inverse-CDF draw from 101 quantiles)

LOG = vllm_logs.LOGS[0]
SEED = 20260820  # the log's run date (meta.json started_at); any fixed seed


def shaped_rows(summary):
    """Rows of the log's shape: its request count, Poisson arrivals at its mean rate (requests /
    arrival span: 300 / 29.1 s), prompt and output drawn independently from its quantiles."""
    workload = summary["workload"]
    rate = workload["requests"] / workload["arrival_span_seconds"]
    rng = random.Random(SEED)
    rows, clock = [], 0.0
    for _ in range(workload["requests"]):
        rows.append([round(clock, 6), Workload._draw(workload["prompt_quantiles"], rng.random()),
                     Workload._draw(workload["output_quantiles"], rng.random())])
        clock += rng.expovariate(rate)
    return rows


class VllmLogShape(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.summary = vllm_logs.load_summary(LOG)
        cls.directory = tempfile.mkdtemp(prefix="vllm-log-test-")
        rows = shaped_rows(cls.summary)
        cls.reports = {}
        for kv in ("paged", "reserve"):
            doc = vllm_logs.scenario(cls.summary["engine"], LOG, "estimate", "vllm")
            doc["serving"].update(kv=kv, rows=rows, timeline_points=300)
            cls.reports[kv] = vllm_logs.serve(doc, cls.directory, kv)[0]
        doc["serving"].update(kv="paged", timeline_points=0)
        cls.rows = vllm_logs.serve(doc, cls.directory, "rows", output="--csv")[0]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.directory, ignore_errors=True)

    def test_kv_capacity_is_vllms(self):
        # By hand: Llama-3.1-8B holds 8.03e9 bf16 parameters (embedding and LM head 2 × 128256 ×
        # 4096 = 1.05e9; per layer Q/O 2 × 4096², K/V 2 × 4096 × 1024, MLP 3 × 4096 × 14336 =
        # 218.1e6, × 32 = 6.98e9): 16.06e9 bytes. 0.9 × 24e9 (NVIDIA's 24 GB) − 16.06e9 =
        # 5.54e9 bytes for K/V and temporaries; one 16-token block is 16 × 32 layers × 8 K/V
        # heads × 128 × 2 (K and V) × 2 bytes = 2,097,152 bytes: at most 2,641 blocks, fewer by
        # the temporaries of a 2048-row iteration. vLLM 0.19 profiled 2,588 (the summary's
        # engine.num_gpu_blocks, from meta.json).
        blocks = self.reports["paged"]["kv_capacity_blocks"]
        self.assertLessEqual(blocks, 2641)
        self.assertLess(abs(blocks / self.summary["engine"]["num_gpu_blocks"] - 1), 0.05)

    def test_paged_runs_more_at_once_than_reserve_with_a_preemption_tail(self):
        paged, reserve = self.reports["paged"], self.reports["reserve"]
        figures = self.summary["figures"]
        tail = {kv: r["tpot_seconds"]["p99"] / r["tpot_seconds"]["p50"]
                for kv, r in self.reports.items()}
        print(f"\nlog's shape: paged {paged['running_requests_mean']:.2f} running, "
              f"{paged['preemptions']} preemptions, TPOT p99/p50 {tail['paged']:.2f}; reserve "
              f"{reserve['running_requests_mean']:.2f}, {tail['reserve']:.2f}; the log "
              f"{figures['running_mean']:.2f}, {figures['tpot_tail']:.2f}")
        self.assertGreater(paged["running_requests_mean"], reserve["running_requests_mean"])
        # The log's TPOT p99/p50 is 1.82 (56.0 / 30.8 ms) and it preempted (≥ 14): a tail above
        # 1.5. Reservation never preempts: its TPOT varies only with the batch (the issue: 1.05).
        self.assertGreater(figures["tpot_tail"], 1.5)
        self.assertGreaterEqual(figures["preemptions_at_least"], 1)
        self.assertEqual(reserve["preemptions"], 0)
        self.assertLess(tail["reserve"], 1.2)
        self.assertGreater(paged["preemptions"], 0)
        self.assertGreater(tail["paged"], 1.5)

    def test_fall_bound_by_hand(self):
        # First tokens at 0.5 and 1.2 s, the first finish at 4.5 s: the window is (1.2, 4.5].
        # Ticks of 1 s ending at 1..4 s with 5, 10, 7, 4 running. Same clock (lead 0): ticks whose
        # last iteration lies in [t − 1, t) ⊂ window are t = 3 and 4 (t − 1 ≥ 1.2), 7 → 4: ≥ 3.
        ticks = [(1.0, 5), (2.0, 10), (3.0, 7), (4.0, 4)]
        self.assertEqual(vllm_logs.fall_bound([0.5, 1.2], [4.5], ticks, 1.0, 0.0), (3, 3.0, 4.0))
        # A clock that may lead by 1 s leaves only t = 4 (t − 1 ≥ 2.2): no pair, no bound.
        self.assertEqual(vllm_logs.fall_bound([0.5, 1.2], [4.5], ticks, 1.0, 1.0),
                         (0, None, None))

    def test_fall_bound_is_a_lower_bound_on_an_engine_run(self):
        # On the engine's run, whose preemptions are counted, the rule must not exceed the count
        # in its window.
        fall, counted, window = vllm_logs.engine_fall_bound(self.rows,
                                                            self.reports["paged"]["timeline"])
        self.assertIsNotNone(window[0])
        self.assertGreater(fall, 0)
        self.assertLessEqual(fall, counted)


if __name__ == "__main__":
    unittest.main()
