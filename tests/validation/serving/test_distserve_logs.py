"""DistServe's logs (distserve_logs.py): what needs no log file.

The replays themselves need a checkout of LLMServe/DistServe (published.py --logs DIR; their
figures are in docs/serving.md); here the pieces they rest on, each against a hand derivation:
the percentile and attainment rules, the log reader and the Mooncake JSONL writer through the CLI,
and the committed pair summary's own arithmetic. Runs the native CLI (PREFILL_TRACE_CLI).
"""

import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import distserve_logs  # noqa: E402
import published  # noqa: E402


class Rules(unittest.TestCase):
    def test_percentile_interpolates_between_closest_ranks(self):
        # [1, 2, 3, 4]: q = 0.5 sits at position 1.5 → 2 + 0.5·1 = 2.5; q = 0.9 at 2.7 → 3.7.
        self.assertAlmostEqual(distserve_logs.percentile([4, 1, 3, 2], 0.5), 2.5)
        self.assertAlmostEqual(distserve_logs.percentile([4, 1, 3, 2], 0.9), 3.7)
        self.assertEqual(distserve_logs.percentile([7], 0.9), 7)

    def test_attainment_counts_both_slos_inclusive(self):
        # Met: (0.2, 0.05) and (0.25, 0.1) (both limits inclusive); missed: TTFT 0.3, TPOT 0.2.
        pairs = [(0.2, 0.05), (0.3, 0.05), (0.25, 0.1), (0.1, 0.2)]
        self.assertEqual(distserve_logs.attainment(pairs, 0.25, 0.1), 50.0)


class LogToTrace(unittest.TestCase):
    def test_a_log_replays_with_its_arrivals_and_lengths(self):
        # A made-up two-request log in DistServe's format (a Python literal on the first line),
        # written out of send order: the reader sorts by issue time, the writer gives the
        # offsets in milliseconds, and the CLI must see arrivals 0 and 1.5 s.
        directory = tempfile.mkdtemp(prefix="distserve-log-test-")
        log = os.path.join(directory, "x.exp")
        with open(log, "w", encoding="utf-8") as f:
            f.write(repr([{"prompt_len": 200, "output_len": 1, "issue_time": 101.5},
                          {"prompt_len": 100, "output_len": 5, "issue_time": 100.0}]) + "\n")
        requests = distserve_logs.read_log(log)
        self.assertEqual([r["prompt_len"] for r in requests], [100, 200])
        trace = os.path.join(directory, "x.jsonl")
        distserve_logs.write_mooncake_jsonl(
            trace, [(r["issue_time"] - 100.0, r["prompt_len"], r["output_len"]) for r in requests])
        with open(trace, encoding="utf-8") as f:
            self.assertEqual(json.loads(f.readlines()[1])["timestamp"], 1500.0)
        text = published.Runner(directory).serve("x", "vllm-opt-13b", {}, True, trace)
        records = list(csv.DictReader(text.splitlines()))
        self.assertEqual([float(r["arrival_seconds"]) for r in records], [0.0, 1.5])
        self.assertEqual([(r["prompt_tokens"], r["output_tokens"]) for r in records],
                         [("100", "5"), ("200", "1")])


class PairSummary(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(distserve_logs.PAIRS, encoding="utf-8") as f:
            cls.pairs = json.load(f)

    def test_every_rank_decile_holds_a_tenth_of_the_pairs(self):
        # Rank deciles of 1,600 values: floor(10·rank/1600) puts ranks 160k … 160k + 159 in
        # decile k, so every row and every column of the count table sums to 160.
        counts = self.pairs["decile_counts"]
        self.assertEqual(self.pairs["pairs"], 1600)
        self.assertEqual([sum(row) for row in counts], [160] * 10)
        self.assertEqual([sum(column) for column in zip(*counts)], [160] * 10)

    def test_quantiles_ascend_and_drawn_pairs_keep_distserves_filter(self):
        for key in ("prompt_quantiles", "output_quantiles"):
            with self.subTest(key=key):
                quantiles = self.pairs[key]
                self.assertEqual(len(quantiles), 101)
                self.assertEqual(quantiles, sorted(quantiles))
        # 0-prepare-dataset.py keeps prompt + output < 2048 (OPT's positions); so must a draw.
        workload = published.Workload(1000, published.SEED)
        self.assertLess(max(p + o for p, o in zip(workload.prompts, workload.outputs)), 2048)


if __name__ == "__main__":
    unittest.main()
