// The estimate's interval as the page says it (web/src/explorer/glance.js): "≈ 120 ms,
// typically 95 ms–160 ms" from totals.ttft's total_seconds_low/high; the bound has none.
// The figures are typed here; the sentence's form is the one docs/validation.md describes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ttftText } from "../../web/src/explorer/glance.js";

const ttft = { total_seconds: 0.12, total_seconds_low: 0.095, total_seconds_high: 0.16, overloaded: false };

test("the estimate's TTFT carries its typical range", () => {
  assert.equal(ttftText(ttft, { timing: "estimate" }), "≈ 120 ms, typically 95 ms–160 ms");
});

test("the bound's TTFT is one number (a lower bound has no range)", () => {
  assert.equal(ttftText({ ...ttft, total_seconds_low: 0.12, total_seconds_high: 0.12 }, { timing: "bound" }), "120 ms");
});

test("an overloaded queue has no number at all", () => {
  assert.equal(ttftText({ ...ttft, overloaded: true }, { timing: "estimate" }), "unbounded — overloaded");
});
