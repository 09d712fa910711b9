// The placement search in slices through the wasm module (ServingPlan; docs/serving.md,
// "Placement search"): what the page runs when no Worker can. Each case compares it with
// planServing on the same input, so a slice that changed one byte fails; no engine figure is
// asserted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadModule } from "./load-module.mjs";

const module = await loadModule();
const codes = module.ErrorCode;

const scenario = (serving) => JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm", serving });
// The DistServe investigation's kind of plan (web/src/investigations/serving-catalog.js), smaller:
// 40 requests of 512 + 16 tokens, both objectives.
const serving = { rate: 8, requests: 40, prompt: 512, output: 16, ttft_slo: 0.2, tpot_slo: 0.05, goodput_tolerance: 0.05 };

/** Runs a plan of `text` over `devices` in slices of `budget` until done; its result, the slices, the progress seen. */
function sliced(text, devices, budget) {
  const plan = new module.ServingPlan();
  try {
    const started = plan.start(text, devices);
    assert.equal(started.ok, true, started.error);
    const steps = [];
    for (;;) {
      const step = plan.advance(budget);
      assert.equal(step.ok, true, step.error);
      steps.push(step);
      if (step.done) break;
    }
    return { result: plan.result(), steps };
  } finally {
    plan.delete();
  }
}

test("a plan in slices of any budget gives planServing's bytes", () => {
  const text = scenario(serving);
  const once = module.planServing(text, 2);
  assert.equal(once.ok, true, once.error);
  // 1: one iteration a slice; 20,000: searches ending and starting within a slice; Infinity: one.
  for (const budget of [1, 20_000, Infinity]) {
    const { result, steps } = sliced(text, 2, budget);
    assert.equal(result.ok, true, result.error);
    assert.equal(result.json, once.json, `budget ${budget}`);
    if (budget !== Infinity) assert.ok(steps.length > 1, "it was sliced");
    // The progress moves forward only; every placement of 2 devices (7, counted by hand in
    // tests/cpp/serving_plan_test.cpp) is passed by the end.
    for (let i = 1; i < steps.length; ++i) {
      assert.ok(steps[i].searches >= steps[i - 1].searches && steps[i].placements >= steps[i - 1].placements);
    }
    assert.deepEqual(steps.map((s) => s.placementsTotal), steps.map(() => 7));
    assert.equal(steps.at(-1).placements, 7);
    assert.equal(steps.at(-1).searches, JSON.parse(once.json).searches);
  }
});

test("a plan refused at start is refused as planServing refuses it, and cannot advance", () => {
  for (const [text, devices] of [[scenario({ ...serving, policy: "chunked" }), 2], [scenario(serving), 0], ["[1]", 2]]) {
    const once = module.planServing(text, devices);
    const plan = new module.ServingPlan();
    try {
      const started = plan.start(text, devices);
      assert.equal(started.ok, false);
      assert.deepEqual([started.code, started.path, started.error], [once.code, once.path, once.error]);
      const step = plan.advance(1000);
      assert.equal(step.ok, false);
      assert.equal(step.code, codes.usage);
      assert.equal(plan.result().ok, false);
    } finally {
      plan.delete();
    }
  }
});
