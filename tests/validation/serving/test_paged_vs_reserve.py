"""Paged K/V against reservation on the vLLM paper's Orca (Oracle) setting (docs/serving.md,
"K/V memory").

The claim guarded: paged K/V runs at least 1.6× as many requests at once as reserve
(`running_requests_mean`) on the setting of Kwon et al. 2023 ("Efficient Memory Management for
Large Language Model Serving with PagedAttention", SOSP '23), §6.2 and Fig. 13a: OPT-13B on one
A100-40GB, ShareGPT at 2 requests/s, where "vLLM processes 2.2× more requests at the same time
than Orca (Oracle)" — Fig. 13a's average batched requests, 30.42 for vLLM against 13.62 for Orca
(Oracle): 30.42 / 13.62 = 2.23. Orca (Oracle) reserves each request's true prompt + output at
admission, which is what `kv: "reserve"` does.

Where 1.6 comes from: while memory bounds the batch, reservation holds p + o tokens per request
for its whole life, paging holds p + g (g tokens generated so far), on average p + o/2 over a
request's decode. With the paper's ShareGPT means (its Fig. 11: prompt 161, output 338 OPT
tokens) that alone gives (161 + 338) / (161 + 169) = 1.51× from the held tokens; the rest of the
paper's 2.2× comes from the tail: a reserved request blocks the queue's head until p + o fits,
whereas paging admits on the prompt's blocks (plus the 1 % watermark) and preempts the newest
when blocks run out. 1.6 sits between the held-token ratio (1.51, which any paged run at
saturation exceeds) and the paper's 2.2 (the engine's lognormal lengths are an approximation of
ShareGPT's, and its 40 GB A100 is the 80 GB preset with its memory set to 40e9 bytes). A paged
engine that admitted no more than reservation (1.0×) fails it.

Setup (as docs/serving.md states it): `opt-13b` on `a100-sxm-80gb` with `memory_capacity` 40e9,
prefill-first, lognormal lengths with the paper's means (prompt 161, output 338, σ 1), both modes
at `gpu_memory_utilization` 0.9, 2,000 requests at 6 requests/s (past reserve's saturation,
where memory, not arrivals, sets the batch), `timing: estimate` with `stack: vllm-0.2` (the
paper's vLLM, with its host time per iteration). Runs the native CLI (PREFILL_TRACE_CLI).
"""

import json
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
CLI = os.environ.get("PREFILL_TRACE_CLI", os.path.join(ROOT, "build", "native", "prefill-trace"))

SCENARIO = {
    "model": "opt-13b",
    "hardware": {"preset": "a100-sxm-80gb", "memory_capacity": 40e9},
    "precision": "fp16",
    "timing": "estimate",
    "stack": "vllm-0.2",
}
SERVING = {
    "policy": "prefill-first",
    "rate": 6,
    "requests": 2000,
    "prompt": "lognormal:161:1",
    "output": "lognormal:338:1",
    "gpu_memory_utilization": 0.9,
    "max_queue": 2000,
    "timeline_points": 0,
}


def serve(kv):
    scenario = dict(SCENARIO, serving=dict(SERVING, kv=kv))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(scenario, f)
    try:
        done = subprocess.run([CLI, "serve", "--scenario", f.name, "--json"],
                              capture_output=True, text=True, check=False)
    finally:
        os.unlink(f.name)
    if done.returncode != 0:
        raise RuntimeError(f"kv {kv}: exit {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


class PagedAgainstReserve(unittest.TestCase):
    def test_paged_runs_at_least_1_6_times_as_many_requests_at_once(self):
        paged, reserve = serve("paged"), serve("reserve")
        # The same K/V room (paged rounds it down to whole 16-token blocks): the comparison is of
        # the admission rule, not of the memory.
        self.assertLess(abs(paged["kv_capacity_tokens"] - reserve["kv_capacity_tokens"]), 16)
        ratio = paged["running_requests_mean"] / reserve["running_requests_mean"]
        print(f"\nOrca (Oracle) setting: paged {paged['running_requests_mean']:.2f} running, "
              f"reserve {reserve['running_requests_mean']:.2f}: {ratio:.2f}× (paper 2.23×); "
              f"paged preemptions {paged['preemptions']}")
        self.assertGreaterEqual(ratio, 1.6)
        # Reservation never preempts; paging at saturation does (its price: recomputation).
        self.assertEqual(reserve["preemptions"], 0)
        self.assertGreater(paged["preemptions"], 0)


if __name__ == "__main__":
    unittest.main()
