"""The trace against published measurements (tests/data/measurements/measurements.csv).

- `bound` must not exceed any single-device measurement of the same work. Rows whose weight
  fits in L2 (repeated microbenchmark runs can serve it from L2, which one prefill cannot) were
  candidates for exclusion; they are below the bound too, so none is left out.
- `estimate`, with the profiles script/fit-estimate fitted on the other half, on the held-back
  half: median absolute error ≤ 15 % and 90th percentile ≤ 35 % (the issue's targets;
  docs/validation.md says which rows miss most and why).
Runs the native CLI (PREFILL_TRACE_CLI, default build/native/prefill-trace). Standard library.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measurements  # noqa: E402


class Validation(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cases, cls.excluded = measurements.load()

    def test_table_is_large_enough_and_split_in_halves(self):
        self.assertGreaterEqual(len(self.cases), 60)
        fit = sum(1 for case in self.cases if case["fit"])
        # A hash split: close to half, never all on one side.
        self.assertLess(abs(fit / len(self.cases) - 0.5), 0.15)
        self.assertEqual(measurements.is_fit_row("vidur-001"), measurements.is_fit_row("vidur-001"))

    def test_bound_never_exceeds_a_single_device_measurement(self):
        checked, above = 0, []
        for case in self.cases:
            if not case["single_device"]:
                continue
            ratio = measurements.predict(case, "bound") / case["measured"]
            checked += 1
            if ratio > 1.0:
                above.append((case["id"], round(ratio, 3)))
        in_l2 = [c["id"] for c in self.cases if c["single_device"] and c["bound_excluded"]]
        print("\nbound: %d single-device rows checked, including the L2-resident weights of %s"
              % (checked, ", ".join(in_l2)))
        self.assertGreater(checked, 60)
        self.assertEqual(above, [], "bound above the measurement")

    def test_estimate_on_the_held_back_half(self):
        errors = []
        for case in self.cases:
            if case["fit"] or case["estimate_excluded"]:
                continue
            predicted = measurements.predict(case, "estimate")
            errors.append(abs(predicted / case["measured"] - 1))
        median = measurements.percentile(errors, 0.5)
        p90 = measurements.percentile(errors, 0.9)
        print("\nestimate on %d held-back rows: median |error| %.1f %%, p90 %.1f %%"
              % (len(errors), 100 * median, 100 * p90))
        self.assertGreater(len(errors), 40)
        self.assertLessEqual(median, 0.15)
        self.assertLessEqual(p90, 0.35)


if __name__ == "__main__":
    unittest.main()
